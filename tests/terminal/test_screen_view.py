"""What the full-screen board puts on the screen: every pile and every card in view, never a face-down card,
at 80x24 and larger, with and without colour (the 80x24 layouts are kept as snapshots in
``__snapshots__/test_screen_view/``); the status line, the messages and the keys at 60x20, 80x24 and 120x40;
and the screenshots in docs/screenshots, retaken when asked."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot

import tableaux
from helpers.games import play_randomly
from helpers.screen import (
    GAMES,
    drive,
    make_app,
    played_until,
    rows_of,
    said,
    screen_text,
    settle,
    tableau_move,
    top,
    until,
    walk_to,
)
from tableaux.play.board import card_label
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.rulebook.engine import short_name
from tableaux.terminal.said import Said
from tableaux.terminal.screen.dialogs import Page
from tableaux.terminal.screen.layout import Marks, lay_out


def test_a_catalogued_deal_shows_its_par_on_the_status_line_and_another_deal_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tableaux.catalogue import pars

    monkeypatch.setitem(pars._PARS, "king-albert", {5: 77})
    lines: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        lines.append(screen_text(pilot.app).splitlines()[0])

    drive(make_app(tableaux.new_game("king-albert", 5)), scenario)
    drive(make_app(tableaux.new_game("king-albert", 6)), scenario)
    assert "Par 77" in lines[0] and "Moves 0" in lines[0]
    assert "Par" not in lines[1]


@pytest.mark.parametrize("width", [80, 120])
def test_the_status_line_keeps_the_chance_whole_and_shows_the_par_where_both_fit(
    width: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tableaux.catalogue import pars

    monkeypatch.setitem(pars._PARS, "king-albert", {5: 77})
    lines: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.chance is not None)
        await pilot.pause()
        lines.append(screen_text(pilot.app).splitlines()[0].strip())

    drive(make_app(tableaux.new_game("king-albert", 5), auto_chance=True), scenario, size=(width, 24))
    assert re.search(r"Winnable as far as seen: \d+%$", lines[0]), lines[0]
    assert len(lines[0]) <= width - 2
    if width >= 100:
        assert "Par 77" in lines[0]


@pytest.mark.parametrize("name", GAMES)
def test_a_random_deal_on_80_columns_still_shows_its_chance_whole(name: str) -> None:
    lines: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.chance is not None)
        await pilot.pause()
        lines.append(screen_text(pilot.app).splitlines()[0].strip())

    # a random deal has nine or ten digits
    drive(make_app(tableaux.new_game(name, 4294967295), auto_chance=True), scenario, size=(80, 24))
    assert re.search(r"Winnable as far as seen: \d+%$", lines[0]), lines[0]
    assert "deal 4294967295" in lines[0] and "Time 0:00" in lines[0] and len(lines[0]) <= 78


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
    tests/terminal/test_screen_view.py -k screenshots`` (SVG, as Textual exports a screen)."""
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
    play_randomly(game, picks)
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


def test_a_clock_tick_after_the_board_has_closed_does_no_harm() -> None:
    """The status line's clock ticks on a timer; a tick that lands while the app is closing finds no status line
    and must not fail the app on the player's way out."""
    app = make_app(tableaux.new_game("king-albert", 5))

    async def scenario(pilot: Pilot) -> None:
        pass

    drive(app, scenario)
    app.show_status()


def test_every_message_shows_whole_lines_and_a_long_one_shows_from_its_start() -> None:
    seen: list[str] = []

    async def scenario(pilot: Pilot) -> None:
        app = pilot.app
        app.tell([Said(f"Message {n}.") for n in range(6)])  # enough for the messages' scroll bar
        app.tell([Said("Picked up the King of diamonds: it has no legal move now. Escape puts it back.")])
        await pilot.pause()
        seen.append(screen_text(app))
        app.tell([Said("Play R1>F1: it wins. " + "It starts a plan that turns a hidden card. " * 5 + "The end.")])
        await pilot.pause()
        seen.append(screen_text(app))

    drive(make_app(tableaux.new_game("king-albert", 17)), scenario)
    assert "puts it back." in re.sub(r"\s+", " ", seen[0])  # no line loses its last column
    assert "Play R1>F1: it wins." in seen[1]  # a message taller than the rows shows its start, the move


SIZES = [(80, 24), (60, 20), (120, 40)]


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", GAMES)
def test_each_message_shows_whole_and_the_next_replaces_it_leaving_no_scrap(name: str, size: tuple[int, int]) -> None:
    """A hint, a refusal, giving up and where the game was lost, each after the other: the message area shows
    the last one whole, and nothing of the one before it. Where the board has rows to spare the area takes
    them, and the board keeps its place."""
    game = tableaux.new_game(name, 17)
    places: list[list[tuple[str, int, int, int]]] = []

    def board_places(pilot: Pilot) -> list[tuple[str, int, int, int]]:
        board = pilot.app.query_one("BoardView").board
        return [(s.pile, s.index, s.x, s.y) for s in board.spots]

    async def scenario(pilot: Pilot) -> None:
        await pilot.pause()
        places.append(board_places(pilot))
        expected: list[Said] = []
        for keys in (["h"], ["u"], ["g", "y"], ["h"], ["w"], ["escape"], ["x"]):
            before = len(pilot.app.said)
            await pilot.press(*keys)
            await settle(pilot)
            if keys != ["escape"]:  # closing where lost's page leaves its messages
                told = pilot.app.said[before:]
                expected = told[1:] if keys in (["h"], ["w"]) else told  # the answer replaces "Thinking..."
            if keys == ["w"]:
                await until(pilot, lambda: isinstance(pilot.app.screen, Page))
                continue
            area = words(" ".join(rows_of(pilot.app, "#messages")))
            assert area == words(" ".join(item.text for item in expected)), (keys, area)
            if size != (60, 20):
                places.append(board_places(pilot))
        if size != (60, 20):
            assert all(p == places[0] for p in places)

    drive(make_app(game), scenario, size=size)


