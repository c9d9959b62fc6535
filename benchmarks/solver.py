"""Solver benchmark: a fixed range of deals per game, a fixed time limit, the figures that matter.

    python benchmarks/solver.py                      # default: a few minutes on two cores
    python benchmarks/solver.py --time-limit 10 --deals king-albert=1-2000   # the C++ comparison

Prints, per game: the share of deals decided within the limit, median and
p90 seconds per decided deal (and the median for won deals), positions
searched per second, and the peak memory of the process. Runs in one process
so that positions per second mean something; for big runs use
``tableaux survey`` instead, which is parallel and resumable.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from tableaux import new_game
from tableaux.solver import solve
from tableaux.solver.survey import parse_deals, percentile

DEFAULT_DEALS = {
    "king-albert": "1-300",
    "king-albert-classic": "1-100",
    "eagle-wing": "1-100",
}


def bench(game: str, deals: range, time_limit: float) -> dict[str, float]:
    verdicts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    decided_times: list[float] = []
    won_times: list[float] = []
    nodes = 0
    seconds = 0.0
    for deal in deals:
        result = solve(new_game(game, deal), time_limit=time_limit)
        verdicts[result.verdict] += 1
        nodes += result.nodes
        seconds += result.seconds
        if result.verdict != "unknown":
            decided_times.append(result.seconds)
        if result.verdict == "winnable":
            won_times.append(result.seconds)
    decided_times.sort()
    won_times.sort()
    n = len(deals)
    return {
        "deals": n,
        **verdicts,
        "decided": (n - verdicts["unknown"]) / n,
        "median": percentile(decided_times, 50),
        "p90": percentile(decided_times, 90),
        "median_won": percentile(won_times, 50),
        "nodes_per_second": nodes / seconds if seconds else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time-limit", type=float, default=2.0, help="seconds per deal (default 2)")
    parser.add_argument("--deals", action="append", default=[], metavar="GAME=FIRST-LAST",
                        help="deal range for a game (repeatable); only the games named are run")
    args = parser.parse_args(argv)
    ranges = dict(DEFAULT_DEALS)
    if args.deals:
        ranges = {}
        for item in args.deals:
            game, _, text = item.partition("=")
            if game not in DEFAULT_DEALS or not text:
                parser.error(f"--deals takes GAME=FIRST-LAST with GAME one of {', '.join(DEFAULT_DEALS)}")
            ranges[game] = text
    print(f"time limit {args.time_limit:g} s per deal; Python {sys.version.split()[0]}")
    print(f"{'game':<22}{'deals':>7}{'decided':>9}{'won':>6}{'lost':>6}{'unkn':>6}"
          f"{'median':>9}{'p90':>9}{'med won':>9}{'pos/s':>9}")
    start = time.perf_counter()
    for game, text in ranges.items():
        deals = parse_deals(text)
        r = bench(game, deals, args.time_limit)
        label = f"{game} {deals.start}-{deals.stop - 1}"
        print(f"{label:<22}{r['deals']:>7}{100 * r['decided']:>8.1f}%{r['winnable']:>6}{r['unwinnable']:>6}"
              f"{r['unknown']:>6}{r['median']:>8.3f}s{r['p90']:>8.3f}s{r['median_won']:>8.3f}s"
              f"{r['nodes_per_second']:>9.0f}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB; total {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
