"""A command loads what its work needs and nothing more, so it starts in a few times a bare interpreter's start.

The start-up time itself is a benchmark (``python benchmarks/cli.py``: a ratio within one run); what this
test holds is its cause, which does not depend on the machine: the modules each command loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("fastapi", "pydantic", "rich", "babel", "uvicorn", "tableaux.web", "tableaux.terminal.line",
         "tableaux.advice.fair", "tableaux.catalogue", "tableaux.solver.search", "dataclasses", "pathlib", "hashlib")
"""Modules that cost a command's start-up much more than the rules and the compiled solver together."""


def modules_loaded_by(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> set[str]:
    code = ("import io, json, sys, contextlib\nfrom tableaux.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main({list(args)!r})\n"
            "print(json.dumps([status, sorted(sys.modules)]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, input=stdin,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    status, modules = json.loads(proc.stdout.splitlines()[-1])
    assert status == 0
    return set(modules)


@pytest.mark.parametrize("command", [("solve", "king-albert", "1", "--json"), ("solve", "eagle-wing", "1"),
                                     ("deal", "king-albert", "3", "--json")])
def test_a_quick_command_loads_no_heavy_module(command: tuple[str, ...]) -> None:
    loaded = modules_loaded_by(*command)
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert not heavy, f"tableaux {' '.join(command)} loads {heavy}"


def test_only_the_chosen_command_module_is_loaded() -> None:
    loaded = modules_loaded_by("solve", "king-albert", "1")
    assert "tableaux.cli.solve" in loaded
    assert not {"tableaux.cli.survey", "tableaux.cli.serve", "tableaux.cli.play"} & loaded


LINE_MODE_HEAVY = ("rich", "textual", "tableaux.terminal.screen", "typing", "dataclasses", "inspect", "pathlib",
                   "platformdirs", "tempfile", "babel", "hashlib", "datetime", "threading", "tableaux.web",
                   "tableaux.solver", "tableaux.advice", "tableaux.catalogue.files", "tableaux.catalogue.day",
                   "tableaux.catalogue.grades")
"""What the line mode, printing to a pipe, starts without: each of these cost its start-up more than a tenth of a
bare interpreter's start (``rich`` alone more than all the rules); they load when a command needs them. The
board's par comes from ``tableaux.catalogue.pars``, which needs none of them."""


def heavy_in(loaded: set[str], heavy: tuple[str, ...]) -> list[str]:
    return sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy))


@pytest.mark.parametrize("game", ["king-albert", "eagle-wing", "king-albert-classic"])
def test_the_line_mode_printing_to_a_pipe_loads_no_heavy_module(game: str, tmp_path: Path) -> None:
    loaded = modules_loaded_by("play", game, "--deal", "1", "--line", stdin="moves\nR1>F1\nboard\nquit\n",
                               env={"XDG_DATA_HOME": str(tmp_path)})
    assert "tableaux.terminal.output" in loaded
    heavy = heavy_in(loaded, LINE_MODE_HEAVY)
    assert not heavy, f"tableaux play {game} --line loads {heavy}"


def test_deal_printing_to_a_pipe_loads_no_heavy_module() -> None:
    loaded = modules_loaded_by("deal", "eagle-wing", "5")
    assert not heavy_in(loaded, LINE_MODE_HEAVY), f"tableaux deal loads {heavy_in(loaded, LINE_MODE_HEAVY)}"


def test_another_language_starts_from_its_compiled_catalogue_without_babel(tmp_path: Path) -> None:
    """The first start in French compiles the catalogue with Babel and keeps it; the next ones read it back."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CACHE_HOME": str(tmp_path / "cache"), "LANGUAGE": "fr"}
    first = modules_loaded_by("play", "eagle-wing", "--deal", "2", "--line", env=env)
    again = modules_loaded_by("play", "eagle-wing", "--deal", "2", "--line", env=env)
    assert "babel" in first
    assert not heavy_in(again, LINE_MODE_HEAVY), f"a start in French loads {heavy_in(again, LINE_MODE_HEAVY)}"


def test_the_line_mode_does_not_load_the_full_screen_board(tmp_path: Path) -> None:
    """Textual is loaded for the full-screen board only: piped input plays in the line mode, without it."""
    loaded = modules_loaded_by("play", "king-albert", "--deal", "1", "--tui", stdin="R5>F1\nquit\n",
                               env={"XDG_DATA_HOME": str(tmp_path)})
    assert "tableaux.terminal.line" in loaded
    assert not {m for m in loaded if m == "textual" or m.startswith(("textual.", "tableaux.terminal.screen"))}
