"""The chance to win and the fair hint: sampled layouts of the unseen cards, each solved with every card known.

Both read an observation only (:mod:`.observation`), never a game, so they
cannot use a face-down card even by mistake. Each sampled layout is decided by
the clairvoyant solver (:func:`tableaux.solver.solve`); ``docs/fair.md`` says
what the figures mean and why the sampling is exact.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...common.intervals import wilson
from ...rulebook.engine import Move, Rules, State
from ...solver import SolveResult, check_budget, shorten, solve
from ..effort import SAMPLE_NODES, SAMPLES
from ..heuristic import heuristic_moves
from .observation import FairError, Knowledge, check_count, nothing_to_guess, read, sample_states

CANDIDATES = 3
"""Fair hints: how many of the best-voted first moves are tried on every winnable layout."""


# --- solving the samples ---------------------------------------------------------------------------------
class _Solver:
    """Solves sampled positions once each, within one overall deadline."""

    def __init__(self, rules: Rules, max_nodes: int | None, time_limit: float | None,
                 states: Sequence[State] = (), started: float | None = None) -> None:
        """``max_nodes`` is each layout's budget; when the ``states`` to be solved are all one layout (no card is
        left to guess), that layout gets what all of them would have had: it is all there is to search, and the
        same search made again with the same budget would only say again that it could not tell. The time
        limit counts from ``started`` (a :func:`time.perf_counter` time; now when None): the caller's start,
        before the layouts were drawn."""
        self.rules = rules
        if max_nodes is not None and len(states) > 1 and len(set(states)) == 1:
            max_nodes *= len(states)
        self.max_nodes = max_nodes
        start = time.perf_counter() if started is None else started
        self.deadline = None if time_limit is None else start + time_limit
        self.cache: dict[State, SolveResult] = {}
        self.nodes = 0

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def each(self, states: Sequence[State]) -> Iterator[tuple[int, SolveResult]]:
        """Each layout's index and result, in order, until the deadline passes; the first is always solved,
        so an answer rests on at least one layout."""
        for i, state in enumerate(states):
            if i and self.out_of_time():
                return
            yield i, self(state)

    def __call__(self, state: State) -> SolveResult:
        known = self.cache.get(state)
        if known is not None:
            return known
        limit = None if self.deadline is None else max(1e-3, self.deadline - time.perf_counter())
        # The search's own line: votes and plans are cut from it, and a line shown to the player is shortened
        # on its own (:meth:`short_line`); shortening every sampled layout's line would spend the time on lines.
        result = solve((self.rules, state), max_nodes=self.max_nodes, time_limit=limit, line="found")
        self.nodes += result.nodes
        if result.verdict != "unknown" or self.deadline is None:
            self.cache[state] = result  # an unknown found in a hurry is not the budget's last word
        return result

    def short_line(self, state: State, moves: list[Move]) -> list[Move]:
        """A winning line found here, shortened as a solve's line is before a player sees it."""
        limit = None if self.deadline is None else max(1e-3, self.deadline - time.perf_counter())
        return shorten((self.rules, state), moves, time_limit=limit)


def draw(knowledge: Knowledge, samples: int, seed: int | str, max_nodes: int | None, time_limit: float | None,
         started: float) -> tuple[list[State], _Solver]:
    """The sampled layouts, and the solver for them, within one time limit counted from ``started`` (the caller's
    start): the drawing stops at it too, except when no card is left to guess, where the layouts are all one and
    their number is the budget of its one search."""
    known = nothing_to_guess(len(knowledge.unseen))
    deadline = None if time_limit is None or known else started + time_limit
    states = sample_states(knowledge, samples, seed, deadline)
    return states, _Solver(knowledge.rules, max_nodes, time_limit, states, started)


@dataclass(frozen=True)
class Chance:
    """What :func:`win_chance` found: how many sampled layouts of the unseen cards the solver wins.

    ``share`` is the share of the ``samples`` layouts solved that the solver
    proves winnable; ``low`` and ``high`` bound the share over all layouts (a
    95% Wilson interval, with undecided layouts counted as lost for ``low`` and
    as won for ``high``). ``decided`` layouts got a verdict, ``winnable`` of
    them were won. ``samples`` is fewer than asked only when the time ran out.
    ``known``: no card is left to guess (at most one unseen card, which has one
    place to lie), so the one layout there is was solved: the share is the
    solver's verdict on the real position, 1 or 0 with no interval around it
    (0 to 1 when the solver could not tell).
    """

    share: float
    low: float
    high: float
    samples: int
    decided: int
    winnable: int
    known: bool = False

    @property
    def undecided(self) -> int:
        return self.samples - self.decided

    def to_dict(self) -> dict[str, Any]:
        return {"share": self.share, "low": self.low, "high": self.high, "samples": self.samples,
                "decided": self.decided, "winnable": self.winnable, "known": self.known}


