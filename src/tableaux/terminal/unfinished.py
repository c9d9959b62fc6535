"""Unfinished terminal games, kept in the user data directory so that ``new`` or ``quit`` never loses one.

The terminal writes the game after every command (a few hundred bytes, atomically,
through :meth:`Game.save`), one file per game and deal, so a crash or a closed
window loses nothing either. A won game, or one with no move to keep, has no
file. The browser keeps its games in its own database; this is the terminal's
equivalent, in the same directory (``platformdirs.user_data_dir("tableaux")``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _, ngettext
from ..play.game import Game
from ..play.saves import SaveFileError, load


def default_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("tableaux")) / "unfinished"


@dataclass(frozen=True)
class Saved:
    """One unfinished game on disk."""

    path: Path
    game: Game

    def describe(self) -> str:
        moves = len(self.game.moves_played)
        return ngettext("{game} deal {deal}, {n} move played", "{game} deal {deal}, {n} moves played", moves).format(
            game=_(self.game.rules.title), deal=self.game.deal, n=moves)


@dataclass
class Unfinished:
    """The directory of unfinished games."""

    directory: Path

    def path_for(self, game: Game) -> Path:
        return self.directory / f"{game.name}-{game.deal}.json"

    def keep(self, game: Game) -> None:
        """Write ``game`` if it has anything to lose; forget it once won.

        A game with no move at all writes nothing, and leaves alone a file an
        earlier sitting left for the same deal (:meth:`find` resumes that one).
        """
        path = self.path_for(game)
        if game.is_won():
            path.unlink(missing_ok=True)
        elif game.moves_played or game.redo_moves:
            self.directory.mkdir(parents=True, exist_ok=True)
            game.save(path)

    def find(self, name: str, deal: int) -> Game | None:
        """The unfinished game of this very deal, if one was kept and can be read."""
        path = self.directory / f"{name}-{deal}.json"
        if not path.exists():
            return None
        try:
            return load(path)
        except SaveFileError:
            return None

    def games(self, exclude: Game | None = None) -> list[Saved]:
        """Every readable unfinished game, the most recently played first (``exclude``'s own file left out).

        A file that cannot be read is skipped, never deleted: it may come from
        a newer version of tableaux.
        """
        skip = self.path_for(exclude) if exclude is not None else None
        try:
            paths = [p for p in self.directory.glob("*.json") if p != skip]
        except OSError:
            return []
        found = []
        for path in sorted(paths, key=_mtime, reverse=True):
            try:
                found.append(Saved(path, load(path)))
            except SaveFileError:
                continue
        return found


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0
