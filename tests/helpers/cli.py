"""Run the ``tableaux`` command as a user does: ``python -m tableaux ARGS`` in a child process.

The child gets this Python and so the same installed package as the tests (the C core when it is
built, the pure-Python search when it is not). It reads only the text given as ``stdin`` (an empty
stream otherwise, never the terminal), and writes UTF-8 without colour whatever the locale, on lines
160 columns wide (a table's rows are not wrapped), so tests can compare its words. ``env``, when given,
is its whole environment: tests of languages leave out LANG.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping


def run_tableaux(*args: str, stdin: str = "", env: Mapping[str, str] | None = None,
                 timeout: float = 120) -> subprocess.CompletedProcess[str]:
    child_env = {**(os.environ if env is None else env), "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1",
                 "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-m", "tableaux", *args], input=stdin, capture_output=True, text=True,
                          env=child_env, timeout=timeout)


def stats_table(out: str, label: str) -> list[str]:
    """The cells of the row ``label`` of the table ``tableaux stats`` prints."""
    row = next(line for line in out.splitlines() if label in line)
    return [cell.strip() for cell in row.split("│")[2:-1]]
