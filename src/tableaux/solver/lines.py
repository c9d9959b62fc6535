"""The line a solve returns: shortened, or the fewest moves the budget can find, with its lower bound.

:func:`best_line` runs once the searches have decided a deal winnable:

1. the line shortening (:mod:`.shorten`) drops the line's cycles and detours;
2. the polish (:func:`.shortest.polish`), a greedy best-first search of up to the game's ``polish_nodes``
   positions (:attr:`Strategy.polish_nodes`), looks for a shorter line still, which is shortened in turn; where
   the game has a tail polish (:attr:`Strategy.tail_polish`, AisleRiot's King Albert), a small polish from partway
   along the line looks for a shorter way from there to the win;
3. when the line is still more than :data:`LONG` times the lower bound and the compiled core is at hand, the
   core's streamlined runs (docs/solver.md) look for other wins with what the budget has left, up to
   :data:`OTHER_NODES` positions each; their lines are shortened too, and the shortest line kept. They come
   after the polish, which shortens more lines for its positions (``benchmarks/lines.py``);
4. a line still more than :data:`LONG` times the lower bound after that gets the game's long polishes
   (:attr:`Strategy.long_polish`, classic King Albert's alone), outside the budget below: on fresh classic
   deals one line in five is still that long, and only polishes of hundreds of thousands of positions bring
   most of them down (docs/solver.md, "Short lines"), and some only when the polish is of the line's tails
   (:func:`polish_tails`);
5. with ``shortest=True``, the fewest-moves search (:func:`.shortest.fewest_moves`) takes the rest of the
   budget (after a longer polish, and the long polish of step 4) to find the line with the fewest moves and
   prove a lower bound; its line is kept only when it is shorter, so the line is never longer than without.

The shortening is part of the solve a user waits for, so steps 1 to 3 share one budget of positions in
proportion to the positions the solve made (:func:`line_budget`: :data:`SHARE` of them, at least the game's floor
and :data:`PER_MOVE` a move of the line): each step takes what it makes from it (a polish position counts
:data:`POLISH_COST`), and a step that the rest cannot pay for is not run. Positions, not seconds: the same solve
returns the same line on any machine. With ``shortest=True`` the user asked for the effort, and the steps take
their own budgets.

Each step keeps the win it is given: it takes a line only when it is shorter, and every line it makes is made of
moves the engine or the core generates, ending where the search found a win (the core's lines too: it plays only
its generator's moves, which are the engine's, ``tests/solver/test_backends.py``). The line returned is then
replayed through the engine, once, at the end (:func:`_replayed`): replaying every candidate as well cost as much
as the core's detour passes. The lower bound is the game's bound at the start (:mod:`.strategy.bounds`), or the
fewest-moves search's when it ran.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..rulebook.engine import RawMove, Rules, State
from .detours import LineError, Shortener, replay
from .options import SolveOptions
from .positions import CorePositions, EnginePositions
from .shortest import fewest_moves, polish

BYTES_PER_HELD = 1000
"""What a best-first search holds per position (its position, key and place in the queue), for ``memory_mb``."""

SHORTEST_POLISH = 50_000
"""The polish's positions with ``shortest=True`` and no node budget (with one, half of what the search left)."""

LONG = 2
"""A shortened line more than this many times its lower bound is worth looking for other wins."""

OTHER_NODES = 300_000
"""Positions of each of the core's streamlined runs when a line is long, at most."""

OTHER_FLOOR = 20_000
"""The fewest positions a streamlined run is worth: with less of the budget left, the runs are not made."""

SHARE = 0.5
"""Positions the shortening may make for each position the solve made (the search's position and the
shortening's cost about the same in the core: ``benchmarks/solver.py --lines`` measures the sum)."""

PER_MOVE = 5
"""Positions the shortening may make however few the solve made: the game's floor
(:attr:`Strategy.shortening_floor`), or :data:`PER_MOVE` for each move of the line if that is more (a search makes
a position at least for each move of its line)."""

POLISH_COST = 2
"""What a polish position costs in the budget, in positions of the search: it makes a position's moves, orders
them and makes each child with its moves home."""

TAILS = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
"""Where the tail polishes start, in turn, as shares of the line's moves: its last tenth first. A short tail is a
small search, which often runs out of moves at once; each later start takes the shorter tails found before."""

OTHER_RUNS = (3, 6, 1)
"""The streamlined runs tried (``_core.solve``'s ``stream_alone``): cards home at once and suits merged, suits
merged with cards taken back, cards home at once: each wins some deals in lines the others do not find."""


def positions_for(rules: Rules, core: Any, core_game: int | None) -> EnginePositions:
    """The compiled core's moves when the solve used it, else the engine's (the same moves)."""
    if core is not None and core_game is not None:
        return CorePositions(rules, core, core_game)
    return EnginePositions(rules)


