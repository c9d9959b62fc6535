"""Shorter winning lines: every line :func:`tableaux.solve` returns is shortened here first.

The searches look for *a* win, not a short one: a depth-first search's line is the path it happened to
take, with cards shuttled between piles on the way (Eagle Wing lines of 600 moves where 100 do). This
module keeps the win and drops the detours. Nothing here can lose a win: only a shorter line that ends won,
replayed from the start, replaces the one in hand (the core's lines replayed by the core alone when the caller
replays the line it returns through the engine: :attr:`Shortener.replayed`).

**Steps, not pile numbers.** A line is held as *steps* that name cards: "the 7 of clubs (and what lies on
it) onto the 8 of hearts", "the 7 of clubs home", "the 7 of clubs to an empty pile", "deal from the stock",
"turn the waste over". A step is resolved into a move in whatever position it is played from: the card's
pile is its source, the pile whose top is the 8 of hearts its target, the first empty tableau pile, or the
foundation of its suit (every foundation holds one suit in these games) or else the first empty one. The
rules still decide: a resolved move is played only when the engine (or the core, which makes the same
moves) allows it. Steps do not change when interchangeable piles are swapped, so a line can be cut at one
position and go on from any position with the same canonical key (:meth:`Strategy.key`).

**What is cut** (each pass keeps a line's prefix and changes what follows):

* *cycles*: a position met twice; the moves between go;
* *detours*: one step left out at a time; the steps after it are played on as far as they still resolve
  (at most :data:`MAX_DROPS` more may be left out when they no longer do) until the line meets a position
  of the old line again (same key, later) or ends won. Two moves of one card become one, a card moved
  away and back goes nowhere, a move whose use was undone vanishes.

Passes go on until one changes nothing (first passes that give a detour up after :data:`WINDOWS` steps, then
passes without that window, where the game has them first: :attr:`Strategy.windowed_passes`) or the work budget
(positions made, :data:`WORK_PER_MOVE` per move of the line at least, or what the caller gives) or the solve's
time limit runs out: the best line so far is kept, which is at worst the line the search found. The final line
is replayed through the engine (:meth:`Rules.why_illegal`, :meth:`Rules.apply`, :meth:`Rules.won`) before it is
returned, here or by the caller.

With the compiled core's positions the passes run in the core (``_core.shorten``, ``core/shorten.c``): the same
trials in the same order, the same positions counted, so the same line from the same line and budget; this
module is its reference.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence

from ..rulebook.cards import SUIT
from ..rulebook.engine import RawMove, Rules, State
from .positions import CorePositions, EnginePositions

Step = tuple[int, ...]
"""``(DEAL,)``, ``(REDEAL,)``, ``(HOME, card)``, ``(ONTO, card, card under it)`` or ``(EMPTY, card)``."""
DEAL, REDEAL, HOME, ONTO, EMPTY = range(5)

MAX_DROPS = 2
"""Steps a detour's replay may leave out besides the one it cuts, when they no longer resolve."""

WINDOWS = (4, None)
"""The passes' windows, in turn: a detour is given up after this many steps that do not meet the line again (None:
only when they stop resolving). Passes with a window of 4 go on until one cuts nothing, then passes without one:
most detours are short, and a detour that is not is paid for only once the short ones are cut (a line in
``benchmarks/lines.py`` reaches most of its final length in a fifth of the positions)."""

WORK_PER_MOVE = 200
"""Positions the shortening may make per move of the line it is given, at least :data:`WORK_FLOOR`."""
WORK_FLOOR = 20_000


class LineError(ValueError):
    """A line that does not replay to a won game: never returned, since nothing is shortened that was not won."""


def step_of(rules: Rules, state: State, move: RawMove) -> Step:
    """What ``move`` does in ``state``, by card: the step that plays it again from any equivalent position."""
    src, count, dst = move
    if rules.stock is not None and rules.stock in (src, dst):
        return (DEAL,) if src == rules.stock else (REDEAL,)
    piles = state.piles
    card = piles[src][-count] & 63
    if dst in rules.foundations:
        return (HOME, card)
    if piles[dst]:
        return (ONTO, card, piles[dst][-1] & 63)
    return (EMPTY, card)


