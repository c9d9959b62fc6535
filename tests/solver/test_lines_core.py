"""The shortening in the compiled core makes the reference's lines: the detour passes (``_core.shorten``) and the
polish (``_core.polish``) give the line the Python code gives from the same line and budget, counting the same
positions; a shortened line always replays to a win and is never longer; and the shortening of a solve keeps to
a budget counted in positions, so the same solve returns the same line."""

from __future__ import annotations

import functools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.games import random_position, with_detour
from helpers.positions import EW, KA, KAC
from tableaux.rulebook.engine import RawMove, Rules, State
from tableaux.solver import _CORE_GAMES, BACKENDS, _core, solve
from tableaux.solver.detours import Shortener
from tableaux.solver.lines import (
    LONG,
    PER_MOVE,
    SHARE,
    line_budget,
    polish_long,
    positions_for,
    shorten_within,
    start_bound,
)
from tableaux.solver.positions import CorePositions, EnginePositions
from tableaux.solver.shortest import polish
from tableaux.solver.strategy import strategy_for

pytestmark = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")

GAMES = [KA, KAC, EW]


def wins(rules: Rules, start: State, line: list[RawMove]) -> bool:
    state = start
    for move in line:
        if move not in rules.moves(state):  # the engine's own move generator decides
            return False
        state = rules.apply(state, move)
    return rules.won(state)


@functools.cache
def found_lines(name: str) -> tuple[tuple[int, tuple[RawMove, ...]], ...]:
    """The search's own lines of the first three deals it wins (as found: long, with detours to cut)."""
    rules = {r.name: r for r in GAMES}[name]
    out = []
    for deal in range(1, 60):
        result = solve(name, deal, line="found", max_nodes=300_000)
        if result.winnable:
            out.append((deal, tuple(rules.to_raw(m) for m in result.moves)))
            if len(out) == 3:
                break
    return tuple(out)


def core_positions(rules: Rules) -> CorePositions:
    return CorePositions(rules, _core, _CORE_GAMES[type(rules)])


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2), st.sampled_from([0, 1, 40, 300, 2000, None]), st.integers(0, 2**32))
def test_the_core_cuts_the_detours_the_reference_cuts_from_the_same_line_and_budget(
    rules: Rules, which: int, budget: int | None, seed: int
) -> None:
    deal, found = found_lines(rules.name)[which]
    start = rules.deal(deal)
    line = with_detour(rules, start, list(found), random.Random(seed), tries=50) or list(found)
    reference = Shortener(EnginePositions(rules))
    native = Shortener(core_positions(rules))
    assert native.native and not reference.native
    expected = reference.shorten(start, line, budget=budget)
    assert native.shorten(start, line, budget=budget) == expected
    assert native.work == reference.work  # the same positions made: the budget stops both at the same place


@pytest.mark.parametrize("restricted", [True, False], ids=["restricted", "every-move"])
@pytest.mark.parametrize("rules", [KA, KAC], ids=lambda r: r.name)
def test_the_core_polish_makes_the_reference_polish_s_positions_in_its_order(rules: Rules, restricted: bool) -> None:
    improved = 0
    for deal, found in found_lines(rules.name):
        start = rules.deal(deal)
        line = Shortener(EnginePositions(rules)).shorten(start, list(found))
        for nodes in (50, 3000):
            for skip in (0, len(line) // 2):  # from the start, and the line's tail
                expected = polish(EnginePositions(rules), start, line, nodes, restricted=restricted, skip=skip)
                got = polish(core_positions(rules), start, line, nodes, restricted=restricted, skip=skip)
                assert got == expected
                assert got[0][:skip] == line[:skip]
                assert len(got[0]) <= len(line) and wins(rules, start, got[0])
                improved += len(got[0]) < len(line)
    assert improved  # the comparison covers a search that found a shorter line


def test_a_tail_polish_that_starts_past_the_line_s_end_or_after_an_illegal_move_is_refused() -> None:
    deal, found = found_lines(KA.name)[0]
    start, line = KA.deal(deal), list(found)
    game = _CORE_GAMES[type(KA)]
    with pytest.raises(ValueError, match=f"skip must be from 0 to the line's {len(line)} moves"):
        _core.polish(game, start.piles, start.redeals, line, skip=len(line) + 1)
    illegal = KA.moves(start)[0][:2] + (KA.moves(start)[0][0],)  # a pile onto itself
    with pytest.raises(ValueError, match="move 1 of the line is not legal"):
        _core.polish(game, start.piles, start.redeals, [illegal, *line], skip=1)


@pytest.mark.parametrize("rules", [KA, KAC], ids=lambda r: r.name)
def test_a_polish_asked_for_a_line_of_at_most_enough_moves_stops_at_its_first_one_in_the_core_as_in_python(
        rules: Rules) -> None:
    stopped_early = 0
    for deal, found in found_lines(rules.name):
        start = rules.deal(deal)
        line = Shortener(EnginePositions(rules)).shorten(start, list(found))
        full, full_made = polish(core_positions(rules), start, line, 3000)
        if len(full) == len(line):
            continue  # nothing shorter within the budget: no first shorter line to stop at
        enough = len(line) - 1
        expected = polish(EnginePositions(rules), start, line, 3000, enough=enough)
        got = polish(core_positions(rules), start, line, 3000, enough=enough)
        assert got == expected  # the same line after the same positions
        assert len(full) <= len(got[0]) <= enough and wins(rules, start, got[0])
        assert got[1] <= full_made
        stopped_early += got[1] < full_made
    assert stopped_early  # some polish went on, without the stop, past its first shorter line


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([KA, KAC]), st.integers(1, 5000), st.integers(0, 2**32), st.integers(0, 120))
def test_the_core_lower_bound_is_the_strategy_s(rules: Rules, deal: int, seed: int, plies: int) -> None:
    state = random_position(rules, deal, seed, plies)
    bound = _core.lower_bound(_CORE_GAMES[type(rules)], state.piles, state.redeals)
    assert bound == strategy_for(rules).lower_bound(state)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2), st.integers(0, 2**32), st.integers(0, 4), st.booleans())
