"""SQLite under several writers: a short lock is waited out, not answered 503, and one that outlasts the wait is
a short failure in the log, counted at most once a minute, not an outage logged twice each time."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tableaux.web import sqlite_engine
from tableaux.web.store import Store, StoreUnavailable

THREADS = 20
WRITES = 150


def _writer(path: str, start: Any, results: Any) -> None:
    """One server process's worth of writers: ``THREADS`` threads, each writing new games as fast as it can."""
    store = Store(path)
    counts: Counter[str] = Counter()

    def write() -> None:
        _token, player = store.new_player()
        start.wait()
        for _write in range(WRITES):
            try:
                store.create_game(player, "king-albert", 1)
                counts["stored"] += 1
            except StoreUnavailable as exc:
                counts[exc.reason] += 1

    threads = [threading.Thread(target=write) for _thread in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    results.put(dict(counts))


@pytest.mark.slow
def test_two_processes_writing_at_once_from_many_threads_each_are_all_stored(tmp_path: Path) -> None:
    path = str(tmp_path / "games.sqlite3")
    Store(path).close()
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    processes = [context.Process(target=_writer, args=(path, start, results)) for _process in range(2)]
    for process in processes:
        process.start()
    start.set()
    counts = [results.get(timeout=300) for _process in processes]
    for process in processes:
        process.join(timeout=60)
    assert counts == [{"stored": THREADS * WRITES}] * 2


def hold_the_file(path: Path) -> sqlite3.Connection:
    """Another connection holding the file's write lock until it commits."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_a_write_waits_out_another_connection_s_lock(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    _token, player = store.new_player()
    holder = hold_the_file(path)
    outcome: list[object] = []
    writing = threading.Thread(target=lambda: outcome.append(_attempt(store.create_game, player, "king-albert", 1)))
    writing.start()
    writing.join(timeout=0.5)
    assert writing.is_alive() and outcome == []  # waiting for the lock, not failed
    holder.execute("COMMIT")
    writing.join(timeout=60)
    assert len(outcome) == 1 and not isinstance(outcome[0], Exception)
    store.close()


def _attempt(action: Callable[..., Any], *args: Any) -> object:
    try:
        return action(*args)
    except Exception as exc:  # the test reports it
        return exc


def test_a_lock_that_outlasts_the_wait_is_a_short_failure_counted_in_the_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_engine, "BUSY_TIMEOUT", 0.05)
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    _token, player = store.new_player()
    scheduled: list[Callable[[], None]] = []
    store.health._blips.later = lambda _seconds, action: scheduled.append(action)
    holder = hold_the_file(path)
    with caplog.at_level("WARNING", logger="tableaux.web"):
        failures = [_attempt(store.create_game, player, "king-albert", deal) for deal in range(3)]
        assert all(isinstance(failure, StoreUnavailable) for failure in failures)
        assert not store.health.down  # reads and other writes are not refused for it
        holder.execute("COMMIT")
        store.create_game(player, "king-albert", 4)
        [minute_over] = scheduled
        minute_over()
    name = str(path)
    assert [r.getMessage() for r in caplog.records] == [
        f"The saved games database {name} failed 1 request and answered again at once (database is locked).",
        f"The saved games database {name} failed 2 requests, each time answering again at once, since the last "
        "such line (the last: database is locked)."]
    store.close()
