"""Concurrent-load benchmark of the browser game's server.

Starts a real ``tableaux serve`` process (uvicorn, SQLite in a temporary
directory), then N simulated players, each with its own cookie, play random
legal moves over loopback for a bounded time: every move is a POST carrying
the view's version, exactly as the page sends it, and is committed to the
database before the answer. About one request in ten is an undo, and a won or
stuck game is replaced by a new deal.

    python benchmarks/web.py                 # 8 players for 10 seconds
    python benchmarks/web.py --players 32 --seconds 30
    python benchmarks/web.py --tabs 3        # three tabs per player racing on one game
    python benchmarks/web.py --scenario hint-flood   # 50 players at a move a second, 2 clients asking hints nonstop
    python benchmarks/web.py --scenario contract     # what checking every answer against its model costs
    python benchmarks/web.py --scenario capacity     # players held at p99 <= 50 ms, one process and several

Prints moves per second and latency percentiles (p50, p99) per request kind. The hint-flood
scenario is the server's speed target: each of 50 players makes a move every second while
two more clients ask for hints back to back (each hint a solver search of up to half a
second); the moves' p99 must stay at most 50 ms, with no error. It prints p50, p99 and max
of the moves, and exits non-zero when the target is missed.

The contract scenario runs two servers, one checking every answer against its route's model
(TABLEAUX_CHECK_ANSWERS=1, as the test suite runs) and one not (as production runs), and plays the
same load on each in turn, several rounds; it prints each one's server CPU time per request and their
ratio (docs/api.md quotes it).
The capacity scenario asks how many players each way of serving holds: SQLite in
one process, SQLite with ``--workers 2``, and PostgreSQL with two ``tableaux
serve`` processes (each player's requests alternate between them, as behind a
load balancer). Players make a move a second each, in steps of more and more
players (``--steps``, each ``--seconds`` long, default 15); a step holds when
the moves' p99 is at most 50 ms with no error. It prints each step's p50 and
p99, and the most players held, with the machine's load average (other work on
it lengthens every latency). PostgreSQL is a throwaway cluster started with
Debian's ``postgresql`` package (tests/helpers/pg_cluster.py, fsync on, or off with
``TABLEAUX_BENCH_PG_FSYNC=off``), or the server ``--pg-url`` names (a database
the benchmark may fill).

Each scenario is a function here; the simulated players are in ``web_players.py`` and the servers they load
(started, stopped, their CPU time read) in ``web_servers.py``, beside this file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx2 as httpx

from web_players import hint_asker, percentile, run, steady_player, steady_step
from web_servers import cpu_seconds, load_average, postgres, server_cpu, start_server, stop_server, two_servers


def check_database(db: Path) -> tuple[int, int]:
    """Replay every stored game's line through the engine: ``(games, games whose moves replay, each legal, to the
    position and the result stored with them)``."""
    import tableaux
    from tableaux.rulebook.engine import State
    from tableaux.web.store import Store

    store = Store(db)
    with store._connect() as conn:
        ids = conn.execute("SELECT id, player FROM games").fetchall()
    good = 0
    for gid, player in ids:
        record = store.get_game(gid, player)
        assert record is not None
        texts = store.line(gid, 0, record.line_length)
        try:
            game = tableaux.Game.replay(tableaux.rules(record.game), record.deal, texts[:record.played],
                                        texts[record.played:])
        except tableaux.TableauxError:
            continue
        position = State.unpacked(record.position) if record.position is not None else None
        good += game.is_won() == record.won and (position is None or position == game.state)
    store.close()
    return len(ids), good


MOVE_P99_TARGET_MS = 50.0


def hint_flood(url: str, players: int, askers: int, seconds: float) -> int:
    moves: list[float] = []
    hints: list[float] = []
    sources: dict[str, int] = {}
    errors: dict[str, int] = {}

    async def run_all() -> None:
        stop_at = time.monotonic() + seconds
        gate = asyncio.Barrier(players)
        await asyncio.gather(
            *(steady_player([url], i, seconds, moves, errors, gate) for i in range(players)),
            *(hint_asker(url, 1000 + i, stop_at, hints, sources, errors) for i in range(askers)),
        )

    started = time.monotonic()
    asyncio.run(run_all())
    elapsed = time.monotonic() - started
    p50, p99, top = (percentile(moves, p) * 1000 for p in (50, 99, 100))
    print(f"tableaux web benchmark, hint flood: {players} players at one move a second and {askers} clients "
          f"asking for hints back to back, for {elapsed:.0f} s ({os.cpu_count()} CPUs, all on this machine)")
    print(f"  moves  n={len(moves):6d}  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {top:6.1f} ms  "
          f"(target: p99 at most {MOVE_P99_TARGET_MS:.0f} ms)")
    if hints:
        h50, h99, hmax = (percentile(hints, p) * 1000 for p in (50, 99, 100))
        print(f"  hints  n={len(hints):6d}  p50 {h50:6.1f} ms  p99 {h99:6.1f} ms  max {hmax:6.1f} ms  "
              f"by source: {dict(sorted(sources.items()))}")
    print(f"  errors: {errors or 'none'}")
    met = p99 <= MOVE_P99_TARGET_MS and not errors
    print(f"  target {'met' if met else 'MISSED'}")
    return 0 if met else 1


CHECK_ANSWERS = "TABLEAUX_CHECK_ANSWERS"


def contract_cost(players: int, seconds: float, rounds: int) -> int:
    """Server CPU per request with and without the answer check, the same load on each in turn."""
    cpu = {False: 0.0, True: 0.0}
    requests = {False: 0, True: 0}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {checked: start_server(Path(tmp) / f"checked-{checked}.sqlite3",
                                         env={CHECK_ANSWERS: "1" if checked else "0"}) for checked in (False, True)}
        try:
            for turn in range(rounds):
                for checked in (False, True) if turn % 2 == 0 else (True, False):  # ABBA: drift hits both
                    proc, url = servers[checked]
                    before = cpu_seconds(proc.pid)
                    latencies, errors, _elapsed = asyncio.run(run(url, players, 1, seconds))
                    after = cpu_seconds(proc.pid)
                    if before is None or after is None:
                        raise SystemExit("the contract scenario reads server CPU time from /proc (Linux only)")
                    if any(not k.endswith("409") for k in errors):
                        raise SystemExit(f"errors from the {'checking' if checked else 'plain'} server: {errors}")
                    cpu[checked] += after - before
                    requests[checked] += sum(len(v) for v in latencies.values())
        finally:
            for proc, _url in servers.values():
                proc.terminate()
                proc.wait(timeout=15)
    plain, checked_ms = (cpu[k] / requests[k] * 1000 for k in (False, True))
    one_view = view_check_ms()
    print(f"tableaux web benchmark, answer check: {players} players, {rounds} rounds of {seconds:.0f} s per server "
          f"({os.cpu_count()} CPUs, servers and players on this machine)")
    print(f"  without the check: {requests[False]:6d} requests, {plain:.3f} ms of server CPU per request")
    print(f"  with the check:    {requests[True]:6d} requests, {checked_ms:.3f} ms of server CPU per request")
    print(f"  ratio (with / without): {checked_ms / plain:.3f}")
    print("  checking one view in this process: " + ", ".join(f"{name} {ms:.3f} ms" for name, ms in one_view.items())
          + f" ({max(one_view.values()) / plain:.1%} of a request's server CPU without the check)")
    return 0


def view_check_ms(repeat: int = 2000) -> dict[str, float]:
    """The time the answer check takes on one view of each game (a new deal 17), in milliseconds."""
    from fastapi.testclient import TestClient

    from tableaux.web.app import create_app
    from tableaux.web.middleware import adapter
    from tableaux.web.models import View

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        client = TestClient(create_app(Path(tmp) / "one.sqlite3", check_answers=False))
        for name in ("king-albert", "eagle-wing"):
            body = client.post("/api/games", json={"game": name, "deal": 17}).content
            check = adapter(View)
            start = time.perf_counter()
            for _ in range(repeat):
                check.validate_json(body, strict=True)
            out[name] = (time.perf_counter() - start) / repeat * 1000
        client.app.state.store.close()  # type: ignore[attr-defined]
    return out
# --- how many players each way of serving holds ----------------------------------------------------
CONFIGS = ("sqlite", "sqlite-workers", "postgresql")
CONFIG_TITLES = {"sqlite": "SQLite, one process", "sqlite-workers": "SQLite, --workers 2",
                 "postgresql": "PostgreSQL, two processes"}


def start_servers(stack: ExitStack, config: str, folder: Path,
                  pg_url: str | None) -> tuple[list[str], list[subprocess.Popen[str]]]:
    """The servers of one configuration, stopped when ``stack`` closes; their URLs and processes."""
    if config in ("sqlite", "sqlite-workers"):
        proc, url = start_server(folder / f"{config}.sqlite3", workers=2 if config == "sqlite-workers" else 1)
        stack.callback(stop_server, proc)
        return [url], [proc]
    _url, urls, procs = two_servers(stack, pg_url)
    return urls, procs


def capacity(configs: list[str], steps: list[int], seconds: float, pg_url: str | None) -> int:
    print(f"tableaux web benchmark, capacity: players at one move a second, {seconds:.0f} s a step; a step holds "
          f"when the moves' p99 is at most {MOVE_P99_TARGET_MS:.0f} ms with no error "
          f"({os.cpu_count()} CPUs, servers and players on this machine{load_average()})")
    held: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for config in configs:
            print(f"  {CONFIG_TITLES[config]}:")
            held[config] = 0
            with ExitStack() as stack:
                urls, procs = start_servers(stack, config, Path(tmp), pg_url)
                steady_step(urls, 5, 5.0, seed=1)  # warm up (imports, caches, the solver pools' start), unmeasured
                for players in steps:
                    before = server_cpu(procs)
                    moves, errors = steady_step(urls, players, seconds, seed=players * 1000)
                    cpu = (server_cpu(procs) - before) / max(1, len(moves)) * 1000
                    p50, p99 = (percentile(moves, p) * 1000 for p in (50, 99))
                    ok = p99 <= MOVE_P99_TARGET_MS and not errors
                    print(f"    {players:4d} players  moves n={len(moves):6d}  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
                          f"  server CPU {cpu:5.2f} ms a move  {'held' if ok else 'NOT held'}"
                          f"{'  errors: ' + str(errors) if errors else ''}{load_average()}", flush=True)
                    if not ok:
                        break
                    held[config] = players
    print(f"  at the end: load average{load_average()[len(', load average'):]}")
    print("  players held at p99 <= 50 ms: " + ", ".join(f"{CONFIG_TITLES[c]} {held[c]}" for c in configs))
    base = held.get("sqlite")
    if base:
        print("  relative to SQLite in one process: " + ", ".join(
            f"{CONFIG_TITLES[c]} {held[c] / base:.2f}" for c in configs if c != "sqlite"))
    return 0 if all(held.values()) else 1


# --- a game of 20,000 moves, served by two processes that each take it up anew ------------------------------
LONG_GAME = 20_000


def long_game(moves: int, pg_url: str | None) -> int:
    """Server CPU and latency per move on a game of :data:`LONG_GAME` moves and on a fresh one, with each move sent
    to the other of two server processes on one PostgreSQL (so no process has the game in memory)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from helpers.store import store_line
    from tableaux.web.store import Store

    shuttle = ["R5>F1"] + ["F1>F2" if i % 2 == 0 else "F2>F1" for i in range(LONG_GAME - 1)]
    print(f"tableaux web benchmark, long game: {moves} moves each way on King Albert deal 1, sent to two server "
          f"processes on one PostgreSQL in turn ({os.cpu_count()} CPUs{load_average()})")
    with ExitStack() as stack:
        url, urls, procs = two_servers(stack, pg_url)
        clients = [stack.enter_context(httpx.Client(base_url=u, timeout=60)) for u in urls]
        clients[0].post("api/games", json={"game": "eagle-wing", "deal": 1})
        clients[1].cookies = clients[0].cookies
        store = Store(url)
        player = store.player_for(clients[0].cookies["tableaux_player"])
        long_record = store_line(store, player, "king-albert", 1, shuttle)
        short_record = store_line(store, player, "king-albert", 1, shuttle[:20])
        store.close()
        figures = {}
        for name, record in (("20 moves", short_record), (f"{LONG_GAME:,} moves", long_record)):
            view = clients[0].get(f"api/games/{record.id}").json()
            latencies = []
            before = server_cpu(procs)
            for i in range(moves):
                text = next(m["text"] for m in view["legal_moves"] if m["text"] in ("F1>F2", "F2>F1"))
                started = time.perf_counter()
                r = clients[i % 2].post(f"api/games/{record.id}/moves", json={"move": text, "version": view["version"]})
                latencies.append(time.perf_counter() - started)
                if r.status_code != 200:
                    raise SystemExit(f"a move was answered {r.status_code}: {r.text}")
                view = r.json()
            cpu = (server_cpu(procs) - before) / moves * 1000
            figures[name] = cpu
            print(f"  history {name:>13}: server CPU {cpu:5.2f} ms a move, latency p50 "
                  f"{percentile(latencies, 50) * 1000:5.1f} ms, p99 {percentile(latencies, 99) * 1000:5.1f} ms")
        long_cpu, short_cpu = figures[f"{LONG_GAME:,} moves"], figures["20 moves"]
        print(f"  ratio (long / short): {long_cpu / short_cpu:.2f}; target: at most 2 ms of server CPU a move at "
              f"{LONG_GAME:,} moves: {'met' if long_cpu <= 2.0 else 'MISSED'}{load_average()}")
    return 0 if long_cpu <= 2.0 else 1


