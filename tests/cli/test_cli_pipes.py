"""Every command exits quietly when the program reading its output stops reading (``| head -1``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMANDS = [
    ["solve", "eagle-wing", "17"],
    ["solve", "king-albert", "1", "--json"],
    ["deal", "king-albert", "1"],
    ["deal", "eagle-wing", "1", "--json"],
    ["play", "eagle-wing", "--deal", "3"],
    ["survey", "king-albert", "--deals", "1-2", "--max-nodes", "1000", "--workers", "1"],
    ["stats"],
    ["--help"],
    ["solve", "--help"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_command_exits_quietly_when_its_output_is_closed(args: list[str], tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line is written: every write fails
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "PYTHONIOENCODING": "utf-8"}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tableaux", *args], stdout=write_end, stderr=subprocess.PIPE,
            input="moves\nquit\n", text=True, env=env, timeout=120, cwd=tmp_path,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr, proc.stderr
    assert "Exception ignored" not in proc.stderr, proc.stderr
