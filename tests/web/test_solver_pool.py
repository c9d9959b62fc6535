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
        assert pool.reserve()
        worker = asyncio.run(pool.run(os.getpid))
        assert worker != os.getpid()
        assert pool.reserve()
        assert asyncio.run(pool.run(os.nice, 0)) > os.nice(0)  # the server's answers come first
        assert pool.busy == 0
    finally:
        pool.shutdown()


def test_the_pool_takes_no_more_than_its_limit_and_frees_places_as_jobs_end() -> None:
    pool = SolverPool(workers=1, limit=2)
    try:
        assert pool.reserve() and pool.reserve()
        assert not pool.reserve()  # full: the caller answers without it
        pool.release()
        assert pool.reserve()
    finally:
        pool.shutdown()
    assert not pool.reserve()  # shut down: nothing more is taken


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


def test_a_full_pool_answers_at_once_with_the_rule_of_thumb_and_says_so(tmp_path: Path) -> None:
    pool = SolverPool(workers=1, limit=0)
    sent: list[Any] = []
    run = pool.run

    async def watched(fn: Any, *args: Any) -> Any:
        sent.append(fn)
        return await run(fn, *args)

    pool.run = watched  # type: ignore[method-assign]
    with TestClient(create_app(tmp_path / "games.sqlite3", pool=pool)) as client:
        view = client.post("/api/games", json={"game": "eagle-wing", "deal": 8}).json()
        answer = client.post(f"/api/games/{view['id']}/hint").json()
        assert sent == []  # no job went to the pool: the answer waited for no worker
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
