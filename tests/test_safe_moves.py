"""The moves the solver proves safe, which the browser's "move safe cards home" plays for the player."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

import tableaux
from tableaux.cards import RANK
from tableaux.solver.strategy import safe_moves, strategy_for
from test_properties import playout

deals = st.integers(min_value=0, max_value=4294967295)
choices = st.lists(st.integers(min_value=0, max_value=2**16), min_size=10, max_size=150)
quick = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card_moved(game: tableaux.Game, raw: tuple[int, int, int]) -> int:
    return game.state.piles[raw[0]][-raw[1]]


@quick
@given(deal=deals, picks=choices)
def test_king_albert_safe_moves_are_exactly_aces_going_home(deal: int, picks: list[int]) -> None:
    """Only an Ace, from the tableau or the reserve: a Two may be needed back on the table (it can be worried
    back to take an Ace of the other colour), so even a Two is not proved safe."""
    for name in ("king-albert", "king-albert-classic"):
        game = tableaux.new_game(name, deal)
        for _ in playout(game, picks):
            pass
        rules = game.rules
        legal = rules.moves(game.state)
        expected = [m for m in legal if m[2] in rules.foundations and m[0] not in rules.foundations
                    and RANK[card_moved(game, m)] == 1]
        assert safe_moves(rules, game.state) == expected


@quick
@given(deal=deals, picks=choices)
def test_eagle_wing_safe_moves_are_single_cards_home_but_never_the_base_rank(deal: int, picks: list[int]) -> None:
    game = tableaux.new_game("eagle-wing", deal)
    for _ in playout(game, picks):
        pass
    rules, state = game.rules, game.state
    base = RANK[state.piles[rules.foundations[0]][0]]
    expected = [m for m in rules.moves(state) if m[1] == 1 and m[2] in rules.foundations
                and RANK[card_moved(game, m)] != base]
    assert safe_moves(rules, state) == expected


@quick
@given(name=st.sampled_from(["king-albert", "eagle-wing"]), deal=deals, picks=choices)
def test_each_safe_move_is_one_the_solver_itself_makes_without_searching(
    name: str, deal: int, picks: list[int]
) -> None:
    game = tableaux.new_game(name, deal)
    for _ in playout(game, picks):
        pass
    strategy = strategy_for(game.rules)
    legal = game.rules.moves(game.state)
    for move in safe_moves(game.rules, game.state):
        assert move in legal
        assert strategy.safe_move(game.state, [move]) == move


def test_king_albert_deal_1_offers_its_ace_but_not_the_two_after_it() -> None:
    game = tableaux.new_game("king-albert", 1)
    texts = [str(game.rules.to_move(m)) for m in safe_moves(game.rules, game.state)]
    assert texts and all(t.startswith("R5>F") for t in texts)  # the Ace of hearts in reserve 5
    game.play("R5>F1")
    assert "R6>F1" in [str(m) for m in game.legal_moves()]  # the Two of hearts can go home ...
    assert safe_moves(game.rules, game.state) == []  # ... but that is not proved safe
