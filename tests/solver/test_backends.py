"""The compiled solver core against the engine and the pure-Python search: same moves, same positions,
same keys, same safe moves, same verdicts, and winning lines that play out in the engine.

The engine (king_albert.py, eagle_wing.py) is the reference for the rules and solver/search.py for the
search; the C core must agree with both wherever they meet.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tableaux.solver.search as solver_module
from helpers.games import play_randomly, random_position
from helpers.positions import replay
from tableaux import GAMES, new_game
from tableaux.rulebook.engine import RawMove, State
from tableaux.solver import BACKENDS, SolverError, solve
from tableaux.solver.strategy import KingAlbertStrategy, strategy_for

pytestmark = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")

if "c" in BACKENDS:
    from tableaux.solver import _core

CORE_GAME = {"king-albert": 0, "king-albert-classic": 1, "eagle-wing": 2}
NAMES = list(CORE_GAME)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**16),
       plies=st.integers(0, 250))
def test_core_generates_the_engines_moves_and_positions(name: str, deal: int, seed: int, plies: int) -> None:
    """Every legal move in the engine's order, and every move leads to the engine's position.

    ``_core.apply`` also checks, on the way, that its incremental hash equals one computed afresh and
    that unmaking the move restores the position exactly.
    """
    rules, game = GAMES[name], CORE_GAME[name]
    for state in play_randomly((rules, rules.deal(deal)), random.Random(seed), plies)[-40:]:
        moves = rules.moves(state)
        assert _core.moves(game, state.piles, state.redeals) == moves
        for move in moves:
            after = rules.apply(state, move)
            assert _core.apply(game, state.piles, state.redeals, move) == (after.piles, after.redeals)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**16))
def test_core_keys_tell_positions_apart_exactly_as_the_python_keys_do(name: str, deal: int, seed: int) -> None:
    """Two positions of one game share a C key exactly when they share a Python key (and then a hash)."""
    rules, game = GAMES[name], CORE_GAME[name]
    strategy = strategy_for(rules)
    positions = play_randomly((rules, rules.deal(deal)), random.Random(seed), 200)
    by_py: dict[bytes, tuple[bytes, int]] = {}
    by_c: dict[bytes, bytes] = {}
    for state in positions:
        ckey, chash, _rank = _core.key(game, state.piles, state.redeals)
        pkey = strategy.key(state)
        assert by_py.setdefault(pkey, (ckey, chash)) == (ckey, chash)
        assert by_c.setdefault(ckey, pkey) == pkey


@pytest.mark.parametrize("name", NAMES)
def test_core_key_ignores_the_order_of_interchangeable_piles(name: str) -> None:
    rules, game = GAMES[name], CORE_GAME[name]
    rng = random.Random(name)
    for state in play_randomly((rules, rules.deal(77)), random.Random(3), 60):
        piles = list(state.piles)
        tableau = list(rules.tableau)
        shuffled = tableau[:]
        rng.shuffle(shuffled)
        for a, b in zip(tableau, shuffled, strict=True):
            piles[a] = state.piles[b]
        assert _core.key(game, tuple(piles), state.redeals) == _core.key(game, state.piles, state.redeals)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**16))
def test_core_makes_the_same_safe_moves_as_the_python_strategy(name: str, deal: int, seed: int) -> None:
    rules, game = GAMES[name], CORE_GAME[name]
    strategy = strategy_for(rules)
    for state in play_randomly((rules, rules.deal(deal)), random.Random(seed), 200):
        moves = rules.moves(state)
        assert _core.safe_move(game, state.piles, state.redeals) == strategy.safe_move(state, moves)
        if strategy.has_restricted_pass:
            assert _core.safe_move(game, state.piles, state.redeals, True) == strategy.greedy_move(state, moves)


DEALS = [("king-albert", range(1, 41)), ("eagle-wing", range(1, 41)), ("king-albert-classic", range(1, 16))]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deals"), DEALS, ids=[n for n, _ in DEALS])
def test_both_backends_reach_the_same_verdicts_and_c_lines_win_in_the_engine(name: str, deals: range) -> None:
    both = decided = 0
    for deal in deals:
        game = new_game(name, deal)
        c = solve(game, backend="c", max_nodes=2_000_000, line="found")  # the searches' own lines
        py = solve(game, backend="python", max_nodes=20_000, line="found")
        assert c.backend == "c" and py.backend == "python"
        decided += c.verdict != "unknown"
        if py.verdict != "unknown" and c.verdict != "unknown":
            assert py.verdict == c.verdict, (name, deal)
            both += 1
        if c.verdict == "winnable":
            replay = new_game(name, deal)
            for move in c.moves:
                replay.play(move)
            assert replay.is_won(), (name, deal)
    assert both >= len(deals) // 3
    assert decided >= len(deals) * 2 // 3


def test_a_node_budget_is_exact_in_the_core() -> None:
    hard = new_game("king-albert-classic", HARD_CLASSIC)
    result = solve(hard, backend="c", max_nodes=12_345)
    assert result.verdict == "unknown" and result.nodes == 12_345 and result.moves == []


HARD_CLASSIC = 44
"""A classic deal whose search takes over a million positions (it is lost): what fills a small table."""


@pytest.mark.parametrize(("name", "deal"), [("king-albert-classic", 3), ("king-albert-classic", 4), ("king-albert", 4),
                                            ("eagle-wing", 2)])
def test_a_full_table_costs_time_never_a_wrong_verdict(name: str, deal: int) -> None:
    """With the smallest memory allowed the table fills and forgets its short searches; verdicts stand."""
    game = new_game(name, deal)
    roomy = solve(game, backend="c")
    tight = solve(game, backend="c", memory_mb=16, max_nodes=40_000_000)
    assert roomy.verdict != "unknown"
    assert tight.verdict in (roomy.verdict, "unknown")


def test_memory_is_refused_clearly_outside_its_range() -> None:
    game = new_game("king-albert", 1)
    for bad in (0, 15, 2**40, 1.5, True):
        with pytest.raises(SolverError, match="memory_mb"):
            solve(game, memory_mb=bad)  # type: ignore[arg-type]
    with pytest.raises(SolverError, match="backend"):
        solve(game, backend="fortran")


def test_core_refuses_what_is_not_a_position() -> None:
    state = GAMES["king-albert"].deal(1)
    with pytest.raises(ValueError, match="piles"):
        _core.moves(0, state.piles[:5], 0)
    with pytest.raises(ValueError, match="card"):
        _core.moves(0, ((99,),) + state.piles[1:], 0)
    with pytest.raises(ValueError, match="game"):
        _core.moves(7, state.piles, 0)
    with pytest.raises(ValueError, match="legal"):
        _core.apply(0, state.piles, 0, (0, 1, 2))


class _TakesNothingBack(KingAlbertStrategy):
    """The search's move order with no card ever taken back off a foundation."""

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        return super().order(state, moves, True)


