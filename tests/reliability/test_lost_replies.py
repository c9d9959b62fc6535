"""The truth about a change whose answer was lost between PostgreSQL's commit and the server.

A small proxy sits between the server and PostgreSQL (tests/helpers/tcp_proxy.py) and throws away the
database's reply to the statement that commits a change (a move is one statement, its own transaction; a new
game ends with COMMIT), as a failed network would after the commit: the change is stored and the server cannot
know it. Each change carries a request id stored in its own transaction, so:

- when the database still answers, the server asks it at once, finds the change stored, and answers with it;
- when it does not, the answer is 503 saying the outcome is unknown; the same request sent again with the same
  Idempotency-Key, once the database is back, is answered with what the first one stored; never applied twice.

SQLite has no network between the server and the file: a commit there is done or not, so this is PostgreSQL's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.store import check_integrity, query
from helpers.tcp_proxy import Proxy
from helpers.web import new_game
from tableaux.web.app import create_app

MOVE_WRITE = b"UPDATE games SET version"
"""What the statement that stores a move begins with."""
GAME_READ = b"FROM games WHERE id ="
"""Part of the statement that reads one game, to answer with it."""
BOUND = 60.0
"""Seconds a wait for the database's return may take before it counts as a failure (it paces nothing)."""


@pytest.fixture
def behind_proxy(postgres_cluster: Any) -> Iterator[tuple[TestClient, Proxy, str]]:
    """A server whose connections to PostgreSQL pass the proxy; the database's direct URL, to check it."""
    direct = postgres_cluster.new_database()
    proxy = Proxy(("127.0.0.1", postgres_cluster.port))
    app = create_app(direct.replace(f":{postgres_cluster.port}/", f":{proxy.port}/"))
    yield TestClient(app), proxy, direct
    app.state.store.close()
    proxy.close()
    postgres_cluster.drop_database(direct)


def stored(direct: str, game_id: str) -> tuple[int, int]:
    """The game's version and moves played, as PostgreSQL has them."""
    [(version, played)] = query(direct, "SELECT version, move_count FROM games WHERE id = ?", (game_id,))
    return version, played


def until_answered(send: Any) -> Any:
    """Send again (the same request) until the answer is not a 503: the database is back."""
    deadline = time.monotonic() + BOUND
    while True:
        r = send()
        if r.status_code != 503:
            return r
        assert time.monotonic() < deadline, f"still 503 after {BOUND} s: {r.text}"
        time.sleep(0.1)


def first_move_out_of_reach(
    client: TestClient, proxy: Proxy, key: str, *lost: bytes,
) -> tuple[dict[str, Any], dict[str, Any], dict[str, str], Any]:
    """A new game and its first move, sent with the request id ``key`` while the proxy loses the replies to the
    statements ``lost`` in turn and then refuses the database: the game's view, the move's body and headers, and
    the answer."""
    view = new_game(client, "king-albert", 1)
    body = {"move": view["legal_moves"][0], "version": 0}
    headers = {"Idempotency-Key": key}
    proxy.lose_reply_to(*lost, then_refuse=True)
    return view, body, headers, client.post(f"/api/games/{view['id']}/moves", json=body, headers=headers)


@pytest.mark.parametrize("key", ["move-1", None], ids=["with a request id", "without one"])
def test_a_move_whose_commit_reply_is_lost_is_found_stored_and_answered_as_stored(
    behind_proxy: tuple[TestClient, Proxy, str], key: str | None,
) -> None:
    client, proxy, direct = behind_proxy
    view = new_game(client, "king-albert", 1)
    body = {"move": view["legal_moves"][0], "version": 0}
    headers = {"Idempotency-Key": key} if key else {}
    proxy.lose_reply_to(MOVE_WRITE)
    r = client.post(f"/api/games/{view['id']}/moves", json=body, headers=headers)
    assert proxy.lost == 1
    assert r.status_code == 200, r.text  # the server asked the database, by the change's id: it was stored
    assert r.json()["version"] == 1 and r.json()["moves"] == 1
    assert stored(direct, view["id"]) == (1, 1)
    if key:  # sent again: the same answer, nothing more
        again = client.post(f"/api/games/{view['id']}/moves", json=body, headers=headers)
        assert again.status_code == 200 and again.json()["version"] == 1
    else:  # a script without an id sending it again meets the version that moved on
        assert client.post(f"/api/games/{view['id']}/moves", json=body).status_code == 409
    assert stored(direct, view["id"]) == (1, 1)
    check_integrity(direct)


def test_a_move_whose_outcome_cannot_be_known_says_so_and_the_same_request_settles_it(
    behind_proxy: tuple[TestClient, Proxy, str],
) -> None:
    client, proxy, direct = behind_proxy
    view, body, headers, r = first_move_out_of_reach(client, proxy, "move-unknown", MOVE_WRITE)
    assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
    answer = r.json()
    assert answer["outcome"] == "unknown" and answer["cause"] == "database"
    assert "may or may not have been stored" in answer["error"] and "earlier moves are safe" in answer["error"]
    assert stored(direct, view["id"]) == (1, 1)  # it was: the database committed it
    proxy.admit()
    again = until_answered(lambda: client.post(f"/api/games/{view['id']}/moves", json=body, headers=headers))
    assert again.status_code == 200 and again.json()["version"] == 1, again.text
    assert stored(direct, view["id"]) == (1, 1)  # answered with what was stored, not played twice
    reused = client.post(f"/api/games/{view['id']}/moves", json={**body, "version": 1}, headers=headers)
    assert reused.status_code == 422 and "already used for a different request" in reused.json()["error"]
    check_integrity(direct)


def test_a_move_found_stored_whose_game_cannot_then_be_read_is_never_answered_as_unchanged(
    behind_proxy: tuple[TestClient, Proxy, str],
) -> None:
    client, proxy, direct = behind_proxy
    # The move's reply is lost; the server finds its request id stored; then the read of the game to answer
    # with is lost too, and the database goes out of reach.
    view, body, headers, r = first_move_out_of_reach(client, proxy, "move-found", MOVE_WRITE, GAME_READ)
    assert proxy.lost == 2
    assert r.status_code == 503 and r.json()["outcome"] == "unknown", r.text  # the move was stored: not "unchanged"
    assert stored(direct, view["id"]) == (1, 1)
    proxy.admit()
    again = until_answered(lambda: client.post(f"/api/games/{view['id']}/moves", json=body, headers=headers))
    assert again.status_code == 200 and again.json()["version"] == 1, again.text
    assert stored(direct, view["id"]) == (1, 1)
    check_integrity(direct)


def test_a_new_game_whose_commit_reply_is_lost_is_made_once(behind_proxy: tuple[TestClient, Proxy, str]) -> None:
    client, proxy, direct = behind_proxy
    new_game(client, "eagle-wing", 2)  # the player's row exists: the next game is the one in question
    headers = {"Idempotency-Key": "new-game-1"}
    proxy.lose_reply_to(b"COMMIT", then_refuse=True)
    r = client.post("/api/games", json={"game": "king-albert", "deal": 5}, headers=headers)
    assert r.status_code == 503 and r.json()["outcome"] == "unknown", r.text
    proxy.admit()
    again = until_answered(lambda: client.post("/api/games", json={"game": "king-albert", "deal": 5}, headers=headers))
    assert again.status_code == 201 and again.json()["deal"] == 5, again.text
    assert query(direct, "SELECT id FROM games WHERE deal = 5") == [(again.json()["id"],)]  # one game, not two
