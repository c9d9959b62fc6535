"""The reason an illegal move is refused comes from the engine (``Rules.why_illegal``), and it agrees with the rules.

Checked against the one move generator on random positions: every legal move has
no objection, every other move (any source, count and target) gets a reason, and
no reason names a card the player cannot see.
"""

from __future__ import annotations

import re

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from helpers.games import play_randomly
from tableaux.play.game import Game
from tableaux.rulebook.cards import DOWN, card_name
from tableaux.rulebook.engine import State

NAMES = ["king-albert", "eagle-wing", "king-albert-classic"]
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def unseen_cards(game: Game, state: State) -> set[int]:
    """Face-down cards, and Eagle Wing's reserve bottom card while cards lie on it (covered in AisleRiot)."""
    unseen = {c & ~DOWN for pile in state.piles for c in pile if c & DOWN}
    reserve = game.rules.index.get("reserve")
    if game.name == "eagle-wing" and reserve is not None and len(state.piles[reserve]) > 1:
        unseen.add(state.piles[reserve][0] & ~DOWN)
    return unseen


@pytest.mark.parametrize("name", NAMES)
@quick
@given(deal=st.integers(0, 4294967295), picks=st.lists(st.integers(0, 2**16), min_size=0, max_size=80))
def test_why_illegal_objects_to_exactly_the_moves_the_rules_refuse(name: str, deal: int, picks: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, picks)
    rules, state = game.rules, game.state
    legal = set(rules.moves(state))
    unseen = {card_name(c) for c in unseen_cards(game, state)}
    words = rules.pile_word_names()
    for src in range(len(rules.pile_names)):
        for dst in range(len(rules.pile_names)):
            for count in range(1, max(len(state.piles[src]), 1) + 2):
                reason = rules.why_illegal(state, (src, count, dst))
                worded = rules.why_illegal(state, (src, count, dst), words)  # as a screen without notation asks
                assert (reason is None) == (worded is None)
                assert worded is None or not any(short in worded.split() for short in rules.short_names)
                if (src, count, dst) in legal:
                    assert reason is None, f"{rules.to_move((src, count, dst))} is legal but refused: {reason}"
                else:
                    assert reason, f"{rules.to_move((src, count, dst))} is illegal with no reason given"
                    # The card a foundation wants next may be anywhere: naming it says nothing of where.
                    shown = re.sub(r"takes only the .+? next", "", reason)
                    named = [n for n in unseen if f"the {n}" in shown]
                    assert not named, f"the reason {reason!r} names a card the player cannot see: {named}"
                    # Eagle Wing's rules name its piles the wings and the trunk, and so do its reasons.
                    assert name != "eagle-wing" or not re.search(r"\b(tableau|reserve)\b", worded), worded


@pytest.mark.parametrize(
    ("name", "deal", "move", "reason"),
    [
        ("king-albert", 1, "R2>R3", "the reserve never takes cards"),
        ("king-albert", 1, "R1>F1", "an empty foundation takes only an Ace, not the 2 of clubs"),
        ("king-albert", 1, "T9>T1", "the 10 of diamonds cannot go onto the 10 of spades"),
        ("king-albert", 1, "T1:3>T4", "T1 does not have 3 face-up cards to move"),
        ("king-albert-classic", 1, "T1:2>T4", "only one card moves at a time"),
        ("eagle-wing", 1, "T1>R", "the trunk never takes cards"),
        ("eagle-wing", 1, "R>T1", "the trunk's cards play only once one card is left in it"),
        ("eagle-wing", 1, "T1>T2", "the 9 of diamonds cannot go onto the 3 of diamonds: wing piles build down in suit"),
        ("eagle-wing", 1, "W>T1", "W is empty"),
    ],
)
def test_illegal_move_gives_the_rule_that_refuses_it(name: str, deal: int, move: str, reason: str) -> None:
    game = tableaux.new_game(name, deal)
    with pytest.raises(tableaux.IllegalMoveError) as info:
        game.play(move)
    assert reason in str(info.value)


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_a_move_of_no_cards_is_refused_as_the_notation_refuses_it(name: str) -> None:
    game = tableaux.new_game(name, 1)
    with pytest.raises(tableaux.IllegalMoveError, match="the number of cards must be at least 1"):
        game.play(tableaux.Move("tableau-3", 0, "tableau-6"))
    assert game.moves_played == []
