"""A player's rules of thumb: which moves look useful, from the cards on view alone.

The rule of thumb never suggests a pointless move (a lone card or a whole
pile onto an empty pile, a move that just undoes the previous one, or one that
returns to a position the game has already been in), so following it never
goes round in circles. It looks at no hidden card, so the fair advice
(:mod:`tableaux.advice.fair`) and the hints (:mod:`tableaux.advice.hints`) can both use it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ..rulebook.cards import DOWN, RANK
from ..rulebook.engine import RawMove, Rules, State

if TYPE_CHECKING:
    from ..play.game import Game


def is_pointless(
    rules: Rules,
    state: State,
    move: RawMove,
    previous: RawMove | None,
    seen: Collection[State] | None = None,
) -> bool:
    """A move that cannot help.

    That is: a lone card or a whole pile onto an empty pile of its kind (the
    same position with the piles swapped: a tableau pile, or a foundation's
    lone Ace), taking back the previous move (the
    same cards straight back where they came from), or any move back to a
    position this game has already been in (``seen``), which is how a
    heuristic would otherwise go round in circles.
    """
    src, count, dst = move
    if (
        previous is not None
        and previous[0] == dst
        and previous[2] == src
        and previous[1] == count
        and rules.stock not in (src, dst)
    ):
        return True
    piles = state.piles
    if not piles[dst] and count == len(piles[src]) and any(
            src in kind and dst in kind for kind in (rules.tableau, rules.foundations)):
        return True
    return bool(seen) and rules.apply(state, move) in seen  # type: ignore[operator]


def heuristic_moves(
    rules: Rules,
    state: State,
    previous: RawMove | None = None,
    seen: Collection[State] | None = None,
) -> list[RawMove]:
    """Legal, non-pointless moves (see :func:`is_pointless`), best first, by a player's rules of thumb."""
    piles = state.piles
    foundations = set(rules.foundations)

    def rank(move: RawMove) -> tuple[int, int]:
        src, count, dst = move
        source = piles[src]
        if src in foundations:
            return (9, 0)  # taking a card back is a last resort
        if src == rules.stock:
            return (7, 0)  # the stock comes after every useful card move
        if dst == rules.stock:
            return (8, 0)  # turning the waste over uses up a redeal
        if dst in foundations:
            return (0, RANK[source[-1]])
        uncovers = len(source) > count and source[-count - 1] & DOWN
        if uncovers:
            return (1, -len(source))
        if len(source) == count:
            return (2, 0)  # empties a pile (Eagle Wing refills it from the reserve)
        return (3 if piles[dst] else 5, -count)

    moves = [m for m in rules.moves(state) if not is_pointless(rules, state, m, previous, seen)]
    return sorted(moves, key=rank)


def history(game: Game) -> set[State]:
    """Every position this game has been in along its played line."""
    return set(game.positions)


def repeating_moves(game: Game) -> set[str]:
    """Legal moves that are pointless (see :func:`is_pointless`), in notation: a fair hint never suggests them.

    This looks at the real positions of the game's history, but reveals
    nothing: two positions of one game with the same public view hold the
    same hidden cards in the same places (face-down cards never move, and
    the unseen stock and trunk are fixed by their counts), so "back to an
    earlier position" is something the player can see.
    """
    rules, state = game.rules, game.state
    previous = rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    seen = history(game)
    return {str(rules.to_move(m)) for m in rules.moves(state) if is_pointless(rules, state, m, previous, seen)}
