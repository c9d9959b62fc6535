"""tableaux: King Albert and Eagle Wing exactly as GNOME AisleRiot plays them.

Quick use (``docs/api.md`` has the whole API)::

    >>> import tableaux
    >>> game = tableaux.new_game("king-albert", deal=17)
    >>> [str(move) for move in game.legal_moves()]
    ['R1>F1', 'R1>F2', 'R1>F3', 'R1>F4', 'R1>T5', 'R6>F1', ...]
    >>> game.play("R1>F1")
    Move(source='reserve-1', count=1, target='foundation-1')
    >>> game.score
    1
    >>> game.undo()
    Move(source='reserve-1', count=1, target='foundation-1')
    >>> tableaux.solve(game).verdict
    'winnable'

This module is the package's face and nothing else: each name below lives in
the module of its own layer and is loaded from there the first time it is
asked for. So ``import tableaux.cards`` (or a command that needs only the
solver) does not load the rest, no module below needs this one, and the
names here are exactly the API listed in ``__all__``.
"""

from importlib import import_module as _import_module
from typing import TYPE_CHECKING as _TYPE_CHECKING

__version__ = "0.1.0"

_HOMES = {
    "CardError": "cards", "card_str": "cards", "parse_card": "cards",
    "MAX_DEAL": "deal", "DealError": "deal",
    "IllegalMoveError": "engine", "Move": "engine", "NotationError": "engine", "Rules": "engine",
    "State": "engine", "TableauxError": "engine",
    "KingAlbert": "king_albert", "KingAlbertClassic": "king_albert", "EagleWing": "eagle_wing",
    "GAMES": "registry", "UnknownGameError": "registry", "rules": "registry",
    "Game": "game", "new_game": "game", "SaveFileError": "saves", "load": "saves", "loads": "saves",
    "solve": "solver", "SolveResult": "solver", "SolverError": "solver",
    "hint": "hints", "Hint": "hints",
}
"""Each public name and the module (of this package) that defines it."""

__all__ = [
    "CardError",
    "DealError",
    "EagleWing",
    "GAMES",
    "Game",
    "Hint",
    "IllegalMoveError",
    "KingAlbert",
    "KingAlbertClassic",
    "MAX_DEAL",
    "Move",
    "NotationError",
    "Rules",
    "SaveFileError",
    "SolveResult",
    "SolverError",
    "State",
    "TableauxError",
    "UnknownGameError",
    "card_str",
    "hint",
    "load",
    "loads",
    "new_game",
    "parse_card",
    "rules",
    "solve",
]
"""The API: each name is loaded from its home in ``_HOMES`` when first used."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tableaux' has no attribute {name!r}")
    value = getattr(_import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(n for n in globals() if not n.startswith("_") or n.startswith("__"))})


if _TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly
    from .cards import CardError, card_str, parse_card
    from .deal import MAX_DEAL, DealError
    from .eagle_wing import EagleWing
    from .engine import IllegalMoveError, Move, NotationError, Rules, State, TableauxError
    from .game import Game, new_game
    from .hints import Hint, hint
    from .king_albert import KingAlbert, KingAlbertClassic
    from .registry import GAMES, UnknownGameError, rules
    from .saves import SaveFileError, load, loads
    from .solver import SolverError, SolveResult, solve
