"""What every game's strategy shares: the :class:`Strategy` interface, and helpers for keys and orders.

The proofs that the interface's methods rely on are set out in the package's docstring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...rulebook.cards import SUIT
from ...rulebook.engine import RawMove, Rules, State


class LongPolish(NamedTuple):
    """One of a game's long polishes (:attr:`Strategy.long_polish`)."""

    nodes: int
    """Its positions at most; with ``tails``, those of each tail's polish."""
    restricted: bool
    """Over the first pass's restricted moves (nothing taken back off a foundation), or over every move."""
    tails: bool = False
    """Whether it polishes the line's tails in turn (:func:`tableaux.solver.lines.polish_tails`) rather than the
    whole line: a tail is a smaller search, and some lines that no polish from the start shortens have tails that
    one does."""


class Strategy:
    """The game-specific half of the solver; the proofs its methods rely on are in the package docstring."""

    has_restricted_pass = False
    polish_nodes = 0
    """Positions the best-first polish of a shortened line may make (:mod:`tableaux.solver.lines`): where the
    line shortening alone leaves lines long, a search for shorter ones is worth its time."""
    long_polish: tuple[LongPolish, ...] = ()
    """More polishes, with the compiled core, for a line still more than :data:`.lines.LONG` times its lower bound
    after the budgeted steps (:func:`tableaux.solver.lines.polish_long`), made in turn while the line stays long.
    Where a long line is common and only a long polish shortens it, a player watching it is worth the wait."""
    relaxed_verdicts: tuple[int, int] | None = None
    """Where a relaxed game proves the slow lost deals' positions lost (:mod:`tableaux.solver.verdicts`, King
    Albert's games): (the rank kept apart, the positions of the complete search before it asks). The complete search
    drops each position it makes whose relaxed position is lost (:func:`tableaux.solver.solve`,
    ``relaxed_stage``)."""
    shortening_floor = 1000
    """Positions the shortening of a won line may make however few the solve made
    (:func:`tableaux.solver.lines.line_budget`): most lines are won in a few hundred positions, and a thousand
    positions of detours take an Eagle Wing line from 300 moves to 130 (``benchmarks/lines.py``); in the core,
    about half a millisecond."""
    windowed_passes = True
    """Whether the detour passes with a window (:data:`.shorten.WINDOWS`) come first: where lines carry many long
    detours, the short ones cut first make the long ones cheaper to find."""
    tail_polish: tuple[float, int] | None = None
    """A polish of the line's tail within the shortening's budget (:func:`tableaux.solver.lines.shorten_within`):
    where it starts, as a share of the line's moves, and its positions at most. Where the detour passes leave
    lines a few moves long and a polish from the start is too dear, a small search from halfway finds them."""
    one_card_home = True
    """Whether a move to a foundation takes exactly one card (King Albert): then only that card's own moves
    can ever take it home."""

    def key(self, state: State) -> bytes:
        raise NotImplementedError

    def rank(self, state: State) -> int:
        """Among positions with one key, lower is at least as good (same moves or more, same lengths).

        The search skips a position when one with its key and a rank no worse
        was reached before. That keeps it complete by the argument above: the
        earlier position wins in at most as many moves.
        """
        return 0

    def safe_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        return None

    def keeps_shortest(self, state: State, move: RawMove) -> bool:
        """Whether the safe ``move`` starts a shortest line: its proof gives, for every winning line, a strictly
        shorter one after it (package docstring). The fewest-moves search makes only these at once."""
        return True

    def maybe_safe(self, state: State) -> bool:
        """A cheap look: False when :meth:`safe_move` would surely find nothing."""
        return False

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        return moves

    def closure(
        self,
        rules: Rules,
        state: State,
        moves: list[RawMove],
        greedy: bool = False,
        made: Callable[[RawMove, State], bool] | None = None,
    ) -> tuple[State, list[RawMove] | None]:
        """Make safe moves from ``state`` (whose legal moves are ``moves``), one after another, until none is
        left: the position reached and its legal moves. Every search makes them this way: the depth-first
        runs, the best-first run and the layered search (the C core's ``ka_safe`` loop and ``lay_closure``).

        ``greedy``: the first pass's moves that are only likely safe as well (:meth:`greedy_move`). ``made``
        hears of each move with the position after it, and stops the closure there by returning True; the
        moves are then None.
        """
        safe, maybe = (self.greedy_move, self.maybe_greedy) if greedy else (self.safe_move, self.maybe_safe)
        while maybe(state):
            move = safe(state, moves)
            if move is None:
                break
            state = rules.apply(state, move)
            if made is not None and made(move, state):
                return state, None
            moves = rules.moves(state)
        return state, moves

    def obligation(self, move: RawMove) -> int | None:
        """The pile whose card the next move must use after ``move``, or None (see KingAlbertStrategy)."""
        return None

    def obliged(self, moves: Sequence[RawMove], pile: int) -> list[RawMove]:
        """The moves allowed right after a move with an obligation on ``pile``."""
        return list(moves)

    def greedy_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """For the first pass only: a move to make at once because it is usually right (no proof)."""
        return self.safe_move(state, moves)

    def maybe_greedy(self, state: State) -> bool:
        return self.maybe_safe(state)

    def promise(self, state: State) -> int:
        """For the first pass's best-first run: lower is more promising (no proof needed, it only guides)."""
        return 0

    def lower_bound(self, state: State) -> int:
        """A number of moves no winning line from ``state`` can do without: the fewest-moves search's bound.

        Each game proves its own (the docstrings of its strategy's ``lower_bound``). It must never exceed the
        length of the shortest winning line (admissible), and one move may lower it by at most one (consistent:
        ``lower_bound(P) <= 1 + lower_bound(P')`` for every move from P to P'), so that the best-first search
        of :mod:`tableaux.solver.shortest` never has to look at a position twice.
        """
        return 0

    def strong_lower_bound(self, state: State) -> int:
        """A bound as strong as :meth:`lower_bound` at least, too slow to work out at every position: for the start
        of a fewest-moves search and the bound it reports."""
        return self.lower_bound(state)

    def first_pass_nodes(self, max_nodes: int | None, time_limit: float | None) -> int | None:
        """Nodes the first pass may use before the complete search takes over: half a node budget.

        Half, and a share that grows with the budget, so that more budget never gives a worse
        verdict (the complete search gets what is left, which grows too). A time limit is split
        by the clock instead (see ``python_search``); with no budget at all the pass gets a
        fixed share, so that the complete search always gets its turn.
        """
        if max_nodes is not None:
            return max(1, max_nodes // 2)
        return None if time_limit is not None else 1_000_000


def suit_heights(foundations: Sequence[tuple[int, ...]]) -> list[int]:
    """Cards home per suit (clubs, diamonds, hearts, spades), from foundations that each hold one suit."""
    height = [0, 0, 0, 0]
    for f in foundations:
        if f:
            height[SUIT[f[0]]] = len(f)
    return height


def sorted_join(piles: Sequence[tuple[int, ...]]) -> bytes:
    """Interchangeable piles as one key part, the same whatever their order.

    Cards are < 128, so 0xFF never occurs inside a pile: the key is unambiguous.
    """
    return b"\xff".join(sorted(map(bytes, piles)))


def first_two(item: tuple[int, int, RawMove]) -> tuple[int, int]:
    """The sort key of a scored move: its class and rank within it, so that equal ones keep the order
    the rules listed them in (the C core's ``ordered`` sorts the same way)."""
    return item[0], item[1]
