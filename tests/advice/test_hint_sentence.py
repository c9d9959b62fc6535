"""A hint's sentence: the move in one short sentence, its cards named, and only cards the player can see.

The sentence is what a player reads first ("Move the 3 of clubs onto the 4 of hearts."); the reason and the
figures are the hint's message. Names are checked against the public position the engine gives, never typed in.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tableaux
from helpers.games import random_game
from tableaux import GAMES
from tableaux.advice.hints import heuristic_hint, move_sentence
from tableaux.i18n import speaking
from tableaux.rulebook.cards import card_name, parse_card

ALL_CARDS = [code for code in (r + s for s in "CDHS" for r in "A23456789TJQK")]


def named(text: str) -> set[str]:
    """The card codes whose names appear in ``text`` (longest names first, so "10 of hearts" is not also "0 of")."""
    found = set()
    for code in sorted(ALL_CARDS, key=lambda c: -len(card_name(parse_card(c)))):
        name = card_name(parse_card(code))
        if name in text:
            found.add(code)
            text = text.replace(name, "")
    return found


def test_king_albert_deal_1_in_plain_words() -> None:
    game = tableaux.new_game("king-albert", 1)
    say = {str(m): move_sentence(game, m) for m in game.legal_moves()}
    assert say["R5>F1"] == "Move the Ace of hearts to a foundation."
    assert say["T9>T8"] == "Move the 10 of diamonds onto the Jack of clubs."
    assert say["R4>T7"] == "Move the 7 of clubs onto the 8 of hearts."
    game.play("T9>T8")  # tableau 9 held one card: it is empty now
    assert move_sentence(game, game.parse_move("R1>T9")) == "Move the 2 of clubs to tableau 9, which is empty."
    assert move_sentence(game, game.parse_move("T8:2>T4")) == \
        "Move the Jack of clubs and 10 of diamonds onto the Queen of diamonds."


def test_eagle_wing_names_no_card_of_the_stock_and_the_trunk_by_its_name() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    deal = next(m for m in game.legal_moves() if m.source == "stock")
    assert move_sentence(game, deal) == "Deal a card from the stock."
    while game.position()["stock_left"]:
        game.play("S>W")
    turn = next(m for m in game.legal_moves() if m.target == "stock")
    assert move_sentence(game, turn) == "Turn the waste over to make a new stock."


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deal=st.integers(0, 10_000), plies=st.integers(0, 120), seed=st.integers(0, 10**6))
def test_a_sentence_names_the_cards_it_moves_and_no_card_out_of_sight(
    name: str, deal: int, plies: int, seed: int
) -> None:
    game = random_game(name, deal, plies, seed)
    on_view = {e["card"] for pile in game.public_position()["piles"].values() for e in pile if e["card"]}
    for move in game.legal_moves():
        text = move_sentence(game, move)
        cards = named(text)
        assert cards <= on_view, f"{move}: {text!r} names {cards - on_view}, out of sight"
        if move.source != "stock" and move.target != "stock":
            moved = {e["card"] for e in game.public_position()["piles"][move.source][-move.count:]}
            assert moved <= cards, f"{move}: {text!r} leaves out {moved - cards}"
        assert text.endswith(".") and "{" not in text


def test_a_hint_says_what_to_do_first_and_why_in_its_message() -> None:
    game = tableaux.new_game("king-albert", 1)
    hint = tableaux.hint(game, mode="peek")
    assert hint.move is not None
    data = hint.to_dict()
    assert data["sentence"] == move_sentence(game, hint.move)
    assert str(hint.move) not in data["sentence"] and str(hint.move) in data["message"]
    stuck = tableaux.new_game("eagle-wing", 5)
    for _ in range(2000):  # the first move each time: Eagle Wing soon runs out of moves
        if not stuck.legal_moves():
            break
        stuck.play(stuck.legal_moves()[0])
    assert not stuck.legal_moves()
    nothing = heuristic_hint(stuck).to_dict()
    assert nothing["move"] is None and nothing["sentence"] == nothing["message"]


@pytest.mark.parametrize("lang", ["fr", "de", "es", "nl"])
def test_the_sentence_is_in_the_players_language(lang: str) -> None:
    game = tableaux.new_game("king-albert", 1)
    move = game.parse_move("T9>T8")
    with speaking(lang):
        text = move_sentence(game, move)
        ten, jack = card_name(parse_card("TD")), card_name(parse_card("JC"))
    assert ten in text and jack in text and "Move the" not in text
