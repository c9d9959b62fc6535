"""The no-peek planner: the moves up to the next card turned that keep the most sampled layouts winnable.

Between two cards turned, the player knows every card that matters: a move
that turns no hidden card has the same outcome in every layout consistent
with what was seen. So a player's real decisions come one per card turned:
which known moves to make, and which hidden card to turn next. :func:`plan`
makes that decision.

1. Draw sampled layouts of the unseen cards (:func:`~.observation.sample_states`)
   and solve each with every card known.
2. Cut each winning line after its first move that turns a hidden card: that
   prefix is a *plan*. Its moves are legal in every layout, because which moves
   are legal depends only on cards on view. Plans that end in the same position
   are one plan.
3. Try the most-voted plans on every winnable layout (solve the position after
   the plan) and choose the plan that keeps the most layouts winnable.

A layout counts for a plan only if the one plan, the same known moves in every
layout, keeps it winnable. The move-by-move vote (:func:`~.chance.hindsight_vote`) counts
a move for a layout whenever some line wins there, even when each layout needs
different moves before the next card turns. After that card, the layouts are
still solved with every card known, so the count still assumes the later hidden
cards will be known ("strategy fusion"). The fair player
(:func:`~.survey.play_fair`) and the fair hint (:func:`tableaux.advice.hints.hint`)
play the plan's first move; ``docs/fair.md`` says more.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...rulebook.engine import Move, RawMove, Rules, State
from ...solver import check_budget
from ..effort import SAMPLE_NODES, SAMPLES
from ..heuristic import heuristic_moves
from .chance import _Solver, draw
from .observation import FairError, Knowledge, check_count, nothing_to_guess, read

PLANS = 4
"""How many of the most-voted plans are tried on every winnable layout."""

REACH_POSITIONS = 5_000
"""The most positions :func:`path_to_a_card` visits looking for a way to turn a card."""

PROOF_LAYOUTS = 720
"""The most arrangements of the unseen cards :func:`proved_lost` enumerates (6 unseen cards: 6! = 720)."""


def turns_card(rules: Rules, state: State, unseen: frozenset[int]) -> bool:
    """Whether a card the player has never seen is on view in ``state`` (so the move into it turned one)."""
    for pile, shown in zip(state.piles, rules.visible(state), strict=True):
        for card, visible in zip(pile, shown, strict=True):
            if visible and (card & 63) in unseen:
                return True
    return False


def cut(rules: Rules, state: State, line: Sequence[RawMove], unseen: frozenset[int]) -> list[RawMove]:
    """The start of ``line`` up to and including its first move that turns a hidden card (all of it if none)."""
    out: list[RawMove] = []
    for move in line:
        state = rules.apply(state, move)
        out.append(move)
        if turns_card(rules, state, unseen):
            break
    return out


def play_out(rules: Rules, state: State, moves: Sequence[RawMove]) -> State:
    for move in moves:
        state = rules.apply(state, move)
    return state


def _direct(rules: Rules, start: State, moves: Sequence[RawMove], avoid: Collection[str]) -> list[RawMove]:
    """``moves`` without the ones that go nowhere: a move left out, or a move and a later one that takes the same
    cards straight back, wherever the rest still plays and ends in the same position. A plan is cut from a
    search's line, which can shuttle a card away and back before the move that turns a card; the plan's end is
    what the layouts were solved from, so the shorter way there wins in the same layouts. The last move, the one
    that turns a card, stays, and the first is never one in ``avoid``."""
    end = play_out(rules, start, moves)
    line = list(moves)

    def reaches(trial: list[RawMove]) -> bool:
        if str(rules.to_move(trial[0])) in avoid:
            return False
        state = start
        for move in trial:
            if move not in rules.moves(state):
                return False
            state = rules.apply(state, move)
        return state == end

    cut = True
    while cut:
        cut = False
        for i, (src, count, dst) in enumerate(line[:-1]):
            backs = [j for j in range(i + 1, len(line) - 1) if line[j] == (dst, count, src)]
            for trial in ([*line[:i], *line[i + 1:]], *([*line[:i], *line[i + 1:j], *line[j + 1:]] for j in backs)):
                if reaches(trial):
                    line, cut = trial, True
                    break
            if cut:
                break
    return line


@dataclass(frozen=True)
class Plan:
    """What :func:`plan` chose: moves to play up to the next card turned, and the count behind them.

    ``moves`` is empty when no sampled layout is won by an allowed plan.
    ``wins`` is how many sampled layouts stay winnable after the plan, out of
    ``samples`` solved; ``decided`` of them got a verdict and ``winnable`` can
    be won at all. ``turns`` says whether the plan ends by turning a hidden
    card (otherwise it is a whole winning line: nothing is left to guess).
    ``counts`` gives each plan tried (its moves in notation) and its wins,
    best first.
    """

    moves: tuple[Move, ...]
    wins: int
    samples: int
    decided: int
    winnable: int
    turns: bool
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def move(self) -> Move | None:
        return self.moves[0] if self.moves else None

    @property
    def lost(self) -> bool:
        """Every sampled layout was proved lost: evidence that the game is lost, not a proof."""
        return self.winnable == 0 and self.decided == self.samples

    def to_dict(self) -> dict[str, Any]:
        return {
            "moves": [str(m) for m in self.moves],
            "wins": self.wins,
            "samples": self.samples,
            "decided": self.decided,
            "winnable": self.winnable,
            "turns": self.turns,
            "counts": dict(self.counts),
        }


@dataclass
class _Vote:
    """Plans found over a set of layouts: each plan's moves and the layouts it keeps winnable."""

    found: dict[State, list[RawMove]]
    votes: dict[State, set[int]]
    winnable: list[int]
    decided: int
    done: int
    ranked: list[State]