def test_a_shortened_line_replays_to_a_win_and_is_never_longer(rules: Rules, which: int, seed: int, detours: int,
                                                               native: bool) -> None:
    deal, found = found_lines(rules.name)[which]
    start = rules.deal(deal)
    rng = random.Random(seed)
    line = list(found)
    for _ in range(detours):
        line = with_detour(rules, start, line, rng, tries=50) or line
    positions = core_positions(rules) if native else EnginePositions(rules)
    out = Shortener(positions).shorten(start, line, budget=rng.choice([10, 500, None]))
    assert len(out) <= len(line) and wins(rules, start, out)
    if positions.strategy.has_restricted_pass:
        polished, _ = polish(positions, start, out, 500)
        assert len(polished) <= len(out) and wins(rules, start, polished)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_the_shortening_keeps_to_its_budget_counted_in_positions(rules: Rules) -> None:
    # Each step stops at its first check past the budget: a detour (at most the line's length) or a polish
    # position's children (at most every move with the moves home after it) may go past it, never more.
    positions = positions_for(rules, _core, _CORE_GAMES[type(rules)])
    for deal, found in found_lines(rules.name):
        start, line = rules.deal(deal), list(found)
        bound = start_bound(positions, start)
        for budget in (0, 200, 1500):
            out, _, spent = shorten_within(positions, start, line, 64_000, None, 1 << 20, bound, _core, budget)
            assert spent <= budget + 2 * len(line) + 2 * 60 * 53
            assert len(out) <= len(line) and wins(rules, start, out)
            again = shorten_within(positions, start, line, 64_000, None, 1 << 20, bound, _core, budget)
            assert again == (out, _, spent)  # positions, not seconds: the same line every time


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_the_budget_grows_with_the_solve_and_the_line_from_the_games_floor(rules: Rules) -> None:
    floor = strategy_for(rules).shortening_floor
    assert line_budget(0, 0, floor) == floor
    assert line_budget(0, 10 * floor, floor) == PER_MOVE * 10 * floor
    assert line_budget(10 * floor, 100, floor) == int(SHARE * 10 * floor)
    assert line_budget(4000, 100, floor) <= line_budget(8000, 100, floor) <= line_budget(8000, 5000, floor)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_the_same_solve_returns_the_same_line(rules: Rules) -> None:
    for deal, _ in found_lines(rules.name):
        first = solve(rules.name, deal, max_nodes=300_000)
        assert solve(rules.name, deal, max_nodes=300_000).moves == first.moves


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_win_is_never_lost_to_the_core_s_shortening_when_its_time_is_gone(rules: Rules) -> None:
    deal, found = found_lines(rules.name)[0]
    start, line = rules.deal(deal), list(found)
    native = Shortener(core_positions(rules))
    assert native.shorten(start, line, deadline=time.perf_counter() - 60) == line
    out = native.shorten(start, line, deadline=time.perf_counter() + 3600)
    assert len(out) < len(line) and wins(rules, start, out)
    if native.positions.strategy.has_restricted_pass:
        assert polish(native.positions, start, out, 500, deadline=time.perf_counter() - 60) == (out, 0)


