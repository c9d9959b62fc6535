"""Fair-play benchmark: how long a chance to win and a fair hint take, on positions a player meets.

    python benchmarks/fair.py                        # deals 1-5 of both games, 64 samples
    python benchmarks/fair.py --deals 1-20 --samples 64 --max-nodes 20000

For each deal: the position at the deal, and the position after 10 moves of
the solver's own line (most hints are asked in mid-game). Prints, per game,
the median and maximum seconds of ``fair.win_chance`` and of a fair hint
(``fair.hint`` with the default candidates), and whether the solver in use is
the compiled core or the pure-Python reference. The targets, with the compiled
core: a 64-sample chance in at most 1 s median, a fair hint in at most 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from tableaux import fair, new_game
from tableaux.deal import parse_deals
from tableaux.solver import solve


def positions(game: str, deals: range) -> list[dict]:
    out = []
    for deal in deals:
        g = new_game(game, deal)
        out.append(g.observation())
        line = solve(g, max_nodes=20_000).moves
        for move in line[:10]:
            g.play(move)
        if line:
            out.append(g.observation())
    return out


def timed(fn, *args, **kwargs) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-5")
    parser.add_argument("--samples", type=int, default=fair.SAMPLES)
    parser.add_argument("--max-nodes", type=int, default=fair.SAMPLE_NODES)
    parser.add_argument("--games", nargs="+", default=["king-albert", "eagle-wing"])
    args = parser.parse_args(argv)
    try:
        from tableaux.solver import _core  # type: ignore[attr-defined]  # noqa: F401

        backend = "compiled core"
    except ImportError:
        backend = "pure-Python solver"
    print(f"{backend}; {args.samples} samples, {args.max_nodes} positions per layout; Python "
          f"{sys.version.split()[0]}")
    print(f"{'game':<14}{'positions':>10}{'chance med':>12}{'chance max':>12}{'hint med':>10}{'hint max':>10}")
    for game in args.games:
        obs = positions(game, parse_deals(args.deals))
        chance = [timed(fair.win_chance, o, args.samples, max_nodes=args.max_nodes) for o in obs]
        hint = [timed(fair.hint, o, args.samples, max_nodes=args.max_nodes) for o in obs]
        print(f"{game:<14}{len(obs):>10}{statistics.median(chance):>11.2f}s{max(chance):>11.2f}s"
              f"{statistics.median(hint):>9.2f}s{max(hint):>9.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
