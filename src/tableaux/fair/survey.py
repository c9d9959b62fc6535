"""The no-peek survey: play whole deals with fair hints only and count the wins.

``tableaux survey GAME --deals A-B --player fair`` plays each deal from the
deal to the end, always playing the fair hint (:func:`tableaux.fair.hint` on
the game's observation; the rule of thumb when no sampled layout is won within
the budget). Its win rate is a lower bound on what the best player who does
not peek achieves, to set beside the solver's winnable share (an upper bound).

It shares the solver survey's machinery (:mod:`tableaux.solver.parallel`, :mod:`tableaux.solver.survey_file`):
results are JSON lines appended as each deal finishes, a rerun with the same
``--out`` skips the deals already there, and ``--workers`` runs deals in
parallel processes. Every budget is counted in positions, never seconds, and
each move's samples come from a seed derived from ``--seed`` and the move's
number, so the same seed replays the same game on any machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

from ..game import new_game
from ..heuristic import repeating_moves
from ..hints import heuristic_hint
from ..solver.parallel import run_deals
from ..solver.survey_file import append_results, check_out, drop_torn_tail, read_results
from ..statistics import wilson
from .advice import hint

MAX_MOVES = 1500
"""Moves per deal at most; a fair player never repeats a position, so this only bounds the effort."""

SURVEY_NODES = 10_000
"""Default positions per sampled layout in the survey (``--max-nodes``)."""


def play_deal(
    game: str,
    deal: int,
    *,
    samples: int,
    seed: int,
    max_nodes: int,
    max_moves: int = MAX_MOVES,
) -> dict[str, Any]:
    """Play one deal with fair hints only; one survey row. Runs in a worker, so it returns plain data.

    The player stops when the game is won, no move is left, or every sampled
    layout is proved unwinnable (it then believes the game lost, as a person
    would; this can only lower the win rate, so the lower bound stands).
    """
    g = new_game(game, deal)
    start = time.perf_counter()
    end = "won"
    while not g.is_won():
        if not g.legal_moves():
            end = "no move left"
            break
        if len(g.moves_played) >= max_moves:
            end = "move limit"
            break
        answer = hint(g.observation(), samples, seed=f"{seed}:{len(g.moves_played)}", max_nodes=max_nodes,
                      avoid=repeating_moves(g))
        if answer.line:  # every card is known: follow one winning plan rather than re-planning each move
            for move in answer.line[: max_moves - len(g.moves_played)]:
                g.play(move)
            continue
        if answer.move is not None:
            g.play(answer.move)
            continue
        if answer.winnable == 0 and answer.decided == answer.samples:
            end = "no sampled layout winnable"
            break
        fallback = heuristic_hint(g).move  # nothing decided within the budget: a rule of thumb, which does not peek
        if fallback is None:
            end = "no useful move"
            break
        g.play(fallback)
    return {
        "game": game,
        "deal": deal,
        "player": "fair",
        "won": g.is_won(),
        "end": end,
        "moves": [str(m) for m in g.moves_played],
        "samples": samples,
        "seed": seed,
        "max_nodes": max_nodes,
        "seconds": round(time.perf_counter() - start, 3),
    }


def run(
    game: str,
    deals: range,
    *,
    samples: int,
    seed: int,
    max_nodes: int,
    workers: int = 1,
    out: str | Path | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play every deal of ``deals`` not already in ``out``; return the summary over the whole range."""
    check_out(out)
    done = read_results(out, game, field="won")
    drop_torn_tail(out)
    wanted = set(deals)
    results = {d: r for d, r in done.items() if d in wanted}
    todo = [d for d in deals if d not in done]
    task = partial(play_deal, game, samples=samples, seed=seed, max_nodes=max_nodes)
    rows: Iterator[dict[str, Any]] = (task(d) for d in todo) if workers == 1 else run_deals(task, todo, workers)
    for row in rows:
        append_results(out, [row])
        results[row["deal"]] = row
        if on_result:
            on_result(row)
    return summarise(results[d] for d in deals if d in results)


def summarise(rows: Any) -> dict[str, Any]:
    rows = list(rows)
    won = sum(bool(r["won"]) for r in rows)
    low, high = wilson(won, len(rows))
    return {"deals": len(rows), "won": won, "share": won / len(rows) if rows else float("nan"),
            "low": low, "high": high}
