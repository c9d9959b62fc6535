"""Games of any length cost the same: a game of 20,000 moves is taken up from its row, a move writes one move.

The game is King Albert deal 1 with its Ace of hearts sent home and then moved between two empty foundations
20,000 times (F1>F2, F2>F1, ...), what a greedy client once did to make every request replay its whole game.
Each request here is served as another server process would serve it, with nothing of the game in memory
(the process's cache is emptied first), on SQLite and on PostgreSQL. What it costs is counted, not timed:
the rules applied and the rows of the line read, so the bounds hold on any machine. Undo and redo stay exact:
every answer is the position a full replay of the same history gives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.store import check_lines, query, store_line
from tableaux.rulebook.king_albert import KingAlbert
from tableaux.web.history import KEEP_EVERY

LENGTH = 20_000
pytestmark = pytest.mark.slow  # a 20,000-move game is written, and replayed whole to check it


class Costs:
    """The rules applied and the line's rows read since the last :meth:`reset`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
        self.applied = self.rows = 0
        apply, line = KingAlbert.apply, store.line

        def counted_apply(rules: Any, state: Any, move: Any) -> Any:
            self.applied += 1
            return apply(rules, state, move)

        def counted_line(game_id: str, start: int, stop: int) -> list[str]:
            found = line(game_id, start, stop)
            self.rows += len(found)
            return found

        monkeypatch.setattr(KingAlbert, "apply", counted_apply)
        monkeypatch.setattr(store, "line", counted_line)

    def reset(self) -> None:
        self.applied = self.rows = 0


@pytest.fixture
def long_game(make_app: Callable[..., Any], database: str) -> Iterator[tuple[TestClient, dict[str, Any], str]]:
    """A player with a game of :data:`LENGTH` moves, stored as the web store keeps one."""
    app = make_app(hint_time_limit=0.05)
    client = TestClient(app)
    client.post("/api/games", json={"game": "eagle-wing", "deal": 1})  # the player, with a cookie
    store = app.state.store
    player = store.player_for(client.cookies["tableaux_player"])
    moves = ["R5>F1"] + ["F1>F2" if i % 2 == 0 else "F2>F1" for i in range(LENGTH - 1)]
    record = store_line(store, player, "king-albert", 1, moves)
    yield client, client.get(f"/api/games/{record.id}").json(), database


@pytest.fixture
def db(database: str) -> str:
    """The app's database is the test's, once in each store."""
    return database


def test_a_20000_move_game_is_taken_up_and_changed_at_the_cost_of_a_short_one(
    long_game: tuple[TestClient, dict[str, Any], str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    client, view, database = long_game
    assert view["moves"] == LENGTH
    games = client.app.state.games  # type: ignore[attr-defined]
    costs = Costs(monkeypatch, client.app.state.store)  # type: ignore[attr-defined]
    mirror = tableaux.new_game("king-albert", 1)
    for text in ["R5>F1"] + ["F1>F2" if i % 2 == 0 else "F2>F1" for i in range(LENGTH - 1)]:
        mirror.play(text)

    def send(path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        nonlocal view
        games._cache.clear()  # as another server process: nothing of the game in memory
        costs.reset()
        r = client.post(f"/api/games/{view['id']}/{path}", json=body) if body is not None else \
            client.get(f"/api/games/{view['id']}")
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["position"] == mirror.public_position()  # exact: the position a full replay gives
        return {"applied": costs.applied, "rows": costs.rows}

    assert send("") == {"applied": 0, "rows": 0}  # the game's row alone
    mirror.play("R6>F2")  # the Ace of hearts ended on foundation 2: the Two follows it
    assert send("moves", {"move": "R6>F2", "version": view["version"]}) == {"applied": 1, "rows": 0}
    mirror.undo()
    cost = send("undo", {"version": view["version"]})  # back to ply 20,000: a kept position, and the move undone
    assert cost == {"applied": 0, "rows": 1}
    mirror.undo()
    cost = send("undo", {"version": view["version"]})  # before the kept position: replayed from the last hundredth
    assert 0 < cost["applied"] < KEEP_EVERY and cost["rows"] <= KEEP_EVERY
    mirror.redo()
    assert send("redo", {"version": view["version"]}) == {"applied": 1, "rows": 1}
    mirror.restart()
    assert send("restart", {"version": view["version"]})["rows"] == 0
    mirror.redo()
    assert send("redo", {"version": view["version"]}) == {"applied": 1, "rows": 1}
    move = next(m for m in mirror.legal_moves() if str(m) != str(mirror.redo_moves[0]))
    mirror.play(move)  # off the redo line: the line is cut there, 20,000 moves go
    cost = send("moves", {"move": str(move), "version": view["version"]})
    assert cost["applied"] == 1 and cost["rows"] <= 1
    stored = query(database, "SELECT COUNT(*) FROM game_moves WHERE game_id = ?", (view["id"],))
    assert stored == [(2,)]  # the line as it is now: one move played again, and the new one
    assert query(database, "SELECT COUNT(*) FROM game_positions WHERE game_id = ?", (view["id"],)) == [(0,)]
    check_lines(database)


def test_a_move_writes_one_row_of_the_line_whatever_the_game_s_length(
    long_game: tuple[TestClient, dict[str, Any], str],
) -> None:
    client, view, database = long_game
    before = query(database, "SELECT COUNT(*) FROM game_moves WHERE game_id = ?", (view["id"],))[0][0]
    for text in ("F2>F1", "F1>F2", "F2>F1"):
        r = client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    after = query(database, "SELECT COUNT(*) FROM game_moves WHERE game_id = ?", (view["id"],))[0][0]
    assert after == before + 3 == LENGTH + 3
    kept = [ply for (ply,) in query(database, "SELECT ply FROM game_positions WHERE game_id = ? ORDER BY ply",
                                   (view["id"],))]
    assert kept == list(range(KEEP_EVERY, LENGTH + 3, KEEP_EVERY))
