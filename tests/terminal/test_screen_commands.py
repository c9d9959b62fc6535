"""The full-screen board's commands, driven through Textual's own harness (``App.run_test`` and its Pilot):
undo, redo and restart, hints, the chance, giving up and where the game was lost, the solution, a won game,
saving, loading, new deals, the rules, statistics, resuming and quitting."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot

import tableaux
from helpers.screen import drive, make_app, rows_of, said, screen_text, settle, top, until, walk_to
from tableaux.rulebook.engine import Move
from tableaux.terminal.screen.dialogs import Ask, Choose, Confirm, Page
from tableaux.terminal.unfinished import Unfinished


def test_undo_redo_restart_after_asking_and_moves() -> None:
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
        await pilot.press("x")  # asked first: a stray x then Enter must not take the game back
        assert isinstance(pilot.app.screen, Confirm) and "Your 2 moves are taken back" in screen_text(pilot.app)
        await pilot.press("enter")
        assert len(game.moves_played) == 2 and "Not restarted" in said(pilot.app)
        await pilot.press("x", "y")
        assert not game.moves_played and len(game.redo_moves) == 2
        await pilot.press("x")  # at the deal already: nothing to ask
        assert not isinstance(pilot.app.screen, Confirm)
        await pilot.press("m")
        assert "Legal moves: " in said(pilot.app)
        await pilot.press("u")  # nothing to undo: said, nothing changed
        assert "Nothing to undo" in said(pilot.app).splitlines()[-1]

    drive(make_app(game), scenario)


def test_hints_say_whether_they_peek_and_mark_the_move_and_a_peek_makes_the_game_assisted() -> None:
    game = tableaux.new_game("eagle-wing", 1)

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("h")
        await settle(pilot)
        fair = said(pilot.app).splitlines()[-1]
        assert "possible layouts of the hidden cards" in fair and "Peeking" not in fair
        assert pilot.app.hinted  # the hint's piles are marked on the board
        assert not game.assisted
        await pilot.press("p")
        await settle(pilot)
        lines = said(pilot.app).splitlines()
        assert "Peeking: the solver looked at the face-down cards" in lines[-2]
        assert "so this game now counts as assisted" in lines[-1]

    drive(make_app(game), scenario)
    assert not game.moves_played and game.assisted


def test_the_chance_is_on_the_status_line_and_explained_on_its_key() -> None:
    game = tableaux.new_game("king-albert", 1)
    expected = tableaux.fair.win_chance(game.observation(), 6, seed=0, max_nodes=4000)

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.chance is not None)
        await settle(pilot)
        assert f"Winnable as far as seen: {round(100 * expected.share)}%" in screen_text(pilot.app).splitlines()[0]
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


def test_where_lost_answers_on_the_board_during_play_of_classic_king_albert(tmp_path: Path) -> None:
    """The w key, in the game that deals every card face up: no refusal about face-down cards, the answer's page."""
    from helpers.lost import losing_game

    lost_game, k = losing_game("king-albert-classic")
    game = tableaux.Game.replay(lost_game.rules, lost_game.deal, lost_game.moves_played)

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(pilot.app.screen, Page) and not pilot.app.sitting.looked
        assert f"until move {k + 1}" in " ".join(said(pilot.app).split())
        await pilot.press("escape")

    drive(make_app(game, keep=tmp_path), scenario)


def test_enter_after_a_stray_g_keeps_the_game_instead_of_giving_it_up(tmp_path: Path) -> None:
    game = tableaux.new_game("king-albert", 1)
    game.play("R5>F1")

    async def scenario(pilot: Pilot) -> None:
        await pilot.press("g")
        assert isinstance(pilot.app.screen, Confirm)
        assert "y: yes" in screen_text(pilot.app)
        await pilot.press("enter")  # Enter plays a card on the board: here it must keep things as they are
        assert not isinstance(pilot.app.screen, Confirm)
        assert not pilot.app.sitting.gave_up and "Not given up" in said(pilot.app)

    drive(make_app(game, keep=tmp_path), scenario)
    assert not (tmp_path / "finished.jsonl").exists()  # no loss recorded


