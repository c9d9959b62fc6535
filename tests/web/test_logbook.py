"""The log's repeated lines: the first at once, then at most one a minute per kind, and no count held back for
good: a held-back count reaches the log when its minute is over, or when the server process stops."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.logbook import held_refusals
from tableaux.web.app import create_app
from tableaux.web.limits import Limits
from tableaux.web.logbook import Throttle, in_a_thread, report_pending


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records]


def held_throttle() -> tuple[list[float], list[tuple[float, Callable[[], None]]], Throttle]:
    """A throttle on a clock the test moves (``now[0]``), whose timers wait in ``scheduled`` until the test runs
    them."""
    now = [0.0]
    scheduled: list[tuple[float, Callable[[], None]]] = []
    throttle = Throttle(clock=lambda: now[0], later=lambda seconds, action: scheduled.append((seconds, action)))
    return now, scheduled, throttle


def test_a_burst_is_counted_in_a_line_written_when_its_minute_is_over_without_another_event(
        caplog: pytest.LogCaptureFixture) -> None:
    now, scheduled, throttle = held_throttle()
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for event in range(150):
            now[0] = event / 15  # 150 refusals in ten seconds
            throttle.note("new games", lambda count: f"{count} refused")
        assert lines(caplog) == ["1 refused"]
        assert [seconds for seconds, _action in scheduled] == [pytest.approx(60 - 1 / 15)]  # one timer, not 149
        now[0] = 60.0
        scheduled[0][1]()
    assert lines(caplog) == ["1 refused", "149 refused"]


def test_a_line_written_by_the_next_event_leaves_its_timer_nothing_to_write(caplog: pytest.LogCaptureFixture) -> None:
    now, scheduled, throttle = held_throttle()
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for moment in (0.0, 5.0, 61.0):
            now[0] = moment
            throttle.note("solver", lambda count: f"{count} without the solver")
        scheduled[0][1]()
    assert lines(caplog) == ["1 without the solver", "2 without the solver"]


def test_held_back_counts_are_written_when_the_process_stops(caplog: pytest.LogCaptureFixture) -> None:
    now, scheduled, throttle = held_throttle()
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for _event in range(3):
            throttle.note("connections", lambda count: f"{count} closed")
        report_pending()
        assert closed(caplog) == ["1 closed", "2 closed"]
        scheduled[0][1]()  # the timer the stop came before
        report_pending()
    assert closed(caplog) == ["1 closed", "2 closed"]


def closed(caplog: pytest.LogCaptureFixture) -> list[str]:
    """This test's lines (the process's other throttles, other tests' ones, report what they held too)."""
    return [line for line in lines(caplog) if line.endswith(" closed")]


def test_the_timer_is_a_real_one_in_a_server(caplog: pytest.LogCaptureFixture) -> None:
    throttle = Throttle(every=0.05, later=in_a_thread)
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for _event in range(3):
            throttle.note("short", lambda count: f"{count} failed")
        deadline = time.monotonic() + 60
        while len(caplog.records) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert lines(caplog) == ["1 failed", "2 failed"]


def test_the_app_s_refusals_reach_the_log_counted_and_worded_for_one_and_many_when_it_stops(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """150 new games refused in a burst: the host reads of the first at once and of the other 149 when the
    server stops, even though no refusal came after them."""
    held_refusals(monkeypatch)
    app = create_app(tmp_path / "games.sqlite3", limits=Limits(games_per_player=1000, games_per_address=1))
    answers: list[Any] = []
    with caplog.at_level("WARNING", logger="tableaux.web"):
        with TestClient(app) as client:
            for deal in range(151):
                answers.append(client.post("/api/games", json={"game": "king-albert", "deal": deal}).status_code)
            assert [line for line in lines(caplog) if "refused" in line] == [
                "1 new game refused, over a player's or an address's limit a minute, since the last such line. Most "
                "came from testclient (1)."]
    assert answers.count(429) == 150
    assert [line for line in lines(caplog) if "refused" in line] == [
        "1 new game refused, over a player's or an address's limit a minute, since the last such line. Most came "
        "from testclient (1).",
        "149 new games refused, over a player's or an address's limit a minute, since the last such line. Most came "
        "from testclient (149)."]


def test_a_line_names_the_address_most_of_its_refusals_came_from_since_the_line_before(
        caplog: pytest.LogCaptureFixture) -> None:
    """The client to look at: a refusal line that keeps coming back said how many, never whose."""
    now, scheduled, throttle = held_throttle()
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for event, source in enumerate(["192.0.2.7"] + ["198.51.100.9"] * 3 + ["192.0.2.7"] * 2 + [None]):
            now[0] = event
            throttle.note("address share", lambda count: f"{count} refused.", source=source)
        scheduled[0][1]()
        throttle.note("connections", lambda count: f"{count} closed.")
    assert lines(caplog) == ["1 refused. Most came from 192.0.2.7 (1).",
                             "6 refused. Most came from 198.51.100.9 (3).",  # since the line before
                             "1 closed."]