def start_bound(positions: EnginePositions, state: State) -> int:
    """The strong lower bound at ``state``, after the safe moves that a shortest line may make first."""
    made = 0
    while (move := positions.shortest_safe_move(state)) is not None:
        state = positions.apply(state, move)
        made += 1
    strategy = positions.strategy
    return made + max(strategy.lower_bound(state), strategy.strong_lower_bound(state))


def _replayed(rules: Rules, state: State, line: list[RawMove], found: list[RawMove]) -> list[RawMove]:
    """``line`` once it replays through the engine to a win from ``state``; else ``found``, the line the steps
    started from, replayed in turn (:class:`LineError` when it does not win either)."""
    try:
        if rules.won(replay(rules, state, line)):
            return line
    except LineError:  # pragma: no cover - every step's moves are the engine's (module docstring)
        pass
    if line is not found and rules.won(replay(rules, state, found)):
        return found
    raise LineError("the line does not end in a won game")


def line_budget(nodes: int, moves: int, floor: int) -> int:
    """The positions the shortening of a line of ``moves`` moves may make after a solve that made ``nodes``, in a
    game whose floor is ``floor``."""
    return max(floor, PER_MOVE * moves, int(SHARE * nodes))


def best_line(rules: Rules, state: State, line: list[RawMove], options: SolveOptions, core: Any,
              core_game: int | None, started: float, nodes: int) -> tuple[list[RawMove], int, int]:
    """The line to return for a winnable ``state`` whose searches found ``line`` in ``nodes`` positions, its proved
    lower bound, and the positions the fewest-moves search made (``shortest=True``: counted in the budget)."""
    positions = positions_for(rules, core, core_game)
    bound = start_bound(positions, state)
    if options.line != "short":
        return line, min(len(line), bound), 0
    deadline = None if options.time_limit is None else started + options.time_limit
    held = (options.memory_mb << 20) // BYTES_PER_HELD
    left = None if options.max_nodes is None else max(options.max_nodes - nodes, 0)
    polish_nodes = positions.strategy.polish_nodes
    found = line
    if not options.shortest:
        line = shorten_within(positions, state, line, polish_nodes, deadline, held, bound, core,
                        line_budget(nodes, len(line), positions.strategy.shortening_floor))[0]
        line = _replayed(rules, state, polish_long(positions, state, line, deadline, held, bound), found)
        return line, min(bound, len(line)), 0
    budget = max(polish_nodes, SHORTEST_POLISH if left is None else left // 2)
    if left is not None:  # the user's budget bounds these searches too, however small
        budget = min(budget, left)
    line, made, _ = shorten_within(positions, state, line, budget, deadline, held, bound, core, None)
    line = polish_long(positions, state, line, deadline, held, bound)
    if len(line) <= bound:
        line = _replayed(rules, state, line, found)
        return line, len(line), made
    if left is not None:
        left -= made
        if left <= 0:
            line = _replayed(rules, state, line, found)
            return line, bound, made
    fewest = fewest_moves(positions, state, line, max_nodes=left, deadline=deadline, max_held=held)
    if len(fewest.line) < len(line):
        line = fewest.line
    line = _replayed(rules, state, line, found)
    return line, max(bound, min(fewest.bound, len(line))), made + fewest.nodes


def shortened(rules: Rules, state: State, line: list[RawMove], core: Any, core_game: int | None,
              deadline: float | None) -> list[RawMove]:
    """``line`` shortened as every solve's line is (:func:`tableaux.solver.shorten`), with no solve to measure
    the budget by: each step takes its own (bounded by ``deadline``)."""
    positions = positions_for(rules, core, core_game)
    bound = start_bound(positions, state)
    out = shorten_within(positions, state, line, positions.strategy.polish_nodes, deadline, 1 << 20, bound, core,
                         None)[0]
    return _replayed(rules, state, polish_long(positions, state, out, deadline, 1 << 20, bound), line)


def polish_long(positions: EnginePositions, state: State, line: list[RawMove], deadline: float | None, held: int,
                bound: int) -> list[RawMove]:
    """Step 4 of the module docstring: ``line``, or a shorter one from the game's long polishes, made in turn
    while the line is still more than :data:`LONG` times its ``bound``, each stopping at its first line within
    that (the compiled core's polish only: in Python they would take minutes). The detour passes run to their end
    first: a line the budget left long may be one whose passes it cut short (a search's line of tens of thousands
    of moves)."""
    stages = positions.strategy.long_polish
    if not stages or len(line) <= LONG * bound or not isinstance(positions, CorePositions):
        return line
    shortener = Shortener(positions, replayed=False)
    line = shortener.shorten(state, line, deadline=deadline, check=False)  # the detour passes to their end
    for stage in stages:
        if len(line) <= LONG * bound:
            break
        if stage.tails:
            line = polish_tails(positions, state, line, stage.nodes, deadline, held, stage.restricted, LONG * bound,
                                shortener)
            continue
        polished, _ = polish(positions, state, line, stage.nodes, deadline, held, stage.restricted,
                             enough=LONG * bound)
        if len(polished) < len(line):
            line = shortener.shorten(state, polished, deadline=deadline, check=False)
    return line


def polish_tails(positions: EnginePositions, state: State, line: list[RawMove], nodes: int,
                 deadline: float | None, held: int, restricted: bool, enough: int,
                 shortener: Shortener) -> list[RawMove]:
    """``line``, or a shorter one whose tails were polished: from each start of :data:`TAILS` in turn, a polish
    (``restricted`` or not) of up to ``nodes`` positions looks for a shorter way from there to a win; a shorter
    tail takes the old one's place and the whole line gets the detour passes again. It stops once the line has at
    most ``enough`` moves.

    Why tails: a polish from the start must find a whole new line, and on some long lines millions of its
    positions find none shorter (classic 4008824617: 164 moves, bound 67), while from halfway a tail of 82
    moves comes down to 69 in 64,000 positions."""
    for share in TAILS:
        if len(line) <= enough:
            break
        cut = int(share * len(line))
        candidate, _ = polish(positions, state, line, nodes, deadline, held, restricted, enough=max(enough - cut, 1),
                              skip=cut)
        if len(candidate) < len(line):
            line = shortener.shorten(state, candidate, deadline=deadline, check=False)
    return line


class _Spend:
    """What is left of the shortening's budget (None: no budget, each step takes its own), and what was spent."""

    def __init__(self, budget: int | None) -> None:
        self.left = budget
        self.spent = 0

    def share(self, wanted: int, cost: int = 1) -> int:
        """Positions a step that wants ``wanted`` (each costing ``cost``) may make."""
        return wanted if self.left is None else min(wanted, self.left // cost)

    def spend(self, made: int, cost: int = 1) -> None:
        self.spent += made * cost
        if self.left is not None:
            self.left = max(self.left - made * cost, 0)

    def shorten(self, shortener: Shortener, state: State, line: list[RawMove], deadline: float | None) -> list[RawMove]:
        """``line`` shortened with what is left (all of the shortener's own budget when there is no budget)."""
        if self.left == 0:
            return line
        out = shortener.shorten(state, line, budget=self.left, deadline=deadline, check=False)
        self.spend(shortener.work)
        return out


def shorten_within(positions: EnginePositions, state: State, line: list[RawMove], polish_nodes: int,
             deadline: float | None, held: int, bound: int, core: Any,
             budget: int | None) -> tuple[list[RawMove], int, int]:
    """Steps 1 to 3 of the module docstring within ``budget`` positions (None: each step's own): the line, the
    positions the polish made, and the budget spent (a step stops only between its checks: a detour, or a
    polish position's children, may go past the end)."""
    shortener = Shortener(positions, replayed=False)
    spend = _Spend(budget)
    line = spend.shorten(shortener, state, line, deadline)
    made = 0
    nodes = spend.share(polish_nodes, POLISH_COST)
    if len(line) > bound and nodes:
        polished, made = polish(positions, state, line, nodes, deadline, held)
        spend.spend(made, POLISH_COST)
        if len(polished) < len(line):
            line = spend.shorten(shortener, state, polished, deadline)
    tail = positions.strategy.tail_polish
    if tail is not None and len(line) > bound:
        share, wanted = tail
        nodes = spend.share(wanted, POLISH_COST)
        if nodes:
            polished, tail_made = polish(positions, state, line, nodes, deadline, held, skip=int(share * len(line)))
            spend.spend(tail_made, POLISH_COST)
            made += tail_made
            if len(polished) < len(line):
                line = polished  # the detour passes again would find next to nothing in it (tail_polish says)
    if len(line) > LONG * bound and isinstance(positions, CorePositions) and positions.strategy.has_restricted_pass:
        each = spend.share(OTHER_NODES * len(OTHER_RUNS)) // len(OTHER_RUNS)
        if each >= OTHER_FLOOR:
            for other in _other_lines(core, positions, state, each, spend):
                try:
                    other = spend.shorten(shortener, state, other, deadline)
                except LineError:  # pragma: no cover - the core replays its streamlined lines before it returns them
                    continue
                if len(other) < len(line):
                    line = other
    return line, made, spend.spent


def _other_lines(core: Any, positions: CorePositions, state: State, each: int,
                 spend: _Spend) -> Iterator[list[RawMove]]:
    """The wins the core's streamlined runs find from ``state`` in ``each`` positions a run (King Albert's games:
    Eagle Wing has none), their positions spent."""
    for kind in OTHER_RUNS:
        code, line, made, *_ = core.solve(positions.game, state.piles, state.redeals, max_nodes=each,
                                          stream_alone=kind)
        spend.spend(made)
        if code == 0:
            yield [tuple(m) for m in line]
