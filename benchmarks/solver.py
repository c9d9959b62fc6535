"""Solver benchmark: both backends on a fixed range of deals per game, the figures that matter.

    python benchmarks/solver.py                                  # a few minutes on two cores
    python benchmarks/solver.py --deals king-albert=1-2000 --time-limit 10 --backend c   # the target's range

Prints, per game and backend: deals decided within the budget, positions
searched per second (all positions over all seconds), and seconds per deal
(median, p99, max, total), each of the decision: ``solve(..., line="found")``,
the verdict and the search's own line (a default solve then shortens the line:
--lines says what that adds), and with both backends, how many times as many
positions a second the compiled core searches. Both backends run the same deals in one process,
one after the other, so their ratio is fair even on a busy machine; quote
medians. The Python backend gets a smaller range by default (it is forty to fifty
times slower): --python-deals sets it.

Solvitaire, the C++ research solver, on King Albert deals 1-2000 at 10 s each on
this kind of machine (the reference figures the project started from): 1999 decided, median 3 ms,
p90 27 ms, p99 175 ms, max 1.1 s, about 775,000 positions a second.

    python benchmarks/solver.py --lines --backend c              # what the shortened lines cost

With --lines, each deal is solved twice in one process, one right after the other: as the search finds its
line (``line="found"``, nothing shortened) and as ``solve`` returns it (shortened), and the CPU seconds of
both are summed per game: the ratio is what the shortening adds to the solve a user waits for, over all the
deals (lost and open ones cost nothing more), and over the winnable ones alone.

    python benchmarks/solver.py --hard-tail --time-limit 60      # the hard tail, against the earlier self
    python benchmarks/solver.py --big-rows --time-limit 60       # every deal the surveys won only with big budgets

The hard tail (HARD_TAIL): deals the surveys left unknown that Solvitaire wins, the
slowest deals the surveys decided, and the largest proofs of deals 1-2000. Each is
solved by the C core as it is and as it was without the first pass's streamlined
runs (its earlier self), one after the other in one process: the verdicts, positions,
CPU seconds and their ratio per deal. CPU seconds hold better than wall-clock on a
busy machine.

The big rows (BIG_ROWS): every winnable deal whose row in results/ took a big budget,
30 million positions or more in King Albert and 100 million in classic King Albert,
solved as a user does (``solve(game, deal, time_limit=...)``): how many are won within
the time, and the CPU seconds of each.

    python benchmarks/solver.py --fresh 1000                     # fresh deals, tableaux alone
    SOLVITAIRE=/path/to/solvitaire python benchmarks/solver.py --fresh 300 --seed 7

Fresh deals (--fresh N): N deals per game drawn at random from FRESH_DEALS, far above
every survey, each solved once as a user does, in two timed parts (wall-clock seconds): the
decision, ``solve(game, deal, time_limit=..., line="found")`` (the verdict and, for a win,
the search's own winning line), and then, for a win, the shortening every line a default
solve returns gets (``tableaux.solver.shorten``, within what the time limit left); a default
``solve`` takes about their sum. With a Solvitaire build named by SOLVITAIRE, each King
Albert deal (both rule sets; it has no Eagle Wing) is solved by it too, one solver at a
time, in its sound "smart-solvability" mode through its process (its time includes starting
it; --classify prints the verdict, not a line): the total time of each and their ratio, the
decision's and with the shortened line, every deal where tableaux decides more slowly, and
any deal the two decide differently. The last two ratios are of CPU seconds (user and
system; Solvitaire's from its process's usage), which a busy machine sways far less than
wall-clock seconds. Solvitaire is GPL and on no package registry: build it
yourself from its public repository (docs/hard-tail.md, "Building Solvitaire", says how); nothing here
contains it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tableaux import new_game
from tableaux.common.intervals import percentile
from tableaux.rulebook.deal import parse_deals
from tableaux.solver import BACKENDS, DEFAULT_MEMORY_MB, solve

DEFAULT_DEALS = {
    "king-albert": "1-500",
    "eagle-wing": "1-500",
    "king-albert-classic": "1-200",
}
HARD_TAIL: dict[str, tuple[int, ...]] = {
    # unknown in results/ after 100 million positions, won by Solvitaire in 0.1-6.4 s; then the slowest winnable
    # deals of the survey (66-98 million positions in their rows); then deals 1-2000's largest proof
    "king-albert": (168366, 184691, 68836, 102968, 702581, 590141, 254764, 106731, 513539, 818),
    # unknown after 1,600-8,000 million positions, won by Solvitaire in 1.5 and 20 s; then the slowest winnable
    # deals (265-547 million positions in their rows); then deals 1-2000's largest proof; then a deal whose
    # restricted space is exhausted at once (140 million positions in its row)
    "king-albert-classic": (733, 26967, 90329, 43279, 71586, 161, 86525, 1837, 20838),
}
"""Deals where the solver's time goes: what --hard-tail runs."""

