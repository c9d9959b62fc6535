"""What the terminal's board shows: card labels and colours, every pile, Eagle Wing's reserve and trunk; and
``tableaux deal``, which prints a deal's board with its face-down cards hidden, or its whole position as JSON."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

import tableaux
from helpers.cli import run_tableaux
from helpers.handmade import Hand
from helpers.terminal import hidden_cards, visible_cards
from tableaux.play.board import ASCII, UNICODE, card_label, card_text, render
from tableaux.play.game import Game
from tableaux.rulebook.cards import card_str
from tableaux.rulebook.engine import short_name


def test_card_labels_and_colours() -> None:
    assert card_label("TH") == "10♥"
    assert card_label("AS") == " A♠"
    assert card_label("9C", ASCII) == " 9C"
    assert card_text({"card": "QD", "up": True}, UNICODE).style == "bold red"
    assert card_text({"card": "QH", "up": True}, UNICODE).style == "bold red"
    assert "red" not in str(card_text({"card": "QS", "up": True}, UNICODE).style)
    assert card_text({"card": None, "up": False}, UNICODE).plain == UNICODE.back


def test_red_cards_are_red_on_a_colour_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", width=100)
    game = tableaux.new_game("king-albert", 1)  # R2 holds 5H, R1 holds 2C
    for line in render(game.public_position()):
        console.print(line)
    text = out.getvalue()
    assert "\x1b[1;31m 5♥" in text
    assert "\x1b[1m 2♣" in text


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_board_shows_every_pile_label_and_face_up_card(name: str) -> None:
    game = tableaux.new_game(name, 17)
    text = "\n".join(line.plain for line in render(game.public_position()))
    for pile in game.rules.pile_names:
        assert f" {short_name(pile)} " in f" {text} ".replace("\n", " ")
    for code in visible_cards(game):
        assert card_label(code).strip() in text
    for code in hidden_cards(game):
        assert card_label(code).strip() not in text


def test_eagle_wing_reserve_shows_its_last_card_only_when_it_is_the_last() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    bottom = card_label(card_str(game.state.piles[game.rules.index["reserve"]][0])).strip()
    text = "\n".join(line.plain for line in render(game.public_position()))
    assert bottom not in text  # 9C, covered by twelve face-down cards
    hand = Hand(game.rules)
    last = Game(hand.fixed(hand.state(F1="JH", T1="9D", T2="3D", S="AS*", R="9C")), 1)
    assert bottom in "\n".join(line.plain for line in render(last.public_position()))
    covered = Game(hand.fixed(hand.state(F1="JH", T1="9D", T2="3D", S="AS*", R="9C QH*")), 1)
    assert bottom not in "\n".join(line.plain for line in render(covered.public_position()))


def test_eagle_wing_trunk_is_drawn_as_a_closed_stack_with_its_count() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    lines = [line.plain for line in render(game.public_position())]
    head = next(i for i, line in enumerate(lines) if " R " in f" {line} " and "T5" in line)
    # Under the label: one card back (the closed pile, tableau cards are face up), then its count.
    assert lines[head + 1].count(UNICODE.back) == 1
    assert lines[head + 2].split() == ["13"]


def test_deal_hides_face_down_cards() -> None:
    game = tableaux.new_game("king-albert", 1)
    result = run_tableaux("deal", "king-albert", "1")
    assert result.returncode == 0, result.stderr
    hidden = hidden_cards(game)
    assert len(hidden) == 36
    for code in hidden:
        assert card_label(code).strip() not in result.stdout
        assert code not in result.stdout
    for code in visible_cards(game):
        assert card_label(code).strip() in result.stdout
    assert "T1" in result.stdout and "R7" in result.stdout and "F4" in result.stdout


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_deal_json_is_the_whole_position(name: str) -> None:
    result = run_tableaux("deal", name, "17", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == tableaux.new_game(name, 17).position()