def resolve(rules: Rules, state: State, step: Step) -> RawMove | None:
    """The move that plays ``step`` in ``state`` (the rules may still refuse it), or None when none could."""
    piles = state.piles
    kind = step[0]
    if kind == DEAL:
        return (rules.stock, 1, rules.waste) if rules.stock is not None and rules.waste is not None else None
    if kind == REDEAL:
        if rules.stock is None or rules.waste is None:
            return None
        return (rules.waste, len(piles[rules.waste]), rules.stock)
    card = step[1]
    src = next((i for i, pile in enumerate(piles) if card in pile), None)
    if src is None:
        return None  # face down, or not in play
    pile = piles[src]
    count = len(pile) - pile.index(card)
    if kind == HOME:
        suit = SUIT[pile[-1]]  # the card that lands first: the source's top
        empty = None
        for f in rules.foundations:
            home = piles[f]
            if home and SUIT[home[0]] == suit and f != src:
                return (src, count, f)
            if not home and empty is None and f != src:
                empty = f
        return None if empty is None else (src, count, empty)
    if kind == ONTO:
        under = step[2]
        for t in rules.tableau:
            p = piles[t]
            if p and p[-1] == under:
                return (src, count, t)
        return None
    for t in rules.tableau:
        if t != src and not piles[t]:
            return (src, count, t)
    return None


def replay(rules: Rules, start: State, line: Sequence[RawMove]) -> State:
    """Play ``line`` from ``start`` through the engine, each move checked; the position it ends in.

    Raises :class:`LineError` at the first move the rules refuse."""
    state = start
    why = rules.why_illegal
    for i, move in enumerate(line):
        reason = why(state, move)
        if reason is not None:
            raise LineError(f"move {i + 1} of the line, {rules.to_move(move)}, is refused: {reason}")
        state = rules.apply(state, move)
    return state


class _Line:
    """A line being shortened: its steps, and the position before each step with its key."""

    def __init__(self, positions: EnginePositions, start: State, line: Sequence[RawMove]) -> None:
        rules = positions.rules
        self.steps: list[Step] = []
        self.states: list[State] = [start]
        state = start
        for move in line:
            self.steps.append(step_of(rules, state, move))
            state = rules.apply(state, move)
            self.states.append(state)
        self.keys: list[Hashable] = [positions.key(s) for s in self.states]
        self.one_home = positions.strategy.one_card_home

    def where(self) -> dict[Hashable, int]:
        """Each key's last place on the line."""
        return {k: j for j, k in enumerate(self.keys)}


