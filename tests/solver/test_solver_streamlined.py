"""The first pass's streamlined runs (core/solve.c): depth-first runs under restrictions that are no proof
(every card that can go home goes at once and for good; keys that do not tell the two suits of a colour
apart), some in a plain move order instead of the planned one. They may only ever report wins, each line
replayed before it is believed, never a loss: every ``unwinnable`` comes from the complete search alone, and
verdicts stay those of the solve without them.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from helpers.games import random_position
from helpers.positions import replay
from tableaux import GAMES
from tableaux.rulebook.engine import Rules, State
from tableaux.solver import BACKENDS, solve
from tableaux.solver.strategy import strategy_for

pytestmark = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")

if "c" in BACKENDS:
    from tableaux.solver import _core

CORE_GAME = {"king-albert": 0, "king-albert-classic": 1}
HOME, SUITS, BACK, PLAIN, SMALL = 1, 2, 4, 8, 16
KINDS = [HOME, SUITS, HOME | SUITS, SUITS | BACK, HOME | SUITS | BACK, BACK, PLAIN | SUITS, PLAIN | HOME | SUITS | BACK,
         PLAIN | SMALL | SUITS, PLAIN | SMALL | HOME | SUITS]


def wins(rules: Rules, start: State, line: list[tuple[int, int, int]]) -> bool:
    return rules.won(replay(rules, start, [tuple(m) for m in line]))


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(list(CORE_GAME)), deal=st.integers(1, 2**31), seed=st.integers(0, 2**16),
       plies=st.integers(0, 30), kinds=st.sampled_from(KINDS))
def test_a_streamlined_run_alone_never_says_unwinnable_and_its_wins_play_out(
        name: str, deal: int, seed: int, plies: int, kinds: int) -> None:
    """A streamlined run alone (``stream_alone``) answers winnable, with a line that wins in the engine's
    rules, or unknown, even where it searched its whole restricted space: that space may lack the win."""
    rules = GAMES[name]
    start = random_position(rules, deal, seed, plies)
    verdict, line, nodes, _, _ = _core.solve(CORE_GAME[name], start.piles, start.redeals, max_nodes=20_000,
                                             stream_alone=kinds)
    assert verdict in (0, 2)
    assert nodes <= 20_000
    if verdict == 0:
        assert wins(rules, start, line)


@pytest.mark.parametrize(("name", "deal"), [("king-albert", 39), ("king-albert", 202), ("king-albert", 818),
                                            ("king-albert-classic", 17), ("king-albert-classic", 403)])
def test_a_deal_proved_lost_stays_lost_and_streamlined_runs_alone_never_call_it_so(name: str, deal: int) -> None:
    """Lost deals: every streamlined run alone says unknown, and the solve with them proves the loss as the
    solve without them does."""
    rules, game = GAMES[name], CORE_GAME[name]
    start = rules.deal(deal)
    for kinds in KINDS:
        assert _core.solve(game, start.piles, start.redeals, max_nodes=200_000, stream_alone=kinds)[0] == 2
    without = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000, streams=())
    verdict = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000)[0]
    assert without[0] == verdict == 1


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deals"), [("king-albert", range(1, 61)), ("king-albert-classic", range(1, 31))])
def test_streamlined_runs_never_change_a_verdict(name: str, deals: range) -> None:
    """The solve with the streamlined runs and without them reach the same verdict wherever both decide, and
    every win's line plays out in the engine."""
    rules, game = GAMES[name], CORE_GAME[name]
    compared = 0
    for deal in deals:
        start = rules.deal(deal)
        verdicts = []
        for streams in (None, ()):
            verdict, line, _, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=300_000,
                                                 streams=streams)
            verdicts.append(verdict)
            if verdict == 0:
                assert wins(rules, start, line), (deal, streams)
        if 2 not in verdicts:
            assert verdicts[0] == verdicts[1], deal
            compared += 1
    assert compared >= len(deals) // 2


@pytest.mark.slow
@pytest.mark.parametrize(("name", "deal", "kinds"), [("king-albert", 168366, HOME | SUITS),
                                                     ("king-albert-classic", 733, HOME | SUITS)])
def test_streamlined_runs_win_deals_whose_spaces_defeat_every_other_search(name: str, deal: int, kinds: int) -> None:
    """King Albert 168366 and classic 733 were unknown after 100 million and 8,000 million positions of the
    other searches. A streamlined run wins each within two million, and so does the solve, whose first pass
    makes such runs; without them it is still unknown at that budget."""
    rules, game = GAMES[name], CORE_GAME[name]
    start = rules.deal(deal)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000, stream_alone=kinds)
    assert verdict == 0 and wins(rules, start, line)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=40_000_000)
    assert verdict == 0 and wins(rules, start, line)
    assert _core.solve(game, start.piles, start.redeals, max_nodes=nodes, streams=())[0] == 2


