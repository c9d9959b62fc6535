"""The end of a game in the web API, on SQLite and PostgreSQL: Finish for me is offered exactly when no choice is
left (every card on view, safe moves alone win) and reveals nothing; playing it wins an unassisted game; a hint
that peeks marks the game assisted, as a solution shown does, and a fair one does not.

Expected answers come from the engine and the solver's safe moves, never from numbers typed in here.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.browser import hidden_card_problems
from tableaux.solver.strategy import safe_moves

# A winnable deal of each game, and the solver's line for it.
DEALS = {"king-albert": 17, "eagle-wing": 17, "king-albert-classic": 2595}


@pytest.fixture
def client(pooled_client: TestClient) -> TestClient:
    """On SQLite and PostgreSQL, with a solver pool of its own (tests/conftest.py)."""
    return pooled_client


def answer(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.text
    body = r.json()
    problems = hidden_card_problems(str(r.url), body)
    assert not problems, problems
    return body


def move(client: TestClient, view: dict[str, Any], text: str) -> dict[str, Any]:
    return answer(client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}))


def hidden(view: dict[str, Any]) -> bool:
    return any(entry["card"] is None for pile in view["position"]["piles"].values() for entry in pile)


@pytest.mark.parametrize("name", list(DEALS))
def test_finish_is_offered_once_every_card_shows_and_safe_moves_alone_win(client: TestClient, name: str) -> None:
    deal = DEALS[name]
    line = [str(m) for m in tableaux.solve(name, deal).moves]
    view = answer(client.post("/api/games", json={"game": name, "deal": deal}), 201)
    mirror = tableaux.new_game(name, deal)
    offered_at = None
    for text in line:
        if view["finish"]:
            offered_at = len(mirror.moves_played) if offered_at is None else offered_at
            assert not hidden(view), "Finish is offered only when every card is on view"
            trial = tableaux.Game.replay(mirror.rules, deal, mirror.moves_played)
            for step in view["finish"]:  # each move proven safe where it is played, and together they win
                raw = trial.rules.to_raw(tableaux.Move(step["source"], step["count"], step["target"]))
                assert raw in safe_moves(trial.rules, trial.state)
                trial.play(tableaux.Move(step["source"], step["count"], step["target"]))
            assert trial.is_won()
        else:
            rules, state = mirror.rules, mirror.state
            chain_wins = not hidden(view)
            while chain_wins and not rules.won(state):  # no finish: then the safe moves alone do not win
                safe = safe_moves(rules, state)
                chain_wins = bool(safe)
                if safe:
                    state = rules.apply(state, safe[0])
            assert not chain_wins, f"no Finish offered after {len(mirror.moves_played)} moves, yet safe moves win"
        view = move(client, view, text)
        mirror.play(tableaux.Move.from_str(text))
    assert view["won"] and view["finish"] == []
    assert offered_at is not None and offered_at < len(line), "the end of a winning line is a finish"


def test_playing_the_finish_wins_a_game_that_counts_unassisted(client: TestClient) -> None:
    name, deal = "king-albert", DEALS["king-albert"]
    line = [str(m) for m in tableaux.solve(name, deal).moves]
    view = answer(client.post("/api/games", json={"game": name, "deal": deal}), 201)
    for text in line:
        if view["finish"]:
            break
        view = move(client, view, text)
    for step in view["finish"]:
        view = answer(client.post(f"/api/games/{view['id']}/moves", json={"move": step, "version": view["version"]}))
    assert view["won"] and not view["assisted"]
    stats = client.get("/api/stats").json()[name]
    assert stats["won"] == 1 and stats["assisted"] == 0


def test_a_peeking_hint_where_every_card_is_face_up_leaves_the_game_unassisted(client: TestClient) -> None:
    """Classic King Albert hides no card: the solver's hint uses nothing the player cannot see, so it neither
    says that it peeks nor keeps the win from counting as unassisted (the daily race ranks such wins)."""
    view = answer(client.post("/api/games", json={"game": "king-albert-classic", "deal": 1}), 201)
    peek = answer(client.post(f"/api/games/{view['id']}/hint", json={"mode": "peek", "played": 0}))
    assert peek["hint"]["source"] == "solver" and peek["hint"]["peeks"] is False
    assert "Peeking" not in peek["hint"]["message"]
    assert peek["view"]["assisted"] is False and peek["view"]["version"] == view["version"]
    assert answer(client.get(f"/api/games/{view['id']}"))["assisted"] is False


def test_a_peeking_hint_marks_the_game_assisted_and_a_fair_one_does_not(client: TestClient) -> None:
    view = answer(client.post("/api/games", json={"game": "king-albert", "deal": 17}), 201)
    view = move(client, view, view["legal_moves"][0]["text"])
    fair = answer(client.post(f"/api/games/{view['id']}/hint", json={"mode": "fair"}))
    assert fair["hint"]["peeks"] is False and fair["view"]["assisted"] is False
    assert fair["view"]["version"] == view["version"]  # asking for a fair hint changes nothing
    peek = answer(client.post(f"/api/games/{view['id']}/hint", json={"mode": "peek", "played": 0}))
    assert peek["hint"]["peeks"] is True
    assert peek["view"]["assisted"] is True and peek["view"]["version"] == view["version"] + 1
    assert peek["view"]["position"] == view["position"]  # marked, not moved
    assert answer(client.get(f"/api/games/{view['id']}"))["assisted"] is True
    again = answer(client.post(f"/api/games/{view['id']}/hint", json={"mode": "peek"}))
    assert again["view"]["version"] == peek["view"]["version"]  # marked once
    answer(client.post("/api/games", json={"game": "king-albert", "deal": 18}), 201)  # the game is left
    stats = client.get("/api/stats").json()["king-albert"]
    assert stats["assisted"] == 1 and stats["played"] == 0  # counted apart, as a solution shown is
