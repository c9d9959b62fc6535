"""A saved game's row as the store reads it: :class:`GameRecord`, the columns it is read from, and what a game id
may look like.

The routes, the views and the history all hold records without touching the database, so the record's shape
lives apart from :class:`~tableaux.web.store.Store`, which reads and writes it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .clock import allowed_time

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a game id can look like (this store makes them with ``secrets.token_urlsafe(16)``); any other text names no
game, and is not sent to the database: PostgreSQL refuses some characters, such as NUL, that SQLite would take,
so a hostile id gets the same 404 on both."""


@dataclass
class GameRecord:
    """One saved game as stored: its row. The moves of its line are read apart, when needed."""

    id: str
    player: str
    game: str
    deal: int
    version: int
    started_at: float
    finished_at: float | None
    won: bool
    elapsed: float
    last_move_at: float | None
    updated_at: float
    played: int = 0
    """Moves played: the first ``played`` moves of the line."""
    line_length: int = 0
    """Moves played and moves to redo."""
    position: bytes | None = None
    """The position after the moves played (``State.packed``); None for the deal itself, or for a game stored
    before positions were (its line is then replayed when it is read)."""
    seen: int = 0
    """One bit per card (``1 << card``) the player has had on view."""
    ever_moved: bool = False
    assisted: bool = False
    """The solver showed the way (a solution, or going back to where the game was lost): kept apart in statistics."""
    given_up: bool = False
    """The player gave the game up: finished and lost."""
    solution_won: bool = False
    """The solver's line ("Show solution") made the winning move, not the player: the game is the solver's win."""
    daily: str | None = None
    """The UTC date (YYYY-MM-DD) whose daily deal this game is, or None."""
    grade: str | None = None
    """The catalogue's grade when the deal was picked as winnable (easy, medium or hard), or None."""

    @property
    def finished(self) -> bool:
        return self.won or self.given_up

    def elapsed_now(self, now: float | None = None) -> float:
        """The most playing time so far (:func:`tableaux.web.clock.allowed_time`): frozen once finished; the clock
        starts with the first move."""
        if self.won or self.given_up:
            return self.elapsed
        return allowed_time(self.elapsed, self.last_move_at, time.time() if now is None else now)


COLUMNS = (
    "id, player, game, deal, version, started_at, finished_at, won, elapsed, last_move_at, updated_at, "
    "move_count, line_length, position, seen, ever_moved, assisted, given_up, daily, grade, solution_won"
)


def record_of(row: Sequence[Any]) -> GameRecord:
    """The record of one row read as :data:`COLUMNS` lists them."""
    (gid, player, game, deal, version, started, finished, won, elapsed, last, updated, played, length, position,
     seen, ever, assisted, given_up, daily, grade, solution_won) = row
    return GameRecord(
        id=gid, player=player, game=game, deal=deal, version=version, started_at=started, finished_at=finished,
        won=bool(won), elapsed=elapsed, last_move_at=last, updated_at=updated if updated is not None else started,
        played=played, line_length=length, position=None if position is None else bytes(position), seen=seen,
        ever_moved=bool(ever), assisted=bool(assisted), given_up=bool(given_up), daily=daily, grade=grade,
        solution_won=bool(solution_won),
    )
