"""The full-screen board in a player's hands, driven through Textual's own harness (``App.run_test`` and its
Pilot): the keys and the mouse pick up a card (with the cards above it), drop it, send it home, and refuse what
the rules refuse, saying why."""

from __future__ import annotations

import re

import pytest
from textual.pilot import Pilot

import tableaux
from helpers.screen import GAMES, click, drive, make_app, played_until, said, screen_text, tableau_move, top, walk_to
from helpers.terminal import play
from tableaux.rulebook.engine import Move, short_name
from tableaux.terminal.screen.view import BoardView


@pytest.mark.parametrize("name", GAMES)
def test_keys_pick_up_a_card_and_drop_it_on_a_legal_pile(name: str) -> None:
    game, move = played_until(name, tableau_move(1))
    before = len(game.moves_played)

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (move.source, top(game, move.source)))
        await pilot.press("space")
        assert pilot.app.picked == (move.source, 1)
        assert move.target in pilot.app.targets  # the legal targets are marked...
        assert f"»{short_name(move.target)}«" in screen_text(pilot.app)
        await walk_to(pilot, (move.target, top(game, move.target)))
        await pilot.press("space")

    drive(make_app(game), scenario)
    assert game.moves_played[before:] == [move]


def test_a_covered_face_up_card_of_a_build_is_picked_up_with_the_cards_above_it() -> None:
    game, move = played_until("king-albert", tableau_move(2))

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (move.source, top(game, move.source) - 1))  # the covered card: up from the top
        await pilot.press("space")
        assert pilot.app.picked == (move.source, 2)
        await walk_to(pilot, (move.target, top(game, move.target)))
        await pilot.press("space")

    drive(make_app(game), scenario)
    assert game.moves_played[-1] == move


def test_an_illegal_drop_says_why_and_changes_nothing() -> None:
    game = tableaux.new_game("king-albert", 1)
    source = "tableau-1"
    target = next(t for t in ("tableau-2", "tableau-3", "tableau-4")
                  if not game.is_legal(Move(source, 1, t)))
    reason = game.rules.why_illegal(game.state, game.rules.to_raw(Move(source, 1, target)))
    state = game.state

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (source, top(game, source)))
        await pilot.press("space")
        await walk_to(pilot, (target, top(game, target)))
        await pilot.press("space")
        assert reason is not None and reason in said(pilot.app).splitlines()[-1]
        assert pilot.app.picked is None  # the card went back

    drive(make_app(game), scenario)
    assert game.state == state and not game.moves_played


def test_an_illegal_drop_is_said_as_a_sentence_worded_as_the_line_mode_words_it() -> None:
    """The engine's reason is an exception's text ("illegal move T1>T2: ..."); both modes put it before the player
    as a sentence: a capital first, a full stop at the end."""
    game = tableaux.new_game("king-albert", 1)
    source = "tableau-1"
    move = next(Move(source, 1, t) for t in ("tableau-2", "tableau-3", "tableau-4")
                if not game.is_legal(Move(source, 1, t)))
    shown: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (source, top(game, source)))
        await pilot.press("space")
        await walk_to(pilot, (move.target, top(game, move.target)))
        await pilot.press("space")
        shown.append(said(pilot.app).splitlines()[-1])

    drive(make_app(game), scenario)
    assert re.fullmatch(rf"Illegal move {re.escape(str(move))}: [^.]+\.", shown[0]), shown[0]
    _final, out = play(tableaux.new_game("king-albert", 1), str(move), "foo")
    assert shown[0] in " ".join(out.split())
    assert "Not a move: 'foo'; " in out


def test_enter_plays_the_best_move_home_first_and_escape_puts_a_card_back() -> None:
    game = tableaux.new_game("king-albert", 1)
    pile = next(p for p in game.rules.pile_names if p.startswith("reserve") and game.home_move(p) is not None)
    home = game.home_move(pile)

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (pile, 0))
        await pilot.press("space", "escape")
        assert pilot.app.picked is None and "Put back." in said(pilot.app)
        await pilot.press("enter")

    drive(make_app(game), scenario)
    assert game.moves_played == [home]


