"""The full-screen board: ``tableaux play GAME --tui``, with a cursor, the mouse and every command on a key.

Built on Textual, which only this package imports, and only when the board is asked for, so the line mode
and every other command start without it. :mod:`.app` is the app (status, board, messages, keys);
:mod:`.commands` its commands and :mod:`.hands` its cursor, pick-up, drop and mouse; :mod:`.view` the board
widget; :mod:`.layout` lays the table out and paints it (no Textual); :mod:`.cursor` says where the cursor
may rest and which move Enter plays; :mod:`.dialogs` the questions and pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...play.game import Game
    from ..advice import Budget
    from ..record import Record
    from ..unfinished import Saved, Unfinished


def play_screen(game: Game, unfinished: Unfinished | None = None, record: Record | None = None, message: str = "",
                resumed: Saved | None = None, budget: Budget | None = None) -> Game:
    """Play on the full-screen board until the player quits; returns the game as it was left."""
    from rich.console import Console
    from rich.text import Text

    from ..said import STYLES
    from ..sitting import Sitting
    from .app import NAMES, TableauxApp

    sitting = Sitting(game, NAMES, budget, unfinished, record)
    TableauxApp(sitting, message, resumed).run()
    sitting.leave()
    said = sitting.farewell()
    Console(highlight=False).print(Text(said.text, style=STYLES[said.kind]))
    return sitting.game