@pytest.mark.slow
def test_a_streamlined_run_that_takes_cards_back_wins_where_the_others_do_not() -> None:
    """Classic 24053 (unknown after 8,000 million positions of the layered search): merged suits with cards
    taken back win it within two million positions by a line of thousands of moves; with every card home at
    once and none taken back, not."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(24053)
    verdict, line, _, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000,
                                         stream_alone=SUITS | BACK)
    assert verdict == 0 and wins(rules, start, line)
    assert any(move[0] in rules.foundations for move in line)
    assert _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000, stream_alone=HOME | SUITS)[0] == 2


@pytest.mark.slow
def test_when_no_win_keeps_every_card_home_the_runs_that_take_cards_back_have_their_turn_at_once() -> None:
    """Classic 20838 has almost nothing to search while no card comes back (the streamlined runs that take none
    back search their whole spaces within a thousand positions), and the first pass's rounds reach the
    streamlined runs only after about 0.9 million positions. Once the pass finds no win without cards back,
    the streamlined run that takes them back gets its turn at once and wins within 300,000 positions, where
    the solve without streamlined runs is still unknown after 20 million."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(20838)
    for kinds in (SUITS, HOME | SUITS):
        verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=100_000, stream_alone=kinds)
        assert verdict == 2 and nodes < 1000
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=20_000_000)
    assert verdict == 0 and wins(rules, start, line)
    assert any(move[0] in rules.foundations for move in line)
    assert nodes < 300_000
    assert _core.solve(game, start.piles, start.redeals, max_nodes=20_000_000, streams=())[0] == 2


@pytest.mark.parametrize(("name", "deal", "within"), [("king-albert", 3703682070, 10_000 + 6_000),
                                                      ("king-albert-classic", 4029445222, 2 * 40_000 + 1_000)])
def test_a_win_the_kind_that_takes_cards_back_finds_at_once_comes_before_the_long_turn(name: str, deal: int,
                                                                                       within: int) -> None:
    """King Albert 3703682070: the kind that takes cards back wins alone in 285 positions, and the kind that sends
    every card home only after 1.28 million, its whole first turn. In the first round that kind has a lead of
    10,000 positions and the other a probe of 6,000 before the long turn, so the solve wins within 16,000.
    Classic 4029445222 alike, after the two plain runs' 40,000 each and a probe of 1,000 (213,860 positions
    without)."""
    rules, game = GAMES[name], CORE_GAME[name]
    start = rules.deal(deal)
    verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=100_000,
                                          stream_alone=SUITS | BACK)
    assert verdict == 0 and nodes <= 1_000
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000)
    assert verdict == 0 and wins(rules, start, line) and nodes <= within


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 2**32 - 1))
def test_a_king_albert_deal_the_first_kind_wins_within_its_lead_costs_what_that_kind_alone_does(deal: int) -> None:
    """The lead comes before the probe so that the quick deals, won by the kind that sends every card home within
    10,000 positions, are won in as many positions as before there was a probe: the catalogue grades deals by
    their positions."""
    rules, game = GAMES["king-albert"], CORE_GAME["king-albert"]
    start = rules.deal(deal)
    verdict, _, alone, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=10_000,
                                          stream_alone=HOME | SUITS)
    assume(verdict == 0)
    verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=200_000)
    assert verdict == 0 and nodes == alone


@pytest.mark.parametrize("deal", [4026931359, 3635340270])
def test_a_king_albert_deal_the_first_kind_wins_after_its_lead_pays_only_the_probe_more(deal: int) -> None:
    """The kind that sends every card home wins 4026931359 alone in 266,815 positions and 3635340270 in 78,941, in
    its long turn. Its lead's run waits, paused, while the probe runs beside it, and the long turn goes on with it:
    the solve costs that kind alone and the probe's 6,000 positions, not the lead's 10,000 again."""
    rules, game = GAMES["king-albert"], CORE_GAME["king-albert"]
    start = rules.deal(deal)
    verdict, _, alone, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000,
                                          stream_alone=HOME | SUITS)
    assert verdict == 0 and alone > 10_000 + 6_000
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000)
    assert verdict == 0 and wins(rules, start, line)
    assert alone < nodes <= alone + 6_001  # the probe, and the position it stops at


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])  # 1 deal in 6 is lost
@given(deal=st.integers(1, 2**32 - 1))
@example(deal=1000000000)
def test_a_king_albert_deal_whose_first_kind_finds_no_win_is_asked_of_its_relaxed_game_at_once(deal: int) -> None:
    """When the kind that sends every card home exhausts its space within its lead, the deal is likely lost: the
    relaxed verdicts are asked of the deal itself at once, after a complete search's turn of at most 1,000
    positions (twice that kind's, at most), and a lost answer decides it, in those positions and the relaxed
    game's. King Albert 1000000000's turn ends two positions past its 1,000: two cards go home safely after its
    last."""
    rules, game = GAMES["king-albert"], CORE_GAME["king-albert"]
    start = rules.deal(deal)
    verdict, _, alone, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=10_000,
                                          stream_alone=HOME | SUITS)
    assume(verdict == 2 and alone < 10_000)  # exhausted, not stopped
    rank, _ = strategy_for(rules).relaxed_verdicts
    (lost,), relaxed = _core.verdicts([start.piles], rank, game=game)
    assume(lost)
    verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000, verdicts=rank,
                                          verdicts_from=20_000)
    # a turn stops past its last position by the cards that position's safe moves send home (52 at most)
    assert verdict == 1 and alone < nodes <= alone + min(1_000, 2 * alone) + 52 + relaxed
    assert solve("king-albert", deal, max_nodes=2_000_000).verdict == "unwinnable"


