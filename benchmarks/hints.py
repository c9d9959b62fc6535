"""Hint benchmark: how often ``tableaux.hint(game)`` answers from the solver, and how fast, on positions of random play.

    python benchmarks/hints.py                    # 300 positions per game, default hint budget
    python benchmarks/hints.py --positions 1000 --backend python

The positions come from random games (a fixed seed, so every run sees the same
ones): each is a deal number drawn at random, played for a random number of
random legal moves. For each game and hint mode it prints the share of hints
that came from the solver (peek: a move on a winning line of the real deal, or
a proved loss; fair: the move that wins in the most sampled layouts of the
hidden cards, or the news that none of them can be won), and the median, p99
and maximum seconds per hint, with the hints from the rule of thumb and the
positions with no legal move (which need no search) counted apart. The target
for the peeking hint: at least 99% of the positions with a legal move answered
by the solver, each in under a second.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import tableaux
from tableaux import GAMES, new_game
from tableaux.advice.effort import PEEK_NODES, PEEK_SECONDS
from tableaux.common.intervals import percentile
from tableaux.solver import BACKENDS


def positions(game: str, count: int, seed: int) -> list:
    rng = random.Random(f"{seed}-{game}")
    out = []
    while len(out) < count:
        g = new_game(game, rng.randrange(2**32))
        for _ in range(rng.randrange(0, 120)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        if not g.is_won():
            out.append(g)
    return out


def bench(game: str, count: int, seed: int, mode: str) -> dict[str, float]:
    times: list[float] = []
    sources = {"solver": 0, "heuristic": 0, "none": 0}
    lost = 0
    for g in positions(game, count, seed):
        start = time.perf_counter()
        hint = tableaux.hint(g, mode=mode)
        times.append(time.perf_counter() - start)
        sources[hint.source] += 1
        lost += hint.unwinnable
    times.sort()
    return {
        "positions": count,
        "solver_share": sources["solver"] / count,
        "proved_lost": lost,
        "heuristic": sources["heuristic"],
        "none": sources["none"],
        "median": percentile(times, 50),
        "p99": percentile(times, 99),
        "max": times[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="king-albert,eagle-wing,king-albert-classic")
    parser.add_argument("--backend", choices=BACKENDS, default=None)
    parser.add_argument("--modes", default="peek,fair",
                        help="hint modes to measure: peek (the solver sees every card), fair (the default)")
    args = parser.parse_args(argv)
    if args.backend:
        os.environ["TABLEAUX_SOLVER"] = args.backend
    from tableaux.solver import default_backend

    print(f"hint budget: {PEEK_NODES:,} positions or {PEEK_SECONDS} s; backend {default_backend()}")
    print("solver: hints the solver answered; lost: of all, those that say the position cannot be won; rule: hints "
          "from the rule of thumb; no move: positions with no legal move, lost without a search")
    print(f"{'game':<22}{'mode':>6}{'positions':>10}{'solver':>9}{'lost':>6}{'rule':>6}{'no move':>9}"
          f"{'median s':>10}{'p99 s':>8}{'max s':>8}")
    for game in args.games.split(","):
        if game not in GAMES:
            parser.error(f"unknown game {game!r}")
        for mode in args.modes.split(","):
            r = bench(game, args.positions, args.seed, mode)
            print(f"{game:<22}{mode:>6}{r['positions']:>10}{100 * r['solver_share']:>8.1f}%{r['proved_lost']:>6}"
                  f"{r['heuristic']:>6}{r['none']:>9}{r['median']:>10.4f}{r['p99']:>8.3f}{r['max']:>8.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
