"""The moves the solver proves safe, which the browser's "move safe cards home" plays for the player."""

from __future__ import annotations

import random

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from helpers.games import play_randomly
from helpers.handmade import Hand
from helpers.positions import EW, KA, KAC, brute_force, small_positions
from tableaux.rulebook.cards import RANK, SUIT
from tableaux.rulebook.engine import Rules
from tableaux.solver import BACKENDS
from tableaux.solver.strategy import safe_moves

deals = st.integers(min_value=0, max_value=4294967295)
choices = st.lists(st.integers(min_value=0, max_value=2**16), min_size=10, max_size=150)
quick = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card_moved(game: tableaux.Game, raw: tuple[int, int, int]) -> int:
    return game.state.piles[raw[0]][-raw[1]]


def covered(foundations: list[tuple[int, ...]], card: int) -> bool:
    """The King Albert rule, said again here from its proof: rank r <= 2, or the other colour home up to r - 2
    and the other suit of the card's own colour up to r - 3."""
    home = {SUIT[f[0]]: len(f) for f in foundations if f}
    r, suit = RANK[card], SUIT[card]
    same_colour = {0: 3, 3: 0, 1: 2, 2: 1}[suit]
    other_colour = [s for s in range(4) if s not in (suit, same_colour)]
    return r <= 2 or (all(home.get(s, 0) >= r - 2 for s in other_colour) and home.get(same_colour, 0) >= r - 3)


@quick
@given(deal=deals, picks=choices)
def test_king_albert_safe_moves_are_exactly_the_covered_cards_going_home(deal: int, picks: list[int]) -> None:
    """A card goes home safely when every card that could ever come to rest on it could go home instead:
    Aces and Twos always, higher cards once enough of both colours is home (not the usual "both next-lower
    cards home" rule, which worrying back breaks)."""
    for name in ("king-albert", "king-albert-classic"):
        game = tableaux.new_game(name, deal)
        for _ in play_randomly(game, picks):
            pass
        rules = game.rules
        legal = rules.moves(game.state)
        foundations = [game.state.piles[f] for f in rules.foundations]
        expected = [m for m in legal if m[2] in rules.foundations and m[0] not in rules.foundations
                    and covered(foundations, card_moved(game, m))]
        assert safe_moves(rules, game.state) == expected


@pytest.mark.parametrize("name", ["king-albert", "king-albert-classic"])
def test_a_three_waits_for_both_aces_of_the_other_colour(name: str) -> None:
    """A 3 goes home safely once both Aces of the other colour are home (rank - 2 = 1 on each), not with none
    and not with one: the other black Ace could come to rest on it. The C core's rule (king_albert.h:
    ka_home_is_safe) agrees where it is built."""
    hand = Hand(tableaux.GAMES[name])
    t1 = hand.rules.index["tableau-1"]
    none = hand.state(F1="AH 2H", T1="3H", T2="AC", T3="AS")
    one = hand.state(F1="AH 2H", F2="AC", T1="3H", T2="AS")
    both = hand.state(F1="AH 2H", F2="AC", F3="AS", T1="3H")
    for state, safe in ((none, []), (one, []), (both, ["T1>F1"])):
        assert "T1>F1" in hand.legal(state)
        assert [str(hand.rules.to_move(m)) for m in safe_moves(hand.rules, state) if m[0] == t1] == safe
        if "c" in BACKENDS:
            from tableaux.solver import _core

            first = _core.safe_move(int(hand.rules.single_cards_only), state.piles, state.redeals)
            got = [str(hand.rules.to_move(first))] if first is not None and first[0] == t1 else []
            assert got == safe


@quick
@given(deal=deals, picks=choices)
def test_eagle_wing_safe_moves_are_single_cards_home_but_never_the_base_rank(deal: int, picks: list[int]) -> None:
    game = tableaux.new_game("eagle-wing", deal)
    for _ in play_randomly(game, picks):
        pass
    rules, state = game.rules, game.state
    base = RANK[state.piles[rules.foundations[0]][0]]
    expected = [m for m in rules.moves(state) if m[1] == 1 and m[2] in rules.foundations
                and RANK[card_moved(game, m)] != base]
    assert safe_moves(rules, state) == expected


@pytest.mark.slow
@pytest.mark.parametrize("rules", [KA, KAC, EW], ids=lambda r: r.name)
def test_a_safe_move_never_changes_whether_the_position_can_be_won(rules: Rules) -> None:
    """What makes a move safe to play without searching: a plain exhaustive search (no safe moves, no pruning)
    finds a win after it exactly when it finds one before it. Checked on small random positions, where the
    exhaustive search is complete, for every move the solver would play unasked."""
    rng = random.Random(f"safe-{rules.name}")
    checked = 0
    for state in small_positions(rules, rng, 100):
        before = brute_force(rules, state, cap=2_000)
        if before is None:
            continue
        for move in safe_moves(rules, state):
            after = brute_force(rules, rules.apply(state, move), cap=2_000)
            assert after is None or after == before, (state, move)
            checked += after is not None
    assert checked >= 50, f"only {checked} safe moves were checked: the small positions offer too few"


def test_king_albert_deal_1_offers_its_ace_then_the_two_of_hearts() -> None:
    game = tableaux.new_game("king-albert", 1)
    texts = [str(game.rules.to_move(m)) for m in safe_moves(game.rules, game.state)]
    assert texts and all(t.startswith("R5>F") for t in texts)  # the Ace of hearts in reserve 5
    game.play("R5>F1")
    # Only an Ace can land on a Two, and an Ace can always go home instead: the Two of hearts is safe.
    assert [str(game.rules.to_move(m)) for m in safe_moves(game.rules, game.state)] == ["R6>F1"]