def test_a_lost_king_albert_deal_with_a_small_space_is_decided_before_its_relaxed_game_is_asked() -> None:
    """King Albert 3576481786: the complete search proves it lost in 422 positions, while its relaxed game has a
    win, found after 89,008 relaxed positions (Solvitaire decides the deal in 7 ms). The complete search's short turn
    before the relaxed game is asked decides it within 1,000 positions, where asking first made 92,516."""
    rules, game = GAMES["king-albert"], CORE_GAME["king-albert"]
    start = rules.deal(3576481786)
    verdict, _, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000)
    assert verdict == 1 and nodes < 1_000
    rank, _ = strategy_for(rules).relaxed_verdicts
    (lost,), relaxed = _core.verdicts([start.piles], rank, game=game)
    assert not lost and relaxed > 10 * nodes  # asking it would have cost far more, and proved nothing


@pytest.mark.parametrize("deal", [3694301197, 3817937407, 4079795542])
def test_the_plain_order_wins_at_once_deals_whose_wins_the_planned_order_buries(deal: int) -> None:
    """Classic 3694301197, 3817937407 and 4079795542: a streamlined run in the plain move order (cards home,
    tableau to tableau, reserve to tableau, cards back; the biggest piles first) wins within 40,000 positions,
    the plain order's first turn, where the planned order's streamlined run has not won after ten times as
    many. So the solve, whose classic first pass starts with the plain run, wins each within that turn."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(deal)
    verdict, line, _, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=40_000, stream_alone=PLAIN | SUITS)
    assert verdict == 0 and wins(rules, start, line)
    assert _core.solve(game, start.piles, start.redeals, max_nodes=400_000, stream_alone=HOME | SUITS)[0] == 2
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=1_000_000)
    assert verdict == 0 and wins(rules, start, line) and nodes <= 40_000


def test_streams_are_refused_clearly_outside_their_range() -> None:
    start = GAMES["king-albert"].deal(1)
    for bad in ((0,), (32,), (1, 2, 3, 4, 5), ("x",), 3):
        with pytest.raises((ValueError, TypeError), match="streams"):
            _core.solve(0, start.piles, start.redeals, max_nodes=1000, streams=bad)
    for bad in (0, 32):
        with pytest.raises(ValueError, match="stream_alone"):
            _core.solve(0, start.piles, start.redeals, max_nodes=1000, stream_alone=bad)


def test_the_plain_order_from_the_smallest_pile_wins_a_deal_the_others_bury_and_keeps_every_verdict() -> None:
    """Classic 3967456459, where Solvitaire wins at once: its order tries the smallest piles first. The plain order
    that way round, every card home, wins it alone within 10,000 positions; from the biggest pile it takes over
    100,000 (398,404), as the planned order does (367,372). Classic's pass has that kind second, and wins the deal
    in under a fifth of the positions of the pass without it; lost deals are decided as without it."""
    rules, game = GAMES["king-albert-classic"], CORE_GAME["king-albert-classic"]
    start = rules.deal(3967456459)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000,
                                             stream_alone=PLAIN | SMALL | HOME | SUITS)
    assert verdict == 0 and wins(rules, start, line) and nodes < 10_000
    biggest_first = _core.solve(game, start.piles, start.redeals, max_nodes=10**6, stream_alone=PLAIN | HOME | SUITS)
    assert biggest_first[2] > 100_000
    without = (PLAIN | SUITS, HOME | SUITS, SUITS | BACK)
    verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000)
    assert verdict == 0 and wins(rules, start, line)
    assert nodes * 5 < _core.solve(game, start.piles, start.redeals, max_nodes=2_000_000, streams=without)[2]
    for deal in (17, 403):
        lost = rules.deal(deal)
        assert _core.solve(game, lost.piles, lost.redeals, max_nodes=2_000_000)[0] == 1
        assert _core.solve(game, lost.piles, lost.redeals, max_nodes=2_000_000, streams=without)[0] == 1