BIG_ROWS = {"king-albert": 30_000_000, "king-albert-classic": 100_000_000}
"""The positions a winnable row must have taken for --big-rows to solve its deal again."""

FRESH_DEALS = range(3_000_000_000, 2**32)
"""Where --fresh draws its deals: far above every survey (deals 1-1,000,000, and 4,000,000,001-4,000,100,000 for
the sample in results/fresh-GAME.jsonl.gz, a range too small to be drawn from more than by chance)."""

SOLVITAIRE_RULES = {
    "king-albert": {"tableau piles": {"count": 9, "build policy": "red-black", "diagonal deal": True,
                                      "move built group": "yes", "face up cards": "top"},
                    "foundations": {"removable": True}, "reserve": {"size": 7}},
    "king-albert-classic": {"tableau piles": {"count": 9, "build policy": "red-black", "diagonal deal": True,
                                              "move built group": "no", "face up cards": "all"},
                            "foundations": {"removable": True}, "reserve": {"size": 7}},
}
"""Solvitaire's rules files for the two King Albert games (its JSON rules format)."""

SLOWER_THAN = 1.5
SLOWER_FROM = 0.020
"""A deal counts against tableaux when Solvitaire is more than SLOWER_THAN times as fast and tableaux takes
more than SLOWER_FROM seconds on it."""

PYTHON_DEALS = {
    "king-albert": "1-60",
    "eagle-wing": "1-60",
    "king-albert-classic": "1-20",
}


def bench(
    game: str, deals: range, time_limit: float, max_nodes: int | None, backend: str, memory_mb: int, threads: int,
    lines: bool = False,
) -> dict[str, object]:
    verdicts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    open_deals = []
    cpu = {"found": 0.0, "short": 0.0, "won found": 0.0, "won short": 0.0}
    for deal in deals:
        options = {"time_limit": time_limit, "max_nodes": max_nodes, "backend": backend, "memory_mb": memory_mb,
                   "threads": threads}
        start = time.process_time()
        result = solve(new_game(game, deal), line="found", **options)  # the decision, and the search's own line
        if lines:
            middle = time.process_time()
            solve(new_game(game, deal), **options)  # as a default solve returns it: the line shortened
            end = time.process_time()
            cpu["found"] += middle - start
            cpu["short"] += end - middle
            if result.winnable:
                cpu["won found"] += middle - start
                cpu["won short"] += end - middle
        verdicts[result.verdict] += 1
        if result.verdict == "unknown":
            open_deals.append(deal)
        nodes += result.nodes
        times.append(result.seconds)
    total = sum(times)
    times.sort()
    return {
        "deals": len(deals),
        **verdicts,
        "median": percentile(times, 50),
        "p99": percentile(times, 99),
        "max": times[-1],
        "total": total,
        "nodes_per_second": nodes / total if total else float("nan"),
        "open": open_deals,
        "cpu": cpu,
    }


