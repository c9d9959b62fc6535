"""Deciding whether a position can be won, and finding the winning line.

The solver sees every card, face-down ones included: the "thoughtful"
convention used by published winnability figures. A player never gets to
see those cards, so a winning line found here may rely on knowledge a player
does not have; ``docs/solver.md`` says more.

It is a depth-first search over the engine's own positions: every move comes
from :meth:`Rules.moves` and every position from :meth:`Rules.apply`, so the
rules exist once. Its smartness is all sound, so that ``unwinnable`` is a
proof (the whole reachable space, up to symmetry, was searched):

* provably safe moves are made at once instead of being searched as one
  choice among many (see :mod:`tableaux.solver_rules` for each proof);
* positions are identified by a canonical key in which interchangeable piles
  (tableau piles, King Albert's reserve cells, foundations) are sorted, so a
  position is searched once whatever the order of those piles;
* moves that only permute interchangeable piles (a whole pile onto an empty
  pile; the same cards to a second empty pile of the same kind) are dropped
  because they lead to a position with the same key;
* a transposition table of keys already searched, bounded in size: when full
  it is emptied (keeping the keys on the current line), which costs repeated
  work but never correctness, since a key is only ever skipped after its
  position was really searched or is on the current line;
* moves are tried best first, and a cheap first pass over a restricted move
  set (no cards taken back off King Albert's foundations, and cards sent
  home as soon as they are *probably* safe there) finds most wins before the
  complete search runs. That pass proves nothing: when it fails, the
  complete search decides.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .engine import Move, RawMove, Rules, State
from .solver_rules import Strategy, strategy_for

if TYPE_CHECKING:
    from .game import Game
    from .hints import Hint

Verdict = Literal["winnable", "unwinnable", "unknown"]

DEFAULT_TABLE_SIZE = 2_000_000
"""Keys kept in the transposition table before it is emptied (roughly 150 bytes each)."""

_CHECK_EVERY = 256
"""Nodes between two looks at the clock."""


class SolverError(ValueError):
    """Bad arguments to :func:`solve`."""


@dataclass
class SolveResult:
    """What :func:`solve` found. ``moves`` is the complete winning line when ``verdict == "winnable"``."""

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def winnable(self) -> bool:
        return self.verdict == "winnable"

    def to_dict(self) -> dict[str, object]:
        return {
            "verdict": self.verdict,
            "moves": [m.to_dict() for m in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class _OutOfBudget(Exception):
    """The caller's budget (nodes or time) ran out."""


class _PassCap(Exception):
    """The first pass used its share; the complete search takes over."""


