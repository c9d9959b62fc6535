"""The line with the fewest moves, with a proved lower bound: ``solve(..., shortest=True)``; and the best-first
polish that every shortened line gets.

**The fewest moves** (:func:`fewest_moves`): an A* search from the position, ordered by f = g + h: g the
moves made so far, h the game's lower bound on the moves still needed (:meth:`Strategy.lower_bound`, proved
in :mod:`.strategy.bounds`: it never overestimates, and one move lowers it by at most one). It starts with the
best line known as an upper bound U and looks only at positions with f < U: a line it finds there is shorter
and becomes the new U. When no position with f < U is left, U is the fewest moves there are: the line is
*optimal*. When the budget runs out first, every line shorter than U passes through a position still waiting
(the usual A* argument, which needs h consistent), so the smallest f among them is a lower bound, and so is
the stronger bound of the start (:meth:`Strategy.strong_lower_bound`); the result reports the larger.

It moves as the complete search does, with the same proofs, where they keep a shortest line (the package
docstring of :mod:`.strategy`): the safe moves whose proofs shorten every line are made at once
(:meth:`Strategy.keeps_shortest`: a shortest line starts with them; Eagle Wing's card on top of others of
its suit may go home with them in one move, so that safe move waits), moves that only permute piles and cards
home for good taken back are left out (some shortest line never makes them), and positions with one
canonical key are one. Moves count as
the player's move counter counts them: safe moves included.

**The polish** (:func:`polish`): the same search made greedy, to find shorter lines fast without proving
anything: f = g + :data:`POLISH_WEIGHT` h, over the first pass's restricted moves (nothing back off a
foundation) with its rule of thumb for cards home (:meth:`Strategy.greedy_move`), or, not restricted, over the
fewest-moves search's moves (cards taken back off the foundations too) with its safe moves home. It still only
keeps lines shorter than the one it was given, and its lines are replayed before they are believed.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable, Sequence

from ..rulebook.engine import RawMove, State
from .positions import CorePositions, EnginePositions

_CHECK_EVERY = 256
"""Positions between two looks at the clock."""

POLISH_WEIGHT = 3
"""How much more the polish trusts the bound than the moves made: greedier, further, sooner."""


class Fewest:
    """What the fewest-moves search found: the shortest line known, and a bound no line can beat."""

    __slots__ = ("line", "bound", "nodes")

    def __init__(self, line: list[RawMove], bound: int, nodes: int) -> None:
        self.line = line
        self.bound = bound
        """No winning line from the position has fewer moves."""
        self.nodes = nodes
        """Positions the search made."""

    @property
    def optimal(self) -> bool:
        return len(self.line) == self.bound


def fewest_moves(positions: EnginePositions, start: State, line: Sequence[RawMove], max_nodes: int | None = None,
                 deadline: float | None = None, max_held: int = 2_000_000) -> Fewest:
    """The fewest-moves search from ``start``, given a winning ``line`` (the upper bound to beat).

    ``max_nodes``: positions to make at most; ``deadline``: a :func:`time.perf_counter` reading to stop at;
    ``max_held``: positions to hold at most (the memory). Whichever comes first ends the search with the
    shortest line found and the bound proved so far."""
    best, frontier, made, prefix, root = _search(positions, start, line, 1, False, max_nodes, deadline, max_held)
    strategy = positions.strategy
    start_bound = len(prefix) + max(strategy.strong_lower_bound(root), strategy.lower_bound(root))
    return Fewest(best, min(len(best), max(start_bound, frontier)), made)


def polish(positions: EnginePositions, start: State, line: Sequence[RawMove], max_nodes: int,
           deadline: float | None = None, max_held: int = 2_000_000,
           restricted: bool = True, enough: int = 0, skip: int = 0) -> tuple[list[RawMove], int]:
    """A line no longer than ``line`` found by the greedy search (module docstring), and the positions it made.
    ``restricted``: over the first pass's moves (nothing taken back off a foundation) with its greedy moves home;
    without, over every move with the safe moves home, as the fewest-moves search moves. ``enough``: the search
    stops once its best line has at most that many moves (after the position whose moves found it; 0: never), for
    a caller that only needs a line that short. ``skip``: the line's first moves stay and the search starts after
    them, a polish of the line's tail (``enough`` then counts the tail's moves).

    With the compiled core's positions in King Albert's games, the core makes the same search
    (``_core.polish``: the same positions in the same order, ``tests/solver/test_lines_core.py``)."""
    if isinstance(positions, CorePositions) and positions.strategy.has_restricted_pass:
        seconds = 0.0
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if seconds <= 0:
                return list(line), 0
        out, made = positions.core.polish(positions.game, start.piles, start.redeals, line, POLISH_WEIGHT, max_nodes,
                                          max_held, seconds, restricted, enough, skip)
        return [tuple(m) for m in out], made
    kept = list(line[:skip])
    for move in kept:
        start = positions.apply(start, move)
    best, _, made, _, _ = _search(positions, start, line[skip:], POLISH_WEIGHT, restricted, max_nodes, deadline,
                                  max_held, enough)
    return kept + best, made


def _search(positions: EnginePositions, start: State, line: Sequence[RawMove], weight: int, restricted: bool,
            max_nodes: int | None, deadline: float | None,
            max_held: int, enough: int = 0) -> tuple[list[RawMove], int, int, list[RawMove], State]:
    """The best-first search: the shortest line found, the smallest g + h left waiting (the line's length when
    none is), the positions made, and the start's own safe moves with the position after them. It stops early once
    its best line has at most ``enough`` moves (0: never), as the core's polish does."""
    rules, strategy = positions.rules, positions.strategy
    apply, key, safe, moves_of = positions.apply, positions.key, positions.safe_move, positions.moves
    shortest_safe = positions.shortest_safe_move
    h, order, won = strategy.lower_bound, strategy.order, rules.won
    best_line = list(line)
    upper = len(best_line)
    made = 0

    def closure(state: State, path: list[RawMove]) -> State:
        nonlocal made
        while (move := safe(state, True) if restricted else shortest_safe(state)) is not None:
            state = apply(state, move)
            path.append(move)
            made += 1
        return state

    prefix: list[RawMove] = []
    root = closure(start, prefix)
    if won(root):
        return (prefix if len(prefix) < upper else best_line), min(upper, len(prefix)), made, prefix, root
    # Node i: its position and key, its parent, the moves from the parent's position (one, then safe moves).
    states: list[State] = [root]
    keys: list[Hashable] = [key(root)]
    parents: list[int] = [-1]
    steps: list[tuple[RawMove, ...]] = [tuple(prefix)]
    best_g: dict[Hashable, int] = {keys[0]: len(prefix)}
    # Entries: (g + weight * h, -g, h, node): the deepest first among equals.
    heap: list[tuple[int, int, int, int]] = [(len(prefix) + weight * h(root), -len(prefix), h(root), 0)]
    next_check = _CHECK_EVERY

    def path_to(i: int) -> list[RawMove]:
        out: list[RawMove] = []
        while i >= 0:
            out[:0] = steps[i]
            i = parents[i]
        return out

    out_of_budget = False
    while heap:
        _, neg_g, rest, i = heapq.heappop(heap)
        g = -neg_g
        if g + rest >= upper or best_g[keys[i]] < g:
            if weight == 1 and g + rest >= upper:
                heap.clear()  # ordered by g + h: nothing shorter is left, the line in hand has the fewest moves
            continue  # or reached again more cheaply since
        state = states[i]
        for move in order(state, moves_of(state), restricted):
            path = [move]
            child = closure(apply(state, move), path)
            made += 1
            g2 = g + len(path)
            h2 = h(child)
            if h2 == 0 and won(child):  # a won position's bound is 0: the bound never overestimates
                if g2 < upper:
                    upper, best_line = g2, path_to(i) + path
                continue
            if g2 + h2 >= upper:
                continue
            k = key(child)
            if best_g.get(k, upper) <= g2:
                continue
            best_g[k] = g2
            states.append(child)
            keys.append(k)
            parents.append(i)
            steps.append(tuple(path))
            heapq.heappush(heap, (g2 + weight * h2, -g2, h2, len(states) - 1))
        if upper <= enough:
            out_of_budget = True  # stopped short, as a budget stops it: the frontier is what is left waiting
            break
        if (max_nodes is not None and made >= max_nodes) or len(best_g) >= max_held:
            out_of_budget = True
            break
        if made >= next_check:
            next_check = made + _CHECK_EVERY
            if deadline is not None and time.perf_counter() >= deadline:
                out_of_budget = True
                break
    frontier = min((-neg + rest for _, neg, rest, _ in heap), default=upper) if out_of_budget else upper
    return best_line, min(upper, frontier), made, prefix, root