def test_the_solution_plays_step_by_step_then_all_the_way_to_a_won_game(tmp_path: Path) -> None:
    game = tableaux.new_game("eagle-wing", 4)
    line = tableaux.solve(game).moves

    async def scenario(pilot: Pilot) -> None:
        game.play(line[0])
        pilot.app.changed()
        await pilot.pause()
        await pilot.press("s", "y")
        await settle(pilot)
        assert "A winning line of" in said(pilot.app) and game.assisted
        await pilot.press("enter", "space")
        assert game.moves_played == line[:3]
        await pilot.press("escape")
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("a")
        assert game.is_won()
        assert "Solution move" not in rows_of(pilot.app, "#messages")[0]  # the rest is said in one line
        assert re.search(r"Solution: its last \d+ moves played\.", said(pilot.app))
        told = said(pilot.app)  # the solution's win is not told as the player's own
        assert "Eagle Wing deal 4 won in" in told and "with the solver's help" in told and "You won" not in told
        assert "Won!" in screen_text(pilot.app).splitlines()[0]

    drive(make_app(game, keep=tmp_path), scenario)
    assert list((tmp_path / "unfinished").glob("*.json")) == []
    [entry] = [json.loads(line) for line in (tmp_path / "finished.jsonl").read_text().splitlines()]
    assert entry["result"] == "won" and entry["assisted"] is True


def test_the_solution_key_asks_before_the_game_counts_as_assisted(tmp_path: Path) -> None:
    game = tableaux.new_game("eagle-wing", 4)
    game.play("S>W")

    async def scenario(pilot: Pilot) -> None:
        for no in ("n", "escape", "enter"):
            await pilot.press("s")
            assert isinstance(pilot.app.screen, Confirm)
            assert "solver's help in your statistics" in screen_text(pilot.app)
            await pilot.press(no)
            await settle(pilot)
            assert not isinstance(pilot.app.screen, Confirm)
            assert not game.assisted and pilot.app.solution is None
            assert "Solution not shown" in said(pilot.app).splitlines()[-1]
        await pilot.press("s", "y")
        await settle(pilot)
        assert game.assisted and pilot.app.solution is not None

    drive(make_app(game, keep=tmp_path), scenario)


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


@pytest.mark.slow
def test_save_load_new_deal_and_rules_and_a_mistyped_deal_number_can_be_mended(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name to type, in the folder the game was started from
    path = Path("saved.json")
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
        # Not a deal number: the question stays open with the reason under the box, to be mended or given up.
        await pilot.press("n", *"x1", "enter")
        assert isinstance(pilot.app.screen, Ask) and "whole number" in screen_text(pilot.app)
        await pilot.press("escape")
        assert not isinstance(pilot.app.screen, Ask) and pilot.app.game.deal == 42
        await pilot.press("n", *"x1", "enter", "backspace", "backspace", *"7", "enter")
        assert not isinstance(pilot.app.screen, Ask) and pilot.app.game.deal == 7
        await pilot.press("n", *"42", "enter")
        await pilot.press("l", *str(path), "enter")
        assert pilot.app.game.deal == 1 and [str(m) for m in pilot.app.game.moves_played] == ["R5>F1"]
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, Page)
        page = pilot.app.screen
        assert isinstance(page, Page) and "the reserve never takes cards back" in " ".join(t.plain for t in page.body)
        await pilot.press("escape", "t")
        assert "Finished games are not recorded here." in said(pilot.app)  # this sitting records none

    drive(app, scenario)
    assert tableaux.load(tmp_path / path).moves_played == [Move("reserve-5", 1, "foundation-1")]


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