def test_a_face_down_card_cannot_be_picked_up_and_the_cursor_never_rests_on_one() -> None:
    game = tableaux.new_game("king-albert", 1)

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, ("tableau-1", top(game, "tableau-1")))
        await pilot.press("up")  # every other card of T1 is face down: the cursor goes on to the row above
        assert pilot.app.cursor[0].startswith(("foundation", "reserve"))
        await click(pilot, "tableau-1", 0)
        assert "face down" in said(pilot.app) and pilot.app.picked is None

    drive(make_app(game), scenario)
    assert not game.moves_played


def test_enter_on_the_face_down_trunk_says_the_card_is_face_down_not_that_there_is_none() -> None:
    game = tableaux.new_game("eagle-wing", 4)

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, ("reserve", top(game, "reserve")))
        await pilot.press("enter")
        told = said(pilot.app)
        assert "face down" in told and "no card" not in told, told

    drive(make_app(game), scenario)
    assert not game.moves_played


def test_a_click_picks_up_and_a_click_drops() -> None:
    game, move = played_until("king-albert", tableau_move(1))
    before = len(game.moves_played)

    async def scenario(pilot: Pilot) -> None:
        await click(pilot, move.source)
        assert pilot.app.picked == (move.source, 1)
        await click(pilot, move.target)

    drive(make_app(game), scenario)
    assert game.moves_played[before:] == [move]


def test_a_double_click_sends_the_top_card_home() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    pile = next(p for p in game.rules.pile_names if p.startswith("tableau") and game.home_move(p) is not None)
    home = game.home_move(pile)

    async def scenario(pilot: Pilot) -> None:
        await click(pilot, pile, times=2)

    drive(make_app(game), scenario)
    assert game.moves_played == [home]


def test_a_click_on_the_stock_deals_and_on_a_face_down_card_is_refused() -> None:
    game = tableaux.new_game("eagle-wing", 1)

    async def scenario(pilot: Pilot) -> None:
        await click(pilot, "stock")
        await pilot.press("d")

    drive(make_app(game), scenario)
    assert [str(m) for m in game.moves_played] == ["S>W", "S>W"]


TALL = ("R1>F1 R6>F2 R7>F3 T1>T9 T3>T7 T7:2>T2 T1>T7 T1>T4 T7:2>T1 T8>T7 T7:2>T9 T2:3>T7 T2>T6 T2>T4 T7:3>T6 R3>T2 "
        "R2>T2 T5>T2 T5>F3 T3>F3 T5>T3 T8>T5 T2:4>T7 T4:3>T8 T6:5>T4 T5:2>T6 T6:3>T2 T3:2>T6 T3>T6 T6:4>T1 T5>T1 "
        "T6>T8 R5>T1 T7:2>T1 T7>F3").split()
"""King Albert deal 17 played until its first column holds 16 cards: taller than a 60x20 or 80x16 screen."""


@pytest.mark.parametrize("size", [(60, 20), (80, 16)])
def test_the_arrows_move_the_cursor_on_a_board_taller_than_the_screen_and_the_board_follows_it(
    size: tuple[int, int],
) -> None:
    """The table scrolls, but Up and Down still move the cursor (they scrolled the table instead, so a run in a
    long column could not be picked up by keyboard), and the table scrolls to keep the cursor in sight."""
    game = tableaux.new_game("king-albert", 17)
    for move in TALL:
        game.play(move)
    column = game.public_position()["piles"]["tableau-1"]
    assert len(column) == 16
    runs_from = next(i for i, card in enumerate(column) if card["up"])

    async def scenario(pilot: Pilot) -> None:
        table = pilot.app.query_one("#table")

        def in_sight() -> bool:
            board = pilot.app.query_one(BoardView).board
            assert board is not None
            pile, index = pilot.app.cursor
            y = next(spot.y for spot in board.spots if spot.pile == pile and spot.index in (index, -1))
            return table.scroll_y <= y < table.scroll_y + table.size.height

        await walk_to(pilot, ("tableau-1", len(column) - 1))
        await pilot.pause()
        assert table.max_scroll_y > 0 and in_sight()  # the board is taller than the screen, and follows the cursor
        await walk_to(pilot, ("tableau-1", runs_from))
        await pilot.press("space")
        assert pilot.app.picked == ("tableau-1", len(column) - runs_from)
        await pilot.press("escape")
        await walk_to(pilot, ("foundation-1", top(game, "foundation-1")))  # back up to the top row
        await pilot.pause()
        assert table.scroll_y == 0 and in_sight()  # with its pile names

    drive(make_app(game), scenario, size=size)