# --- an outage of the database under two server processes ------------------------------------------------
def outage(seconds: float) -> int:
    """PostgreSQL stopped at once under ``--workers 2`` for ``seconds``, then started again: how long each answer
    took during the outage (the aim: within 3 s), and how soon after PostgreSQL's return the server answered
    again (the aim: within 5 s)."""
    print(f"tableaux web benchmark, outage: PostgreSQL stopped at once (pg_ctl stop -m immediate) for {seconds:.0f} s "
          f"under tableaux serve --workers 2 ({os.cpu_count()} CPUs{load_average()})")
    with ExitStack() as stack:
        url, cluster = postgres(stack, None)
        proc, served = start_server(url, workers=2)
        stack.callback(stop_server, proc)
        client = stack.enter_context(httpx.Client(base_url=served, timeout=60))
        view = client.post("api/games", json={"game": "king-albert", "deal": 1}).json()
        cluster.halt()
        ended = time.monotonic() + seconds
        answers: dict[int, int] = {}
        slowest = 0.0
        while time.monotonic() < ended:
            started = time.perf_counter()
            status = client.get(f"api/games/{view['id']}").status_code
            slowest = max(slowest, time.perf_counter() - started)
            answers[status] = answers.get(status, 0) + 1
            time.sleep(0.05)
        cluster.resume()
        back_at = time.monotonic()
        while client.get(f"api/games/{view['id']}").status_code != 200:
            time.sleep(0.02)
        back = time.monotonic() - back_at
    met = slowest <= 3.0 and back <= 5.0 and set(answers) == {503}
    print(f"  during the outage: {sum(answers.values())} requests, answers {answers}, the slowest in "
          f"{slowest * 1000:.0f} ms (aim: within 3 s)")
    print(f"  answering again {back:.2f} s after PostgreSQL was started again (aim: within 5 s): "
          f"{'met' if met else 'MISSED'}{load_average()}")
    return 0 if met else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8, help="simulated players (default 8)")
    parser.add_argument("--tabs", type=int, default=1,
                        help="tabs per player on the same game (default 1; more tabs make stale-version 409s)")
    parser.add_argument("--seconds", type=float, default=None, help="how long to play (default 10; hint flood 30)")
    parser.add_argument("--scenario", choices=("play", "hint-flood", "capacity", "contract", "long-game", "outage"),
                        default="play",
                        help="play: players moving as fast as they can (default); hint-flood: the speed target; "
                             "capacity: players held at the target, in one process and in several; "
                             "contract: the answer check's cost; long-game: server CPU a move at 20,000 moves; "
                             "outage: answers while PostgreSQL is stopped, and how soon it is served again")
    parser.add_argument("--rounds", type=int, default=6, help="contract: turns on each server (default 6)")
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help=f"capacity: which ways of serving, comma-separated (default {','.join(CONFIGS)})")
    parser.add_argument("--steps", default="10,25,50,100,150,200,300,400",
                        help="capacity: the numbers of players tried, in order (default 10,25,50,100,150,200,300,400)")
    parser.add_argument("--pg-url", default=None,
                        help="capacity: a PostgreSQL database to use instead of a throwaway cluster")
    parser.add_argument("--askers", type=int, default=2, help="hint flood: clients asking for hints (default 2)")
    parser.add_argument("--moves", type=int, default=400, help="long game: moves on each game (default 400)")
    args = parser.parse_args()
    if args.seconds is None:
        args.seconds = {"hint-flood": 30.0, "capacity": 15.0}.get(args.scenario, 10.0)
    if args.players < 1 or args.tabs < 1 or not args.seconds > 0:
        parser.error("--players and --tabs must be at least 1, --seconds positive")

    if args.scenario == "contract":
        return contract_cost(args.players, args.seconds, args.rounds)
    if args.scenario == "long-game":
        return long_game(args.moves, args.pg_url)
    if args.scenario == "outage":
        return outage(args.seconds if "--seconds" in sys.argv else 20.0)
    if args.scenario == "capacity":
        configs = [c for c in args.configs.split(",") if c]
        if not set(configs) <= set(CONFIGS) or not configs:
            parser.error(f"--configs takes some of {', '.join(CONFIGS)}")
        try:
            steps = [int(n) for n in args.steps.split(",")]
        except ValueError:
            parser.error("--steps takes whole numbers of players, comma-separated, like 25,50,100")
        if not steps or min(steps) < 1:
            parser.error("--steps takes whole numbers of players, comma-separated, like 25,50,100")
        return capacity(configs, steps, args.seconds, args.pg_url)

    if args.scenario == "hint-flood":
        players = args.players if "--players" in sys.argv else 50
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start_server(Path(tmp) / "bench.sqlite3")
            try:
                return hint_flood(url, players, args.askers, args.seconds)
            finally:
                proc.terminate()
                proc.wait(timeout=15)

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
