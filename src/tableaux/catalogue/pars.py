"""Each catalogued deal's par, read without the rest of the catalogue.

The terminal's line mode shows a deal's par on its first board, and that mode starts in a few times a bare
interpreter's start (``tests/cli/test_cli_startup.py``): :mod:`.files` checks a catalogue thoroughly and
brings ``dataclasses``, ``pathlib`` and ``typing`` with it, which cost that start more than the rules do. So
the par is read here with ``gzip`` and ``json`` only, from the same shipped file, through the column list in
its header (the file's own word for where the par is). A file that cannot be read gives no par, never an
error: a par is never worth one where a game is played. Picking and grading deals still go through
:mod:`.files`, which refuses a damaged file.
"""

from __future__ import annotations

import gzip
import json
import os

_PARS: dict[str, dict[int, int]] = {}


def shipped_file(game: str) -> str:
    """The shipped catalogue of ``game`` (the same file :func:`tableaux.catalogue.files.shipped_path` names)."""
    return os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "catalogue", f"{game}.json.gz")


def read_pars(path: str) -> dict[int, int]:
    """Deal number to par, for every row of the catalogue at ``path`` that has one; empty if it cannot be read."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        columns = data["columns"]
        deal, par = columns.index("deal"), columns.index("par")
        return {row[deal]: row[par] for row in data["rows"]
                if isinstance(row[par], int) and not isinstance(row[par], bool) and row[par] > 0}
    except (OSError, EOFError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return {}


def par_of(game: str, deal: int) -> int | None:
    """The deal's par when the shipped catalogue holds one, else None (kept per game once read)."""
    pars = _PARS.get(game)
    if pars is None:
        pars = _PARS[game] = read_pars(shipped_file(game))
    return pars.get(deal)
