"""The no-peek survey: play whole deals without peeking and count the wins.

``tableaux survey GAME --deals A-B --player fair`` plays each deal from the
deal to the end with the fair player (:func:`play_fair`: the first move of the
plan up to the next card turned, :func:`tableaux.advice.fair.plan`);
``--player hindsight`` with the move-by-move hindsight player
(:func:`play_hindsight`, :func:`tableaux.advice.fair.hindsight_vote`). Either reads only the
game's observation, and plays the rule of thumb, which looks at no hidden
card, when no sampled layout is won within the budget. The win rate is a
lower bound on what the best player who does not peek achieves, to set beside
the solver's winnable share (an upper bound).

It shares the solver survey's machinery (:mod:`tableaux.survey.parallel`, :mod:`tableaux.survey.files`):
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

from ..advice.fair.chance import hindsight_vote
from ..advice.fair.observation import FairError, read
from ..advice.fair.planner import PLANS, path_to_a_card, plan, proved_lost
from ..advice.heuristic import repeating_moves
from ..advice.hints import heuristic_hint
from ..common.intervals import wilson
from ..common.version import VERSION
from ..i18n import _
from ..play.game import Game, new_game
from .files import SurveyError, append_results, check_out, drop_torn_tail, resume_results
from .parallel import run_deals

MAX_MOVES = 1500
"""Moves per deal at most: a bound on the effort of a player that plays on by rule of thumb."""

SURVEY_NODES = 10_000
"""Default positions per sampled layout in the survey (``--max-nodes``)."""


PLAYERS = ("fair", "hindsight")
"""``fair``: the first move of the plan up to the next card turned that keeps most sampled layouts winnable
(:func:`.planner.plan`), and it never gives up on evidence alone; ``hindsight``: the move that keeps most
sampled layouts winnable (:func:`tableaux.advice.fair.hindsight_vote`), stopping once every sampled layout is lost."""

MORE_SAMPLES = 4
"""When every sampled layout is lost, the fair player looks again with this many times as many layouts."""


def play_deal(
    game: str,
    deal: int,
    *,
    samples: int,
    seed: int,
    max_nodes: int,
    player: str = "fair",
    plans: int = PLANS,
    max_moves: int = MAX_MOVES,
) -> dict[str, Any]:
    """Play one deal without peeking; one survey row. Runs in a worker, so it returns plain data.

    The row records the build that played it (``"version"``): another build's player may play the same settings
    differently, so the version tells rows apart, but it is no setting (:func:`check_settings`)."""
    start = time.perf_counter()
    g = new_game(game, deal)
    if player == "hindsight":
        end = play_hindsight(g, samples=samples, seed=seed, max_nodes=max_nodes, max_moves=max_moves)
    elif player == "fair":
        end = play_fair(g, samples=samples, seed=seed, max_nodes=max_nodes, plans=plans, max_moves=max_moves)
    else:
        raise FairError(f"unknown player {player!r}; the players are {', '.join(PLAYERS)}")
    return {
        "game": game,
        "deal": deal,
        "won": g.is_won(),
        "end": end,
        "moves": [str(m) for m in g.moves_played],
        **row_settings(player, samples=samples, seed=seed, max_nodes=max_nodes, plans=plans),
        "seconds": round(time.perf_counter() - start, 3),
        "version": VERSION,
    }


def row_settings(player: str, *, samples: int, seed: int, max_nodes: int, plans: int = PLANS) -> dict[str, Any]:
    """What a row of ``player`` records of how it was played: every setting that changes the game played, so
    that a file's rows can be told to be one experiment (:func:`check_settings`)."""
    settings: dict[str, Any] = {"player": player, "samples": samples, "seed": seed, "max_nodes": max_nodes}
    if player == "fair":
        settings |= {"plans": plans, "more_samples": MORE_SAMPLES}
    return settings


OPTIONS = {"player": "--player", "samples": "--samples", "seed": "--seed", "max_nodes": "--max-nodes"}
"""The command line's option for each setting a row records; ``plans`` and ``more_samples`` have none."""


def check_settings(rows: dict[int, dict[str, Any]], out: str | Path | None, settings: dict[str, Any]) -> None:
    """Refuse to add games played with other ``settings`` to a file whose rows were played with others.

    A no-peek row is not a verdict that a bigger budget may only complete, as a solver row is
    (:func:`tableaux.survey.solver.worth_retrying`): its game and its result are those of its settings, and another
    seed or budget plays another game. The rows already in a file would be skipped and counted as this run's, so
    a file holds one experiment, as it holds one player's games; another one goes to another ``--out``. A setting a
    row does not record (a row older than it) is not held against it; a row without ``player`` is the fair one's.
    """
    for row in rows.values():
        recorded = {"player": "fair"} | row
        differ = [key for key, value in settings.items() if key in recorded and recorded[key] != value]
        if differ:
            theirs, ours = (", ".join(f"{OPTIONS.get(key, key)} {values[key]}" for key in differ)
                            for values in (recorded, settings))
            raise SurveyError(_("{file} holds games played with {theirs}, not {ours}; give another --out, or run with "
                                "the file's settings").format(file=out, theirs=theirs, ours=ours))


