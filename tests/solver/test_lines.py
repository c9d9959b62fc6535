"""Every winning line the library returns is shortened: it still wins, it is never longer than the line the
search found, and a win is never lost to the shortening, whatever its budget or clock."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.games import random_position, with_detour
from helpers.positions import EW, KA, KAC
from tableaux.rulebook.engine import Rules, State
from tableaux.solver import _CORE_GAMES, BACKENDS, _core, solve
from tableaux.solver.detours import LineError, Shortener, resolve, step_of
from tableaux.solver.positions import CorePositions, EnginePositions

GAMES = [KA, KAC, EW]


def raw(rules: Rules, result: object) -> list[tuple[int, int, int]]:
    return [rules.to_raw(m) for m in result.moves]  # type: ignore[attr-defined]


def wins(rules: Rules, start: State, line: list[tuple[int, int, int]]) -> bool:
    state = start
    for move in line:
        if move not in rules.moves(state):  # the engine's own move generator decides, not the shortening's check
            return False
        state = rules.apply(state, move)
    return rules.won(state)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 10**6), st.sampled_from(BACKENDS))
def test_a_returned_line_wins_and_is_never_longer_than_the_line_the_search_found(
    rules: Rules, deal: int, backend: str
) -> None:
    budget = 300_000 if backend == "c" else 60_000  # the Python search spends seconds on deals left unknown
    found = solve(rules.name, deal, max_nodes=budget, backend=backend, line="found")
    short = solve(rules.name, deal, max_nodes=budget, backend=backend)
    assert short.verdict == found.verdict and short.nodes == found.nodes  # shortening decides nothing
    if found.winnable:
        assert wins(rules, rules.deal(deal), raw(rules, short))
        assert len(short.moves) <= len(found.moves)
        assert short.lower_bound is not None and short.lower_bound <= len(short.moves)
    else:
        assert short.moves == [] and short.lower_bound is None


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_the_shortening_finds_the_detours_of_the_searchs_lines(rules: Rules) -> None:
    # Over a few deals the lines get much shorter: the search's lines shuttle cards between piles.
    before = after = 0
    for deal in range(1, 16):
        found = solve(rules.name, deal, line="found", max_nodes=1_000_000)
        if found.winnable:
            before += len(found.moves)
            after += len(solve(rules.name, deal, max_nodes=1_000_000).moves)
    assert after < 0.95 * before


@pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_the_engine_and_the_core_shorten_a_line_alike(rules: Rules) -> None:
    engine = Shortener(EnginePositions(rules))
    core = Shortener(CorePositions(rules, _core, _CORE_GAMES[type(rules)]))
    for deal in (2, 7, 11):
        found = solve(rules.name, deal, line="found", max_nodes=1_000_000)
        if found.winnable:
            line = raw(rules, found)
            assert engine.shorten(rules.deal(deal), line) == core.shorten(rules.deal(deal), line)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_win_is_never_lost_to_the_shortening_when_its_budget_or_time_is_gone(rules: Rules) -> None:
    shortener = Shortener(EnginePositions(rules))
    for deal in range(1, 30):
        found = solve(rules.name, deal, line="found", max_nodes=300_000)
        if found.winnable:
            break
    start, line = rules.deal(deal), raw(rules, found)
    for budget, deadline in ((0, None), (1, None), (None, time.perf_counter()), (None, time.perf_counter() - 60)):
        out = shortener.shorten(start, line, budget=budget, deadline=deadline)
        assert len(out) <= len(line) and wins(rules, start, out)
    # The solve's own time limit: spent by the search already, the line still comes back whole.
    tight = solve(rules.name, deal, time_limit=10)
    assert tight.winnable and wins(rules, start, raw(rules, tight))


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_move_and_its_undoing_put_into_a_line_are_cut_out_again(rules: Rules) -> None:
    rng = random.Random(rules.name)
    shortener = Shortener(EnginePositions(rules))
    for deal in range(1, 40):
        found = solve(rules.name, deal, max_nodes=300_000)
        if found.winnable:
            break
    start, line = rules.deal(deal), raw(rules, found)
    short = shortener.shorten(start, line)
    assert short == line or len(short) < len(line)
    # A detour: somewhere on the line, a card moved to an empty pile or onto another card and straight back.
    detour = with_detour(rules, start, line, rng)
    if detour is None:
        pytest.skip("no detour found to put in")
    assert wins(rules, start, detour)
    assert len(shortener.shorten(start, detour)) <= len(short)


@pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_line_is_replayed_through_the_engine_before_it_is_returned_and_one_that_does_not_win_never_is(
        rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    # The core's shortening is trusted along the way and its line replayed once at the end: were it ever wrong
    # (here made to drop the line's last move), the search's own line comes back instead.
    deal = next(d for d in range(1, 60) if solve(rules.name, d, backend="c", max_nodes=300_000).winnable)
    found = solve(rules.name, deal, backend="c", line="found", max_nodes=300_000)
    monkeypatch.setattr(_core, "shorten", lambda game, piles, redeals, line, *rest: (list(line)[:-1], 0))
    result = solve(rules.name, deal, backend="c", max_nodes=300_000)
    assert result.winnable and wins(rules, rules.deal(deal), raw(rules, result))
    assert len(result.moves) <= len(found.moves)


def test_a_line_that_does_not_win_is_refused() -> None:
    shortener = Shortener(EnginePositions(KA))
    start = KA.deal(1)
    with pytest.raises(LineError, match="does not end in a won game"):
        shortener.shorten(start, KA.moves(start)[:1])
    with pytest.raises(LineError, match="move 1 of the line"):
        shortener.shorten(start, [(4, 1, 0)])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 5000), st.integers(0, 2**32), st.integers(0, 80))
def test_a_step_plays_its_move_again_where_the_piles_are_swapped(rules: Rules, deal: int, seed: int,
                                                                 plies: int) -> None:
    # Steps name cards, not piles: in a position with its tableau piles in another order, each step still
    # resolves to the same move up to that order, and leads to the same position up to it.
    from tableaux.solver.strategy import strategy_for

    state = random_position(rules, deal, seed, plies)
    key = strategy_for(rules).key
    order = list(rules.tableau)
    random.Random(seed).shuffle(order)
    swap = dict(zip(rules.tableau, order, strict=True))
    piles = list(state.piles)
    for a, b in swap.items():
        piles[b] = state.piles[a]
    swapped = State(tuple(piles), state.redeals)
    for move in rules.moves(state):
        again = resolve(rules, swapped, step_of(rules, state, move))
        assert again is not None and rules.why_illegal(swapped, again) is None, (state, move)
        assert key(rules.apply(swapped, again)) == key(rules.apply(state, move))


def test_shorten_stays_the_function_after_a_solve_has_loaded_the_shortening() -> None:
    """``tableaux.solver.shorten`` is the library's function; a module of that name beside it would take its place
    in the package the first time a solve loaded it."""
    import tableaux.solver

    tableaux.solve("king-albert", 17)
    assert callable(tableaux.solver.shorten)
    game = tableaux.new_game("king-albert", 17)
    line = tableaux.solve(game).moves
    assert tableaux.solver.shorten(game, line) == tableaux.solver.shorten(game, tuple(line))