def test_the_stock_key_is_listed_only_for_a_game_with_a_stock(tmp_path: Path) -> None:
    kept = tableaux.new_game("eagle-wing", 5)
    kept.play(kept.legal_moves()[0])
    Unfinished(tmp_path / "unfinished").keep(kept)
    footers: list[str] = []
    pages: list[str] = []

    async def read_keys(pilot: Pilot) -> None:
        footers.append(" ".join(screen_text(pilot.app).splitlines()[-2:]))
        await pilot.press("question_mark")
        page = pilot.app.screen
        assert isinstance(page, Page)
        pages.append(" ".join(t.plain for t in page.body))
        await pilot.press("escape")

    async def scenario(pilot: Pilot) -> None:
        await read_keys(pilot)
        await pilot.press("o", "enter")  # the kept Eagle Wing game, which has a stock
        assert pilot.app.game.name == "eagle-wing"
        await read_keys(pilot)

    drive(make_app(tableaux.new_game("king-albert", 5), keep=tmp_path), scenario, size=(120, 30))
    assert "d deal" not in footers[0] and "deal from the stock" not in pages[0]
    assert "d deal" in footers[1] and "d: deal from the stock." in pages[1]


def test_quit_asks_first_when_the_game_could_not_be_kept_and_says_nothing_is_kept(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    game = tableaux.new_game("king-albert", 17)
    app = make_app(game, keep=tmp_path / "file")  # its folder for unfinished games cannot be made

    async def scenario(pilot: Pilot) -> None:
        await walk_to(pilot, ("reserve-1", 0))
        await pilot.press("enter")  # the ace of hearts home: a move to keep
        assert len(game.moves_played) == 1 and "Could not keep this game" in said(pilot.app)
        await pilot.press("q")
        assert isinstance(pilot.app.screen, Confirm)
        shown = " ".join(screen_text(pilot.app).split())
        assert "leaving loses it. [^s] saves it to a file first. Quit anyway?" in shown
        await pilot.press("enter")  # Enter keeps playing
        assert not isinstance(pilot.app.screen, Confirm) and pilot.app.is_running
        await pilot.press("q")
        await pilot.press("y")

    drive(app, scenario)
    assert app.return_code == 0 and not app.is_running
    assert "could not be kept" in app.sitting.farewell().text


def test_saving_over_another_file_on_the_board_asks_first(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    other = tableaux.new_game("king-albert", 17)
    other.play("R1>F1")
    other.save(path)
    game = tableaux.new_game("king-albert", 7)

    async def scenario(pilot: Pilot) -> None:
        for answer in ("n", "y"):
            await pilot.press("ctrl+s", *["backspace"] * 40, *str(path), "enter")
            assert isinstance(pilot.app.screen, Confirm)
            assert "already exists and may hold another game" in " ".join(screen_text(pilot.app).split())
            await pilot.press(answer)
            assert tableaux.load(path).deal == (17 if answer == "n" else 7)
        assert "Not saved." in said(pilot.app) and f"Saved to {path}" in said(pilot.app)

    drive(make_app(game), scenario)


def test_the_status_line_says_when_no_legal_move_is_left() -> None:
    game = tableaux.new_game("eagle-wing", 11)
    for _ in range(92):
        game.play("S>W" if game.is_legal(Move("stock", 1, "waste")) else "W>S")
    game.play("T1>T7")
    assert game.is_over() and not game.is_won()

    async def scenario(pilot: Pilot) -> None:
        assert "No legal move left" in rows_of(pilot.app, "#status")[0]

    drive(make_app(game), scenario)


def test_ctrl_p_opens_no_palette_of_textuals_own_the_keys_are_on_the_rules_page() -> None:
    async def scenario(pilot: Pilot) -> None:
        screen = pilot.app.screen
        await pilot.press("ctrl+p")
        assert pilot.app.screen is screen

    drive(make_app(tableaux.new_game("king-albert", 1)), scenario)
