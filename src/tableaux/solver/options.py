"""What a solve may be told besides the position: one frozen value, checked in one place.

:class:`SolveOptions` is what :func:`tableaux.solve`, the surveys, the catalogue and the command line
hand the solver. Building one checks every value and every combination that does not depend on the
game (``disk_mb`` goes with ``layered``); :meth:`SolveOptions.check_game` adds what does (the layered
search plays classic King Albert only, the relaxed game King Albert's two). :meth:`SolveOptions.core_arguments` is the
one place where the options become the compiled core's arguments.

A plain class, not a dataclass: :mod:`dataclasses` costs a command's start-up more than all of the
solver's own modules (``tests/cli/test_cli_startup.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..rulebook.engine import TableauxError
from ..rulebook.king_albert import KingAlbert, KingAlbertClassic

if TYPE_CHECKING:
    from ..rulebook.engine import Rules

DEFAULT_MEMORY_MB = 1024
"""What one search may hold in memory (table and stacks), in MiB, by default. The C core only takes what
it uses, so a quick search stays small."""

DEFAULT_TABLE_SIZE = 2_000_000
"""The Python search's cap on keys kept before its table forgets its short searches (roughly 150 bytes each); its
first pass's best-first run keeps at most a quarter as many positions."""

LAYERED_GAME = KingAlbertClassic.name
"""The game the layered search plays (``layered=True``): its proofs need the classic rules."""

RELAXED_RULES = (KingAlbert, KingAlbertClassic)
"""The rules the relaxed game plays (``relaxed=RANK``, the relaxed verdicts): its proof is King Albert's."""

RELAXED_GAMES = tuple(rules.name for rules in RELAXED_RULES)

LINES = ("short", "none", "found")
"""What a winnable result carries: the shortened line, no line, or the search's own line."""

MAX_DISK_MB = 1 << 30
MAX_MEMORY_MB = 1 << 20


class SolverError(TableauxError, ValueError):
    """Bad arguments to :func:`tableaux.solve` (or to anything that hands options on to it).

    ``reason`` names a refusal that a front end words in its own terms (the command line's flags, in the
    player's language): ``"layered-game"``, ``"relaxed-game"`` (with ``game``, the game given) and
    ``"disk-needs-layered"``; None for the others, whose message is the whole story.
    """

    def __init__(self, message: str, reason: str | None = None, game: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.game = game


MAX_NODES = 10**15
"""The largest node budget: far more positions than any search can make (years of one), and well inside the C
core's 64-bit counts, whose turns and shares are sums and doubles of it."""


def check_budget(max_nodes: object, time_limit: object, error: type[Exception] = SolverError) -> None:
    """Refuse a node budget or time limit the solver cannot work with, saying what is accepted.

    Everything that passes a budget on to :func:`solve` checks it here first, with its own error class,
    so the refusal comes before any work and reads the same everywhere.
    """
    if max_nodes is not None and not _whole(max_nodes, 1, MAX_NODES):
        raise error(f"max_nodes must be a whole number from 1 to {MAX_NODES:,} or None, not {max_nodes!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not time_limit > 0
    ):
        raise error(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")


def _whole(value: object, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


_DEFAULTS: dict[str, Any] = {
    "max_nodes": None,
    "time_limit": None,
    "memory_mb": DEFAULT_MEMORY_MB,
    "table_size": DEFAULT_TABLE_SIZE,
    "first_pass": True,
    "backend": None,
    "threads": 1,
    "layered": False,
    "disk_mb": 0,
    "relaxed": None,
    "relaxed_stage": True,
    "line": "short",
    "shortest": False,
}
"""Every option and its default, in the order they are shown."""


class SolveOptions:
    """How to solve: the budget, the memory, the backend and the searches to run. Immutable; :meth:`replace`
    gives a changed copy.

    * ``max_nodes`` (positions) and ``time_limit`` (seconds): the budget; either may be None. When it runs
      out the verdict is ``unknown``, never a guess. A node budget is deterministic.
    * ``memory_mb``: what the C core may hold; ``table_size``: the Python search's table. A full table costs
      time, and at worst an ``unknown``, never a wrong verdict.
    * ``first_pass``: False gives the whole budget to the complete search.
    * ``backend``: ``"c"``, ``"python"`` or None for the fastest built.
    * ``threads``: 2 lets the C core run the complete search beside the first pass.
    * ``layered`` (classic King Albert): the complete search is the layered one; ``disk_mb`` (with
      ``layered`` only) lets it put classes of positions on disk.
    * ``relaxed`` (King Albert's games): the rank above which the relaxed game, whose loss proves the deal
      lost, is searched first, within a tenth of the budget (``tableaux.solver.RELAXED_SHARE``).
    * ``relaxed_stage``: where the game has one (King Albert's games: ``Strategy.relaxed_verdicts``), the complete
      search drops, after its first few hundred thousand positions, every position that a relaxed game proves
      lost (:mod:`tableaux.solver.verdicts`). False leaves it out; ``relaxed`` replaces it.
    * ``line``: ``"short"`` (the winning line, shortened: :mod:`tableaux.solver.detours`), ``"none"`` (the
      verdict alone, for callers that only count wins) or ``"found"`` (the line as the search found it, on
      which measures such as the catalogue's grades were defined).
    * ``shortest``: search on for the line with the fewest moves (:mod:`tableaux.solver.shortest`) within the
      budget, reporting a proved lower bound; ``optimal`` when the line meets it.
    """

    __slots__ = tuple(_DEFAULTS)

    max_nodes: int | None
    time_limit: float | None
    memory_mb: int
    table_size: int
    first_pass: bool
    backend: str | None
    threads: int
    layered: bool
    disk_mb: int
    relaxed: int | None
    relaxed_stage: bool
    line: str
    shortest: bool

    def __init__(self, **settings: Any) -> None:
        unknown = sorted(set(settings) - set(_DEFAULTS))
        if unknown:
            raise SolverError(f"unknown solver option {unknown[0]!r}; the options are {', '.join(_DEFAULTS)}")
        values = {**_DEFAULTS, **settings}
        _check(values)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"SolveOptions cannot change; options.replace({name}=...) gives a changed copy")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("SolveOptions cannot change")

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _DEFAULTS}

    def replace(self, **changes: Any) -> SolveOptions:
        """A copy with ``changes``, checked like a new value."""
        return SolveOptions(**{**self.to_dict(), **changes})

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return _rebuild, (self.to_dict(),)  # survey workers receive options by pickle

    def __eq__(self, other: object) -> bool:
        return self.to_dict() == other.to_dict() if isinstance(other, SolveOptions) else NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self.to_dict().values()))

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.to_dict().items() if v != _DEFAULTS[k])
        return f"SolveOptions({changed})"

    def check_game(self, rules: Rules) -> None:
        """Refuse the options that the game ``rules`` has no proof for (SolverError, saying what is accepted)."""
        if self.layered and type(rules) is not KingAlbertClassic:
            raise SolverError(f"the layered search plays classic King Albert only ({LAYERED_GAME}), not {rules.name}",
                              "layered-game", rules.name)
        if self.relaxed is not None and type(rules) not in RELAXED_RULES:
            raise SolverError(f"the relaxed search plays King Albert's games only ({', '.join(RELAXED_GAMES)}), not "
                              f"{rules.name}", "relaxed-game", rules.name)

    def core_arguments(self) -> dict[str, Any]:
        """The compiled core's ``solve`` keywords for these options (its budget and memory in its own units)."""
        return {
            "max_nodes": -1 if self.max_nodes is None else self.max_nodes,
            "time_limit": 0.0 if self.time_limit is None else float(self.time_limit),
            "memory": self.memory_mb << 20,
            "first_pass": self.first_pass,
            "threads": self.threads,
            "layered": self.layered,
            "disk": self.disk_mb << 20,
        }


