"""What a save file is on disk: its format mark and version, its one error, and its atomic write.

Both sides of a save need these: :meth:`Game.save` (:mod:`.game`) writes one and :mod:`.saves` reads one back,
and the terminal writes its unfinished-game file the same way. They live apart from both so that the reader
can import the game without the game importing the reader.
"""

from __future__ import annotations

from ..i18n import _
from ..rulebook.engine import TableauxError

TYPE_CHECKING = False  # typing is not loaded: a game is played without it (benchmarks/cli.py)
if TYPE_CHECKING:
    from pathlib import Path

SAVE_FORMAT = "tableaux-game"
SAVE_VERSION = 1


class SaveFileError(TableauxError, ValueError):
    """A game that cannot be saved or loaded: a save that is corrupt, edited or from an unknown game, or a
    file that cannot be read or written (a folder, a missing folder, no permission, a full disk)."""


def write_save(path: str | Path, text: str) -> None:
    """Write a saved game's ``text`` to ``path``, atomically: a crash never leaves half a file. A write that fails
    (a folder, a missing folder, no permission, a full disk) leaves the file as it was and no other file behind,
    and raises :class:`SaveFileError` saying why: callers catch that one error."""
    from pathlib import Path  # loaded by what saves, not by every command that plays

    path = Path(path)
    if path.is_dir():
        raise SaveFileError(_("cannot save to {file}: it is a folder; give a file name, for example {example}")
                            .format(file=repr(str(path)), example=repr(str(path / "game.json"))))
    tmp = path.with_name(path.name + ".tmp")  # beside the file, so the rename below cannot cross disks
    try:
        tmp.write_text(text + "\n")
        tmp.replace(path)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass  # a folder that refused the write may refuse this too; then there is no file to remove
        raise SaveFileError(_("cannot save to {file}: {error}").format(
            file=repr(str(path)), error=exc.strerror or exc)) from None
