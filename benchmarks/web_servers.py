"""The server side of the web benchmarks: ``tableaux serve`` processes started and stopped, a PostgreSQL to
put them on, and what they cost (CPU seconds from /proc, the machine's load).

Every scenario of ``benchmarks/web.py`` starts servers the same way (no quota on new games, one port each)
and reads their CPU time the same way, so that is written once here, apart from the players that load them
(``web_players.py``).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2 as httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


UNLIMITED = ["--games-per-minute", "1000000", "--games-per-minute-per-address", "1000000",
             "--requests-per-address", "1000000"]
"""Every simulated player comes from 127.0.0.1: the benchmarks measure the server, not its quotas of new games and
of requests in hand, which are for one client among many."""


def start_server(db: Path | str, workers: int = 1,
                 env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tableaux", "serve", "--port", str(port), "--no-browser", "--db", str(db),
         "--workers", str(workers), *UNLIMITED],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"http://\S+/", line)
        if found:
            url = found.group(0)
            break
    else:
        raise SystemExit(f"the server did not start (exit status {proc.wait()})")
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url + "api/games/info", timeout=2)
            return proc, url
        except httpx.TransportError:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not answer within 60 s") from None
            time.sleep(0.1)


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait(timeout=60)


def postgres(stack: ExitStack, pg_url: str | None) -> tuple[str, Any]:
    """A PostgreSQL database for a benchmark: ``pg_url``, or a throwaway cluster's (fsync on, unless
    TABLEAUX_BENCH_PG_FSYNC=off), stopped when ``stack`` closes; and the cluster (None for ``pg_url``)."""
    if pg_url is not None:
        return pg_url, None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from helpers.pg_cluster import Cluster, missing

    reason = missing()
    if reason is not None:
        raise SystemExit(f"no PostgreSQL for the benchmark: {reason}; or give --pg-url")
    cluster = Cluster.start(fsync=os.environ.get("TABLEAUX_BENCH_PG_FSYNC", "on") != "off")
    stack.callback(cluster.stop)
    return cluster.new_database(), cluster


def two_servers(stack: ExitStack, pg_url: str | None) -> tuple[str, list[str], list[subprocess.Popen[str]]]:
    """Two server processes on one PostgreSQL database (:func:`postgres`), stopped when ``stack`` closes: the
    database's URL, and the servers' URLs and processes."""
    pg_url, _cluster = postgres(stack, pg_url)
    urls, procs = [], []
    for _ in range(2):
        proc, url = start_server(pg_url)
        stack.callback(stop_server, proc)
        urls.append(url)
        procs.append(proc)
    return pg_url, urls, procs


def cpu_seconds(pid: int) -> float | None:
    """CPU time used by a process so far (Linux /proc); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def server_cpu(procs: list[subprocess.Popen[str]]) -> float:
    """CPU seconds used so far by the server processes and the ones they started (``--workers``), Linux only."""
    pids = {p.pid for p in procs}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) in pids:
                pids.add(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return sum(cpu_seconds(pid) or 0.0 for pid in pids)


def load_average() -> str:
    """The machine's load (other work on it lengthens every latency), where the system tells it."""
    try:
        return ", load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return ""
