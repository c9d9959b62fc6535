"""An honest clock: the server stores the time played that the page reports, never more than its own count of the
time between changes (each gap capped at IDLE_CAP), never less than before; fastest and slowest wins use it.

The rule on its own (tableaux.web.clock), as properties; then through the API on SQLite and PostgreSQL, with the
server's clock held still by the test.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from helpers.store import HeldClock, hold_store_clock
from helpers.web import find_win, new_game, view_of
from tableaux.web.clock import IDLE_CAP, allowed_time, played_time

seconds = st.floats(min_value=0, max_value=1e7, allow_nan=False)
moment = st.floats(min_value=0, max_value=2e9, allow_nan=False)


@given(played=seconds, last=st.none() | moment, now=moment, reported=st.none() | seconds)
def test_the_time_stored_never_runs_backwards_nor_beyond_the_capped_wall_time(
    played: float, last: float | None, now: float, reported: float | None
) -> None:
    stored = played_time(played, last, now, reported)
    assert played <= stored <= allowed_time(played, last, now)
    gap = 0.0 if last is None else min(max(now - last, 0.0), IDLE_CAP)
    assert stored <= played + gap
    if reported is None:
        assert stored == played + gap  # a script that says nothing gets the server's count
    elif played <= reported <= played + gap:
        assert stored == reported  # an honest page's figure is kept as it is


@given(played=seconds, now=moment, reported=seconds)
def test_before_the_first_move_nothing_counts(played: float, now: float, reported: float) -> None:
    assert played_time(played, None, now, reported) == played


@pytest.fixture
def db(database: str) -> str:
    """Every test here runs once on SQLite and once on PostgreSQL."""
    return database


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> HeldClock:
    return hold_store_clock(monkeypatch, 1_000_000.0)


def move(client: TestClient, view: dict[str, Any], played: float | None = None, text: str | None = None) -> Any:
    body: dict[str, Any] = {"move": text or view["legal_moves"][0]["text"], "version": view["version"]}
    if played is not None:
        body["played"] = played
    return client.post(f"/api/games/{view['id']}/moves", json=body)


def test_the_page_reports_the_time_played_and_the_server_keeps_it_within_the_time_between_moves(
    client: TestClient, clock: HeldClock
) -> None:
    view = new_game(client, "king-albert", 8)
    clock.now += 300  # looked at the deal for five minutes: the clock starts at the first move
    view = move(client, view, played=0).json()
    assert view["elapsed_seconds"] == 0
    clock.now += 40  # 40 s of wall time, of which the page counted 25 (the tab was hidden for 15)
    view = move(client, view, played=25).json()
    assert view["elapsed_seconds"] == 25
    clock.now += 10  # a page claiming more than the wall time gets the wall time
    view = move(client, view, played=500).json()
    assert view["elapsed_seconds"] == 35
    clock.now += 10  # and a clock run backwards keeps what was stored
    view = move(client, view, played=3).json()
    assert view["elapsed_seconds"] == 35
    clock.now += 5 * IDLE_CAP  # a script that says nothing: the gap counts, capped
    view = move(client, view).json()
    assert view["elapsed_seconds"] == 35 + IDLE_CAP
    clock.now += 100  # between changes the view keeps the time of the last one; the page counts on from there
    assert view_of(client, view)["elapsed_seconds"] == 35 + IDLE_CAP


@pytest.mark.parametrize("action", ["undo", "redo", "restart", "give-up"])
def test_every_change_takes_the_time_the_page_reports(client: TestClient, clock: HeldClock, action: str) -> None:
    view = new_game(client, "king-albert", 8)
    view = move(client, view, played=0).json()
    if action == "redo":
        view = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}).json()
    clock.now += 30
    r = client.post(f"/api/games/{view['id']}/{action}", json={"version": view["version"], "played": 12.5})
    assert r.status_code == 200, r.text
    assert r.json()["elapsed_seconds"] == 12.5


@pytest.mark.parametrize("played", [-1, "12", True, None, 1e12, [3]])
def test_a_time_played_that_is_no_time_is_refused_and_changes_nothing(
    client: TestClient, played: Any
) -> None:
    view = new_game(client, "king-albert", 8)
    body = {"move": view["legal_moves"][0]["text"], "version": view["version"], "played": played}
    r = client.post(f"/api/games/{view['id']}/moves", json=body)
    if played is None:  # null is the same as no figure at all
        assert r.status_code == 200
        return
    assert r.status_code == 422
    assert "played must be a number of seconds from 0 to" in r.json()["error"]
    assert view_of(client, view)["version"] == view["version"]


def test_fastest_and_slowest_wins_use_the_time_played(client: TestClient, clock: HeldClock) -> None:
    line = find_win("king-albert", 17)
    assert line is not None
    times = []
    for counted in (50.0, 20.0):  # two wins of the same deal, each with 100 s of wall time per move
        view = new_game(client, "king-albert", 17)
        for i, text in enumerate(line):
            clock.now += 100
            view = move(client, view, played=counted * i / (len(line) - 1), text=text).json()
        assert view["won"]
        times.append(view["elapsed_seconds"])
    assert times == [50.0, 20.0]
    stats = client.get("/api/stats").json()["king-albert"]
    assert stats["best_time"] == 20.0 and stats["worst_time"] == 50.0


def test_a_solution_shown_takes_the_time_the_page_reports_not_the_idle_time(
    client: TestClient, clock: HeldClock
) -> None:
    view = new_game(client, "king-albert", 1)
    view = move(client, view, played=0).json()
    clock.now += 300  # five minutes of wall time, of which the page counted one (the player was away)
    r = client.post(f"/api/games/{view['id']}/solution", json={"version": view["version"], "played": 60})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["verdict"] == "winnable" and answer["view"]["assisted"]
    assert answer["view"]["elapsed_seconds"] == 60