@pytest.mark.parametrize("size", SIZES)
def test_the_longest_messages_show_whole(size: tuple[int, int]) -> None:
    """The board's longest messages (giving up, a dead end, a rule that refuses a move) each show whole at every
    size the board is tried at."""
    from tableaux.terminal.advice import gave_up_said
    from tableaux.terminal.screen.app import NAMES

    game = tableaux.new_game("king-albert", 17)
    longest = [gave_up_said(NAMES).text,
               Said(_over_text()).text,
               "Illegal move T1>T2: the 10 of spades cannot go onto the 7 of diamonds: a tableau pile takes a card "
               "one rank lower and of the other colour."]

    async def scenario(pilot: Pilot) -> None:
        for text in longest:
            await pilot.press("left")  # a key: the messages after it are the ones shown
            pilot.app.tell([Said(text)])
            await pilot.pause()
            assert words(" ".join(rows_of(pilot.app, "#messages"))) == words(text)

    drive(make_app(game), scenario, size=size)


def _over_text() -> str:
    from tableaux.terminal.screen.app import NAMES
    from tableaux.terminal.sitting import Sitting

    game = tableaux.new_game("king-albert", 17)
    sitting = Sitting(game, NAMES)
    game.is_over = lambda: True  # type: ignore[method-assign]
    ending = sitting.ending()
    assert ending is not None
    return ending.text


@pytest.mark.parametrize("deal", [17, 4294967295])
@pytest.mark.parametrize("name", GAMES)
def test_at_60x20_the_status_keeps_moves_time_and_the_chance_and_the_keys_take_one_row(name: str, deal: int) -> None:
    """On a small terminal the status line leaves out what matters least (the par, the game's title, the deal)
    before the moves, the time and the chance; the keys take one row, the rules key among them (its page lists
    every key)."""
    lines: list[str] = []
    keys: list[list[str]] = []

    async def scenario(pilot: Pilot) -> None:
        await until(pilot, lambda: pilot.app.chance is not None)
        await pilot.pause()
        lines.append(screen_text(pilot.app).splitlines()[0].strip())
        keys.append(rows_of(pilot.app, "#keys"))

    drive(make_app(tableaux.new_game(name, deal), auto_chance=True), scenario, size=(60, 20))
    assert "Moves 0" in lines[0] and "Time 0:00" in lines[0], lines[0]
    assert re.search(r"Winnable as far as seen: \d+%$", lines[0]) and len(lines[0]) <= 58, lines[0]
    assert len(keys[0]) == 1 and "? " in keys[0][0] and "space pick up / drop" in keys[0][0], keys[0]


@pytest.mark.parametrize(("start", "then"), [((80, 24), (60, 20)), ((60, 20), (100, 30)), ((200, 50), (80, 24))])
def test_after_a_resize_the_keys_and_the_status_line_fit_the_new_size_as_if_started_there(
    start: tuple[int, int], then: tuple[int, int],
) -> None:
    shown: dict[str, list[str]] = {}

    def seen(pilot: Pilot) -> list[str]:
        return [row.rstrip() for row in rows_of(pilot.app, "#keys")] + [screen_text(pilot.app).splitlines()[0]]

    async def resized(pilot: Pilot) -> None:
        await pilot.resize_terminal(*then)
        await pilot.pause()
        await pilot.pause()
        shown["resized"] = seen(pilot)

    async def started(pilot: Pilot) -> None:
        await pilot.pause()
        shown["started"] = seen(pilot)

    drive(make_app(tableaux.new_game("king-albert", 17)), resized, size=start)
    drive(make_app(tableaux.new_game("king-albert", 17)), started, size=then)
    assert shown["resized"] == shown["started"]


@pytest.mark.parametrize("name", GAMES)
def test_a_terminal_too_narrow_for_every_pile_says_how_wide_it_must_be_until_that_width_shows_them_all(
    name: str,
) -> None:
    from tableaux.terminal.screen.view import BoardView

    async def scenario(pilot: Pilot) -> None:
        board = pilot.app.query_one(BoardView)
        assert board.board is not None and board.board.cut_off()  # the rightmost piles fall off the edge
        await until(pilot, lambda: "too narrow" in said(pilot.app))
        needed = int(re.findall(r"widen it to (\d+) columns", said(pilot.app))[-1])
        await pilot.resize_terminal(needed, 20)
        await pilot.pause()
        await pilot.pause()
        assert board.board is not None and board.board.cut_off() == []
        await until(pilot, lambda: "too narrow" not in " ".join(rows_of(pilot.app, "#messages")))  # stale: gone
        await pilot.resize_terminal(40, 20)  # too narrow again: said again, once on the screen
        await until(pilot, lambda: said(pilot.app).count("too narrow") == 2)
        assert " ".join(rows_of(pilot.app, "#messages")).count("too narrow") == 1

    drive(make_app(tableaux.new_game(name, 17)), scenario, size=(40, 20))


def test_at_80x24_the_keys_show_every_key_and_split_none_from_its_word() -> None:
    from tableaux.terminal.screen.app import KEYS

    rows: list[list[str]] = []

    async def scenario(pilot: Pilot) -> None:
        rows.append([row.strip() for row in rows_of(pilot.app, "#keys")])

    drive(make_app(tableaux.new_game("king-albert", 17)), scenario, size=(80, 24))
    assert len(rows[0]) <= 3
    for key, what in KEYS:
        if key != "d":  # King Albert has no stock
            assert any(f"{key} {what}" in row for row in rows[0]), (key, rows[0])
