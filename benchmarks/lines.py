"""Line benchmark: how long the winning lines are, against their lower bounds, and what shortening them costs.

    python benchmarks/lines.py                           # 30 fresh winnable deals per game, a few minutes
    python benchmarks/lines.py --seed 7 --deals 60       # another draw, more deals
    python benchmarks/lines.py --shortest 200000         # also the fewest-moves search, 200,000 positions a deal

Each game gets fresh deals: numbers drawn at random from the whole range (printed with the seed, so a run can
be repeated), kept when the solver wins them within the time limit. Each deal is solved twice in one process,
one after the other: as the search finds its line (``line="found"``, the solve as it was before lines were
shortened) and as ``tableaux.solve`` returns it (shortened). Printed per game: the median, 90th percentile and
maximum length of the search's lines, of the returned lines and of their proved lower bounds, the line's
excess over its bound, and the solve time of the second against the first (a ratio within one run: CPU
seconds summed over the deals). With ``--shortest N``, the fewest-moves search too: its lines, its bounds and
how many it proved the fewest there are.

Moves count as the player's move counter counts them: one drag or one click on the stock, with the card turned
up or dealt in after it as part of it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from tableaux.common.intervals import percentile
from tableaux.rulebook.deal import MAX_DEAL
from tableaux.rulebook.registry import GAMES
from tableaux.solver import solve

TARGETS = {"eagle-wing": (160, 260), "king-albert-classic": (110, 160), "king-albert": (90, 110)}
"""The goals for the returned lines: median and maximum moves."""


def timed(game: str, deal: int, **options: Any) -> tuple[Any, float]:
    cpu = time.process_time()
    result = solve(game, deal, **options)
    return result, time.process_time() - cpu


def figures(values: list[int]) -> str:
    v = sorted(values)
    return f"{percentile(v, 50):>6.0f}{percentile(v, 90):>6.0f}{v[-1]:>6}" if v else f"{'-':>6}{'-':>6}{'-':>6}"


def run_game(game: str, rng: random.Random, deals: int, time_limit: float, shortest: int | None) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    tried = 0
    while len(rows) < deals:
        deal = rng.randrange(MAX_DEAL + 1)
        tried += 1
        found, before = timed(game, deal, time_limit=time_limit, line="found")
        if not found.winnable:
            continue
        short, after = timed(game, deal, time_limit=time_limit)
        row = {"deal": deal, "found": len(found.moves), "short": len(short.moves), "bound": short.lower_bound,
               "before": before, "after": after}
        if shortest:
            fewest, spent = timed(game, deal, shortest=True, max_nodes=shortest)
            row |= {"fewest": len(fewest.moves), "fewest_bound": fewest.lower_bound, "optimal": fewest.optimal,
                    "fewest_seconds": spent}
        rows.append(row)
    return {"rows": rows, "tried": tried}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30, help="winnable deals per game (default 30)")
    parser.add_argument("--seed", type=int, default=None, help="the draw's seed (default: a fresh one)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per solve (default 10)")
    parser.add_argument("--games", nargs="+", choices=tuple(GAMES), default=list(TARGETS))
    parser.add_argument("--shortest", type=int, default=None, metavar="N",
                        help="also the fewest-moves search, N positions per deal")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed {seed}; {args.deals} winnable deals per game drawn from 0-{MAX_DEAL}; {args.time_limit:g} s a solve;"
          f" Python {sys.version.split()[0]}")
    head = f"{'':<22}{'median':>6}{'p90':>6}{'max':>6}"
    for game in args.games:
        rng = random.Random(f"{seed} {game}")
        result = run_game(game, rng, args.deals, args.time_limit, args.shortest)
        rows = result["rows"]
        before = sum(r["before"] for r in rows)
        after = sum(r["after"] for r in rows)
        median, most = TARGETS.get(game, (None, None))
        print(f"\n{game}: {len(rows)} winnable of {result['tried']} drawn; goal for returned lines: median <= {median},"
              f" max <= {most}")
        print(head)
        print(f"{'search line':<22}{figures([r['found'] for r in rows])}")
        print(f"{'returned line':<22}{figures([r['short'] for r in rows])}")
        print(f"{'lower bound':<22}{figures([r['bound'] for r in rows])}")
        print(f"{'returned - bound':<22}{figures([r['short'] - r['bound'] for r in rows])}")
        if args.shortest:
            print(f"{'fewest-moves line':<22}{figures([r['fewest'] for r in rows])}")
            print(f"{'its bound':<22}{figures([r['fewest_bound'] for r in rows])}")
            print(f"{'its line - bound':<22}{figures([r['fewest'] - r['fewest_bound'] for r in rows])}")
            proved = sum(r["optimal"] for r in rows)
            spent = sum(r["fewest_seconds"] for r in rows)
            print(f"fewest proved for {proved} of {len(rows)} deals; {spent / len(rows):.2f} CPU s a deal")
        extra = sorted(r["after"] - r["before"] for r in rows)
        print(f"solve time, returned against search line: {after / before:.2f}x ({after:.2f} against {before:.2f} "
              f"CPU s); extra per deal: median {percentile(extra, 50) * 1000:.0f} ms, max {extra[-1] * 1000:.0f} ms")
        print("deals: " + " ".join(str(r["deal"]) for r in rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