class _Search:
    """One search: the budget, the table and the counters shared by both passes."""

    def __init__(
        self,
        rules: Rules,
        max_nodes: int | None,
        time_limit: float | None,
        table_size: int,
    ) -> None:
        self.rules = rules
        self.strategy: Strategy = strategy_for(rules)
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.table_size = table_size
        self.nodes = 0
        self._next_check = _CHECK_EVERY

    def _tick(self) -> None:
        """Count one position about to be made; out of budget before the count would pass ``max_nodes``."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfBudget
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + _CHECK_EVERY
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise _OutOfBudget

    def run(self, root: State, restricted: bool, node_cap: int | None) -> list[RawMove] | None:
        """Depth-first search from ``root``; the winning line, or None when the (restricted) space is exhausted.

        A child's moves are generated only when it is expanded, after its key
        was found new: most children turn out to be transpositions. Safe moves
        are made at expansion time, and the key of every position passed
        through goes into the table, so each is searched once.
        Raises :class:`_OutOfBudget` when the budget runs out, :class:`_PassCap` at ``node_cap``.
        """
        rules = self.rules
        apply = rules.apply
        moves_of = rules.moves
        won = rules.won
        key = self.strategy.key
        rank = self.strategy.rank
        order = self.strategy.order
        if restricted:  # the first pass only looks for wins, so it may also make moves that are merely likely safe
            safe = self.strategy.greedy_move
            maybe_safe = self.strategy.maybe_greedy
        else:
            safe = self.strategy.safe_move
            maybe_safe = self.strategy.maybe_safe
        cap = None if node_cap is None else self.nodes + node_cap
        table_size = self.table_size

        line: list[RawMove] = []
        # Key -> the best rank reached with it (see Strategy.rank): a position is skipped when
        # one with the same key and a rank at least as good was reached before.
        seen = {key(root): rank(root)}
        # Frames: [state, ordered moves (None until expanded), next index, length of ``line`` before its moves].
        frames: list[list] = [[root, None, 0, 0]]
        while frames:
            frame = frames[-1]
            children = frame[1]
            if children is None:
                state = frame[0]
                moves = moves_of(state)
                while maybe_safe(state):
                    move = safe(state, moves)
                    if move is None:
                        break
                    self._tick()
                    line.append(move)
                    state = apply(state, move)
                    k = key(state)
                    r = rank(state)
                    old = seen.get(k)
                    if old is not None and old <= r:
                        moves = None
                        break
                    seen[k] = r
                    moves = moves_of(state)
                if moves is None:  # its closure was searched already
                    frames.pop()
                    del line[frame[3]:]
                    continue
                if won(state):
                    return line
                frame[0] = state
                children = frame[1] = order(state, moves, restricted)
            i = frame[2]
            if i == len(children):
                frames.pop()
                del line[frame[3]:]
                continue
            frame[2] = i + 1
            move = children[i]
            self._tick()
            if cap is not None and self.nodes > cap:
                raise _PassCap
            child = apply(frame[0], move)
            k = key(child)
            r = rank(child)
            old = seen.get(k)
            if old is not None and old <= r:
                continue
            if len(seen) >= table_size:
                seen = {key(f[0]): rank(f[0]) for f in frames}
            seen[k] = r
            mark = len(line)
            line.append(move)
            frames.append([child, None, 0, mark])
        return None


def _position(game_or_position: object) -> tuple[Rules, State]:
    from .game import Game

    if isinstance(game_or_position, Game):
        return game_or_position.rules, game_or_position.state
    if isinstance(game_or_position, tuple) and len(game_or_position) == 2:
        rules, state = game_or_position
        if isinstance(rules, Rules) and isinstance(state, State):
            return rules, state
    raise SolverError(
        f"solve() takes a Game or a (Rules, State) pair, not {type(game_or_position).__name__}"
    )


def solve(
    game_or_position: Game | tuple[Rules, State],
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    table_size: int = DEFAULT_TABLE_SIZE,
    first_pass: bool = True,
) -> SolveResult:
    """Decide the position: ``winnable`` with the whole winning line, ``unwinnable`` (proved) or ``unknown``.

    ``max_nodes`` bounds the positions searched and ``time_limit`` the
    seconds; when either runs out the verdict is ``unknown``, never a guess.
    ``table_size`` bounds the transposition table (memory), not correctness.
    """
    rules, state = _position(game_or_position)
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise SolverError(f"max_nodes must be a positive whole number or None, not {max_nodes!r}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not time_limit > 0
    ):
        raise SolverError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")
    if not isinstance(table_size, int) or table_size < 1000:
        raise SolverError(f"table_size must be a whole number of at least 1000, not {table_size!r}")
    start = time.perf_counter()
    search = _Search(rules, max_nodes, time_limit, table_size)
    verdict: Verdict = "unknown"
    line: list[RawMove] | None = None
    try:
        if first_pass and search.strategy.has_restricted_pass:
            budget = search.strategy.first_pass_nodes(max_nodes, time_limit)
            try:
                line = search.run(state, restricted=True, node_cap=budget)
            except _PassCap:
                line = None
        if line is None:
            line = search.run(state, restricted=False, node_cap=None)
        verdict = "unwinnable" if line is None else "winnable"
    except _OutOfBudget:
        line = None
    seconds = time.perf_counter() - start
    moves = [rules.to_move(m) for m in line] if line is not None else []
    return SolveResult(verdict, moves, search.nodes, seconds)


def solver_hint(game: Game, time_limit: float = 0.3) -> Hint | None:
    """A hint from the solver: the next move of a winning line, or the news that none exists; None if undecided."""
    from .hints import Hint, heuristic_hint

    if game.is_won():
        return None
    result = solve(game, time_limit=time_limit)
    if result.verdict == "winnable" and result.moves:
        move = result.moves[0]
        return Hint(move, "solver", f"Play {move}: it starts a winning line of {len(result.moves)} moves.")
    if result.verdict == "unwinnable":
        fallback = heuristic_hint(game)
        text = "This position can no longer be won: the solver searched every line from here."
        if fallback.move is not None:
            text += f" You can still play {fallback.move}."
        return Hint(fallback.move, "solver", text, unwinnable=True)
    return None
