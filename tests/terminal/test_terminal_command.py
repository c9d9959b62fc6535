"""``tableaux play`` when something goes wrong: bad arguments, a script piped in and its saved game resumed,
Ctrl-C at the prompt, a bug behind a command. None of them ends the game or shows a traceback."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import tableaux
from helpers.cli import run_tableaux
from helpers.terminal import play
from tableaux.advice.hints import Hint
from tableaux.play.game import Game
from tableaux.terminal import advice as terminal_fair
from tableaux.terminal.line import play_loop


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "king-albert", "99999999999"],
        ["deal", "king-albert", "x"],
        ["deal", "spider", "1"],
        ["play", "king-albert", "--deal", "-1"],
        ["play", "king-albert", "--deal", "1", "--load", "x.json"],
        ["play"],
        ["play", "--load", "/no/such/file.json"],
    ],
)
def test_bad_arguments_exit_2_without_a_traceback(args: list[str]) -> None:
    result = run_tableaux(*args)
    assert result.returncode == 2
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_play_from_a_script_then_resume_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    result = run_tableaux("play", "eagle-wing", "--deal", "1", stdin=f"T4>F2\nnonsense\nsave {path}\n")
    assert result.returncode == 0, result.stderr
    assert "Played T4>F2." in result.stdout and "Not a move" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    result = run_tableaux("play", "--load", str(path), stdin="undo\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Undid T4>F2." in result.stdout
    result = run_tableaux("play", "king-albert", "--load", str(path))
    assert result.returncode == 2 and "Eagle Wing" in result.stderr


def test_ctrl_c_at_the_prompt_keeps_the_game() -> None:
    game = tableaux.new_game("king-albert", 1)
    lines = iter(["R5>F1", KeyboardInterrupt, "undo"])

    def read(prompt: str) -> str:
        item = next(lines, None)
        if item is None:
            raise EOFError
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return str(item)

    out = io.StringIO()
    final = play_loop(game, read, Console(file=out, width=100))
    assert final is game and not game.moves_played and game.redo_moves
    assert "Type 'quit' or press Ctrl-D to leave." in out.getvalue()


def test_a_bug_behind_a_command_does_not_end_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: Game, **kw: object) -> Hint:
        raise RuntimeError("boom")

    monkeypatch.setattr(terminal_fair, "hint", broken)
    game = tableaux.new_game("king-albert", 1)
    final, out = play(game, "hint", "R5>F1")
    assert "went wrong" in out and "Your game is still open." in out
    assert len(final.moves_played) == 1
