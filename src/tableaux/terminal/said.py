"""What the terminal says, apart from how it is shown: a message and its kind, and how each mode names a command.

Both terminal modes (the line mode and the full-screen board) put the same sentences before the player;
each shows a :class:`Said` its own way (a coloured line, a line in the message pane). Where a sentence
points to another command, the command is named through :class:`Names`: the line mode quotes the word
to type (``'lost?'``), the board the key to press, so the sentence itself is written and translated once.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import Literal

    Kind = Literal["", "note", "warning", "advice", "peek", "good", "won", "over", "error"]
    """``note``: on the way or by the way (dim); ``warning``: refused, nothing changed; ``advice``: a fair figure
    or hint; ``peek``: advice that looked at face-down cards; ``good``/``won``: the game is won; ``over``: no way
    on; ``error``: a bug, the game kept."""


class Said(namedtuple("Said", "text kind", defaults=("",))):
    """One message for the player and what kind of news it is (:data:`STYLES` lists the kinds).

    Named tuples here rather than dataclasses: ``dataclasses`` would cost every start of the terminal more
    than the messages it holds (``benchmarks/cli.py``).
    """

    __slots__ = ()
    text: str
    kind: Kind


STYLES: dict[str, str] = {"": "", "note": "dim", "warning": "yellow", "advice": "cyan", "peek": "magenta",
                          "good": "green", "won": "bold green", "over": "bold yellow", "error": "red"}
"""How each kind of message is coloured (a ``rich`` style), in either mode."""


def sentence(text: str) -> str:
    """A player's error as a sentence: a capital first and a full stop at the end.

    The library words its errors as exception texts ("illegal move T1>T2: ...", "not a move: 'foo'; ..."),
    which the command line prints after ``tableaux: error:`` and the API returns as they are. Standing alone
    before the player, in either terminal mode, they read as the other messages do, so the capital belongs
    here, where they are shown, and not in the library's words.
    """
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]


class Names(namedtuple("Names", "undo new lost giveup redo restart resume save quit")):
    """How the player asks for each command in one mode, as its messages quote it."""

    __slots__ = ()
    undo: str
    new: str
    lost: str
    giveup: str
    redo: str
    restart: str
    resume: str
    save: str
    quit: str


LINE_NAMES = Names(undo="'undo'", new="'new'", lost="'lost?'", giveup="'giveup'", redo="'redo'",
                   restart="'restart'", resume="'resume'", save="'save FILE'", quit="'quit'")
"""The line mode's commands, typed as written (commands stay English in every language)."""
