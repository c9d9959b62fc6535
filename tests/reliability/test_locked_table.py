"""PostgreSQL with the games table locked by another session (an operator's ``LOCK TABLE``, a stuck transaction):
a move is answered 503 within a few seconds, nothing changed, instead of waiting for as long as the lock is held;
the same request sent again once the lock is gone is played once; nothing acknowledged is lost."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.store import query
from tableaux.web.app import create_app

BOUND = 30.0
"""Seconds a move may take to be answered while the table is locked: generous for a busy machine, far below the
time the lock is held (until the test lets it go)."""


@pytest.fixture
def url(postgres_cluster: Any) -> Iterator[str]:
    made = postgres_cluster.new_database()
    yield made
    postgres_cluster.drop_database(made)


def test_a_move_on_a_locked_table_is_answered_503_at_once_and_played_once_when_sent_again(
        url: str, caplog: pytest.LogCaptureFixture) -> None:
    import psycopg

    app = create_app(url)
    client = TestClient(app)
    view = client.post("/api/games", json={"game": "king-albert", "deal": 7}).json()
    moves = f"/api/games/{view['id']}/moves"
    acknowledged = client.post(moves, json={"move": view["legal_moves"][0], "version": 0}).json()
    second = {"move": acknowledged["legal_moves"][0], "version": 1}
    answers: list[Any] = []
    locker = psycopg.connect(url)
    try:
        locker.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
        with caplog.at_level("WARNING", logger="tableaux.web"):
            started = time.monotonic()
            sending = threading.Thread(target=lambda: answers.append(
                client.post(moves, json=second, headers={"Idempotency-Key": "second-move"})))
            sending.start()
            sending.join(timeout=BOUND)
            took = time.monotonic() - started
            assert not sending.is_alive(), "a move waited on the locked table for as long as it was held"
            health = client.get("/api/health")
    finally:
        locker.rollback()
        locker.close()
        sending.join()
    [refused] = answers
    assert took < BOUND
    assert refused.status_code == 503 and refused.headers["retry-after"] == "2"
    assert refused.json()["cause"] == "database" and refused.json()["outcome"] == "unchanged"
    assert health.status_code == 200  # the database answers: only what the lock holds waits
    assert not app.state.store.health.down
    assert [r.getMessage() for r in caplog.records if "failed 1 request" in r.getMessage()] == [
        f"The saved games database {url} failed 1 request and answered again at once (canceling statement due to "
        "lock timeout)."]
    again = client.post(moves, json=second, headers={"Idempotency-Key": "second-move"})
    assert again.status_code == 200 and again.json()["version"] == 2
    assert client.post(moves, json=second, headers={"Idempotency-Key": "second-move"}).json()["version"] == 2
    assert query(url, "SELECT version, move_count FROM games") == [(2, 2)]
    assert query(url, "SELECT COUNT(*) FROM game_moves") == [(2,)]
    app.state.store.close()
