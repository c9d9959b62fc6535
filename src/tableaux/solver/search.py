"""The reference search in pure Python: depth-first, over the engine's own moves and positions.

This is the solver every other backend must agree with (see ``tests/solver/test_backends.py``).
The compiled core in ``_core.c`` follows the same design; it is faster, not different.
"""

from __future__ import annotations

import heapq
import time

from ..rulebook.engine import RawMove, Rules, State
from .layered import TableFull, layered_run
from .strategy import Strategy, strategy_for
from .verdicts import RelaxedVerdicts

_CHECK_EVERY = 256
"""Nodes between two looks at the clock."""


class _OutOfBudget(Exception):
    """The caller's budget (nodes or time) ran out."""


class _PassCap(Exception):
    """The first pass used its share; the complete search takes over."""


def _collect(seen: dict[bytes, int], sizes: dict[bytes, int]) -> tuple[dict[bytes, int], dict[bytes, int]]:
    """What a full table keeps: the positions whose searches took longest, at most a third of them.

    As core/table.c's ``table_gc`` (the small-tree garbage collection of proof-number search): forgetting
    a position is sound, it is only searched again, and that costs least for the many whose searches
    were short. The positions of the current line are put back by the caller.
    """
    count = [0] * 65
    for size in sizes.values():
        count[size] += 1
    least, keep = 65, 0
    while least > 1 and keep + count[least - 1] <= len(seen) // 3:
        least -= 1
        keep += count[least]
    kept = {k: size for k, size in sizes.items() if size >= least}
    return {k: seen[k] for k in kept}, kept


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
        self.pass_deadline: float | None = None
        self._next_check = _CHECK_EVERY
        self.verdicts: RelaxedVerdicts | None = None
        """The complete search's relaxed verdicts (:mod:`.verdicts`), asked from ``verdicts_from`` positions of
        its own on; None: none."""
        self.verdicts_from = 0

    def _tick(self) -> None:
        """Count one position about to be made; out of budget before the count would pass ``max_nodes``."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfBudget
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + _CHECK_EVERY
            now = time.perf_counter()
            if self.deadline is not None and now >= self.deadline:
                raise _OutOfBudget
            if self.pass_deadline is not None and now >= self.pass_deadline:
                raise _PassCap

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
        obligation = self.strategy.obligation
        obliged = self.strategy.obliged
        closure = self.strategy.closure
        cap = None if node_cap is None else self.nodes + node_cap
        table_size = self.table_size
        verdicts = None if restricted else self.verdicts
        asked_from = self.nodes + self.verdicts_from  # as core/complete.c counts: the complete search's own positions

        line: list[RawMove] = []
        # Key -> the best rank reached with it (see Strategy.rank): a position is skipped when
        # one with the same key and a rank at least as good was reached before.
        seen = {key(root): rank(root)}
        # Key -> the bit length of the positions its search took, once done: what a full table keeps.
        sizes: dict[bytes, int] = {}
        # Frames: [state, ordered moves (None until expanded; a node with an obligation gets them when it
        # is made), next index, length of ``line`` before its moves, obligation (Strategy.obligation: the
        # pile the next move must use, or None), table key, the node count when it was made]. A node with
        # an obligation is another node than its position: its key gets the card to use.
        frames: list[list] = [[root, None, 0, 0, None, key(root), self.nodes]]
        if verdicts is not None and self.nodes >= asked_from and verdicts.lost(root):
            return None

        def made(move: RawMove, state: State) -> bool:
            """A safe move was made: count it and add it to the line; True when its position was reached already."""
            self._tick()
            line.append(move)
            k = key(state)
            r = rank(state)
            old = seen.get(k)
            if old is not None and old <= r:
                return True
            seen[k] = r
            return False

        while frames:
            frame = frames[-1]
            children = frame[1]
            if children is None:
                state = frame[0]
                moves = moves_of(state)
                pile = frame[4]
                if pile is not None:  # no safe move before an obligation is met
                    moves = obliged(moves, pile)
                else:  # the first pass only looks for wins, so it also makes moves that are merely likely safe
                    state, moves = closure(rules, state, moves, greedy=restricted, made=made)
                if moves is None:  # its closure was searched already
                    frames.pop()
                    del line[frame[3]:]
                    continue
                if won(state):
                    return line
                frame[0] = state
                if pile is None:
                    frame[5] = key(state)
                children = frame[1] = order(state, moves, restricted)
            i = frame[2]
            if i == len(children):
                frames.pop()
                del line[frame[3]:]
                if frame[5] in seen:
                    sizes[frame[5]] = (self.nodes - frame[6]).bit_length()
                continue
            frame[2] = i + 1
            move = children[i]
            child = apply(frame[0], move)
            pile = obligation(move)
            # A node with an obligation makes no safe move, so its ordered moves are known now: the node
            # is expanded here, and dropped uncounted when no move could meet the obligation.
            grandchildren = None if pile is None else order(child, obliged(moves_of(child), pile), restricted)
            if grandchildren is not None and not grandchildren:
                continue
            self._tick()
            if cap is not None and self.nodes > cap:
                raise _PassCap
            k = key(child)
            r = rank(child)
            old = seen.get(k)
            if old is not None and old <= r:
                continue  # searched already (with an obligation or not, since without one allows more)
            if pile is not None:
                k += b"\xfd%c" % child.piles[pile][-1]
                old = seen.get(k)
                if old is not None and old <= r:
                    continue
            if len(seen) >= table_size:
                seen, sizes = _collect(seen, sizes)
                seen.update((f[5], rank(f[0])) for f in frames)
            seen[k] = r
            if verdicts is not None and self.nodes >= asked_from and verdicts.lost(child):
                continue  # its relaxed position is lost, so it is (its key stays in the table, as searched)
            mark = len(line)
            line.append(move)
            frames.append([child, grandchildren, 0, mark, pile, k, self.nodes])
        return None

    def best_first(self, root: State, node_cap: int | None) -> list[RawMove] | None:
        """The first pass's greedy best-first run: always go on from the most promising position made.

        Like core/bestfirst.c: over the restricted space (nothing back off a foundation, proved safe
        moves made at once), positions scored by :meth:`Strategy.promise`, ties to the older. It keeps
        every position it makes, so it stops (None) at a quarter of ``table_size`` positions, as when
        the restricted space runs out. Raises :class:`_PassCap` at ``node_cap`` positions in all.
        """
        rules, strategy = self.rules, self.strategy
        key, promise = strategy.key, strategy.promise
        # Node i: (position, its parent, the moves from the parent's position: its safe moves, then one).
        nodes: list[tuple[State, int, tuple[RawMove, ...]]] = [(root, -1, ())]
        seen = {key(root)}
        heap = [(promise(root), 0)]
        safe_line: list[RawMove] = []  # the safe moves made from the node being expanded

        def made(move: RawMove, state: State) -> bool:
            self._tick()
            safe_line.append(move)
            return False

        while heap:
            _, i = heapq.heappop(heap)
            safe_line = []
            state, moves = strategy.closure(rules, nodes[i][0], rules.moves(nodes[i][0]), made=made)
            assert moves is not None  # made never stops the closure
            if rules.won(state):
                line = safe_line
                while i > 0:
                    line = [*nodes[i][2], *line]
                    i = nodes[i][1]
                return line
            for move in strategy.order(state, moves, True):
                self._tick()
                if node_cap is not None and self.nodes > node_cap:
                    raise _PassCap
                child = rules.apply(state, move)
                k = key(child)
                if k in seen:
                    continue
                if len(nodes) >= self.table_size // 4:
                    return None
                seen.add(k)
                nodes.append((child, i, (*safe_line, move)))
                heapq.heappush(heap, (promise(child), len(nodes) - 1))
        return None


def python_search(
    rules: Rules,
    state: State,
    max_nodes: int | None,
    time_limit: float | None,
    table_size: int,
    first_pass: bool,
    layered: bool = False,
    verdicts: tuple[int, int] | None = None,
) -> tuple[str, list[RawMove] | None, int, bool]:
    """Both passes of one solve: the verdict, the winning line (raw moves), the positions made, and whether an
    unknown verdict came from a full table (the layered search's: the depth-first one forgets instead).

    ``layered``: the complete search is :mod:`.layered`'s (classic King Albert) instead of the depth-first one.
    ``verdicts`` (King Albert's games, the depth-first complete search): the rank kept apart and the positions
    after which the complete search drops the positions whose relaxed positions are lost (:mod:`.verdicts`).
    """
    search = _Search(rules, max_nodes, time_limit, table_size)
    if verdicts is not None:
        builds = not getattr(rules, "single_cards_only", True)
        search.verdicts = RelaxedVerdicts(verdicts[0], builds, count=search._tick, room=table_size)
        search.verdicts_from = verdicts[1]
    line: list[RawMove] | None = None
    try:
        if first_pass and search.strategy.has_restricted_pass:
            # The first pass gets at most half of each budget, so that a bigger budget gives it
            # more and leaves more for the complete search too: more budget, never a worse verdict.
            # A depth-first run takes the first half of the pass, a best-first run the rest (the C
            # core lets them take turns).
            budget = search.strategy.first_pass_nodes(max_nodes, time_limit)
            start = time.perf_counter()
            if time_limit is not None:
                search.pass_deadline = start + time_limit / 4
            try:
                line = search.run(state, restricted=True, node_cap=None if budget is None else budget // 2)
            except _PassCap:
                line = None
            if line is None:
                if time_limit is not None:
                    search.pass_deadline = start + time_limit / 2
                try:
                    line = search.best_first(state, node_cap=budget)
                except _PassCap:
                    line = None
            search.pass_deadline = None
        if line is None and layered:
            line = layered_run(search, rules, state)
        elif line is None:
            line = search.run(state, restricted=False, node_cap=None)
    except _OutOfBudget:
        return "unknown", None, search.nodes, False
    except TableFull:
        return "unknown", None, search.nodes, True
    return ("unwinnable" if line is None else "winnable"), line, search.nodes, False
