"""The grade of a winnable deal: easy, medium or hard, from the solver's measures of it.

The definition, its calibration and what it does and does not measure are in
``docs/difficulty.md``. The cut points are per game and fixed
(:data:`tableaux.rulebook.registry.GRADE_CUTS`), so a deal's grade never depends on
which other deals are in a catalogue.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..i18n import _
from ..rulebook.engine import TableauxError
from ..rulebook.registry import GRADE_CUTS

Grade = Literal["easy", "medium", "hard"]
GRADES: tuple[Grade, ...] = ("easy", "medium", "hard")

COLUMNS = ("deal", "verdict", "first_moves", "safe_first_moves", "line", "nodes", "grade", "par", "par_bound")
"""One row per deal; the measures are None for a deal that is not (shown to be) winnable, and the par until the
par build (:mod:`tableaux.catalogue.par`) has reached the deal."""

TRAP_WEIGHT = 3.0
"""How much the share of first moves that lose (or are not shown to keep the win) adds to the score."""


class CatalogueError(TableauxError, ValueError):
    """A bad request to the catalogue (unknown grade, bad date), or a catalogue file that is missing or damaged."""


@dataclass(frozen=True)
class Entry:
    """One catalogued deal: its verdict, and for a winnable deal the solver's measures and the grade from them."""

    game: str
    deal: int
    verdict: str
    first_moves: int | None = None
    """Legal moves in the deal's first position."""
    safe_first_moves: int | None = None
    """How many of them lead to a position the solver shows winnable (within
    :data:`tableaux.catalogue.build.CHILD_BUDGET`)."""
    line: int | None = None
    """Moves in the winning line the solver's search found (before any shortening: the grade's own measure)."""
    nodes: int | None = None
    """Positions the solver searched to decide the deal (within :data:`tableaux.catalogue.build.DEAL_BUDGET`)."""
    grade: Grade | None = None
    par: int | None = None
    """The fewest moves of a winning line found (:data:`tableaux.catalogue.par.PAR_NODES` positions of
    ``solve(..., shortest=True)``): a player who wins in as few has played as well as the solver."""
    par_bound: int | None = None
    """Proved: no winning line of the deal has fewer moves (``par == par_bound``: the par is the fewest there is)."""

    @property
    def winnable(self) -> bool:
        return self.verdict == "winnable"

    @property
    def score(self) -> float | None:
        """The difficulty score the grade is read from (None unless winnable)."""
        if self.first_moves is None or self.safe_first_moves is None or self.nodes is None:
            return None
        return difficulty_score(self.first_moves, self.safe_first_moves, self.nodes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def row(self) -> list[Any]:
        return [getattr(self, name) for name in COLUMNS]


def difficulty_score(first_moves: int, safe_first_moves: int, nodes: int) -> float:
    """``log10(nodes) + 3 * (share of first moves that are not safe)``.

    Search effort on a log scale, because a deal the solver's move order wins
    almost straight away (nodes close to the line's length) plays smoothly for
    a person too, while tens of thousands of positions mean many tempting dead
    ends; plus a penalty for a first position full of traps, where most moves
    already throw the win away.
    """
    unsafe = 1 - safe_first_moves / first_moves if first_moves else 0.0
    return math.log10(max(nodes, 1)) + TRAP_WEIGHT * unsafe


def grade_of(game: str, first_moves: int, safe_first_moves: int, nodes: int) -> Grade:
    """The grade of a winnable deal from its measures, with the game's fixed cut points (:data:`GRADE_CUTS`)."""
    medium, hard = GRADE_CUTS[game]
    score = difficulty_score(first_moves, safe_first_moves, nodes)
    return "easy" if score < medium else "medium" if score < hard else "hard"


def grade_word(grade: str | None) -> str:
    """A grade in the player's language; the catalogue and ``--json`` keep the English word."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return words.get(grade or "", grade or "")