def hard_tail(time_limit: float, max_nodes: int | None, memory_mb: int) -> None:
    """Each hard deal solved as the core is and without its streamlined runs, in one process."""
    from tableaux.solver import _CORE_GAMES, _core

    print(f"{'game':<22}{'deal':>8}  {'now':<24}{'without streamlined runs':<28}{'CPU ratio':>10}")
    ratios = []
    for game, deals in HARD_TAIL.items():
        rules = new_game(game, 1).rules
        for deal in deals:
            start = rules.deal(deal)
            cells = []
            for streams in (None, ()):
                cpu = time.process_time()
                verdict, _, nodes, _, _ = _core.solve(
                    _CORE_GAMES[type(rules)], start.piles, start.redeals, max_nodes=max_nodes or -1,
                    time_limit=time_limit, memory=memory_mb << 20, streams=streams)
                spent = time.process_time() - cpu
                cells.append((f"{('won', 'lost', 'open')[verdict]} {nodes / 1e6:,.2f}M {spent:.2f}s", spent))
            ratio = cells[0][1] / cells[1][1] if cells[1][1] else float("nan")
            ratios.append(ratio)
            print(f"{game:<22}{deal:>8}  {cells[0][0]:<24}{cells[1][0]:<28}{ratio:>10.3f}", flush=True)
    print(f"CPU ratio now / without, median over {len(ratios)} deals: {percentile(sorted(ratios), 50):.3f}")


def big_rows(time_limit: float, memory_mb: int) -> None:
    """Every winnable deal the surveys decided only with a big budget, solved once as a user solves it."""
    from pathlib import Path

    from tableaux.survey.files import read_results

    results = Path(__file__).resolve().parents[1] / "results"
    print(f"{'game':<22}{'deal':>8}{'row positions':>15}  {'now':<10}{'positions':>12}{'CPU s':>8}")
    for game, floor in BIG_ROWS.items():
        rows = read_results(results / f"{game}.jsonl.gz", game)
        deals = sorted(d for d, row in rows.items() if row["verdict"] == "winnable" and row["nodes"] >= floor)
        won, cpus = 0, []
        for deal in deals:
            cpu = time.process_time()
            result = solve(new_game(game, deal), time_limit=time_limit, memory_mb=memory_mb)
            cpus.append(time.process_time() - cpu)
            won += result.verdict == "winnable"
            print(f"{game:<22}{deal:>8}{rows[deal]['nodes'] / 1e6:>14,.1f}M  {result.verdict:<10}"
                  f"{result.nodes / 1e6:>11,.2f}M{cpus[-1]:>8.2f}", flush=True)
        print(f"{game}: {won} of {len(deals)} won within {time_limit:g} s; CPU seconds median "
              f"{percentile(sorted(cpus), 50):.2f}, max {max(cpus):.2f}")


def solvitaire_deal(piles: tuple[tuple[int, ...], ...]) -> dict[str, object]:
    """A King Albert position in Solvitaire's deal format: tableau piles bottom first, then the reserve; a card
    like "10H", its suit in lower case while it lies face down."""
    from tableaux.rulebook.cards import DOWN, RANK_LABELS, RANKS, SUITS

    def card(c: int) -> str:
        suit = SUITS[(c & 63) // 13]
        return RANK_LABELS[RANKS[(c & 63) % 13]] + (suit.lower() if c & DOWN else suit)

    return {"tableau piles": [[card(c) for c in pile] for pile in piles[4:13]],
            "reserve": [card(pile[0]) for pile in piles[13:20] if pile]}


def run_solvitaire(binary: str, game: str, deal: int, time_limit: float, folder: Path) -> tuple[str, float, float]:
    """Solvitaire's verdict on a deal (winnable, unwinnable or unknown), and the wall-clock and CPU seconds its
    process took."""
    rules_file, deal_file = folder / f"{game}.rules.json", folder / "deal.json"
    if not rules_file.exists():
        rules_file.write_text(json.dumps(SOLVITAIRE_RULES[game]))
    deal_file.write_text(json.dumps(solvitaire_deal(new_game(game, deal).state.piles)))
    command = [binary, "--custom-rules", str(rules_file), "--timeout", str(int(time_limit * 1000)),
               "--streamliners", "smart-solvability", "--classify", str(deal_file)]
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit * 3 + 30)
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    outcome = last.rsplit(",", 1)[-1].strip()
    return {"solved": "winnable", "unsolvable": "unwinnable"}.get(outcome, "unknown"), seconds, cpu


