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
asked for. So ``import tableaux.rulebook.cards`` (or a command that needs only the
solver) does not load the rest, no module below needs this one, and the
names here are exactly the API listed in ``__all__``.
"""

from importlib import import_module as _import_module

from .common.version import VERSION as _VERSION

__version__ = _VERSION

_HOMES = {
    "CardError": "rulebook.cards", "card_str": "rulebook.cards", "parse_card": "rulebook.cards",
    "MAX_DEAL": "rulebook.deal", "DealError": "rulebook.deal",
    "IllegalMoveError": "rulebook.engine", "Move": "rulebook.engine", "NotationError": "rulebook.engine",
    "Rules": "rulebook.engine", "State": "rulebook.engine", "TableauxError": "rulebook.engine",
    "KingAlbert": "rulebook.king_albert", "KingAlbertClassic": "rulebook.king_albert",
    "EagleWing": "rulebook.eagle_wing",
    "GAMES": "rulebook.registry", "UnknownGameError": "rulebook.registry", "rules": "rulebook.registry",
    "Game": "play.game", "new_game": "play.game",
    "SaveFileError": "play.save_file", "load": "play.saves", "loads": "play.saves",
    "solve": "solver", "SolveOptions": "solver", "SolveResult": "solver", "SolverError": "solver",
    "hint": "advice.hints", "Hint": "advice.hints", "FairError": "advice.fair",
}
"""Each public name and the module (of this package) that defines it."""

__all__ = [
    "CardError",
    "DealError",
    "EagleWing",
    "FairError",
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
    "SolveOptions",
    "SolveResult",
    "SolverError",
    "State",
    "TableauxError",
    "UnknownGameError",
    "card_str",
    "fair",
    "hint",
    "load",
    "loads",
    "new_game",
    "parse_card",
    "rules",
    "solve",
]
"""The API: each name is loaded from its home in ``_HOMES`` (a module from ``_MODULES``) when first used."""


_MODULES = {"fair": "advice.fair", **{name: name for name in
                                      ("advice", "catalogue", "play", "rulebook", "solver", "survey")}}
"""Modules the documentation names from the package (``from tableaux import fair``, ``tableaux.solver.BACKENDS``),
and where they live: each is imported when first named, as the API's names are, so that ``import tableaux`` alone
is enough."""


def __getattr__(name: str) -> object:
    if name in _MODULES:
        value: object = _import_module(f"{__name__}.{_MODULES[name]}")
    elif name in _HOMES:
        value = getattr(_import_module(f"{__name__}.{_HOMES[name]}"), name)
    else:
        raise AttributeError(f"module 'tableaux' has no attribute {name!r}")
    globals()[name] = value  # found once; later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(n for n in globals() if not n.startswith("_") or n.startswith("__"))})


TYPE_CHECKING = False  # no typing at start-up (benchmarks/cli.py); type checkers take it as True
if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, imported eagerly
    from .advice import fair
    from .advice.fair import FairError
    from .advice.hints import Hint, hint
    from .play.game import Game, new_game
    from .play.save_file import SaveFileError
    from .play.saves import load, loads
    from .rulebook.cards import CardError, card_str, parse_card
    from .rulebook.deal import MAX_DEAL, DealError
    from .rulebook.eagle_wing import EagleWing
    from .rulebook.engine import IllegalMoveError, Move, NotationError, Rules, State, TableauxError
    from .rulebook.king_albert import KingAlbert, KingAlbertClassic
    from .rulebook.registry import GAMES, UnknownGameError, rules
    from .solver import SolveOptions, SolverError, SolveResult, solve
del TYPE_CHECKING  # not part of the package's face
