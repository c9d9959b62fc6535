"""The browser game's HTTP API across server processes: a restarted server, or another process on the same
database, answers from the stored game, exactly (a one-card move stays one card, a write lost to another
process is a 409, a process's cache never answers an old version).

Each test runs on each store (SQLite and PostgreSQL), through FastAPI's TestClient; positions are checked
against the engine directly (a Game replaying the same moves).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import tableaux
from helpers.web import engine_game, new_game, play, view_of, without_clock
from tableaux import GAMES, Move
from tableaux.advice.hints import heuristic_moves
from tableaux.web.app import COOKIE

MakeApp = Callable[..., FastAPI]


@pytest.fixture
def db(database: str) -> str:
    """Every test here runs once on SQLite and once on PostgreSQL."""
    return database


def test_a_restarted_server_resumes_the_game(make_app: MakeApp) -> None:
    first = TestClient(make_app())
    view = new_game(first, "eagle-wing", 23)
    texts = []
    for _ in range(6):
        move = view["legal_moves"][0]
        texts.append(move["text"])
        view = play(first, view, move)
    undone = first.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}).json()
    cookie = first.cookies[COOKIE]
    del first  # the "server" goes away; only the database file remains

    second = TestClient(make_app(), cookies={COOKIE: cookie})
    resumed = second.get("/api/current")
    assert resumed.status_code == 200
    resumed_view = resumed.json()
    assert without_clock(resumed_view) == without_clock(undone)
    assert resumed_view["position"]["piles"] == engine_game(undone, texts[:5]).public_position()["piles"]
    # The redo list survived too, and play goes on.
    redone = second.post(f"/api/games/{view['id']}/redo", json={"version": resumed_view["version"]})
    assert redone.status_code == 200
    assert redone.json()["position"] == engine_game(undone, texts).public_position()


def ambiguous_line() -> tuple[int, list[Move]] | None:
    """A King Albert line ending in a one-card move whose piles would also allow a longer move."""
    rules = GAMES["king-albert"]
    for deal in range(1, 300):
        game = tableaux.new_game("king-albert", deal)
        line: list[Move] = []
        for _ in range(100):
            legal = game.legal_moves()
            for m in legal:
                if m.count == 1 and sum((o.source, o.target) == (m.source, m.target) for o in legal) > 1:
                    return deal, [*line, m]
            nxt = heuristic_moves(rules, game.state, rules.to_raw(line[-1]) if line else None)
            if not nxt:
                break
            line.append(game.play(rules.to_move(nxt[0])))
    return None


def test_one_card_move_that_could_be_longer_replays_exactly(make_app: MakeApp) -> None:
    """'T1>T5' stored for a one-card move must not be re-read as an ambiguous move after a restart."""
    found = ambiguous_line()
    assert found is not None, "no King Albert position with a choice of counts between two piles"
    deal, line = found
    client = TestClient(make_app())
    view = new_game(client, "king-albert", deal)
    for move in line:
        view = play(client, view, move.to_dict())
    assert view["position"] == engine_game(view, [str(m) if m.count > 1 else f"{m.source}>{m.target}"
                                                  for m in line]).public_position()
    again = TestClient(make_app(), cookies={COOKIE: client.cookies[COOKIE]}).get(f"/api/games/{view['id']}")
    assert again.status_code == 200, again.text
    assert without_clock(again.json()) == without_clock(view)


def test_a_write_lost_to_another_server_process_is_a_409(
    client: TestClient, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between reading a game and storing the move, another process may store one first: 409, nothing kept."""
    view = new_game(client, "eagle-wing", 12)
    other = TestClient(make_app(), cookies=client.cookies)  # another server process on the same database
    store = client.app.state.store  # type: ignore[attr-defined]
    real_save = store.save_change

    def other_process_wins(*args, **kwargs):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(store, "save_change", real_save)
        play(other, view, view["legal_moves"][0])  # the other process's move
        return real_save(*args, **kwargs)  # ours, against the old version: refused

    monkeypatch.setattr(store, "save_change", other_process_wins)
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": view["legal_moves"][-1], "version": 0})
    assert r.status_code == 409 and "changed elsewhere" in r.json()["error"]
    current = view_of(client, view)
    assert current["version"] == 1 and current["moves"] == 1
    assert without_clock(r.json()["view"]) == without_clock(current)
    mirror = tableaux.new_game("eagle-wing", 12)
    mirror.play(Move.from_str(view["legal_moves"][0]["text"]))
    assert current["position"] == mirror.public_position()


@pytest.mark.parametrize("seed", range(3))
def test_each_process_answers_from_the_stored_game_whatever_it_cached(
    client: TestClient, make_app: MakeApp, seed: int
) -> None:
    """Two server processes on one database, each with its own cache of rebuilt games: every view either one
    answers is the stored game (version, moves, position), however the other changed it meanwhile (moves,
    undo, redo, restart). A cache that ignored the stored version would answer the game as it last saw it."""
    import random

    rng = random.Random(seed)
    view = new_game(client, ("king-albert", "eagle-wing")[seed % 2], 40 + seed)
    other = TestClient(make_app(hint_time_limit=0.05), cookies=client.cookies)  # another process, same player
    mirror = tableaux.new_game(view["game"], view["deal"])
    view_of(other, view)  # both processes have the game cached now
    for step in range(40):
        proc = (client, other)[rng.randrange(2)]
        seen = view_of(proc, view)
        assert (seen["version"], seen["moves"]) == (step, len(mirror.moves_played)), step
        assert seen["position"] == mirror.public_position(), step
        actions = ["move"] * 4 + ["undo"] * bool(mirror.moves_played) + ["redo"] * bool(mirror.redo_moves)
        action = rng.choice(actions + ["restart"] * (step % 13 == 12 and bool(mirror.moves_played)))
        if action == "move":
            if not seen["legal_moves"]:
                action = "undo"
            else:
                move = rng.choice(seen["legal_moves"])
                play(proc, seen, move)
                mirror.play(Move.from_str(move["text"]))
                continue
        r = proc.post(f"/api/games/{view['id']}/{action}", json={"version": seen["version"]})
        assert r.status_code == 200, r.text
        getattr(mirror, action)()