# Positions of random play (deal and plies of random_position) that only a line taking a card back off a
# foundation wins, found by searching deals 1-1000 with cards taken back and without.
NEEDS_A_CARD_BACK = {
    "king-albert": [(267, 10), (274, 20), (421, 20), (483, 30), (512, 10), (569, 30)],
    "king-albert-classic": [(175, 10), (274, 10), (573, 30), (628, 30), (663, 20), (723, 0)],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(NEEDS_A_CARD_BACK))
def test_a_card_home_for_good_never_comes_back_yet_positions_that_need_one_back_are_won(name: str) -> None:
    """The search never takes back a foundation card that the safe-move rule would send home
    (KingAlbertStrategy.order has the proof), and the cards it does take back are the ones wins need: each
    of these positions is lost to a search that takes nothing back, and both backends' complete searches
    win it, with lines that play to a win in the engine."""
    rules = GAMES[name]
    for deal, plies in NEEDS_A_CARD_BACK[name]:
        start = random_position(rules, deal, deal, plies)
        search = solver_module._Search(rules, 1_000_000, None, 10**7)
        search.strategy = _TakesNothingBack(rules.single_cards_only)
        assert search.run(start, restricted=False, node_cap=None) is None, (deal, plies)
        for backend in BACKENDS:
            result = solve((rules, start), max_nodes=1_000_000, first_pass=False, backend=backend, line="found")
            assert result.verdict == "winnable", (deal, plies, backend)
            state = start
            for move in result.moves:
                state = rules.apply(state, rules.to_raw(move))
            assert rules.won(state)


