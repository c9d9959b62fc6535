"""Concurrent-load benchmark of the browser game's server.

Starts a real ``tableaux serve`` process (uvicorn, SQLite in a temporary
directory), then N simulated players, each with its own cookie, play random
legal moves over loopback for a bounded time: every move is a POST carrying
the view's version, exactly as the page sends it, and is committed to SQLite
before the answer. About one request in ten is an undo, and a won or stuck
game is replaced by a new deal.

    python benchmarks/web.py                 # 8 players for 10 seconds
    python benchmarks/web.py --players 32 --seconds 30
    python benchmarks/web.py --tabs 3        # three tabs per player racing on one game

Prints moves per second and latency percentiles (p50, p99) per request kind.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tableaux", "serve", "--port", str(port), "--no-browser", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        found = re.search(r"http://\S+/", line)
        if found:
            url = found.group(0)
            break
    else:
        raise SystemExit(f"the server did not start (exit status {proc.wait()})")
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(url + "api/games/catalog", timeout=2)
            return proc, url
        except httpx.TransportError:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not answer within 20 s") from None
            time.sleep(0.1)


class Player:
    def __init__(self, url: str, seed: int, stop_at: float, latencies: dict[str, list[float]],
                 errors: dict[str, int]) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.stop_at = stop_at
        self.latencies = latencies
        self.errors = errors

    async def request(self, client: httpx.AsyncClient, kind: str, method: str, path: str,
                      body: dict[str, object] | None = None) -> httpx.Response:
        start = time.perf_counter()
        response = await client.request(method, path, json=body)
        self.latencies.setdefault(kind, []).append(time.perf_counter() - start)
        if response.status_code >= 400:
            key = f"{kind} {response.status_code}"
            self.errors[key] = self.errors.get(key, 0) + 1
        return response

    async def new_game(self, client: httpx.AsyncClient) -> dict[str, object]:
        game = self.rng.choice(("king-albert", "eagle-wing"))
        body = {"game": game, "deal": self.rng.randrange(1_000_000)}
        return (await self.request(client, "new game", "POST", "api/games", body)).json()

    async def play(self, tabs: int) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=30) as client:
            first = await self.new_game(client)
            await asyncio.gather(*(self.tab(client, first) for _ in range(tabs)))

    async def tab(self, client: httpx.AsyncClient, view: dict[str, object]) -> None:
        """One browser tab: plays from the view it has; a 409 hands it the current one, as the page does."""
        while time.monotonic() < self.stop_at:
            legal = view["legal_moves"]
            path = f"api/games/{view['id']}"
            if view["won"] or not legal:
                r = await self.request(client, "resume", "GET", "api/current")
                view = r.json() if r.status_code == 200 else await self.new_game(client)
                if view["won"] or not view["legal_moves"]:
                    view = await self.new_game(client)
                continue
            if view["moves"] and self.rng.random() < 0.1:
                r = await self.request(client, "undo", "POST", f"{path}/undo", {"version": view["version"]})
            else:
                move = self.rng.choice(legal)  # type: ignore[arg-type]
                r = await self.request(client, "move", "POST", f"{path}/moves",
                                       {"move": move, "version": view["version"]})
            data = r.json()
            view = data["view"] if r.status_code == 409 else data if r.status_code == 200 else view


def check_database(db: Path) -> tuple[int, int]:
    """Replay every stored game through the engine: ``(games, games that replay to their stored state)``."""
    from tableaux.web.store import Store, StoreError
    from tableaux.web.views import rebuild

    store = Store(db)
    with store._connect() as conn:
        ids = conn.execute("SELECT id, player FROM games").fetchall()
    good = 0
    for gid, player in ids:
        record = store.get_game(gid, player)
        try:
            game = rebuild(record)  # type: ignore[arg-type]
        except StoreError:
            continue
        good += game.is_won() == record.won and len(game.moves_played) == len(record.moves)  # type: ignore[union-attr]
    store.close()
    return len(ids), good


def cpu_seconds(pid: int) -> float | None:
    """CPU time used by a process so far (Linux /proc); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


Results = tuple[dict[str, list[float]], dict[str, int], float]


async def run(url: str, players: int, tabs: int, seconds: float) -> Results:
    latencies: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(*(Player(url, i, stop_at, latencies, errors).play(tabs) for i in range(players)))
    return latencies, errors, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8, help="simulated players (default 8)")
    parser.add_argument("--tabs", type=int, default=1,
                        help="tabs per player on the same game (default 1; more tabs make stale-version 409s)")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long to play (default 10)")
    args = parser.parse_args()
    if args.players < 1 or args.tabs < 1 or not args.seconds > 0:
        parser.error("--players and --tabs must be at least 1, --seconds positive")

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        proc, url = start_server(db)
        try:
            cpu_before = cpu_seconds(proc.pid)
            latencies, errors, elapsed = asyncio.run(run(url, args.players, args.tabs, args.seconds))
            cpu_after = cpu_seconds(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=15)
        games, replayed = check_database(db)
        db_size = db.stat().st_size + sum(p.stat().st_size for p in Path(tmp).glob("bench.sqlite3-*"))

    refused = sum(n for k, n in errors.items() if k.startswith(("move ", "undo ")))
    moves = len(latencies.get("move", [])) + len(latencies.get("undo", [])) - refused
    total = sum(len(v) for v in latencies.values())
    print(f"tableaux web benchmark: {args.players} players x {args.tabs} tab(s) for {elapsed:.1f} s against {url} "
          f"({os.cpu_count()} CPUs, server and players on this machine)")
    print(f"  moves stored (moves and undos answered 200): {moves}  ->  {moves / elapsed:.1f} moves/s")
    print(f"  all requests: {total}  ->  {total / elapsed:.1f} requests/s")
    for kind in ("move", "undo", "new game", "resume"):
        values = latencies.get(kind)
        if values:
            print(f"  {kind:9s} n={len(values):6d}  p50 {percentile(values, 50) * 1000:7.1f} ms  "
                  f"p99 {percentile(values, 99) * 1000:7.1f} ms  mean {statistics.fmean(values) * 1000:7.1f} ms")
    everything = [x for v in latencies.values() for x in v]
    if everything:
        p50, p99 = percentile(everything, 50) * 1000, percentile(everything, 99) * 1000
        print(f"  overall   p50 {p50:.1f} ms  p99 {p99:.1f} ms")
    if cpu_before is not None and cpu_after is not None and total:
        used = cpu_after - cpu_before
        print(f"  server CPU: {used:.1f} s in {elapsed:.1f} s ({used / elapsed:.0%} of one core), "
              f"{used / total * 1000:.2f} ms per request")
    print(f"  integrity: {replayed} of {games} stored games replay through the engine to their stored state")
    print(f"  database size at the end: {db_size / 1024:.0f} KiB")
    stale = sum(n for k, n in errors.items() if k.endswith(" 409"))
    print(f"  stale-version answers (409, expected with several tabs): {stale}")
    print(f"  other error responses: {({k: n for k, n in errors.items() if not k.endswith(' 409')}) or 'none'}")
    return 1 if any(not k.endswith("409") for k in errors) or replayed != games else 0


if __name__ == "__main__":
    sys.exit(main())
