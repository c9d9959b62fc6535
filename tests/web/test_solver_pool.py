"""The server's solver runs in worker processes: never in the server's own process, bounded, and cleaned up."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.logbook import held_refusals
from helpers.net import free_port
from helpers.server import server, wait_until_answering
from tableaux.web.app import create_app
from tableaux.web.pool import SolverPool


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(p) for p in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")


def test_a_pool_job_runs_in_another_process_at_a_lower_priority() -> None:
    pool = SolverPool(workers=1)
    try:
        place = pool.reserve()
        assert place is not None
        worker = asyncio.run(pool.run(place, os.getpid))
        assert worker != os.getpid()
        place = pool.reserve()
        assert place is not None
        assert asyncio.run(pool.run(place, os.nice, 0)) > os.nice(0)  # the server's answers come first
        assert pool.busy == 0
    finally:
        pool.shutdown()


def test_the_pool_takes_no_more_than_its_limit_and_frees_places_as_jobs_end() -> None:
    pool = SolverPool(workers=1, limit=2)
    try:
        first = pool.reserve()
        assert first is not None and pool.reserve() is not None
        assert pool.reserve() is None  # full: the caller answers without it
        pool.release(first)
        assert pool.reserve() is not None
    finally:
        pool.shutdown()
    assert pool.reserve() is None  # shut down: nothing more is taken


def test_one_client_holds_at_most_its_share_of_the_pool_and_the_rest_stays_free_for_others() -> None:
    for workers in range(1, 9):  # whatever its size, a pool holds a place for a second client
        sized = SolverPool(workers=workers)
        assert 1 <= sized.per_client < sized.limit
    pool = SolverPool(workers=2)  # five places, two for each client
    try:
        assert pool.limit == 5 and pool.per_client == 2
        greedy = [pool.reserve("203.0.113.7"), pool.reserve("203.0.113.7")]
        assert all(greedy)
        assert pool.reserve("203.0.113.7") is None  # its share is taken: the pool is not full
        others = [pool.reserve("198.51.100.1"), pool.reserve("198.51.100.1"), pool.reserve("198.51.100.2")]
        assert all(others)
        assert pool.reserve("198.51.100.3") is None  # now the pool is full
        pool.release(greedy[0])
        assert pool.reserve("203.0.113.7") is not None  # a place of its own freed: it may take one again
    finally:
        pool.shutdown()


def test_a_client_holding_its_share_gets_the_rule_of_thumb_and_a_503_while_another_address_gets_the_solver(
        tmp_path: Path) -> None:
    pool = SolverPool(workers=1, limit=2, per_client=1)
    app = create_app(tmp_path / "games.sqlite3", hint_time_limit=5.0, pool=pool)
    greedy_address = "203.0.113.7"
    with TestClient(app, client=(greedy_address, 5000)) as greedy:
        other = TestClient(app, client=("198.51.100.1", 5000))
        mine = greedy.post("/api/games", json={"game": "king-albert", "deal": 1}).json()
        theirs = other.post("/api/games", json={"game": "king-albert", "deal": 1}).json()
        held = pool.reserve(greedy_address)  # a search of its own, still running
        assert held is not None
        hint = greedy.post(f"/api/games/{mine['id']}/hint", json={"mode": "peek"}).json()["hint"]
        assert hint["source"] == "heuristic" and hint["move"] in mine["legal_moves"]
        busy = greedy.get(f"/api/games/{mine['id']}/chance")
        assert busy.status_code == 503 and busy.headers["Retry-After"]
        assert other.post(f"/api/games/{theirs['id']}/hint", json={"mode": "peek"}).json()["hint"]["source"] == "solver"
        assert other.get(f"/api/games/{theirs['id']}/chance").status_code == 200
        pool.release(held)
        hint = greedy.post(f"/api/games/{mine['id']}/hint", json={"mode": "peek"}).json()["hint"]
        assert hint["source"] == "solver"  # its own search over, it has its share again
        assert pool.busy == 0


def test_a_hint_comes_from_the_solver_in_a_worker(tmp_path: Path) -> None:
    """King Albert deal 1 is won by a line the solver finds at once: the hint says it comes from the solver."""
    pool = SolverPool(workers=1)
    with TestClient(create_app(tmp_path / "games.sqlite3", hint_time_limit=5.0, pool=pool)) as client:
        view = client.post("/api/games", json={"game": "king-albert", "deal": 1}).json()
        answer = client.post(f"/api/games/{view['id']}/hint", json={"mode": "peek"}).json()
        assert answer["hint"]["source"] == "solver" and "winning line" in answer["hint"]["message"]
        assert answer["hint"]["move"] in view["legal_moves"] and answer["view"]["id"] == view["id"]
        expected = tableaux.hint(tableaux.new_game("king-albert", 1), time_limit=5.0, mode="peek")
        assert answer["hint"] == expected.to_dict() and answer["hint"]["peeks"] is True
        workers = set(pool._executor._processes) if pool._executor else set()  # type: ignore[attr-defined]
        assert workers and os.getpid() not in workers
    # The app's lifespan ended: its workers are gone.
    deadline = time.monotonic() + 60
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in workers)


def test_a_full_pool_answers_at_once_with_the_rule_of_thumb_and_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    held_refusals(monkeypatch)  # whatever another test's refusals left
    pool = SolverPool(workers=1, limit=0)
    sent: list[Any] = []
    run = pool.run

    async def watched(fn: Any, *args: Any) -> Any:
        sent.append(fn)
        return await run(fn, *args)

    pool.run = watched  # type: ignore[method-assign]
    with TestClient(create_app(tmp_path / "games.sqlite3", pool=pool)) as client:
        view = client.post("/api/games", json={"game": "eagle-wing", "deal": 8}).json()
        with caplog.at_level("WARNING", logger="tableaux.web"):
            answer = client.post(f"/api/games/{view['id']}/hint").json()
            for _again in range(3):
                client.post(f"/api/games/{view['id']}/hint")
        assert sent == []  # no job went to the pool: the answer waited for no worker
        logged = [r.getMessage() for r in caplog.records if "without the solver" in r.getMessage()]
        assert len(logged) == 1 and logged[0].startswith("1 solver answer done")  # the host is told, once a minute
        hint = answer["hint"]
        assert hint["source"] == "heuristic" and "solver is busy" in hint["message"]
        assert "rule of thumb" in hint["message"] and hint["move"] in view["legal_moves"]


@pytest.mark.server
@pytest.mark.slow
@needs_proc
def test_pool_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    with server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "g.sqlite3")]) as s:
        url = s.url()
        wait_until_answering(url)
        with httpx2.Client(base_url=url, timeout=30) as c:
            gid = c.post("api/games", json={"game": "king-albert", "deal": 3}).json()["id"]
            assert c.post(f"api/games/{gid}/hint").status_code == 200
        workers = children(s.proc.pid)
        assert workers, "the server has no worker processes"
        os.kill(s.proc.pid, signal.SIGKILL)
        s.proc.wait()
    deadline = time.monotonic() + 60
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers), "a pool worker outlived its server"
