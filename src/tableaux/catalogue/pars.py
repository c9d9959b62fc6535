"""Each catalogued deal's par and grade, read without the rest of the catalogue.

The terminal's line mode shows a deal's par on its first board, and that mode starts in a few times a bare
interpreter's start (``tests/cli/test_cli_startup.py``): :mod:`.files` checks a catalogue thoroughly and
brings ``dataclasses``, ``pathlib`` and ``typing`` with it, which cost that start more than the rules do. So
the par is read here with ``gzip`` and ``json`` only, from the same shipped file, through the column list in
its header (the file's own word for where the par is). A file that cannot be read gives no par, never an
error: a par is never worth one where a game is played. The grade is read the same way, so that a game shows
what the catalogue says of its deal however the deal was chosen (picked as winnable, or opened by number).
Picking and grading deals still go through :mod:`.files`, which refuses a damaged file.
"""

from __future__ import annotations

import gzip
import json
import os

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_PARS: dict[str, dict[int, int]] = {}
_GRADES: dict[str, dict[int, str]] = {}


def shipped_file(game: str) -> str:
    """The shipped catalogue of ``game`` (the same file :func:`tableaux.catalogue.files.shipped_path` names)."""
    return os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "catalogue", f"{game}.json.gz")


def read_column(path: str, column: str, kept: Callable[[object], bool]) -> dict[int, Any]:
    """Deal number to ``column``'s value, for every row of the catalogue at ``path`` whose value is ``kept``;
    empty if the file cannot be read."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        columns = data["columns"]
        deal, at = columns.index("deal"), columns.index(column)
        return {row[deal]: row[at] for row in data["rows"] if kept(row[at])}
    except (OSError, EOFError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return {}


def read_pars(path: str) -> dict[int, int]:
    """Deal number to par, for every row of the catalogue at ``path`` that has one; empty if it cannot be read."""
    return read_column(path, "par", lambda par: isinstance(par, int) and not isinstance(par, bool) and par > 0)


def par_of(game: str, deal: int) -> int | None:
    """The deal's par when the shipped catalogue holds one, else None (kept per game once read)."""
    pars = _PARS.get(game)
    if pars is None:
        pars = _PARS[game] = read_pars(shipped_file(game))
    return pars.get(deal)


def grade_in_catalogue(game: str, deal: int) -> str | None:
    """The grade the shipped catalogue gives the deal (a winnable deal's easy, medium or hard), else None."""
    grades = _GRADES.get(game)
    if grades is None:
        grades = _GRADES[game] = read_column(shipped_file(game), "grade", lambda grade: isinstance(grade, str))
    return grades.get(deal)
