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
"""

# No ``from __future__ import annotations``, and helpers imported under private
# names or inside functions: every public name of this module is the API listed
# in ``__all__``, so ``dir(tableaux)`` shows just that (and the submodules).
import os as _os
import typing as _typing

from .cards import CardError, card_str, parse_card
from .deal import MAX_DEAL, DealError
from .deal import check_deal as _check_deal
from .eagle_wing import EagleWing
from .engine import IllegalMoveError, Move, NotationError, Rules, State, TableauxError
from .game import Game, SaveFileError
from .game import game_from_dict as _game_from_dict
from .i18n import _
from .king_albert import KingAlbert, KingAlbertClassic
from .solver import SolverError, SolveResult
from .solver import solve as _solve_position

__version__ = "0.1.0"

GAMES: dict[str, Rules] = {r.name: r for r in (KingAlbert(), EagleWing(), KingAlbertClassic())}
"""Every game by name. ``king-albert`` and ``eagle-wing`` are AisleRiot's rules."""


class UnknownGameError(TableauxError, ValueError):
    """A game name we do not have."""


def rules(name: str) -> Rules:
    """The rules object for a game name, or a clear error listing the known games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {name!r}; known games are {', '.join(GAMES)}") from None


def new_game(name: str, deal: int | None = None) -> Game:
    """Start deal ``deal`` (0..4294967295) of game ``name``; a random deal when omitted."""
    import random

    game_rules = rules(name)
    if deal is None:
        deal = random.randint(0, MAX_DEAL)
    return Game(game_rules, deal)


def loads(text: str) -> Game:
    """Load a game saved by :meth:`Game.dumps`; a corrupt or edited save raises :class:`SaveFileError`."""
    import json

    try:
        data: object = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        # ValueError covers JSONDecodeError, UnicodeDecodeError and numbers too long to convert;
        # RecursionError is what absurdly deep nesting gives.
        raise SaveFileError(_("saved game is not valid JSON: {error}").format(error=exc)) from None
    return _game_from_dict(data, rules)


def solve(
    game_or_name: Game | tuple[Rules, State] | str, deal: int | None = None, /, **options: _typing.Any
) -> SolveResult:
    """Decide a deal or a position: ``solve("king-albert", 17)``, ``solve(game)`` or ``solve((rules, state))``.

    The name form exists here rather than in :mod:`tableaux.solver` because
    names live in :data:`GAMES`, and the solver depends on the engine only.
    Keyword options (``max_nodes``, ``time_limit``, ...) are those of
    :func:`tableaux.solver.solve`.
    """
    if isinstance(game_or_name, str):
        game_rules = rules(game_or_name)
        if deal is None:
            raise SolverError(f"solve({game_or_name!r}) needs a deal number too, for example "
                              f"solve({game_or_name!r}, 17)")
        return _solve_position((game_rules, game_rules.deal(_check_deal(deal))), **options)
    if deal is not None:
        raise SolverError("a deal number goes with a game name, as in solve('king-albert', 17), "
                          "not with a Game or a (rules, state) pair")
    return _solve_position(game_or_name, **options)


_MAX_SAVE_BYTES = 4 * 1024 * 1024
"""Far above any real save (a few kilobytes); reading stops there, so ``/dev/zero`` cannot eat the memory."""


def load(path: str | _os.PathLike[str]) -> Game:
    """Load a game saved by :meth:`Game.save`."""
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_SAVE_BYTES + 1)
        if len(data) > _MAX_SAVE_BYTES:
            raise SaveFileError(_("{file} is too large to be a saved game (more than {n} bytes)").format(
                file=repr(str(path)), n=_MAX_SAVE_BYTES))
        text = data.decode()
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveFileError(_("cannot read saved game {file}: {error}").format(
            file=repr(str(path)), error=exc)) from None
    return loads(text)


__all__ = [
    "GAMES",
    "CardError",
    "DealError",
    "EagleWing",
    "Game",
    "IllegalMoveError",
    "KingAlbert",
    "KingAlbertClassic",
    "MAX_DEAL",
    "Move",
    "NotationError",
    "Rules",
    "SaveFileError",
    "State",
    "TableauxError",
    "UnknownGameError",
    "card_str",
    "load",
    "loads",
    "new_game",
    "parse_card",
    "rules",
    "solve",
    "SolveResult",
    "SolverError",
]
