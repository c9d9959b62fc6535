"""Engine speed: positions per second for move generation plus play, on random playouts.

Run ``python benchmarks/engine.py`` (about 20 s) or ``--quick`` (about 3 s).
Each repetition plays random legal moves for a fixed time, starting a fresh
deal at a dead end or after ``--plies`` moves, and counts positions: one
``moves()`` call plus one ``apply()`` of a chosen move. Two layers are timed:

* ``rules``: ``Rules.moves``/``Rules.apply`` on raw tuples, what the solver uses;
* ``game``:  ``Game.legal_moves``/``Game.play`` with history, what the UIs use.

The figure reported is the median over the repetitions, and the ratio between
the games shows which one a solver will find cheaper per node.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import tableaux

GAMES = ("king-albert", "eagle-wing")


def rules_run(name: str, seconds: float, plies: int, rng: random.Random) -> float:
    """Positions per second through the raw rules layer."""
    rules = tableaux.rules(name)
    starts = [rules.deal(rng.randrange(2**32)) for _ in range(16)]
    moves, apply, choice = rules.moves, rules.apply, rng.choice
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = choice(starts)
        for _ in range(plies):
            legal = moves(state)
            count += 1
            if not legal:
                break
            state = apply(state, choice(legal))
    return count / (time.perf_counter() - start)


def game_run(name: str, seconds: float, plies: int, rng: random.Random) -> float:
    """Positions per second through the Game object (history, Move values)."""
    deals = [rng.randrange(2**32) for _ in range(16)]
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = tableaux.new_game(name, rng.choice(deals))
        for _ in range(plies):
            legal = game.legal_moves()
            count += 1
            if not legal:
                break
            game.play(rng.choice(legal))
    return count / (time.perf_counter() - start)


def measure(run: Callable[[str, float, int, random.Random], float], name: str, args: argparse.Namespace) -> list[float]:
    rng = random.Random(args.seed)
    return [run(name, args.seconds, args.plies, rng) for _ in range(args.repeat)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per repetition (default 1)")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per figure (default 5)")
    parser.add_argument("--plies", type=int, default=300, help="moves per playout before a fresh deal")
    parser.add_argument("--seed", type=int, default=1, help="random seed for deals and move choices")
    parser.add_argument("--quick", action="store_true", help="0.25 s x 3 repetitions: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.repeat = 0.25, 3
    if args.seconds <= 0 or args.repeat < 1 or args.plies < 1:
        parser.error("--seconds must be positive, --repeat and --plies at least 1")

    print(f"random playouts, {args.repeat} x {args.seconds:g} s per figure, median positions/second")
    print(f"{'layer':<7} {'game':<13} {'median':>10} {'min':>10} {'max':>10}")
    for layer, run in (("rules", rules_run), ("game", game_run)):
        medians = {}
        for name in GAMES:
            rates = measure(run, name, args)
            medians[name] = statistics.median(rates)
            print(f"{layer:<7} {name:<13} {medians[name]:>10,.0f} {min(rates):>10,.0f} {max(rates):>10,.0f}")
        ratio = medians["eagle-wing"] / medians["king-albert"]
        print(f"{layer:<7} eagle-wing / king-albert = {ratio:.2f}")


if __name__ == "__main__":
    main()