class Shortener:
    """Shortens lines of one game; ``positions`` gives the moves (the engine's or the core's)."""

    def __init__(self, positions: EnginePositions, native: bool = True, replayed: bool = True) -> None:
        self.positions = positions
        self.rules = positions.rules
        self.native = native and isinstance(positions, CorePositions)
        """The passes run in the compiled core (``_core.shorten``, the same passes on its own positions) rather
        than here over the positions' Python functions."""
        self.replayed = replayed
        """Whether the core's shorter line is replayed through the engine before it is taken. The core plays only
        moves its generator makes and returns the line it was given unless the new one wins, so a caller that
        replays the line it finally returns (:func:`tableaux.solver.lines.best_line`) need not replay each one."""
        self.work = 0
        """Positions made so far."""

    def shorten(self, start: State, line: Sequence[RawMove], budget: int | None = None,
                deadline: float | None = None, check: bool = True) -> list[RawMove]:
        """A line from ``start`` that wins in at most as many moves as ``line`` (which must win).

        ``budget``: positions to make at most (None: :data:`WORK_PER_MOVE` per move, at least
        :data:`WORK_FLOOR`); ``deadline``: a :func:`time.perf_counter` reading to stop at. Either way the
        best line so far comes back. Raises :class:`LineError` when ``line`` does not win; ``check=False``
        skips that replay for a line a search has just found (a shorter line is still replayed through the
        engine before it is returned, and the line given comes back otherwise)."""
        rules = self.rules
        if check and not rules.won(replay(rules, start, line)):
            raise LineError("the line does not end in a won game")
        if budget is None:
            budget = max(WORK_FLOOR, WORK_PER_MOVE * len(line))
        self.work = 0
        if self.native:
            moves = self._native(start, line, budget, deadline)
        else:
            current = _Line(self.positions, start, line)
            for window in self._windows():
                while self.work < budget and (deadline is None or time.perf_counter() < deadline):
                    if not self._pass(current, budget, deadline, window):
                        break
            moves = self._moves(start, current.steps)
        return moves if moves is not None and len(moves) < len(line) else list(line)

    def _windows(self) -> tuple[int | None, ...]:
        """The passes' windows in this game (:attr:`Strategy.windowed_passes`)."""
        return WINDOWS if self.positions.strategy.windowed_passes else WINDOWS[1:]

    def _native(self, start: State, line: Sequence[RawMove], budget: int,
                deadline: float | None) -> list[RawMove] | None:
        """The compiled core's passes; their line (replayed through the engine unless the caller replays what it
        returns: :attr:`replayed`), None unless it wins."""
        positions = self.positions
        assert isinstance(positions, CorePositions)
        seconds = 0.0
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if seconds <= 0:
                return None
        try:
            out, self.work = positions.core.shorten(positions.game, start.piles, start.redeals, line, budget, seconds,
                                                    positions.strategy.windowed_passes)
        except ValueError as exc:
            raise LineError(f"the line does not end in a won game: {exc}") from None
        moves = [tuple(m) for m in out]
        if len(moves) >= len(line):
            return None
        if not self.replayed:
            return moves
        try:
            won = self.rules.won(replay(self.rules, start, moves))
        except LineError:  # pragma: no cover - the core makes the engine's moves (tests/solver/test_backends.py)
            return None
        return moves if won else None

    def _moves(self, start: State, steps: Sequence[Step]) -> list[RawMove] | None:
        """The steps as moves from ``start``, replayed through the engine; None unless they win."""
        rules = self.rules
        moves: list[RawMove] = []
        state = start
        why = rules.why_illegal
        for step in steps:
            move = resolve(rules, state, step)
            if move is None or why(state, move) is not None:
                return None
            moves.append(move)
            state = rules.apply(state, move)
        return moves if rules.won(state) else None

    def _pass(self, line: _Line, limit: int, deadline: float | None, window: int | None) -> bool:
        """One pass along ``line``, cutting cycles and detours in place, a detour given up after ``window`` steps
        that do not meet the line again; whether anything was cut."""
        positions, rules = self.positions, self.rules
        play, key, won = positions.play, positions.key, rules.won
        steps, states, keys = line.steps, line.states, line.keys
        where = line.where()
        # Where a foundation takes one card a move, a card's last move home is never left out: nothing else
        # could take it there. (An Eagle Wing tableau pile may go home two or three cards at once.)
        one_home = line.one_home
        last = _last_steps(steps) if one_home else {}
        changed = False
        i = 0
        while i < len(steps):
            if self.work >= limit or (deadline is not None and time.perf_counter() >= deadline):
                break
            j = where[keys[i]]
            if j > i:  # a cycle: the position before step i comes again before step j
                del steps[i:j], states[i:j], keys[i:j]
                where = line.where()
                if one_home:
                    last = _last_steps(steps)
                changed = True
                continue
            step = steps[i]
            if one_home and step[0] == HOME and last.get(step[1]) == i:
                i += 1
                continue
            n = len(steps)
            state = states[i]
            new_steps: list[Step] = []
            new_states: list[State] = []
            new_keys: list[Hashable] = []
            drops = 0
            cut = False
            k = i + 1
            while k < n:
                if len(new_steps) == window:
                    break
                move = resolve(rules, state, steps[k])
                after = None if move is None else play(state, move)
                self.work += 1
                if after is None:
                    drops += 1
                    if drops > MAX_DROPS:
                        break
                    k += 1
                    continue
                new_steps.append(steps[k])
                state = after
                k += 1
                at = key(state)
                j = where.get(at, -1)
                if j >= k:  # back on the old line, further on: the steps between are replaced
                    steps[i:j] = new_steps
                    states[i + 1:j] = new_states
                    keys[i + 1:j] = new_keys
                    cut = True
                    break
                new_states.append(state)
                new_keys.append(at)
            else:
                if won(state):  # the positions after the new steps are all in new_states already
                    steps[i:] = new_steps
                    states[i + 1:] = new_states
                    keys[i + 1:] = new_keys
                    cut = True
            if cut:
                changed = True
                where = line.where()
                if one_home:
                    last = _last_steps(steps)
                continue  # the step now at i gets its turn
            i += 1
        return changed


def _last_steps(steps: Sequence[Step]) -> dict[int, int]:
    """Each card's last step on the line."""
    return {step[1]: k for k, step in enumerate(steps) if len(step) > 1}
