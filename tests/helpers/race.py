"""Winning lines of the daily deal for the daily race's tests: the solver's line, and longer ones that win too.

A longer line is the solver's with detours: a move and the move straight back, which leave the position as it
was, so the rest of the line still wins. Nothing here is typed in: the deal is the catalogue's, the line the
solver's, and every detour is checked by the engine.
"""

from __future__ import annotations

import functools

import tableaux
from tableaux import catalogue


@functools.cache
def solved(name: str, deal: int) -> tuple[str, ...]:
    """The solver's winning line of a deal, as move texts."""
    result = tableaux.solve(name, deal)
    assert result.verdict == "winnable", (name, deal, result.verdict)
    return tuple(str(m) for m in result.moves)


def daily_line(name: str = "king-albert", detours: int = 0, date: str | None = None) -> list[str]:
    """A winning line of the daily deal of ``name`` (today's, or that of ``date``, YYYY-MM-DD): the solver's,
    made ``2 * detours`` moves longer."""
    deal = catalogue.daily(name, date).deal if date else catalogue.daily(name).deal
    return with_detours(name, deal, list(solved(name, deal)), detours)


def with_detours(name: str, deal: int, line: list[str], detours: int) -> list[str]:
    """``line`` with ``detours`` pairs of a move and its way back put in, where the engine finds one."""
    game = tableaux.new_game(name, deal)
    out: list[str] = []
    for text in line:
        while detours and (pair := way_back(game)) is not None:
            for move in pair:
                game.play(move)
                out.append(str(move))
            detours -= 1
        game.play(text)
        out.append(text)
    assert detours == 0, "no detour found along the line"
    assert game.is_won()
    return out


def way_back(game: tableaux.Game) -> tuple[tableaux.Move, tableaux.Move] | None:
    """A legal move and a legal move after it that leaves the position as it was, or None."""
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        for back in trial.legal_moves():
            again = trial.copy()
            again.play(back)
            if again.state == game.state:
                return move, back
    return None