def _vote(
    rules: Rules,
    states: Sequence[State],
    unseen: frozenset[int],
    solver: _Solver,
    plans: int,
    avoid: Collection[str] = (),
) -> _Vote:
    """Solve each layout, cut its winning line into a plan, and try the most-voted plans on every winnable layout."""
    found: dict[State, list[RawMove]] = {}
    votes: dict[State, set[int]] = {}
    winnable: list[int] = []
    done = decided = 0
    for i, result in solver.each(states):
        done += 1
        decided += result.verdict != "unknown"
        if not result.winnable or not result.moves:
            continue
        winnable.append(i)
        if str(result.moves[0]) in avoid:
            continue
        moves = cut(rules, states[i], [rules.to_raw(m) for m in result.moves], unseen)
        key = play_out(rules, states[0], moves)  # the same known moves end in the same position in every layout
        found.setdefault(key, moves)
        votes.setdefault(key, set()).add(i)
    order = sorted(votes, key=lambda k: (-len(votes[k]), len(found[k])))
    best = 0
    tried = []
    for key in order[:plans]:
        lost = 0
        for i in winnable:
            if lost > len(winnable) - best or solver.out_of_time():
                break  # it can no longer beat the best plan so far
            if i in votes[key]:
                continue
            if solver(play_out(rules, states[i], found[key])).winnable:
                votes[key].add(i)
            else:
                lost += 1
        if lost <= len(winnable) - best:
            tried.append(key)
            best = max(best, len(votes[key]))
    ranked = sorted(tried, key=lambda k: (-len(votes[k]), order.index(k)))
    return _Vote(found, votes, winnable, decided, done, ranked)


def _ways_on(rules: Rules, state: State, solver: _Solver, avoid: Collection[str]) -> Iterator[RawMove]:
    """The first moves a way on may start with, in the rule of thumb's order (useful moves first): those not in
    ``avoid``, while the solver has time."""
    for raw in heuristic_moves(rules, state):
        if str(rules.to_move(raw)) in avoid:
            continue
        if solver.out_of_time():
            return
        yield raw


