"""Unfinished terminal games, kept in the user data directory so that ``new`` or ``quit`` never loses one.

The terminal writes the game after every command (a few hundred bytes, atomically,
as :meth:`Game.save` writes it, plus the time played), one file per game, so a
crash or a closed window loses nothing either. A game has a file from its first
move until it is won or given up: those are finished (:mod:`.record` keeps how
they ended). Starting a deal that is already kept opens a file of its own beside
the kept one, so neither overwrites the other. The browser keeps its games in its
own database; this is the terminal's equivalent, in the same directory
(``platformdirs.user_data_dir("tableaux")``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _, ngettext
from ..play.game import Game, write_save
from ..play.saves import MAX_SAVE_BYTES, SaveFileError, loads


def data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("tableaux"))


def default_dir() -> Path:
    return data_dir() / "unfinished"


@dataclass(frozen=True)
class Saved:
    """One unfinished game on disk, and how long it has been played."""

    path: Path
    game: Game
    seconds: float = 0.0

    def describe(self) -> str:
        moves = len(self.game.moves_played)
        return ngettext("{game} deal {deal}, {n} move played", "{game} deal {deal}, {n} moves played", moves).format(
            game=_(self.game.rules.title), deal=self.game.deal, n=moves)


@dataclass
class Unfinished:
    """The directory of unfinished games."""

    directory: Path

    def keep(self, game: Game, path: Path | None = None, seconds: float = 0.0) -> Path:
        """Write ``game`` to ``path`` (its file), or to a new file when it has none yet; returns the file.
        :class:`SaveFileError` when it cannot be written, OSError when the folder cannot be made.

        A new file never takes the name of one that exists: another game of the same deal may be kept there.
        """
        if path is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"{game.name}-{game.deal}.json"
            copy = 1
            while path.exists():
                copy += 1
                path = self.directory / f"{game.name}-{game.deal}-{copy}.json"
        data = {**game.to_dict(), "seconds": round(seconds, 1)}
        write_save(path, json.dumps(data, indent=1))
        return path

    def forget(self, path: Path) -> None:
        """The game in ``path`` is finished (won or given up): it is no longer unfinished."""
        path.unlink(missing_ok=True)

    def read(self, path: Path) -> Saved:
        """One kept game; :class:`SaveFileError` when it cannot be read."""
        try:
            with open(path, "rb") as f:
                text = f.read(MAX_SAVE_BYTES + 1)
        except OSError as exc:
            raise SaveFileError(str(exc)) from None
        game = loads(text.decode("utf-8", "replace"))
        seconds = json.loads(text).get("seconds", 0.0)
        return Saved(path, game, float(seconds) if isinstance(seconds, int | float) and seconds >= 0 else 0.0)

    def games(self, exclude: Path | None = None) -> list[Saved]:
        """Every readable unfinished game, the most recently played first (``exclude``, a file, left out).

        A file that cannot be read is skipped, never deleted: it may come from
        a newer version of tableaux.
        """
        try:
            paths = [p for p in self.directory.glob("*.json") if p != exclude]
        except OSError:
            return []
        found = []
        for path in sorted(paths, key=_mtime, reverse=True):
            try:
                found.append(self.read(path))
            except SaveFileError:
                continue
        return found


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0
