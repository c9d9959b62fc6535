"""Graded winnable deals and the daily deal, read from catalogues shipped with the package.

The parts: :mod:`.grades` (what a grade is), :mod:`.files` (the shipped files,
and picking a deal from them), :mod:`.daily` (the deal of the day) and
:mod:`.build` (``python -m tableaux.catalogue build``, which grades deals
ahead of time with fixed node budgets). The grade is defined in
``docs/difficulty.md``. The catalogue depends on the engine and the solver,
never the reverse.
"""

from .daily import daily, parse_date, today
from .files import Catalogue, load, lookup, par_of, pick, shipped_path
from .grades import GRADES, CatalogueError, Entry, Grade, difficulty_score, grade_of

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
