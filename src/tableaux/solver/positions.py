"""The moves and positions a search over lines works on: the engine's own, or the compiled core's.

The line shortening (:mod:`.shorten`) and the fewest-moves search (:mod:`.shortest`) ask four things of a
position: its legal moves, the position after a move (or that the move is illegal), its canonical key,
and a safe move to make at once. :class:`EnginePositions` answers from the engine (:meth:`Rules.moves`,
:meth:`Rules.why_illegal`, :meth:`Rules.apply`) and the strategy (:meth:`Strategy.key`,
:meth:`Strategy.safe_move`): the reference. :class:`CorePositions` answers the same from the compiled
core through its Python functions (``_core.moves``, ``apply``, ``key``, ``safe_move``), several times
faster. ``tests/solver/test_backends.py`` proves that the core generates the engine's moves and positions
and tells positions apart as the Python keys do, so both give the same answers; ``tests/solver/test_lines.py``
checks that both shorten a line to the same line. Either way a line is replayed through the engine
before it is returned.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..rulebook.engine import RawMove, Rules, State
from .strategy import strategy_for


class EnginePositions:
    """The engine's moves and positions: the reference."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.strategy = strategy_for(rules)
        self._key = self.strategy.key
        self._why = rules.why_illegal
        self._apply = rules.apply

    def moves(self, state: State) -> list[RawMove]:
        return self.rules.moves(state)

    def apply(self, state: State, move: RawMove) -> State:
        """The position after ``move``, one of :meth:`moves`."""
        return self._apply(state, move)

    def play(self, state: State, move: RawMove) -> State | None:
        """The position after ``move``, or None when the rules refuse it."""
        try:
            if self._why(state, move) is not None:
                return None
        except IndexError:  # a pile index the game does not have
            return None
        return self._apply(state, move)

    def key(self, state: State) -> Hashable:
        """Positions with one key are one position, up to piles that play alike; Eagle Wing's redeals apart."""
        return self._key(state), state.redeals

    def safe_move(self, state: State, greedy: bool = False) -> RawMove | None:
        """A move to make at once: a safe one (proved), or with ``greedy`` one that is only likely right
        (:meth:`Strategy.greedy_move`, for searches that prove nothing)."""
        strategy = self.strategy
        if greedy:
            return strategy.greedy_move(state, self.rules.moves(state)) if strategy.maybe_greedy(state) else None
        if not strategy.maybe_safe(state):
            return None
        return strategy.safe_move(state, self.rules.moves(state))

    def shortest_safe_move(self, state: State) -> RawMove | None:
        """A safe move that starts a shortest line (:meth:`Strategy.keeps_shortest`), or None."""
        move = self.safe_move(state)
        return move if move is not None and self.strategy.keeps_shortest(state, move) else None


class CorePositions(EnginePositions):
    """The same answers from the compiled core (``game`` is the core's number for the game)."""

    def __init__(self, rules: Rules, core: Any, game: int) -> None:
        super().__init__(rules)
        self.core = core
        """The compiled core module."""
        self.game = game
        """The core's number for the game."""

    def moves(self, state: State) -> list[RawMove]:
        return self.core.moves(self.game, state.piles, state.redeals)

    def apply(self, state: State, move: RawMove) -> State:
        piles, redeals = self.core.apply(self.game, state.piles, state.redeals, move)
        return State(piles, redeals)

    def play(self, state: State, move: RawMove) -> State | None:
        try:
            piles, redeals = self.core.apply(self.game, state.piles, state.redeals, move)
        except ValueError:  # not a legal move here
            return None
        return State(piles, redeals)

    def key(self, state: State) -> Hashable:
        key, _hash, rank = self.core.key(self.game, state.piles, state.redeals)
        return key, rank

    def safe_move(self, state: State, greedy: bool = False) -> RawMove | None:
        return self.core.safe_move(self.game, state.piles, state.redeals, greedy)
