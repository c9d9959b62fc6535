"""A game's position and what its player has seen, as JSON-ready data.

:func:`position_dict` is the one builder of :class:`~.shapes.Position`, used by :class:`~.game.Game` and by fair
advice's sampled layouts, which have a position but no game. :func:`observation_dict` is the writing side of an
observation (:meth:`Game.observation`), whose reading side is :mod:`tableaux.advice.fair.observation`. Neither
needs a game's history, so they stand apart from it.
"""

from __future__ import annotations

from ..rulebook.cards import DOWN, card_str
from ..rulebook.engine import Rules, State

TYPE_CHECKING = False  # typing is not loaded: a game is played without it (benchmarks/cli.py)
if TYPE_CHECKING:
    from collections.abc import Iterable, Set
    from typing import Any

    from .shapes import Position

OBSERVATION_FORMAT = "tableaux-observation"
OBSERVATION_VERSION = 1


def position_dict(
    rules: Rules,
    state: State,
    *,
    deal: int | None,
    moves_played: int = 0,
    can_undo: bool = False,
    can_redo: bool = False,
    hide: bool = False,
    has_moves: bool | None = None,
) -> Position:
    """The one builder of :class:`Position`; ``hide`` leaves out every card the player cannot see.

    ``has_moves`` saves working out the legal moves again when the caller knows them.
    """
    won = rules.won(state)
    if has_moves is None:
        has_moves = bool(rules.moves(state))
    return {  # type: ignore[typeddict-item]  # the game's own fields come from Rules.extra
        "game": rules.name,
        "title": rules.title,
        "deal": deal,
        "piles": rules.pile_dicts(state, hide),
        "score": rules.score(state),
        "won": won,
        "over": not won and not has_moves,
        "moves_played": moves_played,
        "can_undo": can_undo,
        "can_redo": can_redo,
        **rules.extra(state),
    }


def observation_dict(rules: Rules, state: State, public: Position, seen: Set[int],
                     moves: Iterable[object]) -> dict[str, Any]:
    """The observation of a game now at ``state`` (see :meth:`Game.observation` for its fields).

    ``public`` is the game's public position, ``seen`` every card (face-down bit cleared) the player has had on
    view, ``moves`` the moves played.
    """
    position = dict(public)
    del position["deal"]
    piles = {
        name: [
            {"card": card_str(c) if c & ~DOWN in seen else None, "up": not c & DOWN}
            for c in pile
        ]
        for name, pile in zip(rules.pile_names, state.piles, strict=True)
    }
    return {
        "format": OBSERVATION_FORMAT,
        "version": OBSERVATION_VERSION,
        "game": rules.name,
        "position": position,
        "piles": piles,
        "unseen": 52 - len(seen),
        "redeals": state.redeals,
        "moves": [str(m) for m in moves],
    }
