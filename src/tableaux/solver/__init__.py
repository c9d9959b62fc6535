"""Deciding whether a position can be won, and finding the winning line.

The solver sees every card, face-down ones included: the "thoughtful"
convention used by published winnability figures. A player never gets to
see those cards, so a winning line found here may rely on knowledge a player
does not have; ``docs/solver.md`` says more.

Two backends, in the pattern of the standard library's ``heapq``/``_heapq``:

* :mod:`tableaux.solver.search`, pure Python, is the reference. It searches the
  engine's own positions (every move from :meth:`Rules.moves`, every position
  from :meth:`Rules.apply`), so the rules exist once.
* ``tableaux.solver._core``, a C extension built by ``pip install .`` when a
  compiler is at hand, runs the same search on compact positions, tens of
  times faster. ``tests/solver/test_backends.py`` proves it generates the same moves
  and positions as the engine and reaches the same verdicts.

Both searches are sound, so ``unwinnable`` is a proof (the whole reachable
space, up to symmetry, was searched):

* provably safe moves are made at once instead of being searched as one
  choice among many (see :mod:`tableaux.solver.strategy` for each proof);
* positions are identified by a canonical key in which interchangeable piles
  (tableau piles, King Albert's reserve cells, foundations) are sorted, so a
  position is searched once whatever the order of those piles;
* moves that only permute interchangeable piles (a whole pile onto an empty
  pile; the same cards to a second empty pile of the same kind) are dropped
  because they lead to a position with the same key;
* a transposition table of keys already searched, bounded in size: when full
  it forgets the positions whose searches were short (keeping the keys on the
  current line), which costs repeated work but never correctness, since a key
  is only ever skipped after its position was really searched or is on the
  current line;
* moves are tried best first, and a cheap first pass over a restricted move
  set (no cards taken back off King Albert's foundations, and cards sent
  home as soon as they are *probably* safe there) finds most wins before the
  complete search runs; in the C core it also makes streamlined runs, whose
  restrictions are not sound at all (every card home at once, the two suits
  of a colour as one), and believes their wins only once their lines replay
  to a won game. That pass proves nothing: when it fails, the complete
  search decides.

Once a deal is decided winnable, the line returned is shortened (:mod:`.lines`: cycles and detours cut,
then a short best-first polish), and with ``shortest=True`` a best-first search with an admissible bound
looks for the fewest moves and proves a lower bound (:mod:`.shortest`, :mod:`.strategy.bounds`). None of
that changes the verdict, and the line it returns is replayed through the engine first (``line="found"``
returns the search's own line as it is).
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..rulebook import registry
from ..rulebook.deal import check_deal
from ..rulebook.eagle_wing import EagleWing
from ..rulebook.engine import Move, Rules, State
from ..rulebook.king_albert import KingAlbert, KingAlbertClassic
from .options import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TABLE_SIZE,
    LAYERED_GAME,
    RELAXED_GAMES,
    SolveOptions,
    SolverError,
    check_budget,
)

try:
    from . import _core  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: the pure-Python search does everything
    _core = None

if TYPE_CHECKING:
    from ..play.game import Game

__all__ = [
    "BACKENDS", "DEFAULT_MEMORY_MB", "DEFAULT_TABLE_SIZE", "LAYERED_GAME", "RELAXED_GAMES", "RELAXED_SHARE",
    "SolveOptions", "SolveResult", "SolverError", "check_budget", "default_backend", "shorten", "solve",
]

Verdict = Literal["winnable", "unwinnable", "unknown"]
Backend = Literal["c", "python"]

BACKENDS: tuple[str, ...] = ("c", "python") if _core is not None else ("python",)
"""The backends this installation has, fastest first."""

_CORE_GAMES: dict[type[Rules], int] = {KingAlbert: 0, KingAlbertClassic: 1, EagleWing: 2}
"""The games the C core plays, by exact class: a subclass may change a rule, so it gets the Python search."""

_VERDICTS: tuple[Verdict, ...] = ("winnable", "unwinnable", "unknown")

RELAXED_SHARE = 10
"""With ``relaxed=RANK``, the relaxed game gets at most a tenth of the budget's positions and of its seconds, and
the usual search the rest: a relaxed game too big for its share decides nothing, and a deal the usual search
wins at once is not left unknown behind it. (Given the whole budget, the game relaxed above the Eights spent
20 s and 1 GiB on classic deals that the usual search wins in 0.04 s.) With no budget it is bounded by the
memory alone, and the usual search still runs to its end after it."""


class SolveResult:
    """What :func:`solve` found. ``moves`` is the complete winning line when ``verdict == "winnable"``, shortened
    (:mod:`tableaux.solver.detours`), unless the options asked for no line (``line="none"``).

    ``backend`` says which search ran: ``"c"`` (the compiled core) or ``"python"``. ``out_of_memory``:
    ``unknown`` because the memory allowance (``memory_mb``, or the Python table's ``table_size``) ran out
    first, not the positions or the time: more memory, not more budget, is what could decide it.
    ``lower_bound`` (winnable only): no winning line from the position has fewer moves (proved: see
    :mod:`tableaux.solver.strategy.bounds`); ``optimal`` when the line meets it.

    A plain class rather than a dataclass: :mod:`dataclasses` costs a command's start-up more than all
    of the solver's own modules.
    """

    __slots__ = ("verdict", "moves", "nodes", "seconds", "backend", "out_of_memory", "relaxed", "lower_bound")

    def __init__(self, verdict: Verdict, moves: list[Move] | None = None, nodes: int = 0, seconds: float = 0.0,
                 backend: str = "python", out_of_memory: bool = False, relaxed: int | None = None,
                 lower_bound: int | None = None) -> None:
        self.verdict = verdict
        self.moves: list[Move] = [] if moves is None else moves
        self.nodes = nodes
        self.seconds = seconds
        self.backend = backend
        self.out_of_memory = out_of_memory
        self.relaxed = relaxed
        """The rank kept apart when the game relaxed above it, searched first, proved the deal lost
        (``solve(..., relaxed=...)``). A default King Albert solve's relaxed verdicts (either rule set) prune its
        complete search instead, whose verdict it is."""
        self.lower_bound = lower_bound

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return self._fields() == other._fields() if isinstance(other, SolveResult) else NotImplemented

    __hash__ = None  # type: ignore[assignment]  # its line is a list, which may change

    def __repr__(self) -> str:
        return "SolveResult(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"

    @property
    def winnable(self) -> bool:
        """The verdict is ``winnable``: :attr:`moves` wins from the position solved."""
        return self.verdict == "winnable"

    @property
    def optimal(self) -> bool:
        """The line has the fewest moves there are: its length is the proved lower bound."""
        return self.winnable and len(self.moves) == self.lower_bound  # a won position: no move, and a bound of 0

    def to_dict(self) -> dict[str, object]:
        """The result in JSON types, each move in its fields and its text, as ``tableaux solve --json`` prints it."""
        return {
            "verdict": self.verdict,
            "moves": [{**m.to_dict(), "text": str(m)} for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "backend": self.backend,
            "out_of_memory": self.out_of_memory,
            "lower_bound": self.lower_bound,
            "optimal": self.optimal,
        } | ({} if self.relaxed is None else {"relaxed": self.relaxed})


def _position(game_or_position: object, deal: object) -> tuple[Rules, State]:
    if isinstance(game_or_position, str):
        rules = registry.rules(game_or_position)
        if deal is None:
            raise SolverError(f"solve({game_or_position!r}) needs a deal number too, for example "
                              f"solve({game_or_position!r}, 17)")
        return rules, rules.deal(check_deal(deal))
    if deal is not None:
        first = repr(game_or_position) if isinstance(game_or_position, int) else f"a {type(game_or_position).__name__}"
        raise SolverError(f"a deal number goes after a game name, as in solve('king-albert', 17), not after {first}")
    # A Game is recognised by what it offers, so the solver never imports the history layer above it.
    rules, state = getattr(game_or_position, "rules", None), getattr(game_or_position, "state", None)
    if isinstance(rules, Rules) and isinstance(state, State):
        return rules, state
    if isinstance(game_or_position, tuple) and len(game_or_position) == 2:
        rules, state = game_or_position
        if isinstance(rules, Rules) and isinstance(state, State):
            return rules, state
    raise SolverError(
        f"solve() takes a Game, a (Rules, State) pair, or a game name and a deal number, "
        f"not {type(game_or_position).__name__}"
    )


def default_backend() -> str:
    """``c`` when it is built, unless ``TABLEAUX_SOLVER=python`` asks for the reference. Any other value is
    warned about, once: a mistyped name would otherwise run the other backend without a word."""
    wanted = os.environ.get("TABLEAUX_SOLVER", "").strip().lower()
    if wanted in ("python", "py"):
        return "python"
    if wanted not in ("", "c"):
        _warn_unknown_backend(wanted)
    return BACKENDS[0]


@functools.cache
def _warn_unknown_backend(wanted: str) -> None:
    import warnings

    warnings.warn(f"TABLEAUX_SOLVER={wanted!r} is not a backend (c or python); using {BACKENDS[0]}", stacklevel=3)


def solve(
    game_or_position: Game | tuple[Rules, State] | str,
    /,
    deal: int | None = None,
    options: SolveOptions | None = None,
    **settings: Any,
) -> SolveResult:
    """Decide a deal or a position: ``winnable`` with the whole winning line, ``unwinnable`` (proved) or ``unknown``.

    ``solve("king-albert", 17)`` decides a deal by game name and number,
    ``solve(game)`` a game's current position, ``solve((rules, state))`` any position.

    How to solve is a :class:`SolveOptions` (``options=``), or its fields as keywords
    (``solve(game, max_nodes=100_000, time_limit=5)``), or both, the keywords changing the value:

    ``max_nodes`` bounds the positions searched and ``time_limit`` the
    seconds; when either runs out the verdict is ``unknown``, never a guess.
    A node budget is deterministic, and more of it never gives a worse answer:
    the first pass takes at most half, so what is left for the complete
    search grows with the budget too. ``memory_mb`` bounds the C core's
    memory and ``table_size`` the Python search's table: a full table costs
    time, and at worst an ``unknown``, never a wrong verdict.
    ``backend`` is ``"c"``, ``"python"`` or None for the fastest present
    (see :data:`BACKENDS` and :func:`default_backend`). ``threads=2`` lets the
    C core run the complete search on a second core beside the first pass
    (King Albert): the same verdict for a node budget, and with a time limit
    both get all of it. The Python search always uses one thread.
    ``layered=True`` (classic King Albert only) makes the complete search the layered one
    (:mod:`tableaux.solver.layered`): it holds one class of positions at a time instead of every
    position, so it proves deals lost whose spaces no table holds, but it finds wins only late. The
    first pass still runs before it.
    ``relaxed=RANK`` (King Albert's games only) first searches the game relaxed above that rank
    (:mod:`tableaux.solver.relaxed`), whose every position the budget's positions, time and memory may
    hold within a tenth of the budget (:data:`RELAXED_SHARE`): when it has no win, the deal has none
    (``unwinnable``, with ``relaxed`` set on the result); otherwise the solve goes on as without it, with what
    is left of the budget.
    ``relaxed_stage`` (on by default; King Albert's games have one, ``Strategy.relaxed_verdicts``): once
    the complete search has made a few hundred thousand positions, it drops each position whose relaxed
    position the relaxed game proves lost (:mod:`tableaux.solver.verdicts`); a deal decided sooner never
    meets it. ``relaxed=RANK`` replaces it, ``relaxed_stage=False`` leaves it out.
    ``line`` says what becomes of a win's line: ``"short"`` (the default) shortens it
    (:mod:`tableaux.solver.lines`), ``"found"`` keeps the search's own, ``"none"`` leaves it out.
    ``shortest=True`` then looks for the fewest moves and proves ``lower_bound`` (:mod:`.shortest`), within
    what the solve left of ``max_nodes``; its searches look at the budget once a position's children are made, so
    ``nodes`` may pass ``max_nodes`` by those few.
    """
    rules, state = _position(game_or_position, deal)
    if options is None:
        options = SolveOptions(**settings)
    elif not isinstance(options, SolveOptions):
        raise SolverError(f"options must be a SolveOptions, not {type(options).__name__}")
    elif settings:
        options = options.replace(**settings)
    options.check_game(rules)
    if options.relaxed is not None:
        from .relaxed import check_relaxable

        try:
            check_relaxable(rules, options.relaxed, state)
        except ValueError as exc:
            raise SolverError(str(exc)) from None
    backend = options.backend or default_backend()
    if backend == "c" and _core is None:
        raise SolverError("the C core is not built here (no C compiler at install time); use backend='python'")
    core_game = _CORE_GAMES.get(type(rules))
    if core_game is None:
        backend = "python"
    start = time.perf_counter()
    verdict, line, nodes, out_of_memory, relaxed = _decide(rules, state, options, backend, core_game, start)
    if verdict != "winnable" or line is None:
        return SolveResult(verdict, [], nodes, time.perf_counter() - start, backend, out_of_memory, relaxed)
    from .lines import best_line  # loaded only once there is a line

    line, bound, more = best_line(rules, state, line, options, _core if backend == "c" else None, core_game, start,
                                  nodes)
    moves = [rules.to_move(m) for m in line] if options.line != "none" else []
    return SolveResult(verdict, moves, nodes + more, time.perf_counter() - start, backend, False, None, bound)


def shorten(game_or_position: Game | tuple[Rules, State], moves: Sequence[Move], /,
            time_limit: float | None = None) -> list[Move]:
    """A winning line from the position no longer than ``moves``, which must win from there: the shortening
    every line :func:`solve` returns gets (for lines a caller found with ``line="found"``). ``time_limit``:
    seconds to spend at most; the line given comes back when nothing shorter was found in time. Raises
    :class:`SolverError` when ``moves`` does not win."""
    from .detours import LineError
    from .lines import shortened

    rules, state = _position(game_or_position, None)
    core_game = _CORE_GAMES.get(type(rules))
    core = _core if default_backend() == "c" and core_game is not None else None
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    try:
        line = shortened(rules, state, [rules.to_raw(m) for m in moves], core, core_game, deadline)
    except LineError as exc:
        raise SolverError(f"that line does not win from the position: {exc}") from None
    return [rules.to_move(m) for m in line]


def _decide(rules: Rules, state: State, options: SolveOptions, backend: str, core_game: int | None,
            start: float) -> tuple[Verdict, list[tuple[int, int, int]] | None, int, bool, int | None]:
    """The searches that decide: the verdict, the line they found (raw moves), the positions they made, whether
    an unknown verdict came from the memory, and the relaxed rank when the relaxed game proved the deal lost."""
    spent = 0
    if options.relaxed is not None:
        lost, spent = _relaxed_lost(rules, state, backend, core_game, options, options.relaxed, start)
        if lost:
            return "unwinnable", None, spent, False, options.relaxed
        options = _what_is_left(options, spent, start)
    verdict, line, nodes, out_of_memory = _search(rules, state, options, backend, core_game)
    return verdict, line, spent + nodes, out_of_memory, None


def _search(rules: Rules, state: State, options: SolveOptions, backend: str,
            core_game: int | None) -> tuple[Verdict, list[tuple[int, int, int]] | None, int, bool]:
    """The usual search (the first pass and the complete search) within ``options``' budget."""
    verdicts = _relaxed_verdicts(rules, state, options)
    if backend == "c":
        more = {} if verdicts is None else {"verdicts": verdicts[0], "verdicts_from": verdicts[1]}
        code, line, nodes, out_of_memory, _clears = _core.solve(
            core_game, state.piles, state.redeals, **options.core_arguments(), **more)
        verdict = _VERDICTS[code]
        return verdict, line, nodes, bool(out_of_memory) and verdict == "unknown"
    from .search import python_search  # the reference search is loaded only when it runs

    verdict, line, nodes, out_of_memory = python_search(
        rules, state, options.max_nodes, options.time_limit, options.table_size, options.first_pass, options.layered,
        verdicts)
    return verdict, line, nodes, out_of_memory  # type: ignore[return-value]


def _relaxed_verdicts(rules: Rules, state: State, options: SolveOptions) -> tuple[int, int] | None:
    """The game's relaxed verdicts for the complete search (``Strategy.relaxed_verdicts``: the rank kept apart, and
    the positions from which they are asked), unless the options leave them out, the complete search is the
    layered one, or the position is not one the relaxation's proof holds for (a hand-built position may not be)."""
    from .strategy import strategy_for

    verdicts = strategy_for(rules).relaxed_verdicts
    if verdicts is None or not options.relaxed_stage or options.relaxed is not None or options.layered:
        return None
    from .relaxed import check_relaxable  # loaded only for a game with relaxed verdicts

    try:
        check_relaxable(rules, verdicts[0], state)
    except ValueError:
        return None
    return verdicts


def _what_is_left(options: SolveOptions, spent: int, start: float) -> SolveOptions:
    """``options`` with the budget that ``spent`` positions and the seconds since ``start`` left."""
    left: dict[str, Any] = {}
    if options.max_nodes is not None:
        left["max_nodes"] = max(options.max_nodes - spent, 1)
    if options.time_limit is not None:
        left["time_limit"] = max(options.time_limit - (time.perf_counter() - start), 0.001)
    return options.replace(**left)


def _relaxed_lost(rules: Rules, state: State, backend: str, core_game: int | None, options: SolveOptions, rank: int,
                  start: float) -> tuple[bool, int]:
    """Whether the game relaxed above ``rank`` is lost (so the deal is), and the positions it kept, within its
    share of the budget (:data:`RELAXED_SHARE`)."""
    max_nodes, time_limit = options.max_nodes, options.time_limit
    if max_nodes is not None:
        max_nodes = max(max_nodes // RELAXED_SHARE, 1)
    if time_limit is not None:
        time_limit = max(min(time_limit / RELAXED_SHARE, time_limit - (time.perf_counter() - start)), 0.001)
    if backend == "c":
        code, positions, _oom = _core.relaxed(
            state.piles, rank, max_positions=-1 if max_nodes is None else max_nodes,
            time_limit=0.0 if time_limit is None else float(time_limit), memory=options.memory_mb << 20,
            game=core_game)
        return code == 1, positions
    from .relaxed import relaxed_search

    table = options.table_size if max_nodes is None else min(max_nodes, options.table_size)
    result = relaxed_search(rules, state, rank, max_positions=table, time_limit=time_limit)
    return result.verdict == "lost", result.positions