def test_a_king_albert_line_the_detour_passes_leave_comes_down_when_its_tail_is_polished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Deal 5: the detour passes leave its line at 98 moves, and a polish of 300 positions from the start finds no
    # shorter one; from halfway, the same polish finds a shorter way to the win, within the solve's budget.
    rules = KA
    start = rules.deal(5)
    positions = positions_for(rules, _core, _CORE_GAMES[type(rules)])
    found = solve((rules, start), backend="c", line="found")
    line, bound = [rules.to_raw(m) for m in found.moves], start_bound(positions, start)
    _, nodes = positions.strategy.tail_polish
    budget = line_budget(found.nodes, len(line), positions.strategy.shortening_floor)
    passed = Shortener(positions).shorten(start, line)
    assert polish(positions, start, passed, nodes)[0] == passed
    tail = shorten_within(positions, start, line, 0, None, 1 << 20, bound, _core, budget)[0]
    assert len(tail) < len(passed) and wins(rules, start, tail)
    assert [rules.to_raw(m) for m in solve((rules, start), backend="c").moves] == tail
    monkeypatch.setattr(positions.strategy, "tail_polish", None)
    assert shorten_within(positions, start, line, 0, None, 1 << 20, bound, _core, budget)[0] == passed


def test_a_classic_line_still_long_after_the_budgeted_steps_gets_the_long_polish() -> None:
    # 1992583342: a classic win in a few thousand positions whose line the budget's steps leave at more than
    # twice its bound; a line within twice its bound is left as it is.
    rules = KAC
    start = rules.deal(1992583342)
    found = solve((rules, start), backend="c", line="found")
    positions = positions_for(rules, _core, _CORE_GAMES[type(rules)])
    bound = start_bound(positions, start)
    line = [rules.to_raw(m) for m in found.moves]
    floor = positions.strategy.shortening_floor
    budgeted = shorten_within(positions, start, line, positions.strategy.polish_nodes, None, 1 << 20, bound, _core,
                              line_budget(found.nodes, len(line), floor))[0]
    assert len(budgeted) > LONG * bound
    returned = solve((rules, start), backend="c", time_limit=None)
    short = [rules.to_raw(m) for m in returned.moves]
    assert len(short) <= LONG * bound and returned.lower_bound == bound and wins(rules, start, short)
    assert polish_long(positions, start, short, None, 1 << 20, bound) == short


def test_the_fewest_moves_search_never_returns_a_longer_line_than_a_plain_solve() -> None:
    # Classic deal 2: its fewest-moves search runs out of positions at 200,000, so the line it returns is the
    # polished first win; that polish includes the long polish a plain solve's line gets.
    rules = KAC
    start = rules.deal(2)
    plain = solve((rules, start), backend="c", time_limit=None)
    fewest = solve((rules, start), backend="c", time_limit=None, shortest=True, max_nodes=200_000)
    assert fewest.winnable and not fewest.optimal
    assert len(fewest.moves) <= len(plain.moves) and fewest.lower_bound <= len(fewest.moves)
    assert wins(rules, start, [rules.to_raw(m) for m in fewest.moves])


def passed_classic_line(deal: int) -> tuple[State, EnginePositions, int, list[RawMove]]:
    """Classic ``deal``'s start, the core's positions, the start's bound, and the search's line after the detour
    passes run to their end: where the long polishes begin."""
    start = KAC.deal(deal)
    positions = positions_for(KAC, _core, _CORE_GAMES[type(KAC)])
    found = solve((KAC, start), backend="c", line="found")
    line = Shortener(positions).shorten(start, [KAC.to_raw(m) for m in found.moves])
    return start, positions, start_bound(positions, start), line


def test_a_classic_line_the_restricted_polish_cannot_shorten_gets_the_polish_over_every_move() -> None:
    # 4292208344: the restricted polish runs out of moves (its searches never take a card back off a foundation)
    # and leaves the line at more than twice its bound; the polish over every move brings it within.
    rules = KAC
    start, positions, bound, full = passed_classic_line(4292208344)
    restricted, _ = polish(positions, start, full, 1_000_000, restricted=True)
    assert len(restricted) > LONG * bound
    returned = solve((rules, start), backend="c", time_limit=None)
    line = [rules.to_raw(m) for m in returned.moves]
    assert len(line) <= LONG * bound and wins(rules, start, line)


def test_a_classic_line_no_polish_from_the_start_shortens_comes_down_when_its_tails_are_polished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 4008824617: after the detour passes its line is more than twice its bound, and a polish from the start finds
    # no shorter line (nor do the long polishes' millions of positions); a polish of the same size from a point
    # further on finds a shorter way to the win, and the line takes it.
    rules = KAC
    start, positions, bound, line = passed_classic_line(4008824617)
    assert len(line) > LONG * bound
    tails = next(stage for stage in positions.strategy.long_polish if stage.tails)
    assert polish(positions, start, line, tails.nodes, restricted=tails.restricted)[0] == line
    # The long polishes that polish the whole line are left out here, where they find nothing in millions of
    # positions.
    monkeypatch.setattr(positions.strategy, "long_polish", (tails,))
    out = polish_long(positions, start, line, None, 1 << 20, bound)
    assert len(out) < len(line) and wins(rules, start, out)
