"""The fewest-moves search and its lower bounds: never above the fewest moves an exhaustive search finds,
lowered by at most one a move, and met by ``solve(..., shortest=True)`` where the budget allows."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.games import random_position
from helpers.positions import EW, KA, KAC, fewest_moves, small_positions
from tableaux.rulebook.engine import Rules, State
from tableaux.solver import BACKENDS, solve
from tableaux.solver.strategy import strategy_for

GAMES = [KA, KAC, EW]


def line_tail_positions(rules: Rules, deal: int, line: str, wanted: int) -> list[tuple[State, int]]:
    """Positions on a winning line of ``deal`` from which an exhaustive search proves the fewest moves to be 15 or
    more, and the number: 15 to 30 moves before the line's end, the first ``wanted`` that the search settles
    quickly. The solver's line places them, the exhaustive search alone measures them."""
    moves = [rules.to_raw(m) for m in solve(rules.name, deal, line=line).moves]
    found = []
    for back in range(15, 31, 3):
        if back > len(moves):
            break
        state = rules.deal(deal)
        for m in moves[:-back]:
            state = rules.apply(state, m)
        fewest = fewest_moves(rules, state, cap=400_000)
        if fewest is not None and fewest >= 15:
            found.append((state, fewest))
            if len(found) == wanted:
                break
    return found


CASES = [(KAC, 5, "found"), (KAC, 12, "short"), (KA, 2, "found"), (KA, 9, "short"), (EW, 3, "short"),
         (EW, 7, "short")]


@pytest.fixture(scope="module")
def known() -> list[tuple[Rules, State, int]]:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    out = []
    for rules, deal, line in CASES:
        out += [(rules, state, n) for state, n in line_tail_positions(rules, deal, line, 2)]
    assert len(out) >= 8 and {rules for rules, _, _ in out} == set(GAMES)
    return out


def test_the_bounds_never_exceed_the_fewest_moves_an_exhaustive_search_finds(known: list) -> None:
    for rules, state, fewest in known:
        strategy = strategy_for(rules)
        assert strategy.lower_bound(state) <= strategy.strong_lower_bound(state) <= fewest, (rules.name, state)


def test_every_position_on_a_shortest_line_keeps_its_bound_below_the_moves_left(known: list) -> None:
    # The fewest-moves search's line is as short as the exhaustive search says; along it, the moves left are the
    # fewest from each position, and neither bound may exceed them.
    for rules, state, fewest in known:
        result = solve((rules, state), shortest=True, max_nodes=400_000)
        assert len(result.moves) == fewest and result.optimal and result.lower_bound == fewest, (rules.name, state)
        strategy = strategy_for(rules)
        for left, move in zip(range(fewest, 0, -1), result.moves, strict=True):
            assert strategy.strong_lower_bound(state) <= left
            state = rules.apply(state, rules.to_raw(move))
        assert rules.won(state) and strategy.lower_bound(state) == 0


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_on_small_positions_the_search_meets_the_fewest_moves_and_the_bounds_stay_below(rules: Rules) -> None:
    rng = random.Random(f"small {rules.name}")
    strategy = strategy_for(rules)
    checked = 0
    for state in small_positions(rules, rng, 40):
        fewest = fewest_moves(rules, state, most=30, cap=30_000)
        if fewest is None:
            continue
        checked += 1
        assert strategy.lower_bound(state) <= strategy.strong_lower_bound(state) <= fewest
        result = solve((rules, state), shortest=True, max_nodes=300_000)
        assert result.winnable and len(result.moves) == fewest and result.optimal, (rules.name, state)
    assert checked >= 8


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 5000), st.integers(0, 2**32), st.integers(0, 120))
def test_one_move_lowers_the_bound_by_at_most_one(rules: Rules, deal: int, seed: int, plies: int) -> None:
    # Consistency: what lets the fewest-moves search look at each position once.
    strategy = strategy_for(rules)
    state = random_position(rules, deal, seed, plies)
    bound = strategy.lower_bound(state)
    for move in rules.moves(state):
        assert bound <= 1 + strategy.lower_bound(rules.apply(state, move)), (rules.name, state, move)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAMES), st.integers(1, 5000), st.integers(0, 2**32), st.integers(0, 60))
def test_no_winning_line_the_solver_finds_is_shorter_than_the_bound(rules: Rules, deal: int, seed: int,
                                                                    plies: int) -> None:
    state = random_position(rules, deal, seed, plies)
    result = solve((rules, state), max_nodes=200_000)
    if result.winnable:
        strategy = strategy_for(rules)
        assert strategy.lower_bound(state) <= strategy.strong_lower_bound(state) <= len(result.moves)
        assert result.lower_bound is not None and result.lower_bound <= len(result.moves)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_shortest_search_keeps_the_win_and_never_lengthens_the_line(backend: str) -> None:
    budget = 100_000 if backend == "c" else 50_000  # the Python search's lines are as short at half the budget
    for rules, deal in ((KA, 3), (EW, 4), (KAC, 6)):
        short = solve(rules.name, deal, backend=backend, max_nodes=budget)
        fewest = solve(rules.name, deal, backend=backend, max_nodes=budget, shortest=True)
        assert fewest.nodes <= budget + 5000  # the budget holds, up to the polish every shortened line gets
        assert fewest.winnable and len(fewest.moves) <= len(short.moves)
        assert short.lower_bound <= fewest.lower_bound <= len(fewest.moves)
        state = rules.deal(deal)
        for move in fewest.moves:
            assert rules.why_illegal(state, rules.to_raw(move)) is None
            state = rules.apply(state, rules.to_raw(move))
        assert rules.won(state)


@pytest.mark.parametrize(("name", "deal", "budget"), [("king-albert-classic", 412462, 5_000),
                                                      ("king-albert-classic", 870356, 20_000),
                                                      ("king-albert", 681099, 5_000)])
def test_the_fewest_moves_search_keeps_within_the_node_budget_but_for_one_positions_children(
        name: str, deal: int, budget: int) -> None:
    """The shortening before the fewest-moves search has a floor of its own, which used to run past a small budget
    (classic 412462: 42,105 positions for 5,000); it never takes more than the solve left."""
    result = solve(name, deal, shortest=True, max_nodes=budget)
    assert result.winnable and result.nodes <= budget + 50
    assert result.lower_bound is not None and result.lower_bound <= len(result.moves)


def test_a_won_position_is_solved_with_no_move_and_reported_optimal() -> None:
    import tableaux

    game = tableaux.new_game("eagle-wing", 5)
    for move in solve(game, max_nodes=200_000).moves:
        game.play(move)
    assert game.is_won()
    result = solve(game, max_nodes=1000)
    assert result.winnable and result.moves == [] and result.lower_bound == 0 and result.optimal


@pytest.mark.slow
def test_a_bound_reached_by_the_line_is_reported_optimal() -> None:
    result = solve("king-albert", 5, shortest=True, max_nodes=1_000_000)
    assert result.optimal == (len(result.moves) == result.lower_bound)
    assert result.to_dict()["optimal"] is result.optimal and result.to_dict()["lower_bound"] == result.lower_bound