def play_fair(
    g: Game, *, samples: int, seed: int, max_nodes: int, plans: int = PLANS, max_moves: int = MAX_MOVES
) -> str:
    """The fair player: play the first move of the best plan up to the next card turned (:func:`.planner.plan`).

    It asks again after every move, with fresh layouts: no card is learnt
    between two, but a new look averages over more layouts and lets the rest
    of the plan change. When no card is left to guess it follows one whole
    winning line. It keeps playing while any move might still win: when
    every sampled layout is lost it looks again over more layouts, and when
    those are lost too it plays the rule of thumb (which does not peek) until
    a card turns, then looks again. When the rule of thumb has no move left
    that reaches a new position, it looks for known moves that lead to a card
    it can turn (:func:`.planner.path_to_a_card`) and plays them. It stops
    only when the game is won, no legal move is left, or the game is proved
    lost from what is seen: every arrangement of the unseen cards solved and
    lost (:func:`.planner.proved_lost`, when few cards are unseen), or no card
    left unseen can ever be turned. ``no new move`` (the search for a card to
    turn ran out of its positions) and ``move limit`` end a game on effort,
    not proof.
    """
    looked_at: int | None = None  # how many cards were unseen when every layout looked at was lost
    hopeless = False  # every layout looked at since the last plan was lost
    while not g.is_won():
        if not g.legal_moves():
            return "no move left"
        if len(g.moves_played) >= max_moves:
            return "move limit"
        observation = g.observation()
        if observation["unseen"] != looked_at:  # something new is known, or a plan is being followed
            tag = f"{seed}:{len(g.moves_played)}"
            answer = plan(observation, samples, seed=tag, max_nodes=max_nodes, plans=plans, avoid=repeating_moves(g))
            if not answer.moves and answer.lost:
                if proved_lost(read(observation), max_nodes):
                    return "proved lost"
                if not hopeless:  # evidence, not proof: look over more layouts before playing on by rule of thumb
                    answer = plan(observation, samples * MORE_SAMPLES, seed=f"{tag}:more", max_nodes=max_nodes,
                                  plans=plans, avoid=repeating_moves(g))
                if not answer.moves:
                    looked_at, hopeless = observation["unseen"], True
            if answer.moves:
                looked_at, hopeless = None, False
                line = answer.moves if not answer.turns else answer.moves[:1]  # nothing left to guess: the whole line
                for move in line[: max_moves - len(g.moves_played)]:
                    g.play(move)
                continue
        fallback = heuristic_hint(g).move  # no layout won within the budget: a rule of thumb, which does not peek
        if fallback is not None:
            g.play(fallback)
            continue
        path = path_to_a_card(read(observation))  # every new move tried: is there still a card to turn?
        if not path:  # no card can ever be turned: with one unseen, no win is possible
            return "proved lost" if path is not None and observation["unseen"] else "no new move"
        for move in path[: max_moves - len(g.moves_played)]:
            g.play(g.rules.to_move(move))
    return "won"


def play_hindsight(g: Game, *, samples: int, seed: int, max_nodes: int, max_moves: int = MAX_MOVES) -> str:
    """The hindsight player: always the move that keeps most sampled layouts winnable
    (:func:`tableaux.advice.fair.hindsight_vote`).

    It stops when the game is won, no move is left, or every sampled
    layout is proved unwinnable (it then believes the game lost).
    """
    while not g.is_won():
        if not g.legal_moves():
            return "no move left"
        if len(g.moves_played) >= max_moves:
            return "move limit"
        answer = hindsight_vote(g.observation(), samples, seed=f"{seed}:{len(g.moves_played)}", max_nodes=max_nodes,
                      avoid=repeating_moves(g))
        if answer.line:  # every card is known: follow one winning plan rather than re-planning each move
            for move in answer.line[: max_moves - len(g.moves_played)]:
                g.play(move)
            continue
        if answer.move is not None:
            g.play(answer.move)
            continue
        if answer.winnable == 0 and answer.decided == answer.samples:
            return "no sampled layout winnable"
        fallback = heuristic_hint(g).move  # nothing decided within the budget: a rule of thumb, which does not peek
        if fallback is None:
            return "no useful move"
        g.play(fallback)
    return "won"


def run(
    game: str,
    deals: range,
    *,
    samples: int,
    seed: int,
    max_nodes: int,
    player: str = "fair",
    plans: int = PLANS,
    workers: int = 1,
    out: str | Path | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play every deal of ``deals`` not already in ``out``; return the summary over the whole range."""
    check_out(out)
    done = resume_results(out, game, field="won")
    check_settings(done, out, row_settings(player, samples=samples, seed=seed, max_nodes=max_nodes, plans=plans))
    drop_torn_tail(out)
    wanted = set(deals)
    results = {d: r for d, r in done.items() if d in wanted}
    todo = [d for d in deals if d not in done]
    task = partial(play_deal, game, samples=samples, seed=seed, max_nodes=max_nodes, player=player, plans=plans)
    rows: Iterator[dict[str, Any]] = (task(d) for d in todo) if workers == 1 else run_deals(task, todo, workers)
    for row in rows:
        append_results(out, [row])
        results[row["deal"]] = row
        if on_result:
            on_result(row)
    return summarise(results[d] for d in deals if d in results)


def summarise(rows: Any) -> dict[str, Any]:
    """Deals, wins, the win share with its 95% Wilson interval, and the seconds per move played."""
    rows = list(rows)
    won = sum(bool(r["won"]) for r in rows)
    low, high = wilson(won, len(rows))
    moves = sum(len(r["moves"]) for r in rows)
    return {"deals": len(rows), "won": won, "share": won / len(rows) if rows else float("nan"),
            "low": low, "high": high, "moves": moves,
            "seconds_per_move": sum(r["seconds"] for r in rows) / moves if moves else float("nan")}