def _children_cpu() -> float:
    """CPU seconds (user and system) of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh(count: int, seed: int, time_limit: float, memory_mb: int, solvitaire: str | None,
          out: Path | None) -> None:
    """`count` fresh deals per game, each solved once by tableaux and, for King Albert, by Solvitaire if named."""
    from tableaux.solver import shorten

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="tableaux-fresh-"))
    rows = []
    header = (f"{'game':<21}{'deals':>6}{'won':>6}{'lost':>6}{'open':>5}{'total s':>9}{'median ms':>10}{'p99 s':>7}"
              f"{'max s':>7}{'>1 s':>6}{'>10 s':>6}{'line s':>8}")
    print(header + (f"{'Solvitaire s':>13}{'open':>5}{'ratio':>7}{'w/ line':>8}{'CPU':>8}{'w/ line':>8}"
                    if solvitaire else ""))
    for game in ("king-albert", "king-albert-classic", "eagle-wing"):
        # Not timed: a process's first solve loads the modules it needs (about 25 ms), once per process; the
        # figures are those of the solves that follow.
        solve(game, 1, max_nodes=1000, line="found")
        deals = [rng.choice(FRESH_DEALS) for _ in range(count)]
        mine, lines, theirs, cpus = [], [], [], []
        for deal in deals:
            start, cpu = time.perf_counter(), time.process_time()
            result = solve(game, deal, time_limit=time_limit, memory_mb=memory_mb, line="found")
            decided = time.perf_counter() - start
            row = {"game": game, "deal": deal, "verdict": result.verdict, "seconds": decided,
                   "cpu": time.process_time() - cpu, "nodes": result.nodes, "line_seconds": 0.0, "line_cpu": 0.0}
            if result.verdict == "winnable":
                start, cpu = time.perf_counter(), time.process_time()
                short = shorten(new_game(game, deal), result.moves, time_limit=max(time_limit - decided, 0.001))
                row.update(line_seconds=time.perf_counter() - start, line_cpu=time.process_time() - cpu,
                           found_moves=len(result.moves), moves=len(short))
            if solvitaire and game in SOLVITAIRE_RULES:
                row["solvitaire"], row["solvitaire_seconds"], row["solvitaire_cpu"] = run_solvitaire(
                    solvitaire, game, deal, time_limit, folder)
                theirs.append(row["solvitaire_seconds"])
                cpus.append((row["cpu"], row["line_cpu"], row["solvitaire_cpu"]))
            mine.append(row["seconds"])
            lines.append(row["line_seconds"])
            rows.append(row)
        verdicts = [r["verdict"] for r in rows if r["game"] == game]
        times = sorted(mine)
        line = (f"{game:<21}{count:>6}{verdicts.count('winnable'):>6}{verdicts.count('unwinnable'):>6}"
                f"{verdicts.count('unknown'):>5}{sum(times):>9.2f}{percentile(times, 50) * 1000:>10.1f}"
                f"{percentile(times, 99):>7.2f}{times[-1]:>7.2f}{sum(t > 1 for t in times):>6}"
                f"{sum(t > 10 for t in times):>6}{sum(lines):>8.2f}")
        if theirs:
            open_theirs = sum(r["solvitaire"] == "unknown" for r in rows if r["game"] == game)
            line += (f"{sum(theirs):>13.2f}{open_theirs:>5}{sum(mine) / sum(theirs):>7.3f}"
                     f"{(sum(mine) + sum(lines)) / sum(theirs):>8.3f}")
            decide, shorten_cpu, their_cpu = (sum(c) for c in zip(*cpus, strict=True))
            line += f"{decide / their_cpu:>8.3f}{(decide + shorten_cpu) / their_cpu:>8.3f}"
        print(line, flush=True)
    compared = [r for r in rows if "solvitaire" in r]
    slower = [r for r in compared if r["seconds"] > r["solvitaire_seconds"]]
    against = [r for r in slower if r["seconds"] > SLOWER_THAN * r["solvitaire_seconds"] and r["seconds"] > SLOWER_FROM]
    contradictions = [r for r in compared if {r["verdict"], r["solvitaire"]} == {"winnable", "unwinnable"}]
    if solvitaire:
        print(f"deals where tableaux decides more slowly: {len(slower)}; of those, Solvitaire more than "
              f"{SLOWER_THAN:g} times as fast and tableaux over {SLOWER_FROM * 1000:g} ms: {len(against)}; "
              f"contradictions: {len(contradictions)}")
        for r in sorted(slower, key=lambda r: r["solvitaire_seconds"] - r["seconds"]):
            print(f"  {r['game']:<21}{r['deal']:>11}  tableaux {r['verdict']:<10}{r['seconds']:>8.3f} s "
                  f"({r['cpu']:.3f} CPU)   Solvitaire {r['solvitaire']:<10}{r['solvitaire_seconds']:>8.3f} s "
                  f"({r['solvitaire_cpu']:.3f} CPU)" + ("  *" if r in against else ""))
        for r in contradictions:
            print(f"  CONTRADICTION {r['game']} {r['deal']}: tableaux {r['verdict']}, Solvitaire {r['solvitaire']}")
    if out:
        with out.open("w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


def ranges_from(items: list[str], defaults: dict[str, str], parser: argparse.ArgumentParser) -> dict[str, range]:
    if not items:
        return {game: parse_deals(text) for game, text in defaults.items()}
    out = {}
    for item in items:
        game, _, text = item.partition("=")
        if game not in DEFAULT_DEALS or not text:
            parser.error(f"deal ranges are GAME=FIRST-LAST with GAME one of {', '.join(DEFAULT_DEALS)}")
        out[game] = parse_deals(text)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal (default 10)")
    parser.add_argument("--max-nodes", type=int, default=None, help="positions per deal (default: no limit)")
    parser.add_argument("--memory", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"memory one search may take, in MiB (default {DEFAULT_MEMORY_MB})")
    parser.add_argument("--deals", action="append", default=[], metavar="GAME=FIRST-LAST",
                        help="deal range for a game (repeatable); only the games named are run")
    parser.add_argument("--python-deals", action="append", default=[], metavar="GAME=FIRST-LAST",
                        help="the Python backend's deal range for a game (default: a small one)")
    parser.add_argument("--threads", type=int, choices=(1, 2), default=1,
                        help="2: the C core runs the complete search on a second core beside the first pass "
                        "(positions/s then counts both)")
    parser.add_argument("--backend", choices=BACKENDS, action="append", default=None,
                        help="run only this backend (repeatable; default: every backend built)")
    parser.add_argument("--lines", action="store_true",
                        help="solve each deal also with line='found': the CPU cost of shortening the lines")
    parser.add_argument("--hard-tail", action="store_true",
                        help="the hard deals (HARD_TAIL), as the C core is and without its streamlined runs")
    parser.add_argument("--big-rows", action="store_true",
                        help="every deal the surveys won only with a big budget (BIG_ROWS), solved once each")
    parser.add_argument("--fresh", type=int, metavar="N",
                        help="N fresh deals per game (FRESH_DEALS); against Solvitaire when SOLVITAIRE names a build")
    parser.add_argument("--seed", type=int, default=None, help="--fresh's random seed (default: a new one, printed)")
    parser.add_argument("--out", type=Path, default=None, help="--fresh writes each deal's row here (JSON lines)")
    args = parser.parse_args(argv)
    if args.fresh is not None:
        if args.fresh < 1:
            parser.error("--fresh needs a positive number of deals per game")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        binary = os.environ.get("SOLVITAIRE") or None
        if binary and not os.access(binary, os.X_OK):
            parser.error(f"SOLVITAIRE={binary} is not an executable file")
        print(f"{args.fresh} fresh deals per game from {FRESH_DEALS.start:,}-{FRESH_DEALS.stop - 1:,}, seed {seed}; "
              f"{args.time_limit:g} s and {args.memory:,} MiB per deal, one solver at a time"
              + (f"; Solvitaire: {binary}" if binary else ""))
        fresh(args.fresh, seed, args.time_limit, args.memory, binary, args.out)
        return 0
    if args.big_rows:
        print(f"{args.time_limit:g} s and {args.memory:,} MiB per deal, one thread")
        big_rows(args.time_limit, args.memory)
        return 0
    if args.hard_tail:
        if "c" not in BACKENDS:
            parser.error("--hard-tail compares the C core with itself, and it is not built here")
        print(f"{args.time_limit:g} s" + (f" or {args.max_nodes:,} positions" if args.max_nodes else "")
              + f" and {args.memory:,} MiB per deal and search, one thread")
        hard_tail(args.time_limit, args.max_nodes, args.memory)
        return 0
    backends = args.backend or list(BACKENDS)
    ranges = {"c": ranges_from(args.deals, DEFAULT_DEALS, parser),
              "python": ranges_from(args.python_deals or args.deals, PYTHON_DEALS, parser)}
    budget = f"{args.time_limit:g} s" + (f" or {args.max_nodes:,} positions" if args.max_nodes else "")
    budget += f" and {args.memory:,} MiB" + (f", {args.threads} threads" if args.threads > 1 else "")
    print(f"{budget} per deal; Python {sys.version.split()[0]}; backends {', '.join(backends)}")
    print(f"{'game':<28}{'backend':>8}{'decided':>10}{'won':>6}{'lost':>6}{'unkn':>6}"
          f"{'pos/s':>12}{'median s':>10}{'p99 s':>9}{'max s':>9}{'total s':>9}")
    start = time.perf_counter()
    for game in ranges[backends[0]]:
        speed: dict[str, float] = {}
        for backend in backends:
            deals = ranges[backend].get(game)
            if deals is None:
                continue
            r = bench(game, deals, args.time_limit, args.max_nodes, backend, args.memory, args.threads, args.lines)
            speed[backend] = float(r["nodes_per_second"])  # type: ignore[arg-type]
            label = f"{game} {deals.start}-{deals.stop - 1}"
            decided = f"{r['deals'] - r['unknown']}/{r['deals']}"
            print(f"{label:<28}{backend:>8}{decided:>10}{r['winnable']:>6}{r['unwinnable']:>6}{r['unknown']:>6}"
                  f"{r['nodes_per_second']:>12,.0f}{r['median']:>10.4f}{r['p99']:>9.3f}{r['max']:>9.3f}"
                  f"{r['total']:>9.1f}", flush=True)
            if args.lines:
                cpu = r["cpu"]
                print(f"  shortened lines: {cpu['short'] / cpu['found']:.2f}x the CPU seconds of the search's lines "
                      f"({cpu['short']:.2f} against {cpu['found']:.2f}); on the winnable deals alone "
                      f"{cpu['won short'] / max(cpu['won found'], 1e-9):.2f}x ({cpu['won short']:.2f} against "
                      f"{cpu['won found']:.2f})", flush=True)
            if r["open"]:
                print(f"  open: {', '.join(map(str, r['open'][:30]))}" + (" ..." if len(r["open"]) > 30 else ""))
        if len(speed) == 2 and speed["python"]:
            print(f"  the compiled core searches {speed['c'] / speed['python']:.0f} times as many positions a second "
                  f"as the Python reference (on their own ranges of deals)", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB; total {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
