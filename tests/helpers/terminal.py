"""Typing into the terminal game from a test, and reading what it printed.

Shared by the terminal's test modules: :func:`play` types commands into the line mode, :func:`play_fair` does
the same with the small budget :data:`SMALL` for fair advice, and :func:`hidden_cards` and
:func:`visible_cards` list the cards a deal's board must hide and show.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from rich.console import Console

from tableaux.advice.effort import EFFORT, Effort
from tableaux.play.game import Game
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.terminal.advice import Budget
from tableaux.terminal.line import play_loop


def scripted(lines: Iterable[str]) -> Callable[[str], str]:
    """An input function that types ``lines`` and then presses Ctrl-D."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def play(game: Game, *lines: str) -> tuple[Game, str]:
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    final = play_loop(game, scripted(lines), console)
    return final, out.getvalue()


SMALL: Budget = {**EFFORT["terminal"], "chance": Effort(6, 4000, None), "fair-hint": Effort(6, 4000, None),
                 "where-lost": Effort(None, 30_000, None)}
"""Small and without a time limit, so answers are quick and the same on a busy machine (the full-screen
board's tests use it too: :mod:`helpers.screen`)."""


def play_fair(game: Game, *lines: str) -> tuple[Game, str]:
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)
    final = play_loop(game, scripted(lines), console, budget=SMALL)
    return final, out.getvalue()


def hidden_cards(game: Game) -> list[str]:
    return [card_str(c) for pile in game.state.piles for c in pile if c & DOWN]


def visible_cards(game: Game) -> list[str]:
    """Face-up cards at the start of a deal; Eagle Wing's face-up reserve bottom is covered until the last."""
    reserve = game.rules.index.get("reserve")
    return [
        card_str(c)
        for i, pile in enumerate(game.state.piles)
        for c in pile
        if not c & DOWN and not (i == reserve and len(pile) > 1)
    ]
