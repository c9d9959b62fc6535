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


def test_the_line_mode_does_not_load_the_full_screen_board(tmp_path: Path) -> None:
    """Textual is loaded for the full-screen board only: piped input plays in the line mode, without it."""
    loaded = modules_loaded_by("play", "king-albert", "--deal", "1", "--tui", stdin="R5>F1\nquit\n",
                               env={"XDG_DATA_HOME": str(tmp_path)})
    assert "tableaux.terminal.line" in loaded
    assert not {m for m in loaded if m == "textual" or m.startswith(("textual.", "tableaux.terminal.screen"))}