def _rebuild(values: dict[str, Any]) -> SolveOptions:
    return SolveOptions(**values)


def _check(v: dict[str, Any]) -> None:
    """Every value, and the combinations that do not depend on the game: one refusal each, saying what is accepted."""
    check_budget(v["max_nodes"], v["time_limit"])
    if not _whole(v["table_size"], 1000, 1 << 40):
        raise SolverError(f"table_size must be a whole number of at least 1000, not {v['table_size']!r}")
    if not _whole(v["memory_mb"], 16, MAX_MEMORY_MB):
        raise SolverError(f"memory_mb must be a whole number of MiB from 16 to {MAX_MEMORY_MB}, not {v['memory_mb']!r}")
    if v["threads"] not in (1, 2) or isinstance(v["threads"], bool):
        raise SolverError(f"threads must be 1 or 2, not {v['threads']!r}")
    if not _whole(v["disk_mb"], 0, MAX_DISK_MB):
        raise SolverError(f"disk_mb must be a whole number of MiB from 0 to {MAX_DISK_MB}, not {v['disk_mb']!r}")
    for flag in ("layered", "first_pass", "shortest", "relaxed_stage"):
        if not isinstance(v[flag], bool):
            raise SolverError(f"{flag} must be True or False, not {v[flag]!r}")
    if v["disk_mb"] and not v["layered"]:
        raise SolverError("disk_mb goes with layered=True: only the layered search puts positions on disk",
                          "disk-needs-layered")
    if v["relaxed"] is not None and not _whole(v["relaxed"], 1, 13):
        raise SolverError(f"the rank kept apart must be a whole number from 1 to 13 (1 keeps the Aces apart, 13 "
                          f"is the real game), not {v['relaxed']!r}")
    if v["line"] not in LINES:
        raise SolverError(f"line must be one of {', '.join(map(repr, LINES))}, not {v['line']!r}")
    if v["shortest"] and v["line"] != "short":
        raise SolverError(f"shortest=True searches for a short line: it goes with line='short', not {v['line']!r}")
    if v["backend"] not in (None, "c", "python"):
        raise SolverError(f"backend must be 'c' or 'python', not {v['backend']!r}")