def win_chance(
    observation: dict[str, Any],
    samples: int = SAMPLES,
    *,
    seed: int | str = 0,
    max_nodes: int | None = SAMPLE_NODES,
    time_limit: float | None = None,
) -> Chance:
    """The chance that the cards the player has not seen lie in a winnable way.

    ``samples`` layouts of the unseen cards are drawn (:func:`~.observation.sample_states`)
    and each is solved with every card known, within ``max_nodes`` positions
    (and all of them within ``time_limit`` seconds).

    What it is: the chance that a player who could see every card from now on
    would win. A player who does not peek must choose moves before the hidden
    cards show, so no such player does better on average: this is an upper
    bound on what fair play can achieve, not a promise. It is 1 for a won game.
    Once no card is left to guess (``Chance.known``), there is one layout, the
    real one, and the answer is the solver's verdict on it.
    It reads only the observation, which holds no unseen card and no deal number.
    """
    started = time.perf_counter()
    knowledge = read(observation)
    check_budget(max_nodes, time_limit, FairError)
    known = nothing_to_guess(len(knowledge.unseen))
    states, solver = draw(knowledge, samples, seed, max_nodes, time_limit, started)
    if known:  # one layout, searched with every layout's budget: its verdict, not an estimate
        verdict = solver(states[0]).verdict
        won = int(verdict == "winnable")
        decided = int(verdict != "unknown")
        low, high = (float(won), float(won)) if decided else (0.0, 1.0)
        return Chance(float(won), low, high, 1, decided, won, known=True)
    won = lost = done = 0
    for _, result in solver.each(states):
        verdict = result.verdict
        done += 1
        won += verdict == "winnable"
        lost += verdict == "unwinnable"
    unknown = done - won - lost
    return Chance(won / done, wilson(won, done)[0], wilson(won + unknown, done)[1], done, won + lost, won)


@dataclass(frozen=True)
class Vote:
    """What :func:`hindsight_vote` found: the move that keeps the most sampled layouts winnable, and the count
    behind it.

    ``move`` is ``None`` when no sampled layout is won by an allowed move.
    ``wins`` is the number of layouts it keeps winnable, out of ``samples``
    solved; ``decided`` of them got a verdict and ``winnable`` can be won at
    all. ``layouts`` is how many of the solved layouts differ (1 once no card
    is hidden). ``counts`` gives every counted move's wins, best first.
    ``line`` is a whole winning line starting with the move when no card is
    left to guess (at most one unseen card), else ``None``.
    """

    move: Move | None
    wins: int
    samples: int
    decided: int
    winnable: int
    layouts: int
    counts: dict[str, int] = field(default_factory=dict)
    line: list[Move] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": None if self.move is None else str(self.move),
            "wins": self.wins,
            "samples": self.samples,
            "decided": self.decided,
            "winnable": self.winnable,
            "layouts": self.layouts,
            "counts": dict(self.counts),
            "line": None if self.line is None else [str(m) for m in self.line],
        }


def hindsight_vote(
    observation: dict[str, Any],
    samples: int = SAMPLES,
    *,
    seed: int | str = 0,
    max_nodes: int | None = SAMPLE_NODES,
    time_limit: float | None = None,
    candidates: int = CANDIDATES,
    avoid: Collection[str] = (),
) -> Vote:
    """The move that keeps the most sampled layouts winnable (perfect-information Monte Carlo).

    Each sampled layout is solved; the first move of its winning line wins
    there. The ``candidates`` moves with most such wins are then tried on
    every winnable layout they did not already win (the layout after the
    move is solved), so each candidate's count is the number of sampled
    layouts in which it keeps a win within the budget. Moves in ``avoid``
    (notation) are never suggested: callers pass moves that only go back to
    a position the game has been in. The legal moves are the same in every
    layout, since they depend only on cards on view. When no card is left to
    guess, the answer carries a whole winning line: a player who knows every
    card can follow one plan instead of asking again at each move.

    This is a strong practical strategy, not an optimal one: it plays as if
    it will know the hidden cards later ("strategy fusion"), so it can prefer
    a move that only a clairvoyant player could follow up.
    """
    started = time.perf_counter()
    knowledge = read(observation)
    check_budget(max_nodes, time_limit, FairError)
    check_count(candidates, "candidates")
    rules = knowledge.rules
    states, solver = draw(knowledge, samples, seed, max_nodes, time_limit, started)
    wins: dict[str, set[int]] = {}
    move_of: dict[str, Move] = {}
    winnable: list[int] = []
    done = decided = 0
    for i, result in solver.each(states):
        done += 1
        decided += result.verdict != "unknown"
        if result.winnable:
            winnable.append(i)
            if result.moves and str(result.moves[0]) not in avoid:
                text = str(result.moves[0])
                wins.setdefault(text, set()).add(i)
                move_of[text] = result.moves[0]
    # The best-voted moves, tried on every winnable layout: a layout's solver line shows one winning
    # first move, and others may win there too.
    # Ties go to the move a player's rule of thumb ranks first (cards home, cards uncovered), which only
    # looks at cards on view: among moves that keep as many layouts winnable, it is the one that makes progress.
    thumb = {str(rules.to_move(m)): r for r, m in enumerate(heuristic_moves(rules, states[0]))}
    order = sorted(wins, key=lambda t: (-len(wins[t]), thumb.get(t, len(thumb)), t))
    for text in order[:candidates]:
        raw = rules.to_raw(move_of[text])
        for i in winnable:
            if solver.out_of_time():
                break
            if i not in wins[text] and solver(rules.apply(states[i], raw)).winnable:
                wins[text].add(i)
    best = min(wins, key=lambda t: (-len(wins[t]), order.index(t)), default=None)
    line = None
    if knowledge.unseen[1:] == () and best is not None:  # nothing left to guess: the layout is the position
        after = rules.apply(states[0], rules.to_raw(move_of[best]))
        result = solver(after)
        line = [move_of[best], *solver.short_line(after, result.moves)] if result.winnable else None
    return Vote(
        move=None if best is None else move_of[best],
        wins=len(wins[best]) if best is not None else 0,
        samples=done,
        decided=decided,
        winnable=len(winnable),
        layouts=len(set(states[:done])),
        counts={t: len(wins[t]) for t in sorted(wins, key=lambda t: (-len(wins[t]), order.index(t)))},
        line=line,
    )