@pytest.mark.slow
@pytest.mark.parametrize("plies", [0, 40])
def test_a_reserve_card_must_be_covered_at_once_without_changing_any_verdict(plies: int) -> None:
    """Classic rules: the search puts a reserve card on the tableau only when the next move covers it
    (KingAlbertStrategy.obligation has the proof). Fewer positions, never another verdict: on deals and
    on positions of random play, with the rule and without."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    compared = unwinnable = 0
    searched = {True: 0, False: 0}
    for deal in range(1, 41):
        start = random_position(rules, deal, deal, plies)
        verdicts = {}
        for oblige in (True, False):
            verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=400_000, oblige=oblige)
            verdicts[oblige] = verdict
            searched[oblige] += nodes
        if 2 not in verdicts.values():
            assert verdicts[True] == verdicts[False], deal
            compared += 1
            unwinnable += verdicts[True] == 1
    assert compared >= 20 and unwinnable >= 5
    assert searched[True] < searched[False]


@pytest.mark.parametrize("deal", [3, 6, 9, 12, 16, 20, 21, 25, 26, 37])
def test_both_complete_searches_make_the_same_positions_reserve_dead_ends_left_out(deal: int) -> None:
    """Classic rules: the complete searches of the two backends are one search, position for position, so
    they count the same positions to the same verdict. That covers the reserve rule's dead ends: a reserve
    card is not put out where nothing could cover it, which the C core asks before the move
    (ka_can_cover) and the Python search after it (from the moves it would allow there)."""
    game = GAMES["king-albert-classic"]
    start = game.deal(deal)
    c, py = (solve((game, start), max_nodes=30_000, first_pass=False, backend=b) for b in ("c", "python"))
    assert c.verdict != "unknown"
    assert (c.verdict, c.nodes) == (py.verdict, py.nodes)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**16),
       plies=st.integers(0, 80))
@example(name="king-albert-classic", deal=20440324, seed=0, plies=0)  # a line the core's long polish shortens
def test_both_complete_searches_are_one_search_in_every_game(name: str, deal: int, seed: int, plies: int) -> None:
    """Without the first pass, the C core's complete search is the Python reference's rule for rule: the engine's
    moves, and the strategy's safe moves, keys, move order and pruning (what ka_order and ew_order leave out). So
    from one position both make the same positions, to the same verdict and the same winning line as the search
    found it (the shortening's long polish is the core's alone). Positions of random play, most of them won or lost
    within a few thousand positions."""
    rules = GAMES[name]
    state = random_position(rules, deal, seed, plies)
    c, py = (solve((rules, state), max_nodes=20_000, first_pass=False, backend=b, line="found")
             for b in ("c", "python"))
    assert (c.verdict, c.nodes, c.moves) == (py.verdict, py.nodes, py.moves)


@pytest.mark.slow
def test_a_search_stays_within_its_memory_allowance() -> None:
    """``memory_mb`` bounds everything the core holds: the table, the search's stacks and the first pass's
    best-first run, and with two threads both searches together. Measured as the growth of the process's
    peak resident memory, in a fresh process, on searches long enough to fill all of them."""
    code = (
        "import resource, tableaux\n"
        "from tableaux.solver import solve\n"
        "solve(tableaux.new_game('king-albert', 1), backend='c', max_nodes=1000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for name, deal, threads in (('king-albert-classic', 44, 1), ('king-albert', 215, 1),\n"
        "                            ('king-albert-classic', 52, 2), ('king-albert-classic', 44, 2)):\n"
        "    solve(tableaux.new_game(name, deal), backend='c', memory_mb=48, max_nodes=8_000_000, threads=threads)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    grown_mib = int(run.stdout) / 1024  # ru_maxrss is in KiB on Linux
    assert grown_mib <= 48 * 1.1


@pytest.mark.slow
def test_the_best_first_run_wins_where_depth_first_runs_get_lost_and_never_changes_a_verdict() -> None:
    """The first pass's best-first run (core/bestfirst.c) takes turns with the depth-first runs. It only
    looks for wins, so verdicts stay those of the search without it; it wins some deals far sooner (King
    Albert 295: 26,395 positions, against 3.5 million for the depth-first runs alone). Both solves go without
    the streamlined runs, which would win those deals first."""
    decided_sooner = 0
    for name, deals in (("king-albert", [*range(1, 41), 62, 295]), ("king-albert-classic", range(1, 21))):
        game = CORE_GAME[name]
        for deal in deals:
            start = GAMES[name].deal(deal)
            verdicts, nodes = {}, {}
            for best_first in (True, False):
                verdict, line, nodes[best_first], _, _ = _core.solve(
                    game, start.piles, start.redeals, max_nodes=400_000, best_first=best_first, streams=())
                verdicts[best_first] = verdict
                if verdict == 0:
                    assert GAMES[name].won(replay(GAMES[name], start, [tuple(m) for m in line])), (name, deal)
            if 2 not in verdicts.values():
                assert verdicts[True] == verdicts[False], (name, deal)
            decided_sooner += verdicts[True] == 0 and (verdicts[False] == 2 or nodes[True] * 10 < nodes[False])
    assert decided_sooner >= 2


@pytest.mark.slow
def test_the_best_first_run_keeps_its_nodes_in_a_small_memory_and_wins_as_in_a_large_one() -> None:
    """The best-first run keeps a whole position only every fourth generation and makes the others again
    from there (core/bestfirst.c), so the share that 16 MiB lends it holds the half-million nodes that
    King Albert deals 699 and 1962 need: each is won exactly as with 1,024 MiB, in the same positions.
    Kept whole, the nodes filled that share; the run stopped and the depth-first runs took three times
    the positions. The complete search comes after the pass here (beside it, its table's room would decide
    which of the two wins first). The lines are replayed through the rules."""
    rules, game = GAMES["king-albert"], CORE_GAME["king-albert"]
    for deal in (699, 1962):
        start = rules.deal(deal)
        small, large = (_core.solve(game, start.piles, start.redeals, max_nodes=3_000_000, memory=mib << 20,
                                    streams=(), after=True) for mib in (16, 1024))
        assert small[0] == 0 and small[2] == large[2], (deal, small[2], large[2])
        assert rules.won(replay(rules, start, [tuple(m) for m in small[1]]))


def test_a_second_best_first_run_finds_classic_wins_that_take_cards_back_off_the_foundations() -> None:
    """Classic rules: beside the best-first run over the restricted space, the first pass takes turns with a
    second one that may take cards back (core/solve.c). Classic deal 161 needs a card back: the first pass
    without best-first runs and the complete search are still unknown at a million positions (the complete
    search alone needs 153 million), and the second run wins it. Verdicts stay those of the search without
    best-first runs, which the test above checks on deals 1-20. Both go without the streamlined runs, which take
    the pass's first turns, and with the complete search after the pass, so that the pass has half of the
    budget (beside it, classic's complete search takes most of it)."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(161)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=1_000_000, streams=(),
                                             after=True)
    assert verdict == 0 and nodes < 1_000_000
    assert rules.won(replay(rules, start, [tuple(m) for m in line]))
    assert any(move[0] in rules.foundations for move in line)
    assert _core.solve(game, start.piles, start.redeals, max_nodes=1_000_000, best_first=False, streams=(),
                       after=True)[0] == 2