def _forward_vote(rules: Rules, states: Sequence[State], unseen: frozenset[int], solver: _Solver, plans: int,
                  avoid: Collection[str], vote: _Vote) -> _Vote:
    """Plans through a first move not in ``avoid``, when every layout's own plan starts with one that is: the
    first moves are tried in the rule of thumb's order, each with the layouts voting again from where it leads
    (a plan that takes it straight back is not counted), until one gives a plan or the time is out. The layouts'
    lines can all start by going back where the game has been, while a way on wins as well; suggesting the
    move back would have the next hint suggest the move forward again, for ever. ``vote`` (the counts of the
    layouts themselves) is returned when no first move gives a plan."""
    for raw in _ways_on(rules, states[0], solver, avoid):
        after = [rules.apply(state, raw) for state in states]
        if turns_card(rules, after[0], unseen):  # the move is a plan of its own: it turns a card
            won = {i for i in vote.winnable if solver(after[i]).winnable}
            if won:
                key = after[0]
                return _Vote({key: [raw]}, {key: won}, vote.winnable, vote.decided, vote.done, [key])
            continue
        back = str(rules.to_move((raw[2], raw[1], raw[0])))
        onward = _vote(rules, after, unseen, solver, plans, {back})
        if onward.ranked:
            found = {key: [raw, *moves] for key, moves in onward.found.items()}
            return _Vote(found, onward.votes, vote.winnable, vote.decided, vote.done, onward.ranked)
    return vote


def _forward_line(rules: Rules, start: State, solver: _Solver, avoid: Collection[str],
                  shortened: bool) -> tuple[Move, ...]:
    """A winning line from ``start`` whose first move is not in ``avoid``, or () when no such first move is won
    within the solver's budget. With every card known, a line found from each new position may start by undoing
    the move before (another line that wins as well), and hints that followed such lines would go back and forth
    for ever; a line that goes on to a position the game has not been in cannot. The first moves are tried in the
    rule of thumb's order, useful moves first, until one is won or the time is out."""
    for raw in _ways_on(rules, start, solver, avoid):
        after = rules.apply(start, raw)
        result = solver(after)
        if result.winnable:
            return (rules.to_move(raw), *(solver.short_line(after, list(result.moves)) if shortened else result.moves))
    return ()


