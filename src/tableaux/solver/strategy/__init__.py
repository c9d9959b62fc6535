"""What the solver knows about each game beyond its legal moves: keys, safe moves, move order.

Nothing here decides legality: safe moves are picked from the list that
:meth:`Rules.moves` returned, and positions still come from :meth:`Rules.apply`.

How a safe move is proved safe
------------------------------
Write d(P) for the length of the shortest winning line from a position P. A
move P -> P' is *safe* when P' is winnable whenever P is, and d(P') <= d(P).
The search makes safe moves at once and only branches on the others; the
second condition is what keeps that complete: take the winnable position Q
with the smallest d among those the search reaches; its best move leads to
some Q1 with d(Q1) = d(Q) - 1, and the search reaches Q1's closure under safe
moves, whose d is no larger, so smaller than Q's: Q must be won already.

Each proof below shows, for any winning line L from P, a winning line L' from
P' that is no longer, and for most safe moves shorter: then d(P') = d(P) - 1,
the safe move starts a shortest line, and the fewest-moves search
(:mod:`tableaux.solver.shortest`) may make it at once too
(:meth:`Strategy.keeps_shortest` says which). In King Albert a position in which more tableau cards lie
face up is at least as good as the same position with fewer: every move
legal with fewer is legal with more, and they lead to positions that again
differ only in that way. The proofs use this freely.

The strategies live beside this file, one module per game: :mod:`.base` holds what
they share, :mod:`.king_albert` and :mod:`.eagle_wing` their keys, proofs and move
orders.
"""

from __future__ import annotations

from collections.abc import Callable

from ...rulebook.eagle_wing import EagleWing
from ...rulebook.engine import RawMove, Rules, State
from ...rulebook.king_albert import KingAlbert
from .base import Strategy, suit_heights
from .eagle_wing import EagleWingStrategy
from .king_albert import KA_FIRST_RESERVE, KA_FIRST_TABLEAU, KingAlbertStrategy, ka_home_is_safe

__all__ = [
    "KA_FIRST_RESERVE", "KA_FIRST_TABLEAU", "EagleWingStrategy", "KingAlbertStrategy", "Strategy", "ka_home_is_safe",
    "safe_moves", "strategy_for", "suit_heights",
]


_STRATEGIES: list[tuple[type[Rules], Callable[[Rules], Strategy]]] = [
    (KingAlbert, lambda rules: KingAlbertStrategy(rules.single_cards_only)),
    (EagleWing, lambda rules: EagleWingStrategy()),
]


def strategy_for(rules: Rules) -> Strategy:
    for kind, make in _STRATEGIES:
        if isinstance(rules, kind):
            return make(rules)
    raise TypeError(f"the solver does not know the game {rules.name!r}")


def safe_moves(rules: Rules, state: State) -> list[RawMove]:
    """The legal moves that the strategy's proofs show can never cost the player a win.

    These are exactly the moves :meth:`Strategy.safe_move` would make at once
    during a search (see each ``safe_move`` docstring for its proof), so a
    user interface that plays them for the player (the browser's "move safe
    cards home") relies on the same proofs as the solver. A game the solver
    does not know has none.
    """
    try:
        strategy = strategy_for(rules)
    except TypeError:
        return []
    if not strategy.maybe_safe(state):
        return []
    return [move for move in rules.moves(state) if strategy.safe_move(state, (move,)) == move]
