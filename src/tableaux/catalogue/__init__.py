"""Graded winnable deals and the daily deal, read from catalogues shipped with the package.

The parts: :mod:`.grades` (what a grade is), :mod:`.files` (the shipped files,
and picking a deal from them), :mod:`.day` (the deal of the day) and
:mod:`.build` (``python -m tableaux.catalogue build``, which grades deals
ahead of time with fixed node budgets), :mod:`.pars` (a deal's par, read cheaply) and :mod:`.par`
(the build of the pars). The grade is defined in
``docs/difficulty.md``. The catalogue depends on the engine and the solver,
never the reverse.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from .day import daily, parse_date, today
    from .files import Catalogue, load, lookup, pick, shipped_path
    from .grades import GRADES, CatalogueError, Entry, Grade, difficulty_score, grade_of
    from .pars import par_of

_HOMES = {
    **dict.fromkeys(("daily", "parse_date", "today"), "day"),
    **dict.fromkeys(("Catalogue", "load", "lookup", "pick", "shipped_path"), "files"),
    **dict.fromkeys(("GRADES", "CatalogueError", "Entry", "Grade", "difficulty_score", "grade_of"), "grades"),
    "par_of": "pars",
}
"""Where each name of the package's face lives. They load when first used, so the line mode can read a par
(:mod:`.pars`) without loading the catalogue's checks (:mod:`.files`) or dates (:mod:`.daily`)."""


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "GRADES",
    "Catalogue",
    "CatalogueError",
    "Entry",
    "Grade",
    "daily",
    "difficulty_score",
    "grade_of",
    "load",
    "lookup",
    "par_of",
    "parse_date",
    "pick",
    "shipped_path",
    "today",
]