def plan(
    observation: dict[str, Any],
    samples: int = SAMPLES,
    *,
    seed: int | str = 0,
    max_nodes: int | None = SAMPLE_NODES,
    time_limit: float | None = None,
    plans: int = PLANS,
    avoid: Collection[str] = (),
    last_resort: bool = False,
    shortened: bool = False,
) -> Plan:
    """The plan up to the next card turned that keeps the most sampled layouts winnable.

    ``samples`` layouts of the unseen cards are drawn and solved within
    ``max_nodes`` positions each (all of them within ``time_limit`` seconds).
    Each winning line, cut after its first move that turns a hidden card, is
    a plan that wins in its layout; the ``plans`` most-voted are tried on
    every other winnable layout. Plans whose first move is in ``avoid``
    (notation) are left out: callers pass moves that only go back to a
    position the game has been in. With ``last_resort``, when every plan
    found starts with such a move, plans through the other first moves are
    looked for (:func:`_forward_vote`), and when none is found the plans
    that go back come back: advice that hid the way to win would call a
    winnable position hopeless, and advice that went back while a way on wins
    would have the next hint go forward again, for ever. When at most one card is unseen, the plan
    is a whole winning line, searched with the positions all the layouts would
    have had; one that starts with a move in ``avoid`` gives way to a line
    through a first move that is not, where one is won. ``shortened``: that line is
    shortened as a solve's line is before a player sees it, so that its first
    move is one a player would make (a hint shows it; the search's own line can
    wander, an Ace from one foundation to another). It reads the observation only.
    """
    started = time.perf_counter()
    knowledge = read(observation)
    check_budget(max_nodes, time_limit, FairError)
    check_count(plans, "plans")
    rules = knowledge.rules
    unseen = frozenset(knowledge.unseen)
    states, solver = draw(knowledge, samples, seed, max_nodes, time_limit, started)
    if nothing_to_guess(len(unseen)):  # one layout only: its winning line is the plan
        result = solver(states[0])
        n = len(states)
        moves: tuple[Move, ...] = ()
        if result.winnable:
            moves = tuple(solver.short_line(states[0], list(result.moves)) if shortened else result.moves)
        if moves and str(moves[0]) in avoid:
            moves = _forward_line(rules, states[0], solver, avoid, shortened) or (moves if last_resort else ())
        wins = n if moves else 0
        return Plan(moves, wins, n, n if result.verdict != "unknown" else 0, n if result.winnable else 0, False,
                    {" ".join(map(str, moves)): wins} if moves else {})
    vote = _vote(rules, states, unseen, solver, plans, avoid)
    if not vote.ranked and vote.winnable and avoid and last_resort:  # every plan found starts with a move in avoid
        vote = _forward_vote(rules, states, unseen, solver, plans, avoid, vote)
        if not vote.ranked:  # no way on wins: the way back it is
            vote = _vote(rules, states, unseen, solver, plans, ())
    ranked = vote.ranked
    best = ranked[0] if ranked else None
    found, votes = vote.found, vote.votes
    direct = _direct(rules, states[0], found[best], avoid) if best is not None and shortened else found.get(best, [])
    moves = tuple(rules.to_move(m) for m in direct)
    return Plan(
        moves=moves,
        wins=len(votes[best]) if best is not None else 0,
        samples=vote.done,
        decided=vote.decided,
        winnable=len(vote.winnable),
        turns=best is not None and turns_card(rules, play_out(rules, states[0], found[best]), unseen),
        counts={" ".join(str(rules.to_move(m)) for m in found[k]): len(votes[k]) for k in ranked},
    )


def proved_lost(knowledge: Knowledge, max_nodes: int | None, limit: int = PROOF_LAYOUTS) -> bool:
    """Whether every arrangement of the unseen cards is proved lost: a proof that the game is lost.

    Only when there are at most ``limit`` arrangements (``k!`` for ``k``
    unseen cards); otherwise False, which proves nothing either way.
    """
    k = len(knowledge.unseen)
    if math.factorial(k) > limit:
        return False
    rules = knowledge.rules
    solver = _Solver(rules, max_nodes, None)
    return all(solver(knowledge.fill(list(cards))).verdict == "unwinnable"
               for cards in itertools.permutations(knowledge.unseen))


def path_to_a_card(knowledge: Knowledge, limit: int = REACH_POSITIONS) -> list[RawMove] | None:
    """The shortest sequence of known moves that ends by turning a hidden card; ``[]`` when none exists.

    A breadth-first search over the positions the player can reach without
    turning a card, in any one layout (which moves are legal, and which of
    them turn a card, is the same in all). ``[]`` is a proof that no card can
    ever be turned from here, so with a card still unseen the game is lost.
    ``None`` when ``limit`` positions were searched without an answer.
    """
    rules = knowledge.rules
    unseen = frozenset(knowledge.unseen)
    start = knowledge.fill(list(knowledge.unseen))
    came: dict[State, tuple[State, RawMove] | None] = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for here in frontier:
            for move in rules.moves(here):
                there = rules.apply(here, move)
                if there in came:
                    continue
                came[there] = (here, move)
                if turns_card(rules, there, unseen):
                    path = []
                    at: State = there
                    while (step := came[at]) is not None:
                        at, back = step
                        path.append(back)
                    return path[::-1]
                if len(came) >= limit:
                    return None
                following.append(there)
        frontier = following
    return []
