"""The solver's pruning rules, each on a hand-built position that needs it or against the search without it."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tableaux.solver.search as solver_module
from helpers.positions import EW, KA, KAC, brute_force, ew_state, ka_state, replay
from tableaux.rulebook.cards import RANK, card_str
from tableaux.rulebook.engine import RawMove, Rules, State
from tableaux.rulebook.king_albert import RESERVE as KA_RESERVE
from tableaux.solver import solve
from tableaux.solver.strategy import KA_FIRST_TABLEAU, EagleWingStrategy, KingAlbertStrategy, Strategy, strategy_for

# Every test runs against each backend this installation has (conftest.py).
pytestmark = pytest.mark.usefixtures("backend")


# --- the transposition keys -------------------------------------------------
GAMES_BY_NAME = {"king-albert": KA, "king-albert-classic": KAC, "eagle-wing": EW}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(list(GAMES_BY_NAME)), deal=st.integers(0, 2**32 - 1),
       seed=st.integers(0, 2**16), plies=st.integers(0, 150))
def test_the_key_reads_every_pile_and_loses_only_the_order_of_interchangeable_piles(
    backend: str, name: str, deal: int, seed: int, plies: int
) -> None:
    """The transposition key (strategy/) of a position of random play changes when any one pile loses its top
    card, whichever pile it is, and stays the same when piles of one kind trade places (tableau piles, King
    Albert's reserve cells, and foundations, which it reads as each suit's height). A key that left out a pile
    would merge positions the search must tell apart, and could call a winnable deal lost. The C core's keys are
    checked against these (test_backends.py); this holds the Python keys where there is no C core."""
    if backend != "python":
        pytest.skip("the Python keys themselves")
    rules = GAMES_BY_NAME[name]
    key = strategy_for(rules).key
    rng, state = random.Random(seed), rules.deal(deal)
    for _ in range(plies):
        moves = rules.moves(state)
        if not moves:
            break
        state = rules.apply(state, rng.choice(moves))
    k = key(state)
    for i, pile in enumerate(state.piles):
        if pile:
            piles = list(state.piles)
            piles[i] = pile[:-1]
            assert key(State(tuple(piles), state.redeals)) != k, rules.pile_names[i]
    kinds = [rules.tableau, rules.foundations] + ([KA_RESERVE] if rules is not EW else [])
    for kind in kinds:
        order = list(kind)
        rng.shuffle(order)
        piles = list(state.piles)
        for a, b in zip(kind, order, strict=True):
            piles[a] = state.piles[b]
        assert key(State(tuple(piles), state.redeals)) == k


# --- hand-built positions, one per rule ------------------------------------
def test_a_won_position_needs_no_move() -> None:
    state = ka_state(["KC", "KD", "KH", "KS"], [])
    result = solve((KA, state))
    assert result.verdict == "winnable" and result.moves == []


def test_ace_goes_home_first_and_the_card_under_it_turns_up() -> None:
    # Everything home but the Ace and 2 of spades; the Ace lies on the 2, which is face down.
    state = ka_state(["KC", "KD", "KH", ""], ["2S* 3S* 4S* 5S* 6S* 7S* 8S* 9S* TS* JS* QS* KS* AS"])
    result = solve((KA, state))
    assert result.verdict == "winnable"
    assert str(result.moves[0]) == "T1>F4"
    assert KA.won(replay(KA, state, [KA.to_raw(m) for m in result.moves]))


def test_dead_position_is_proved_unwinnable() -> None:
    # The 2 of spades lies face down under the 3; every pile is in use, black cannot go on
    # black, and the Kings on the foundations have no empty pile to go to: nothing can move.
    state = ka_state(
        ["KC", "KD", "KH", "AS"],
        ["2S* 3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS* QS* KS"],
    )
    assert KA.moves(state) == []
    assert brute_force(KA, state) is False
    result = solve((KA, state))
    assert result.verdict == "unwinnable" and result.moves == []


# Found by a random search: winnable, but only by worrying the Queen of diamonds back off
# its foundation (onto the King of spades) to give the Jack of clubs somewhere to go.
WORRY = (
    ["6C", "QD", "JH", "5S"],
    ["TC* 8C", "QH* 9S", "JS", "KH* QC", "QS", "8S* 7C* KC* JC", "TS", "KD* 7S", "6S* KS"],
    ["9C"],
)


class _NoWorrying(KingAlbertStrategy):
    """The complete search without a single move off a foundation."""

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        return super().order(state, moves, True)


def test_worrying_back_is_searched() -> None:
    state = ka_state(*WORRY)
    result = solve((KA, state))
    assert result.verdict == "winnable"
    assert any(KA.index[m.source] < 4 for m in result.moves), "the line must take a card back"
    assert KA.won(replay(KA, state, [KA.to_raw(m) for m in result.moves]))
    search = solver_module._Search(KA, None, None, 100_000)
    search.strategy = _NoWorrying()
    assert search.run(state, restricted=False, node_cap=None) is None  # no win without worrying


class _UsualRule(KingAlbertStrategy):
    """Sends a card home as soon as both next-lower cards of the other colour are home."""

    def maybe_safe(self, state: State) -> bool:
        return True

    def safe_move(self, state: State, moves: list[RawMove]) -> RawMove | None:
        return self.greedy_move(state, moves)


def test_usual_safe_rule_would_lose_a_winnable_king_albert_position() -> None:
    """Why only Aces go home automatically in King Albert.

    8S may go home and both red 7s are home, so the rule most solvers use would send it.
    But 6C covers 5C, which every club needs, and 6C's only way off is onto a red 7 worried
    back from its foundation onto 8S: every pile is in use and no other black 8 shows.
    """
    state = ka_state(
        ["4C", "7D", "7H", "7S"],
        ["5C* 6C", "JS* 8S", "TS* 8D* 8H* KS", "QS* 8C* KD", "7C* 9C* KC", "TC* QC* KH",
         "9D* TD* JC", "QD* 9H* JD", "TH* QH* 9S* JH"],
    )
    assert brute_force(KA, state, cap=100_000) is True
    result = solve((KA, state))
    assert result.verdict == "winnable"
    assert KA.won(replay(KA, state, [KA.to_raw(m) for m in result.moves]))
    search = solver_module._Search(KA, None, None, 100_000)
    search.strategy = _UsualRule()
    assert search.run(state, restricted=False, node_cap=None) is None  # the usual rule says "lost"


def test_eagle_wing_group_move_wraps_past_the_king() -> None:
    # Base 5: spades are home from 5S round to 2S; the pile 4S 3S goes home in one move
    # (3S fits, then 4S lands on it).
    state = ew_state("5", ["4H", "4C", "4D", "2S"], ["4S 3S"], redeals=2)
    t1 = EW.index["tableau-1"]
    assert (t1, 2, 5) in EW.moves(state)  # the group move is on offer
    result = solve((EW, state))
    assert result.verdict == "winnable"
    assert EW.won(replay(EW, state, [EW.to_raw(m) for m in result.moves]))


def test_eagle_wing_lone_card_home_refills_from_the_reserve() -> None:
    # 3S leaves its pile alone while the reserve still holds 4S: the refill brings 4S out.
    state = ew_state("5", ["4H", "4C", "4D", "2S"], ["3S"], reserve="4S")
    result = solve((EW, state))
    assert [str(m) for m in result.moves] == ["T1>F4", "T1>F4"]
    assert EW.won(replay(EW, state, [EW.to_raw(m) for m in result.moves]))


class _BaseCardsToo(EagleWingStrategy):
    """Also sends base-rank cards home at once."""

    def safe_move(self, state: State, moves: list[RawMove]) -> RawMove | None:
        for move in moves:
            if move[1] == 1 and move[2] in EW.foundations:
                return move
        return None


def test_sending_a_base_card_home_at_once_would_lose_a_winnable_eagle_wing_position() -> None:
    """Why base-rank cards are not safe in Eagle Wing.

    Found by a random search (its piles are not in-suit runs, so no deal reaches it, but the
    rules play it all the same). Base 8, no spade home yet: 8S may go home at once. A winning
    line exists (found and replayed below) and it parks a card on 8S in the tableau (a card
    may only go on the base card if it is the last of its suit, here 7S); the search that sends
    8S home first finds no win at all.
    """
    state = ew_state(
        "8", ["5H", "2D", "AC", ""],
        ["7C QS 4D", "5D 7D", "6H 4S 4C", "2S 7H", "KS 8S", "2C", "5S", "6C"],
        waste="9S AS 3D JS 6D 3S 5C 7S 6S 3C TS", redeals=2,
    )
    result = solve((EW, state))
    assert result.verdict == "winnable"
    assert EW.won(replay(EW, state, [EW.to_raw(m) for m in result.moves]))
    search = solver_module._Search(EW, None, None, 100_000)
    search.strategy = _BaseCardsToo()
    assert search.run(state, restricted=False, node_cap=None) is None  # "lost", wrongly


def _compare_on_random_play(
    rules: Rules, strategy: dict[bool, Callable[[], Strategy]], deals: range, plies: int, budget: int
) -> tuple[int, dict[bool, int]]:
    """Search positions of random play (what players and hints meet) with a rule (``strategy[True]``) and
    without it: assert that the two decide alike wherever both decide. How many positions both decided, and
    the positions each made on the lost ones."""
    compared = 0
    lost_made = {True: 0, False: 0}
    for deal in deals:
        rng, state = random.Random(deal), rules.deal(deal)
        for _ in range(plies):
            moves = rules.moves(state)
            if moves:
                state = rules.apply(state, rng.choice(moves))
        verdicts, made = {}, {}
        for rule, make in strategy.items():
            search = solver_module._Search(rules, budget, None, 1_000_000)
            search.strategy = make()
            try:
                verdicts[rule] = search.run(state, restricted=False, node_cap=None) is not None
            except solver_module._OutOfBudget:
                verdicts[rule] = None
            made[rule] = search.nodes
        if None not in verdicts.values():
            assert verdicts[True] == verdicts[False], deal
            compared += 1
            if not verdicts[True]:
                for rule in made:
                    lost_made[rule] += made[rule]
    return compared, lost_made


@pytest.mark.slow
def test_a_reserve_card_covered_at_once_never_changes_a_python_verdict(backend: str) -> None:
    """Classic rules: the reference search lets a reserve card onto the tableau only when the next move
    covers it (KingAlbertStrategy.obligation). On positions of random play it decides exactly what the
    same search decides without that rule, and proves losses with fewer positions."""
    if backend != "python":
        pytest.skip("the Python search itself; test_backends.py compares the C core's rule the same way")
    strategy = {
        True: lambda: KingAlbertStrategy(single_cards_only=True),
        False: lambda: KingAlbertStrategy(single_cards_only=False),
    }
    compared, lost_made = _compare_on_random_play(KAC, strategy, range(1, 17), 8, 40_000)
    assert compared >= 10
    assert lost_made[True] < lost_made[False]


class _TakesBackAnything(KingAlbertStrategy):
    """The move order without the "home for good" rule: every foundation card may come back."""

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        kept = super().order(state, moves, restricted)
        if restricted:
            return kept
        return kept + [m for m in moves if m[0] < KA_FIRST_TABLEAU <= m[2] and m not in kept]


@pytest.mark.slow
@pytest.mark.parametrize("rules", [KA, KAC], ids=["king-albert", "king-albert-classic"])
def test_a_card_home_for_good_never_comes_back_and_no_python_verdict_changes(backend: str, rules: Rules) -> None:
    """A foundation's top card that the safe-move rule would send home is never taken back by the search
    (KingAlbertStrategy.order has the proof). On positions of random play, where foundations are uneven
    and cards have been taken back, the reference decides exactly what it decides when any card may come
    back, and proves losses with fewer positions."""
    if backend != "python":
        pytest.skip("the Python search itself; test_backends.py compares the C core's rule the same way")
    strategy = {
        True: lambda: KingAlbertStrategy(rules.single_cards_only),
        False: lambda: _TakesBackAnything(rules.single_cards_only),
    }
    compared, lost_made = _compare_on_random_play(rules, strategy, range(1, 31), 20, 30_000)
    assert compared >= 10
    assert lost_made[True] < lost_made[False]


@pytest.mark.slow
def test_the_best_first_run_wins_where_the_depth_first_run_gets_lost(backend: str) -> None:
    """The reference's first pass ends with a best-first run (search.py ``best_first``, like the C core's):
    on King Albert deals 62 and 295 it wins within 10,000 positions, where the depth-first run is still
    lost after 100,000; its lines play to a win."""
    if backend != "python":
        pytest.skip("the Python search itself; test_backends.py covers the C core's run")
    for deal in (62, 295):
        start = KA.deal(deal)
        depth_first = solver_module._Search(KA, 100_000, None, 1_000_000)
        with pytest.raises(solver_module._OutOfBudget):
            depth_first.run(start, restricted=True, node_cap=None)
        search = solver_module._Search(KA, 10_000, None, 1_000_000)
        line = search.best_first(start, node_cap=None)
        assert line is not None and KA.won(replay(KA, start, line))


def _foundations_at(heights: list[int], top: int) -> State:
    """A King Albert position with suit s home up to ``heights[s]``, ``top`` alone on tableau 1 and every
    other card under a King on tableaux 2-5, so ``top`` is the only card that can go home."""
    piles: list[tuple[int, ...]] = [tuple(s * 13 + r for r in range(h)) for s, h in enumerate(heights)]
    rest = [c for c in range(52) if RANK[c] > heights[c // 13] and c != top]
    kings = [c for c in rest if RANK[c] == 13]
    others = [c for c in rest if RANK[c] != 13]
    tableau = [(top,)] + [tuple(others[i::len(kings)]) + (k,) for i, k in enumerate(kings)]
    tableau += [()] * (9 - len(tableau))
    return State(tuple(piles) + tuple(tableau) + ((),) * 7)


@pytest.mark.parametrize("rules", [KA, KAC], ids=["king-albert", "king-albert-classic"])
def test_a_card_is_safe_home_exactly_when_the_cards_it_could_hold_are_home(backend: str, rules: Rules) -> None:
    """The safe-move rule's threshold, at its edge, for every card from 3 up: a card of rank r goes home by
    itself when both suits of the other colour are home up to r - 2 and the other suit of its colour up to
    r - 3 (KingAlbertStrategy.safe_move's proof), and not when any one of them is a card short. A looser
    rule would wrongly prune the card's coming back; the random positions of the other tests seldom sit
    on the edge, so this checks it card by card, in the Python strategy and in the C core."""
    assert tuple(KA.deal(1).piles[:4]) == ((),) * 4 and len(KA.deal(1).piles) == 4 + 9 + 7
    strategy = strategy_for(rules)
    if backend == "c":
        from tableaux.solver import _core
    for top in range(52):
        rank, suit = RANK[top], top // 13
        if rank < 3:
            continue
        twin = suit ^ 3
        edge = [rank - 3 if s == twin else rank - 2 for s in range(4)]
        edge[suit] = rank - 1
        for short in (None, *(s for s in range(4) if s != suit and edge[s] > 0)):
            heights = [h - (s == short) for s, h in enumerate(edge)]
            state = _foundations_at(heights, top)
            moves = rules.moves(state)
            assert [m for m in moves if m[0] >= 4 and m[2] < 4] == [(4, 1, suit)]  # only it can go home
            expected = (4, 1, suit) if short is None else None
            if backend == "c":
                got = _core.safe_move(int(rules.single_cards_only), state.piles, state.redeals)
            else:
                got = strategy.safe_move(state, moves)
            assert got == expected, (card_str(top), heights)
