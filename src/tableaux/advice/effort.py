"""How hard each kind of help works, for each front end: one table, read by every caller.

An action's effort is three figures: the layouts of the hidden cards it samples, the positions the solver
may search (per layout, where it samples), and the seconds the whole action may take. The same action
works harder in one front end than another on purpose, and the table shows each choice beside the others:

* the library answers a program, which can pass its own figures; its defaults are the budgets the surveys
  and benchmarks measure (``benchmarks/fair.py``, ``benchmarks/hints.py``);
* the terminal answers one player who waits for it alone, so its time limits are long;
* the web answers many players from one solver pool, so no action holds a worker for more than a few
  seconds (:mod:`tableaux.web.pool` says why the pool exists at all).

Why one table: a message that compares with a figure must compare with the figure its action was handed
(a fair hint's "of the N layouts drawn" with the samples it drew; two places for that figure would let a
hint that used all its samples say that its time ran out). Callers take their figures here and pass the
whole :class:`Effort` on, so the figure a message names is the one the search used.

Budgets in positions do not depend on the machine's load; the seconds bound the wait on a busy machine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..solver import BACKENDS

Action = Literal["chance", "fair-hint", "peek-hint", "where-lost", "solve", "solution"]
"""What a player or a program asks for: the chance to win, a hint that does not peek, a hint that does,
where a finished game was lost, a verdict (``tableaux solve``), the winning line shown to a player."""

FrontEnd = Literal["library", "terminal", "web"]

ACTIONS: tuple[Action, ...] = ("chance", "fair-hint", "peek-hint", "where-lost", "solve", "solution")
FRONT_ENDS: tuple[FrontEnd, ...] = ("library", "terminal", "web")


@dataclass(frozen=True)
class Effort:
    """Samples, positions and seconds of one action; ``None`` means no bound of that kind (or, for
    ``samples``, an action that sees the real deal and samples nothing)."""

    samples: int | None = None
    positions: int | None = None
    seconds: float | None = None

    def within(self, seconds: float | None) -> Effort:
        """The same effort with another time limit (a server's or a test's own)."""
        return replace(self, seconds=seconds)


SAMPLES = 64
"""Sampled layouts for the chance to win."""

SAMPLE_NODES = 100_000 if "c" in BACKENDS else 20_000
"""Positions per sampled layout (and per move tried on it) for the chance to win and the hindsight vote.
The compiled core searches tens of times faster than the Python search, so it gets the bigger budget."""

HINT_SAMPLES = 32
"""Sampled layouts for a fair hint: the strongest player that answers in about a second
(``python benchmarks/fair.py`` times it)."""

HINT_NODES = 10_000
"""Positions per sampled layout for a fair hint."""

LOST_NODES = 200_000
"""Positions per position looked at when finding where a finished game was lost."""

PEEK_NODES = 3_000_000
"""A peeking hint's positions: about a second of the compiled core on a slow machine."""

PEEK_SECONDS = 0.9
"""A peeking hint's time limit in the library, which bounds the wait on a busy machine and for the Python
search."""

FAIR_SECONDS = 2.0
"""A fair hint's time limit in the library: all its sampled layouts together."""

PLAYER_WAITS = 20.0
"""The terminal's limit for a chance or a fair hint: one player, who asked and waits."""

SERVER_SECONDS = 3.0
"""The web's limit for a chance or a hint: a worker of the shared pool is never held longer."""

SOLUTION_SECONDS = 10.0
"""A winning line shown to a player (the terminal's ``solve``, the page's Show solution, the page's
where-lost): long enough for nearly every deal (docs/winnability.md), short enough to wait for."""

EFFORT: dict[FrontEnd, dict[Action, Effort]] = {
    "library": {
        "chance": Effort(SAMPLES, SAMPLE_NODES, None),
        "fair-hint": Effort(HINT_SAMPLES, HINT_NODES, FAIR_SECONDS),
        "peek-hint": Effort(None, PEEK_NODES, PEEK_SECONDS),
        "where-lost": Effort(None, LOST_NODES, None),
        "solve": Effort(None, None, None),
    },
    "terminal": {
        "chance": Effort(SAMPLES, SAMPLE_NODES, PLAYER_WAITS),
        "fair-hint": Effort(HINT_SAMPLES, HINT_NODES, PLAYER_WAITS),
        "peek-hint": Effort(None, PEEK_NODES, PLAYER_WAITS),
        "where-lost": Effort(None, LOST_NODES, None),
        "solution": Effort(None, None, SOLUTION_SECONDS),
    },
    "web": {
        "chance": Effort(SAMPLES, SAMPLE_NODES, SERVER_SECONDS),
        "fair-hint": Effort(HINT_SAMPLES, HINT_NODES, SERVER_SECONDS),
        "peek-hint": Effort(None, PEEK_NODES, SERVER_SECONDS),
        "where-lost": Effort(None, LOST_NODES, SOLUTION_SECONDS),
        "solution": Effort(None, None, SOLUTION_SECONDS),
    },
}
"""Every action's effort in every front end that offers it: a verdict (``solve``) is the library's and the
command line's, a winning line shown step by step (``solution``) the terminal's and the page's."""


def effort(action: Action, front_end: FrontEnd = "library") -> Effort:
    """The effort of ``action`` in ``front_end``: what its caller passes on, whole."""
    try:
        return EFFORT[front_end][action]
    except KeyError:
        offered = ", ".join(EFFORT.get(front_end, {})) or "none: the front ends are " + ", ".join(FRONT_ENDS)
        raise KeyError(f"the {front_end} front end has no action {action!r}; it offers {offered}") from None
