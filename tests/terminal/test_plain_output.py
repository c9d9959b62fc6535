"""The line mode's plain output (a pipe, a file) is exactly what ``rich`` printed there: the same characters,
line for line, whatever the text, the width and the game."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

import tableaux
from helpers.terminal import scripted
from tableaux.play.board import draw
from tableaux.terminal.line import play_loop
from tableaux.terminal.output import ONE_CELL, PlainConsole, glyphs_for, output, plain_console


def by_rich(width: int, say: list[str]) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, highlight=False)
    for message in say:
        console.print(Text(message, style="bold red"))
    return out.getvalue()


def by_plain(width: int, say: list[str]) -> str:
    out = io.StringIO()
    console = PlainConsole(file=out, width=width)
    for message in say:
        console.say(message, "bold red")
    return out.getvalue()


def test_every_character_the_plain_console_wraps_itself_is_one_cell_that_rich_prints_as_it_is() -> None:
    own = [chr(code) for code in range(0x110000) if ONE_CELL.fullmatch(chr(code))]
    assert "é" in own and "♠" in own and "’" in own and "\t" not in own and "字" not in own
    wide_or_changed = [c for c in own if cell_len(c) != 1 or Text(c).plain != c]
    assert not wide_or_changed


WORDS = st.sampled_from(["a", "word", "King", "Albert", "T1>T3", "déjà", "Größe", "¿qué?", "l’as", "10♥", "▒▒▒",
                         "averyveryverylongwordthatcannotfitonanylineatall", "-", "…", "·"])
SPACES = st.sampled_from([" ", "  ", "\n", " \n", "\xa0", "   "])
ODD = st.sampled_from(["\t", "字", "e\u0301", "\x07", "\r", "😀", "\u200b", "\x1b[31m"])


@settings(max_examples=300, deadline=None)
@given(width=st.integers(0, 90),
       say=st.lists(st.lists(st.one_of(WORDS, SPACES), max_size=40)
                    .map("".join), min_size=1, max_size=3))
def test_plain_text_is_wrapped_as_rich_wraps_it(width: int, say: list[str]) -> None:
    assert by_plain(width, say) == by_rich(width, say)


@settings(max_examples=150, deadline=None)
@given(width=st.integers(1, 90), say=st.lists(st.one_of(WORDS, SPACES, ODD), max_size=30).map("".join))
def test_text_with_wide_or_control_characters_is_printed_as_rich_prints_it(width: int, say: str) -> None:
    assert by_plain(width, [say]) == by_rich(width, [say])


SESSIONS = [
    ("king-albert", 1, ["help", "moves", "R5>F1", "T9>T1", "nonsense here", "T12>F1", "undo", "redo", "rules", ""]),
    ("eagle-wing", 3, ["deal", "S", "W", "T1:3>T4", "moves", "restart", "help", "board", "giveup"]),
    ("king-albert-classic", 7, ["moves", "R1>F1", "help", "rules", "T1", "x" * 150, "quit"]),
]


@pytest.mark.parametrize(("name", "deal", "lines"), SESSIONS, ids=[s[0] for s in SESSIONS])
@pytest.mark.parametrize("width", [80, 47, 200])
def test_a_whole_session_prints_the_same_characters_as_through_rich(name: str, deal: int, lines: list[str],
                                                                     width: int) -> None:
    transcripts = []
    for console in (lambda f: Console(file=f, width=width, highlight=False), lambda f: PlainConsole(f, width)):
        out = io.StringIO()
        play_loop(tableaux.new_game(name, deal), scripted(lines), console(out))
        transcripts.append(out.getvalue())
    assert transcripts[0] == transcripts[1]
    assert "Bye." in transcripts[1]


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1"])
def test_the_board_shows_suits_or_letters_as_the_output_can_encode_them_as_rich_did(encoding: str) -> None:
    game = tableaux.new_game("eagle-wing", 11)
    printed = []
    for make in (lambda f: Console(file=f, highlight=False), PlainConsole):
        raw = io.BytesIO()
        stream = io.TextIOWrapper(raw, encoding=encoding)
        console = output(make(stream))
        for line in draw(game.public_position(), glyphs_for(console)):
            console.board_line(line)
        stream.flush()
        printed.append(raw.getvalue())
    assert printed[0] == printed[1]
    assert ("♥".encode() in printed[1]) == (encoding == "utf-8")


@pytest.mark.parametrize("columns", [None, "37", "132", "wide", ""])
def test_the_width_is_the_one_rich_takes(monkeypatch: pytest.MonkeyPatch, columns: str | None) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert PlainConsole().width == Console().width


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [False, True])
@pytest.mark.parametrize(("compatible", "force"), [(None, None), ("0", None), ("1", None), (None, ""), (None, "1"),
                                                   ("0", "1"), ("1", ""), ("", None)])
def test_plain_output_is_chosen_exactly_where_rich_would_print_no_style(
        monkeypatch: pytest.MonkeyPatch, tty: bool, compatible: str | None, force: str | None) -> None:
    for name, value in (("TTY_COMPATIBLE", compatible), ("FORCE_COLOR", force)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.delenv("TERM", raising=False)
    monkeypatch.setattr("sys.stdout", Tty() if tty else io.StringIO())
    rich_is_plain = Console().color_system is None
    assert (plain_console() is not None) == rich_is_plain


def test_plain_output_writes_no_escape_code_even_with_no_color_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = io.StringIO()
    play_loop(tableaux.new_game("king-albert", 1), scripted(["R5>F1", "T1>T2"]), PlainConsole(out))
    assert not re.search("\x1b", out.getvalue())


def test_when_the_reader_goes_away_the_line_mode_ends_quietly_as_with_rich(tmp_path: Path) -> None:
    """``TTY_COMPATIBLE=1`` makes rich take a pipe for a terminal, so the same session goes through rich."""
    ends = []
    for through_rich in (False, True):
        read_end, write_end = os.pipe()
        os.close(read_end)
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
        if through_rich:
            env["TTY_COMPATIBLE"] = "1"
        try:
            proc = subprocess.run([sys.executable, "-m", "tableaux", "play", "eagle-wing", "--deal", "3"],
                                  stdout=write_end, stderr=subprocess.PIPE, input="moves\nquit\n", text=True,
                                  env=env, timeout=120)
        finally:
            os.close(write_end)
        ends.append((proc.returncode, proc.stderr))
    assert ends[0] == ends[1] == (1, "")
