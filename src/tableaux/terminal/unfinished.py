"""Unfinished terminal games, kept in the user data directory so that ``new`` or ``quit`` never loses one.

The terminal writes the game after every command (a few hundred bytes, atomically,
as :meth:`Game.save` writes it, plus the time played), one file per game, so a
crash or a closed window loses nothing either. A game has a file from its first
move until it is won or given up: those are finished (:mod:`.record` keeps how
they ended). Starting a deal that is already kept opens a file of its own beside
the kept one, so neither overwrites the other. The browser keeps its games in its
own database; this is the terminal's equivalent, in the same directory
(``platformdirs.user_data_dir("tableaux")``, :func:`data_dir`).

Paths are strings handled with ``os`` (a ``pathlib.Path`` is taken too): the line mode lists these games as
it starts, and ``pathlib`` alone would cost it a tenth of a bare interpreter's start (``benchmarks/cli.py``).
"""

from __future__ import annotations

import os
from collections import namedtuple

from ..common.dirs import user_dir
from ..i18n import _, ngettext
from ..play.game import Game
from ..play.save_file import write_save
from ..play.saves import SaveFileError, game_from_dict, parse, read_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    StrPath = str | os.PathLike[str]


def data_dir() -> str:
    """Where the terminal keeps its games: ``platformdirs.user_data_dir("tableaux")``, worked out without loading
    ``platformdirs`` where that can be done (:mod:`tableaux.common.dirs`)."""
    return user_dir("data")


class Saved(namedtuple("Saved", "path game seconds played_at recorded", defaults=(0.0, 0.0, False))):
    """One unfinished game on disk, how long it has been played, when it was last kept (its file's time), and
    whether the record of finished games has it already (won or given up, then taken back: played on, it is the
    same game, and the statistics count it once)."""

    __slots__ = ()
    path: StrPath
    game: Game
    seconds: float
    played_at: float
    recorded: bool

    def describe(self) -> str:
        moves = len(self.game.moves_played)
        return ngettext("{game} deal {deal}, {n} move played", "{game} deal {deal}, {n} moves played", moves).format(
            game=_(self.game.rules.title), deal=self.game.deal, n=moves)

    def listed(self, now: float | None = None) -> str:
        """How a list of kept games shows it: :meth:`describe` and when it was last played, which tells apart
        two games of one deal (a deal started again keeps a file of its own)."""
        import time

        ago = max(0.0, (time.time() if now is None else now) - self.played_at)
        if ago < 60:
            when = _("just now")
        elif ago < 3600:
            minutes = int(ago // 60)
            when = ngettext("{n} minute ago", "{n} minutes ago", minutes).format(n=minutes)
        elif ago < 86400:
            hours = int(ago // 3600)
            when = ngettext("{n} hour ago", "{n} hours ago", hours).format(n=hours)
        else:
            days = int(ago // 86400)
            when = ngettext("{n} day ago", "{n} days ago", days).format(n=days)
        return _("{game}, last played {when}").format(game=self.describe(), when=when)


def write_kept(path: StrPath, game: Game, seconds: float, recorded: bool = False) -> None:
    """Write ``game`` as :meth:`Game.save` does, with the time played on it and whether the record has it: a
    kept game, or one saved to a file, goes on with its clock where it stopped."""
    import json

    data = {**game.to_dict(), "seconds": round(seconds, 1), **({"recorded": True} if recorded else {})}
    write_save(path, json.dumps(data, indent=1))


def read_kept(path: StrPath) -> Saved:
    """A game written by :func:`write_kept` (or by :meth:`Game.save`: no time played); :class:`SaveFileError`
    when it cannot be read."""
    text = read_text(path)
    try:
        played_at = os.stat(path).st_mtime
    except OSError as exc:
        raise SaveFileError(str(exc)) from None
    data = parse(text)  # once, for the game and for the fields write_kept adds
    game = game_from_dict(data)
    seconds = data.get("seconds", 0.0)
    return Saved(path, game, float(seconds) if isinstance(seconds, int | float) and seconds >= 0 else 0.0,
                 played_at, data.get("recorded") is True)


class Unfinished:
    """The directory of unfinished games. (A plain class, as :class:`~.sitting.Sitting` is.)"""

    def __init__(self, directory: StrPath) -> None:
        self.directory = directory

    def keep(self, game: Game, path: StrPath | None = None, seconds: float = 0.0, recorded: bool = False) -> StrPath:
        """Write ``game`` to ``path`` (its file), or to a new file when it has none yet; returns the file
        (``recorded``: :attr:`Saved.recorded`). :class:`SaveFileError` when it cannot be written, OSError when
        the folder cannot be made.

        A new file never takes the name of one that exists: another game of the same deal may be kept there.
        """
        if path is None:
            os.makedirs(self.directory, exist_ok=True)
            path = os.path.join(self.directory, f"{game.name}-{game.deal}.json")
            copy = 1
            while os.path.exists(path):
                copy += 1
                path = os.path.join(self.directory, f"{game.name}-{game.deal}-{copy}.json")
        write_kept(path, game, seconds, recorded)
        return path

    def forget(self, path: StrPath) -> None:
        """The game in ``path`` is finished (won or given up): it is no longer unfinished."""
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass

    def read(self, path: StrPath) -> Saved:
        """One kept game; :class:`SaveFileError` when it cannot be read."""
        return read_kept(path)

    def games(self, exclude: StrPath | None = None) -> list[Saved]:
        """Every readable unfinished game, the most recently played first (``exclude``, a file, left out).

        A file that cannot be read is skipped, never deleted: it may come from
        a newer version of tableaux.
        """
        try:
            paths = [os.path.join(self.directory, name) for name in os.listdir(self.directory)
                     if name.endswith(".json")]
        except OSError:
            return []
        paths = [p for p in paths if p != exclude]
        found = []
        for path in paths:
            try:
                found.append(self.read(path))
            except SaveFileError:
                continue
        return sorted(found, key=lambda saved: saved.played_at, reverse=True)
