"""The double-click (``home_move``): always a legal move, and offered whenever the top card can go home."""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from tableaux.rulebook.cards import DOWN, RANK, SUIT
from tableaux.rulebook.engine import Rules, State, short_name

NAMES = list(tableaux.GAMES)
DOUBLE_CLICK = {
    "king-albert": ("tableau", "reserve"),
    "king-albert-classic": ("tableau", "reserve"),
    "eagle-wing": ("tableau", "waste"),  # AisleRiot's double-click leaves out Eagle Wing's reserve
}


def start_rank(rules: Rules, state: State) -> int:
    """The rank an empty foundation takes: Ace in King Albert, the base card's rank in Eagle Wing."""
    return RANK[state.piles[rules.foundations[0]][0]] if rules.name == "eagle-wing" else 1


def goes_on(rules: Rules, card: int, top: int) -> bool:
    """The next card of the foundation's suit; Eagle Wing wraps from King to Ace."""
    following = RANK[top] % 13 + 1 if rules.name == "eagle-wing" else RANK[top] + 1
    return SUIT[card] == SUIT[top] and RANK[card] == following


def foundation_for(rules: Rules, state: State, pile: int) -> int | None:
    """Where the pile's top card can go, by the rules pages, written independently of the engine."""
    cards = state.piles[pile]
    if not cards or cards[-1] & DOWN:
        return None
    card = cards[-1]
    for f in rules.foundations:
        top = state.piles[f]
        if (not top and RANK[card] == start_rank(rules, state)) or (top and goes_on(rules, card, top[-1])):
            return f
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(NAMES),
    deal=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(0, 2**16), min_size=20, max_size=150),
)
@pytest.mark.slow
def test_every_home_move_is_legal_and_every_card_that_can_go_home_gets_one(
    name: str, deal: int, picks: list[int]
) -> None:
    game = tableaux.new_game(name, deal)
    rules = game.rules
    for pick in picks:
        state = game.state
        check_pile_by_pile(rules, state)
        for pile, pile_name in enumerate(rules.pile_names):
            move = rules.home_move(state, pile)
            expected = None if move is None else rules.to_move(move)
            assert game.home_move(pile_name) == game.home_move(short_name(pile_name)) == expected  # T3 as tableau-3
        legal = rules.moves(state)
        if not legal:
            break
        game.play(rules.to_move(legal[pick % len(legal)]))


def check_pile_by_pile(rules: Rules, state: State) -> None:
    legal = rules.moves(state)
    for pile, pile_name in enumerate(rules.pile_names):
        move = rules.home_move(state, pile)
        if move is not None:
            assert move in legal and move[:2] == (pile, 1) and move[2] in rules.foundations
        expected = foundation_for(rules, state, pile) if pile_name.startswith(DOUBLE_CLICK[rules.name]) else None
        assert (None if move is None else move[2]) == expected, pile_name


@st.composite
def positions(draw: st.DrawFn, name: str) -> State:
    """Any position with foundations built by the rules: random play seldom completes a suit, this often does."""
    rules = tableaux.GAMES[name]
    eagle = name == "eagle-wing"
    start = draw(st.integers(1, 13)) if eagle else 1
    suits = draw(st.permutations(range(4)))
    # Empty and complete foundations are where a foundation rule's edge cases live: weight them.
    heights = [draw(st.sampled_from([0, 13]) | st.integers(0, 13)) for _ in range(4)]
    if eagle:
        heights[0] = max(heights[0], 1)  # F1 holds the base card from the deal on
    piles: list[tuple[int, ...]] = [() for _ in rules.pile_names]
    home = set()
    for f, suit, height in zip(rules.foundations, suits, heights, strict=True):
        cards = tuple(suit * 13 + (start - 1 + k) % 13 for k in range(height))
        piles[f] = cards
        home.update(cards)
    rest = draw(st.permutations([c for c in range(52) if c not in home]))
    for card in rest:
        pile = draw(st.sampled_from([i for i in range(len(piles)) if i not in rules.foundations]))
        name_of = rules.pile_names[pile]
        if name_of.startswith("reserve") and not eagle and piles[pile]:
            pile = rules.tableau[0]  # a King Albert reserve cell holds one card
        if eagle and name_of.startswith("tableau") and len(piles[pile]) == 3:
            pile = rules.index["stock"]  # an Eagle Wing tableau pile holds three
        down = eagle and name_of in ("stock", "reserve") and piles[pile] != () or name_of == "stock"
        down = down or (name_of.startswith("tableau") and not eagle and draw(st.booleans()))
        piles[pile] += (card | (DOWN if down else 0),)
    for t in rules.tableau:  # every tableau top card lies face up
        if piles[t]:
            piles[t] = (*piles[t][:-1], piles[t][-1] & ~DOWN)
    return State(tuple(piles))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), name=st.sampled_from(NAMES))
def test_home_moves_are_legal_in_any_position_with_built_foundations(data: st.DataObject, name: str) -> None:
    check_pile_by_pile(tableaux.GAMES[name], data.draw(positions(name)))
