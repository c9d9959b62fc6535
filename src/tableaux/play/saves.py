"""Reading a saved game back: every field checked, every move replayed, so a damaged or edited save is refused.

A save (:meth:`Game.dumps`) holds the game, the deal and the moves, never a
position: the position is rebuilt by playing the moves again through the rules,
and the digest it recorded must match. So a save cannot smuggle in a position
the rules could not reach.
"""

from __future__ import annotations

import os

from ..i18n import _
from ..rulebook import registry
from ..rulebook.deal import DealError
from ..rulebook.engine import TableauxError
from .game import Game
from .save_file import SAVE_FORMAT, SAVE_VERSION, SaveFileError

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_SAVE_BYTES", "SaveFileError", "game_from_dict", "load", "loads"]


def game_from_dict(data: Any) -> Game:
    """Rebuild a game from :meth:`Game.to_dict` data, checking everything on the way."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveFileError(_("not a tableaux saved game: expected a JSON object with \"format\": \"{format}\"").format(
            format=SAVE_FORMAT))
    if data.get("version") != SAVE_VERSION:
        raise SaveFileError(_("unsupported save version {version}; this version reads {supported}").format(
            version=repr(data.get("version")), supported=SAVE_VERSION))
    for key, kind in (("game", str), ("moves", list), ("redo", list), ("digest", str)):
        if not isinstance(data.get(key), kind):
            raise SaveFileError(_("saved game is damaged: field {field} is missing or not a {kind}").format(
                field=repr(key), kind=kind.__name__))
    try:
        game_rules = registry.rules(data["game"])
    except TableauxError as exc:
        raise SaveFileError(_("saved game names an unknown game: {error}").format(error=exc)) from None
    try:
        game = Game.replay(game_rules, data.get("deal"), data["moves"], data["redo"])
    except DealError as exc:
        raise SaveFileError(_("saved game has a bad deal number: {error}").format(error=exc)) from None
    except TableauxError as exc:
        raise SaveFileError(_("saved game is damaged: {error}").format(error=exc)) from None
    if game.digest() != data["digest"]:
        raise SaveFileError(_("saved game has been altered: its moves do not lead to the position it recorded"))
    assisted = data.get("assisted", False)  # saves from before the flag have none: not assisted
    if not isinstance(assisted, bool):
        raise SaveFileError(_("saved game is damaged: field 'assisted' must be true or false, not {value}").format(
            value=repr(assisted)))
    game.assisted = assisted
    return game


def loads(text: str) -> Game:
    """Load a game saved by :meth:`Game.dumps`; a corrupt or edited save raises :class:`SaveFileError`."""
    return game_from_dict(parse(text))


def parse(text: str) -> Any:
    """A save's JSON data, read as :func:`loads` reads it (:class:`SaveFileError` when it is not JSON), for a
    reader that wants the fields a writer added beside the game's too."""
    try:
        import json  # loaded by what reads a save, not by every command that plays

        return json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        # ValueError covers JSONDecodeError, UnicodeDecodeError and numbers too long to convert;
        # RecursionError is what absurdly deep nesting gives.
        raise SaveFileError(_("saved game is not valid JSON: {error}").format(error=exc)) from None


MAX_SAVE_BYTES = 4 * 1024 * 1024
"""Far above any real save (a few kilobytes); reading stops there, so ``/dev/zero`` cannot eat the memory."""


def load(path: str | os.PathLike[str]) -> Game:
    """Load a game saved by :meth:`Game.save`."""
    return loads(read_text(path))


def read_text(path: str | os.PathLike[str]) -> str:
    """A saved game's text, read as :func:`load` reads it: at most :data:`MAX_SAVE_BYTES`, and a
    :class:`SaveFileError` that says why it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SAVE_BYTES + 1)
        if len(data) > MAX_SAVE_BYTES:
            raise SaveFileError(_("{file} is too large to be a saved game (more than {n} bytes)").format(
                file=repr(str(path)), n=MAX_SAVE_BYTES))
        text = data.decode()
    except (OSError, UnicodeDecodeError) as exc:  # the system's reason alone ("No such file or directory"), as
        # writing says it (save_file.py), not Python's "[Errno 2] ...: 'path'", which names the file twice
        error = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SaveFileError(_("cannot read saved game {file}: {error}").format(
            file=repr(str(path)), error=error)) from None
    return text
