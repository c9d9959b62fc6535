"""Driving the full-screen board in tests: an app on a sitting with small budgets and a stopped clock, the cursor
walked by arrow keys, clicks aimed at a card's place, and the screen read back as text; games played by the rule
of thumb to the position a test wants."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

import tableaux
from helpers.terminal import SMALL
from tableaux.advice.heuristic import heuristic_moves
from tableaux.play.game import Game
from tableaux.rulebook.engine import Move
from tableaux.terminal.record import Record
from tableaux.terminal.screen.app import NAMES, TableauxApp
from tableaux.terminal.screen.view import BoardView
from tableaux.terminal.sitting import Sitting
from tableaux.terminal.unfinished import Unfinished


def make_app(game: Game, keep: Path | None = None, auto_chance: bool = False, message: str = "") -> TableauxApp:
    """An app on ``game``; with ``keep``, unfinished games and the record of finished ones go in that directory."""
    sitting = Sitting(game, NAMES, SMALL, Unfinished(keep / "unfinished") if keep else None,
                      Record(keep / "finished.jsonl") if keep else None, clock=lambda: 0.0)
    return TableauxApp(sitting, message, auto_chance=auto_chance)


async def until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run (its threads too) until ``condition`` holds; fail after a generous ``timeout``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError("the board never got there")
        await pilot.pause(0.02)


async def settle(pilot: Pilot) -> None:
    """Wait until every thread the app started has answered and its answer is shown."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


async def walk_to(pilot: Pilot, place: tuple[str, int]) -> None:
    """Move the cursor to ``place`` with the arrow keys alone, as a player would."""
    app = pilot.app
    assert isinstance(app, TableauxApp)
    await until(pilot, lambda: app.query_one(BoardView).board is not None)
    for _ in range(80):
        if app.cursor == place:
            return
        board = app.query_one(BoardView).board
        assert board is not None
        rows = board.rows
        here = next(i for i, row in enumerate(rows) if app.cursor[0] in row)
        there = next(i for i, row in enumerate(rows) if place[0] in row)
        if here != there:
            key = "down" if there > here else "up"
        elif app.cursor[0] != place[0]:
            key = "right" if rows[here].index(place[0]) > rows[here].index(app.cursor[0]) else "left"
        else:
            key = "down" if place[1] > app.cursor[1] else "up"
        await pilot.press(key)
    raise AssertionError(f"the arrows never reached {place} (at {app.cursor})")


def spot_of(app: TableauxApp, pile: str, index: int | None = None) -> tuple[int, int]:
    """Where on the board widget a card (its top card when ``index`` is None) is drawn."""
    board = app.query_one(BoardView).board
    assert board is not None
    spots = [s for s in board.spots if s.pile == pile and (index is None or s.index == index)]
    spot = max(spots, key=lambda s: s.index)
    return spot.x + spot.width // 2, spot.y


async def click(pilot: Pilot, pile: str, index: int | None = None, times: int = 1) -> None:
    app = pilot.app
    assert isinstance(app, TableauxApp)
    await pilot.click(BoardView, offset=spot_of(app, pile, index), times=times)
    await pilot.pause()


def screen_text(app: TableauxApp) -> str:
    """The screen as plain text, as a player reads it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def rows_of(app: TableauxApp, selector: str) -> list[str]:
    """The screen's rows that a widget (``#messages``, ``#keys``...) takes, as plain text."""
    region = app.query_one(selector).region
    return [line[region.x:region.right] for line in screen_text(app).splitlines()[region.y:region.bottom]]


def said(app: TableauxApp) -> str:
    return "\n".join(item.text for item in app.said)


GAMES = ("king-albert", "eagle-wing", "king-albert-classic")
"""The games the board plays, each test run on all of them where it says so."""


def drive(app: TableauxApp, scenario: Callable[[Pilot], Awaitable[None]], size: tuple[int, int] = (80, 24)) -> None:
    """Run ``scenario`` against ``app`` in Textual's own harness, on a terminal of ``size``."""

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
    """For :func:`played_until`: a move of ``count`` cards from one tableau to another, if the game has one."""

    def find(game: Game) -> Move | None:
        return next((m for m in game.legal_moves() if m.count == count and m.source.startswith("tableau")
                     and m.target.startswith("tableau")), None)
    return find


def top(game: Game, pile: str) -> int:
    """The index of ``pile``'s top card."""
    return len(game.state.piles[game.rules.index[pile]]) - 1
