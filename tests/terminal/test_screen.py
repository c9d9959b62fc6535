"""The full-screen board, driven through Textual's own harness (``App.run_test`` and its Pilot): keys, the mouse,
every command, a won game, resuming, and what reaches the screen."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot

import tableaux
from helpers.screen import click, make_app, said, screen_text, settle, until, walk_to
from tableaux.advice.heuristic import heuristic_moves
from tableaux.play.board import card_label
from tableaux.play.game import Game
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.rulebook.engine import Move, short_name
from tableaux.terminal.screen.app import TableauxApp
from tableaux.terminal.screen.dialogs import Ask, Choose, Confirm, Page
from tableaux.terminal.screen.layout import Marks, lay_out
from tableaux.terminal.unfinished import Unfinished

GAMES = ("king-albert", "eagle-wing", "king-albert-classic")


def drive(app: TableauxApp, scenario: Callable[[Pilot], Awaitable[None]], size: tuple[int, int] = (80, 24)) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(run())


def played_until(name: str, wanted: Callable[[Game], Move | None], deals: range = range(1, 40)) -> tuple[Game, Move]:
    """A game played by the rule of thumb until ``wanted`` finds a move in it, and that move."""
    for deal in deals:
        game = tableaux.new_game(name, deal)
        for _ in range(60):
            move = wanted(game)
            if move is not None:
                return game, move
            moves = heuristic_moves(game.rules, game.state)
            if not moves:
                break
            game.play(game.rules.to_move(moves[0]))
    raise AssertionError(f"no {name} game reached the position wanted")


def tableau_move(count: int) -> Callable[[Game], Move | None]:
    def find(game: Game) -> Move | None:
        return next((m for m in game.legal_moves() if m.count == count and m.source.startswith("tableau")
                     and m.target.startswith("tableau")), None)
    return find


def top(game: Game, pile: str) -> int:
    return len(game.state.piles[game.rules.index[pile]]) - 1


# --- keys ----------------------------------------------------------------------------------------------------
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


# --- the mouse -------------------------------------------------------------------------------------------------
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


# --- commands -------------------------------------------------------------------------------------------------
def test_undo_redo_restart_and_moves() -> None:
    game = tableaux.new_game("king-albert", 1)
    first, second = "R5>F1", None

    async def scenario(pilot: Pilot) -> None:
        nonlocal second
        game.play(first)
        second = game.legal_moves()[0]
        game.play(second)
        pilot.app.changed()
        await pilot.press("u")
        assert [str(m) for m in game.moves_played] == [first] and f"Undid {second}." in said(pilot.app)
        await pilot.press("r")
        assert game.moves_played[-1] == second
        await pilot.press("x")
        assert not game.moves_played and len(game.redo_moves) == 2
        await pilot.press("m")
        assert "Legal moves: " in said(pilot.app)
        await pilot.press("u")  # nothing to undo: said, nothing changed
        assert "nothing to undo" in said(pilot.app).splitlines()[-1]

    drive(make_app(game), scenario)


def test_hints_say_whether_they_peek_and_mark_the_move() -> None:
    game = tableaux.new_game("eagle-wing", 1)

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("h")
        await settle(pilot)
        fair = said(pilot.app).splitlines()[-1]
        assert "possible layouts of the hidden cards" in fair and "Peeking" not in fair
        assert pilot.app.hinted  # the hint's piles are marked on the board
        await pilot.press("p")
        await settle(pilot)
        assert "Peeking: the solver looked at the face-down cards" in said(pilot.app).splitlines()[-1]

    drive(make_app(game), scenario)
    assert not game.moves_played


def test_the_chance_is_on_the_status_line_and_explained_on_its_key() -> None:
    game = tableaux.new_game("king-albert", 1)
    expected = tableaux.fair.win_chance(game.observation(), 6, seed=0, max_nodes=4000)

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.chance is not None)
        await settle(pilot)
        assert f"Can still be won: {round(100 * expected.share)}%" in screen_text(pilot.app).splitlines()[0]
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(pilot.app.screen, Page)
        assert "not your chance of winning" in screen_text(pilot.app)
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, Page)

    drive(make_app(game, auto_chance=True), scenario)


def test_give_up_asks_first_and_where_lost_answers_only_then(tmp_path: Path) -> None:
    game = tableaux.new_game("king-albert", 1)
    game.play("R5>F1")

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("w")
        assert "answers only once the game is over" in said(pilot.app)
        await pilot.press("g")
        assert isinstance(pilot.app.screen, Confirm)
        await pilot.press("n")
        assert not pilot.app.sitting.gave_up and "Not given up" in said(pilot.app)
        await pilot.press("g", "y")
        assert pilot.app.sitting.gave_up and "Given up" in screen_text(pilot.app).splitlines()[0]
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(pilot.app.screen, Page) and pilot.app.sitting.looked
        await pilot.press("escape")

    drive(make_app(game, keep=tmp_path), scenario)
    assert list((tmp_path / "unfinished").glob("*.json")) == []  # given up: finished, not unfinished
    [entry] = [json.loads(line) for line in (tmp_path / "finished.jsonl").read_text().splitlines()]
    assert entry["result"] == "given-up"


def test_the_solution_plays_step_by_step_then_all_the_way_to_a_won_game(tmp_path: Path) -> None:
    game = tableaux.new_game("eagle-wing", 4)
    line = tableaux.solve(game).moves

    async def scenario(pilot: Pilot) -> None:
        game.play(line[0])
        pilot.app.changed()
        await pilot.pause()
        await pilot.press("s")
        await settle(pilot)
        assert "A winning line of" in said(pilot.app) and game.assisted
        await pilot.press("enter", "space")
        assert game.moves_played == line[:3]
        await pilot.press("escape")
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("a")
        assert game.is_won()
        assert "You won Eagle Wing deal 4" in said(pilot.app)
        assert "Won!" in screen_text(pilot.app).splitlines()[0]

    drive(make_app(game, keep=tmp_path), scenario)
    assert list((tmp_path / "unfinished").glob("*.json")) == []
    [entry] = [json.loads(line) for line in (tmp_path / "finished.jsonl").read_text().splitlines()]
    assert entry["result"] == "won" and entry["assisted"] is True


def test_a_game_won_by_hand_shows_the_win(tmp_path: Path) -> None:
    game = tableaux.new_game("eagle-wing", 4)
    line = tableaux.solve(game).moves
    for move in line[:-1]:
        game.play(move)

    async def scenario(pilot: Pilot) -> None:
        last = line[-1]
        await walk_to(pilot, (last.source, top(game, last.source) - last.count + 1))
        await pilot.press("enter")

    app = make_app(game, keep=tmp_path)
    drive(app, scenario)
    assert game.is_won() and "You won Eagle Wing deal 4" in said(app)
    [entry] = [json.loads(line) for line in (tmp_path / "finished.jsonl").read_text().splitlines()]
    assert entry["result"] == "won" and entry["assisted"] is False


def test_save_load_new_deal_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    game = tableaux.new_game("king-albert", 1)
    game.play("R5>F1")
    app = make_app(game)

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("ctrl+s")
        assert isinstance(pilot.app.screen, Ask)
        await pilot.press(*["backspace"] * 40, *str(path), "enter")
        assert f"Saved to {path}" in said(pilot.app)
        await pilot.press("n")
        await pilot.press(*"42", "enter")
        assert pilot.app.game.deal == 42 and not pilot.app.game.moves_played
        await pilot.press("n", *"x1", "enter")  # not a deal number: said, nothing changed
        assert pilot.app.game.deal == 42 and "whole number" in said(pilot.app).splitlines()[-1]
        await pilot.press("l", *str(path), "enter")
        assert pilot.app.game.deal == 1 and [str(m) for m in pilot.app.game.moves_played] == ["R5>F1"]
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, Page)
        page = pilot.app.screen
        assert isinstance(page, Page) and "the reserve never takes cards back" in " ".join(t.plain for t in page.body)
        await pilot.press("escape", "t")
        assert "Finished games are not recorded here." in said(pilot.app)  # this sitting records none

    drive(app, scenario)
    assert tableaux.load(path).moves_played == [Move("reserve-5", 1, "foundation-1")]


def test_statistics_count_the_finished_games(tmp_path: Path) -> None:
    game = tableaux.new_game("king-albert", 3)
    game.play(game.legal_moves()[0])

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("g", "y", "t")
        assert isinstance(pilot.app.screen, Page)
        text = screen_text(pilot.app)
        assert "Statistics of King Albert" in text
        assert [line.split()[-1] for line in text.splitlines() if "Played" in line] == ["1"]

    drive(make_app(game, keep=tmp_path), scenario)


def test_resume_brings_back_a_kept_game(tmp_path: Path) -> None:
    kept = tableaux.new_game("king-albert", 5)
    kept.play(kept.legal_moves()[0])
    Unfinished(tmp_path / "unfinished").keep(kept)
    game = tableaux.new_game("king-albert", 6)

    async def scenario(pilot: Pilot) -> None:
        assert "Unfinished games kept for you: 1." in said(pilot.app)
        await pilot.press("o")
        assert isinstance(pilot.app.screen, Choose)
        await pilot.press("enter")
        assert pilot.app.game.deal == 5 and pilot.app.game.moves_played == kept.moves_played
        assert "Resumed King Albert deal 5, 1 move played." in said(pilot.app)

    drive(make_app(game, keep=tmp_path), scenario)


def test_quit_ends_the_app_and_keeps_the_game(tmp_path: Path) -> None:
    game = tableaux.new_game("king-albert", 1)
    app = make_app(game, keep=tmp_path)

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("enter")  # the cursor's card: T1's top, whatever its best move is
        game.play("R5>F1")
        pilot.app.changed()
        await pilot.press("u", "q")

    drive(app, scenario)
    assert app.return_code == 0
    [kept] = Unfinished(tmp_path / "unfinished").games()
    assert kept.game.deal == 1 and kept.game.redo_moves


# --- what reaches the screen ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_the_screen_shows_every_pile_and_card_in_view_and_no_face_down_card(name: str) -> None:
    game = tableaux.new_game(name, 17)
    reserve = game.rules.index.get("reserve")
    hidden = [card_str(c) for pile in game.state.piles for c in pile if c & DOWN]
    covered_trunk = [card_str(c) for c in game.state.piles[reserve][:-1]] if reserve is not None and \
        "stock" in game.rules.index else []
    shown: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        shown.append(screen_text(pilot.app))

    drive(make_app(game), scenario)
    board = "\n".join(shown[0].splitlines()[1:-5])
    for code in {*hidden, *covered_trunk}:
        assert card_label(code).strip() not in board
    for pile in game.rules.pile_names:
        assert f" {short_name(pile)} " in f" {board} ".replace("»", " ").replace("«", " ").replace("\n", " ")


def test_the_board_fits_80x24_and_uses_more_room_when_there_is_more() -> None:
    widths = {}

    for size in ((80, 24), (140, 44)):
        game = tableaux.new_game("king-albert", 1)
        app = make_app(game)

        async def scenario(pilot: Pilot, size: tuple[int, int] = size) -> None:
            text = screen_text(pilot.app)
            assert len(text.splitlines()) == size[1]
            assert "T9" in text and "R7" in text and "F4" in text and "q quit" in text
            board = pilot.app.query_one("BoardView").board
            widths[size] = max(s.width for s in board.spots)
            assert board.height <= size[1]

        drive(app, scenario, size=size)
    assert widths[(140, 44)] > widths[(80, 24)]


def test_without_colour_every_mark_still_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    game = tableaux.new_game("king-albert", 1)

    async def scenario(pilot: Pilot) -> None:
        assert pilot.app.no_color
        text = screen_text(pilot.app)
        assert "[" in text and "]" in text  # the cursor's brackets
        move = next(m for m in game.legal_moves() if m.source.startswith("tableau"))
        await walk_to(pilot, (move.source, top(game, move.source)))
        await pilot.press("space")
        assert "»" + short_name(move.target) + "«" in screen_text(pilot.app)

    drive(make_app(game), scenario)


def test_80x24_layout(snap_compare: Callable[..., bool]) -> None:
    """The board as a player first sees it in an 80x24 terminal (an SVG snapshot, Textual's own)."""
    game = tableaux.new_game("king-albert", 1)

    async def ready(pilot: Pilot) -> None:
        await pilot.pause()

    assert snap_compare(make_app(game), terminal_size=(80, 24), run_before=ready)


def test_80x24_layout_of_eagle_wing(snap_compare: Callable[..., bool]) -> None:
    game = tableaux.new_game("eagle-wing", 1)
    move = next(m for m in game.legal_moves() if m.source.startswith("tableau"))

    async def ready(pilot: Pilot) -> None:
        await walk_to(pilot, (move.source, 0))
        await pilot.press("space")  # picked up: the piles it may go to are marked
        await pilot.pause()

    assert snap_compare(make_app(game), terminal_size=(80, 24), run_before=ready)


@pytest.mark.skipif("TABLEAUX_SCREENSHOTS" not in os.environ, reason="retakes docs/screenshots when asked")
@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_screenshots(name: str) -> None:
    """The README's pictures of the board: ``TABLEAUX_SCREENSHOTS=docs/screenshots python -m pytest
    tests/terminal/test_screen.py -k screenshots`` (SVG, as Textual exports a screen)."""
    game, move = played_until(name, tableau_move(1), deals=range(3, 40))
    path = Path(__file__).resolve().parents[2] / os.environ["TABLEAUX_SCREENSHOTS"] / f"terminal-{name}.svg"

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, (move.source, top(game, move.source)))
        await pilot.press("space")
        await walk_to(pilot, (move.target, top(game, move.target)))
        path.write_text(pilot.app.export_screenshot(title=f"tableaux play {name} --deal {game.deal}"))

    drive(make_app(game), scenario, size=(80, 24))
    assert path.read_text().startswith("<svg")


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(GAMES), deal=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1_000), max_size=40),
       width=st.integers(60, 160), height=st.integers(20, 50))
def test_the_board_paints_exactly_the_cards_in_view(name: str, deal: int, picks: list[int], width: int,
                                                      height: int) -> None:
    """Whatever the position and the room, every card on view is painted once and no other card is: a face-down
    card never reaches the screen."""
    game = tableaux.new_game(name, deal)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    board = lay_out(game.public_position(), width, height, Marks())
    text = "\n".join(line.plain for line in board.texts())
    in_view = []  # a tableau pile is fanned out; of any other pile, only its top card shows
    for name_of, pile, shown in zip(game.rules.pile_names, game.state.piles, game.rules.visible(game.state),
                                    strict=True):
        cards = [card_label(card_str(c)).strip() for c, seen in zip(pile, shown, strict=True) if seen]
        in_view += cards if name_of.startswith("tableau") else [card_label(card_str(pile[-1])).strip()] \
            if pile and shown[-1] else []
    in_view.sort()
    painted = sorted(re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]", text))
    base = game.public_position().get("base_card")
    if base:  # Eagle Wing names its base card beside the foundations as well
        painted.remove(card_label(base).strip())
    assert painted == in_view