@pytest.mark.slow
def test_chained_runs_win_where_every_other_search_gets_lost_and_never_change_a_verdict() -> None:
    """Classic rules: from its third run on, the first pass also makes chained runs (core/search.c's
    obliges), where a tableau card moved must be used by the very next move. They only look for wins, so
    verdicts stay those of the search without them; classic deal 974 they win within a million positions,
    where the solve without them is still unknown at 4 million (it wins at 5.3 million). Both go without the
    streamlined runs."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(974)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=4_000_000, streams=())
    assert verdict == 0 and nodes <= 1_000_000
    assert rules.won(replay(rules, start, [tuple(m) for m in line]))
    assert _core.solve(game, start.piles, start.redeals, max_nodes=4_000_000, chained=False, streams=())[0] == 2
    compared = 0
    for deal in range(1, 41):
        start = rules.deal(deal)
        verdicts = [
            _core.solve(game, start.piles, start.redeals, max_nodes=400_000, chained=chained)[0]
            for chained in (True, False)
        ]
        if 2 not in verdicts:
            assert verdicts[0] == verdicts[1], deal
            compared += 1
    assert compared >= 20


@pytest.mark.slow
def test_a_very_deep_line_takes_room_from_the_table_instead_of_ending_the_search() -> None:
    """The complete search of classic deal 100 goes down a line of tens of thousands of moves, whose stacks
    (some 200 bytes a move) outgrow by far the eighth of 16 MiB that they may take beside a full table. The
    table then forgets its short searches and halves its slots to make room, so the search goes on and
    wins; before, such a line ended the search 'unknown'."""
    game = new_game("king-albert-classic", 100)
    result = solve(game, backend="c", memory_mb=16, max_nodes=3_000_000, first_pass=False, line="found",
                   relaxed_stage=False)
    assert result.verdict == "winnable" and len(result.moves) * 200 > 2 * (16 << 20) // 8
    for move in result.moves:
        game.play(move)
    assert game.is_won()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deal"), [("king-albert-classic", 3), ("king-albert", 17), ("king-albert", 62),
                                            ("king-albert-classic", 52)])
def test_two_threads_give_the_verdict_of_one_for_every_node_budget(name: str, deal: int) -> None:
    """With ``threads=2`` the complete search runs beside the first pass from the start; before it passes
    half of a node budget it waits for the pass to end and takes what the pass left, as it would after it.
    So the verdict is the one-thread verdict, budget for budget (the budgets below include ones where the
    complete search needs exactly what the pass leaves), and its winning lines win in the engine."""
    game = new_game(name, deal)
    budgets = sorted({int(3_000_000 * 0.7**k) for k in range(30)} - {0})
    seen = set()
    for budget in budgets:
        one = solve(game, backend="c", max_nodes=budget, line="found")  # the searches' own lines
        two = solve(game, backend="c", max_nodes=budget, threads=2, line="found")
        assert two.verdict == one.verdict, budget
        seen.add(one.verdict)
        if two.verdict == "winnable":
            replay = new_game(name, deal)
            for move in two.moves:
                replay.play(move)
            assert replay.is_won(), budget
    assert "unknown" in seen and len(seen) == 2, "the budgets must straddle the one that decides the deal"


def test_two_threads_keep_to_a_time_limit_and_refuse_other_counts() -> None:
    game = new_game("king-albert-classic", 44)  # lost, but its proof takes millions of positions without the verdicts
    result = solve(game, backend="c", time_limit=0.3, threads=2, relaxed_stage=False)
    # The clock, not the proof, ended it: far short of the positions the proof needs.
    assert result.verdict == "unknown" and 0 < result.nodes < 20_000_000
    for bad in (0, 3, 1.5, True, "2"):
        with pytest.raises(SolverError, match="threads"):
            solve(game, threads=bad)  # type: ignore[arg-type]
