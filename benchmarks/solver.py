"""Solver benchmark: both backends on a fixed range of deals per game, the figures that matter.

    python benchmarks/solver.py                                  # a few minutes on two cores
    python benchmarks/solver.py --deals king-albert=1-2000 --time-limit 10 --backend c   # the target's range

Prints, per game and backend: deals decided within the budget, positions
searched per second (all positions over all seconds), and seconds per deal
(median, p99, max, total). Both backends run the same deals in one process,
one after the other, so their ratio is fair even on a busy machine; quote
medians. The Python backend gets a smaller range by default (it is about fifty
times slower): --python-deals sets it.

Solvitaire, the C++ research solver, on King Albert deals 1-2000 at 10 s each on
this kind of machine (shared/spec/solver-targets.md): 1999 decided, median 3 ms,
p90 27 ms, p99 175 ms, max 1.1 s, about 775,000 positions a second.

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
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

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

PYTHON_DEALS = {
    "king-albert": "1-60",
    "eagle-wing": "1-60",
    "king-albert-classic": "1-20",
}


def bench(
    game: str, deals: range, time_limit: float, max_nodes: int | None, backend: str, memory_mb: int, threads: int
) -> dict[str, object]:
    verdicts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    open_deals = []
    for deal in deals:
        result = solve(new_game(game, deal), time_limit=time_limit, max_nodes=max_nodes, backend=backend,
                       memory_mb=memory_mb, threads=threads)
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
    parser.add_argument("--hard-tail", action="store_true",
                        help="the hard deals (HARD_TAIL), as the C core is and without its streamlined runs")
    parser.add_argument("--big-rows", action="store_true",
                        help="every deal the surveys won only with a big budget (BIG_ROWS), solved once each")
    args = parser.parse_args(argv)
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
        for backend in backends:
            deals = ranges[backend].get(game)
            if deals is None:
                continue
            r = bench(game, deals, args.time_limit, args.max_nodes, backend, args.memory, args.threads)
            label = f"{game} {deals.start}-{deals.stop - 1}"
            decided = f"{r['deals'] - r['unknown']}/{r['deals']}"
            print(f"{label:<28}{backend:>8}{decided:>10}{r['winnable']:>6}{r['unwinnable']:>6}{r['unknown']:>6}"
                  f"{r['nodes_per_second']:>12,.0f}{r['median']:>10.4f}{r['p99']:>9.3f}{r['max']:>9.3f}"
                  f"{r['total']:>9.1f}", flush=True)
            if r["open"]:
                print(f"  open: {', '.join(map(str, r['open'][:30]))}" + (" ..." if len(r["open"]) > 30 else ""))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB; total {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
