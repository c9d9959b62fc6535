"""Where the line mode (and ``tableaux deal``) print: through ``rich`` on a terminal, by :class:`PlainConsole`
elsewhere, which prints the text ``rich`` would print there without loading ``rich``.

Why :class:`PlainConsole` exists: a command is to start in at most 4 times a bare interpreter's start
(``benchmarks/cli.py``), and ``rich`` alone is more than that. Importing ``rich.console`` (with ``rich.text``,
the styles, colours and themes, and the ``typing``, ``dataclasses`` and ``inspect`` they load) takes
``tableaux play GAME --deal N --line`` from 129 to 289 million instructions (callgrind; a bare interpreter
runs 39). When ``rich`` writes to something that is not a terminal it prints no colour and no style at all,
only the text, word-wrapped to the console's width; so for that case (a script piping moves into ``tableaux
play``, a transcript, a test) :class:`PlainConsole` prints the same characters itself.

It is held to ``rich`` character for character (``tests/terminal/test_plain_output.py`` compares the two
on generated text, whole sessions and boards): the same width (``COLUMNS``, else the size of the first
standard stream that is a terminal, else 80), the same word wrapping and folding of long words, the same
encoding (so a console that cannot show the suits gets letters, as before) and the same end when the
reader of a pipe goes away. It wraps by itself only text whose every character ``rich`` draws one cell wide
and leaves unchanged (:data:`ONE_CELL`: Latin, Greek and Cyrillic letters, punctuation, the suits, box
shapes); any other text, such as a wide character or a tab typed into a script, is handed to ``rich``
itself, loaded for it then. A terminal always gets ``rich`` (:func:`plain_console` says None there, and
:class:`RichOutput` prints): colour, and what ``NO_COLOR`` leaves of the styles, need it.
"""

from __future__ import annotations

import os
import re
import sys

from ..play.board import ASCII, UNICODE, Glyphs, text_of

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import TextIO

    from rich.console import Console

    from ..play.board import Line

ONE_CELL = re.compile(
    r"[\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0482\u2010-\u2027\u2030-\u205e\u2500-\u25fc\u2660-\u2667]*")
"""Text that ``rich`` draws one cell a character and prints as it is (no control codes, nothing that joins or
is wide): :class:`PlainConsole` wraps it by itself. Newlines are split off before."""

_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")


def plain_console() -> PlainConsole | None:
    """A :class:`PlainConsole` when ``rich`` would print plain text to standard output, else None.

    ``rich`` prints without styles where its output is not a terminal: ``TTY_COMPATIBLE=0``, or an empty
    ``FORCE_COLOR``, or (when neither says) standard output that is not a tty. On Windows ``rich`` may
    narrow the width for an old console, so there it is always ``rich``.
    """
    if sys.platform == "win32":
        return None
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    force = os.environ.get("FORCE_COLOR")
    if compatible == "1" or (compatible != "0" and force is not None and force != ""):
        return None
    if compatible != "0" and force is None:
        try:
            if sys.stdout.isatty():
                return None
        except ValueError:  # a closed stdout is no terminal, as rich sees it
            pass
    return PlainConsole()


def wrap(text: str, width: int) -> list[str]:
    """The lines ``rich`` prints for one line of one-cell text (:data:`ONE_CELL`) in ``width`` cells: words
    kept whole when they fit, a word longer than a line folded, the spaces where a line breaks dropped."""
    breaks: list[int] = []
    offset = 0
    position = 0
    while (match := _WORD.match(text, position)) is not None:
        start, position = match.span()
        word = match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # a word longer than a line is folded over lines of its own
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for piece in pieces[:-1]:
                if start:
                    breaks.append(start)
                start += len(piece)
            if start:
                breaks.append(start)
            offset = len(pieces[-1])
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(text)]
    lines = []
    for begin, end in zip(bounds, bounds[1:], strict=False):
        line = text[begin:end]
        if len(line) > width and (space := _TRAILING_SPACE.search(line)) is not None:
            line = line[:len(line) - min(len(space.group(0)), len(line) - width)]
        lines.append(line)
    return lines


class PlainConsole:
    """Prints the line mode's messages and board as ``rich`` prints them where there is no terminal.

    ``file`` is where (standard output, looked up at each print, when None) and ``width`` how wide
    (worked out as ``rich`` does, when None); both are there for the tests that hold it to ``rich``.
    """

    def __init__(self, file: TextIO | None = None, width: int | None = None) -> None:
        self._file = file
        columns = os.environ.get("COLUMNS")
        self._width = width if width is not None else int(columns) if columns is not None and columns.isdigit() \
            else None
        self._rich: Console | None = None
        self.quiet = False

    @property
    def file(self) -> TextIO:
        return self._file or sys.stdout

    @property
    def encoding(self) -> str:
        return (getattr(self.file, "encoding", "utf-8") or "utf-8").lower()

    @property
    def width(self) -> int:
        if self._width is not None:
            return self._width
        width = 0
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd).columns
            except (AttributeError, ValueError, OSError):
                continue
            break
        columns = os.environ.get("COLUMNS")
        return int(columns) if columns is not None and columns.isdigit() else width or 80

    def say(self, message: str, style: str = "") -> None:
        """One message (its style shows only on a terminal)."""
        width = self.width
        lines = message.split("\n")
        if width < 1 or not all(ONE_CELL.fullmatch(line) for line in lines):
            self._by_rich(message)
            return
        self._write("".join(piece + "\n" for line in lines for piece in wrap(line, width)))

    def board_line(self, line: Line) -> None:
        """One line of the board (:func:`tableaux.play.board.draw`)."""
        self.say("".join(text for text, _style in line))

    def blank(self) -> None:
        self._write("\n")

    def _write(self, text: str) -> None:
        if self.quiet:
            return
        try:
            try:
                self.file.write(text)
            except UnicodeEncodeError as error:
                error.reason = f"{error.reason}\n*** You may need to add PYTHONIOENCODING=utf-8 to your environment ***"
                raise
            self.file.flush()
        except BrokenPipeError:
            # As rich ends when its reader has gone: quiet from now on, and out with status 1.
            self.quiet = True
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None

    def _by_rich(self, message: str) -> None:
        """Text this module does not wrap itself: ``rich`` prints it, as it would have."""
        from rich.console import Console
        from rich.text import Text

        if self._rich is None:
            self._rich = Console(file=self._file, width=self._width, highlight=False)
        self._rich.quiet = self.quiet
        self._rich.print(Text(message))


def glyphs_for(console: Console | Output) -> Glyphs:
    """The suits and backs the console's encoding can show: letters where it is not UTF-8."""
    encoding = (console.encoding or "").lower().replace("-", "")
    return UNICODE if encoding.startswith("utf") else ASCII


class RichOutput:
    """The line mode's output through a ``rich`` Console: in colour on a terminal (or in what ``NO_COLOR`` leaves
    of the styles). It says what :class:`PlainConsole` says, so the session writes to either."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def encoding(self) -> str:
        return self.console.encoding

    @property
    def width(self) -> int:
        return self.console.width

    def say(self, message: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(message, style=style))

    def board_line(self, line: Line) -> None:
        self.console.print(text_of(line))

    def blank(self) -> None:
        self.console.print()


Output = RichOutput | PlainConsole


def output(console: Console | Output) -> Output:
    """Where the line mode writes: a ``rich`` Console is wrapped, a plain console taken as it is."""
    return console if isinstance(console, RichOutput | PlainConsole) else RichOutput(console)
