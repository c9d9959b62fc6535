"""Fair-play benchmark: how long a chance to win and a fair hint take, on positions a player meets.

    python benchmarks/fair.py                        # deals 1-5 of both games
    python benchmarks/fair.py --deals 1-20 --hint-samples 64

For each deal: the position at the deal, and the position after 10 moves of
the solver's own line (most hints are asked in mid-game). Prints, per game,
the median (wall-clock and CPU) and maximum seconds of ``fair.win_chance`` (64 samples) and of the
fair hint exactly as the terminal and the browser ask for it
(``tableaux.hint(game)``: the fair player's plan with ``fair.HINT_SAMPLES``
layouts of ``fair.HINT_NODES`` positions), and the hint's median as a share of
its target. The targets, with the compiled core: a chance in at most 1 s
median, a hint in at most 1 s median. ``--hint-samples`` and
``--hint-nodes`` time a stronger or weaker hint, to choose its budget.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tableaux import Game, fair, hint, new_game
from tableaux.rulebook.deal import parse_deals
from tableaux.solver import solve

HINT_TARGET = 1.0
"""Seconds: the median a fair hint must answer within on a 2-core machine."""


def positions(game: str, deals: range) -> list[Game]:
    out = []
    for deal in deals:
        g = new_game(game, deal)
        out.append(g.copy())
        line = solve(g, max_nodes=20_000).moves
        for move in line[:10]:
            g.play(move)
        if line:
            out.append(g)
    return out


def timed(fn, *args, **kwargs) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Wall-clock and CPU seconds of one call: the wait a player has, and the work, which a busy machine sways
    far less."""
    start, cpu = time.perf_counter(), time.process_time()
    fn(*args, **kwargs)
    return time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-5")
    parser.add_argument("--samples", type=int, default=fair.SAMPLES, help="the chance's sampled layouts")
    parser.add_argument("--max-nodes", type=int, default=fair.SAMPLE_NODES, help="the chance's positions per layout")
    parser.add_argument("--hint-samples", type=int, default=fair.HINT_SAMPLES)
    parser.add_argument("--hint-nodes", type=int, default=fair.HINT_NODES)
    parser.add_argument("--games", nargs="+", default=["king-albert", "eagle-wing"])
    args = parser.parse_args(argv)
    try:
        from tableaux.solver import _core  # type: ignore[attr-defined]  # noqa: F401

        backend = "compiled core"
    except ImportError:
        backend = "pure-Python solver"
    print(f"{backend}; chance: {args.samples} samples x {args.max_nodes} positions; hint: the fair player's plan, "
          f"{args.hint_samples} samples x {args.hint_nodes} positions; Python {sys.version.split()[0]}")
    print("seconds: wall-clock (CPU); 'asked at': the positions each is asked at (the deals, and 10 moves on)")
    print(f"{'game':<14}{'asked at':>9}{'chance median':>18}{'chance max':>12}{'hint median':>18}{'hint max':>10}"
          f"{'hint/target':>13}")
    for game in args.games:
        games = positions(game, parse_deals(args.deals))
        chance = [timed(fair.win_chance, g.observation(), args.samples, max_nodes=args.max_nodes) for g in games]
        hints = [timed(hint, g, samples=args.hint_samples, max_nodes=args.hint_nodes) for g in games]
        median = statistics.median(wall for wall, _ in hints)

        def both(times: list[tuple[float, float]]) -> str:
            return (f"{statistics.median(wall for wall, _ in times):.2f}s "
                    f"({statistics.median(cpu for _, cpu in times):.2f}s)")

        print(f"{game:<14}{len(games):>9}{both(chance):>18}{max(w for w, _ in chance):>11.2f}s"
              f"{both(hints):>18}{max(w for w, _ in hints):>9.2f}s{median / HINT_TARGET:>13.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
