"""Every command given garbage arguments answers with a usage message and exit status 2, never a traceback; a warning
is one line too."""

from __future__ import annotations

import argparse
import os
import warnings
from unittest import mock

import pytest

from helpers.cli import run_tableaux
from tableaux import cli

GARBAGE = [
    ["frobnicate"],
    ["play"],
    ["play", "spider"],
    ["play", "king-albert", "--deal", "-1"],
    ["play", "king-albert", "--deal", "4294967296"],
    ["play", "king-albert", "--deal", "seventeen"],
    ["play", "king-albert", "--deal", "1e3"],
    ["play", "king-albert", "--deal", "1_000"],  # int() reads it; a deal number is plain digits
    ["deal", "king-albert", "+5"],
    ["deal"],
    ["deal", "king-albert"],
    ["deal", "king-albert", "x"],
    ["deal", "eagle-wing", "99999999999999999999"],
    ["deal", "freecell", "1"],
    ["deal", "king-albert", "1", "--jsn"],
    ["solve", "king-albert"],
    ["solve", "king-albert", "1", "--time-limit", "-3"],
    ["solve", "king-albert", "1", "--time-limit", "nan"],
    ["solve", "king-albert", "1", "--max-nodes", "0"],
    ["solve", "king-albert", "1", "--max-nodes", "lots"],
    ["survey", "king-albert"],
    ["survey", "king-albert", "--deals", "1-10", "--workers", "0"],
    ["survey", "king-albert", "--deals", "ten-twenty"],
    ["survey", "king-albert", "--deals", "20-10"],
    ["survey", "king-albert", "--deals", "1-99999999999"],
    ["survey", "king-albert", "--deals", "1-10", "--time-limit", "inf"],
    ["serve", "--port", "0"],
    ["serve", "--port", "70000"],
    ["serve", "--port", "http"],
    ["serve", "--workers", "0"],
    ["serve", "--workers", "two"],
    ["serve", "--port", "8_000"],
    ["survey", "king-albert", "--deals", "1-10", "--seed", "1_0"],
    ["--port", "-5"],
    ["stats", "--game", "klondike"],
    ["stats", "--bogus"],
]


@pytest.mark.parametrize("argv", GARBAGE, ids=lambda a: " ".join(a))
def test_garbage_arguments_get_usage_and_status_2(argv: list[str]) -> None:
    result = run_tableaux(*argv)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_mistyped_solver_backend_is_one_warning_line_on_stderr_and_the_solve_goes_on() -> None:
    result = run_tableaux("solve", "king-albert", "1", env={**os.environ, "TABLEAUX_SOLVER": "bad"})
    assert result.returncode == 0, result.stderr
    assert result.stderr == "tableaux: warning: TABLEAUX_SOLVER='bad' is not a backend (c or python); using c\n"
    assert "winnable" in result.stdout


def test_a_warning_from_another_package_is_left_to_python_and_the_commands_own_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    def command(_args: object) -> int:
        warnings.warn_explicit("mine", UserWarning, os.path.join(os.path.dirname(cli.__file__), "solve.py"), 7)
        warnings.warn_explicit("elsewhere", UserWarning, "/somewhere/else.py", 7)
        return 0

    with mock.patch.object(cli, "build_parser") as parser, pytest.warns(UserWarning, match="elsewhere") as seen:
        parser.return_value.parse_args.return_value = argparse.Namespace(command="solve", func=command)
        assert cli.main(["solve"]) == 0
    assert [str(w.message) for w in seen] == ["elsewhere"]  # handed on to Python's display, which pytest records
    assert capsys.readouterr().err == "tableaux: warning: mine\n"
    assert warnings.showwarning.__module__ == "warnings"  # Python's own again once the command is over
