"""The daily race: each day's leaderboard of a daily deal, and the names players show on it.

Who is ranked: a player's game of the day's daily deal (their first, the one ``POST /api/daily`` gives back),
won without help (not assisted: no peeking hint, no solution shown, no going back after the solver said where
the game was lost; a game given up is not won), when the player played no other game of that deal before the
win (another game of the same deal number, where its cards could be turned or its solution asked for, takes
that day's win off the board). One entry per player per day.

The order: fewer moves first, then less time, the time being the server's own, from the game's first change
to its last (the win), as this server's clock stamped them (``first_move_at`` and ``finished_at``), never the
page's count, which a page could forge. Entries equal in both (to the tenth of a second shown) share a rank.

The ranking itself is a pure function (:func:`rank`), property-tested without a database; the rest are
functions over one connection inside the store's transactions (:class:`tableaux.web.store.Store` calls them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .dialect import Connection
from .player_stats import tenths

TOP = 10
"""Entries the leaderboard shows (the asking player's own comes as well, wherever it is)."""
NAME_CHANGES = 3
"""Changes of display name a player may make in :data:`NAME_WINDOW` seconds."""
NAME_WINDOW = 24 * 3600.0


@dataclass(frozen=True)
class Win:
    """One ranked game: its player, moves, the server's time for it, when it was won, the player's name."""

    player: str
    moves: int
    seconds: float
    finished_at: float
    name: str | None = None


@dataclass(frozen=True)
class Place:
    rank: int
    win: Win


def rank(wins: Iterable[Win]) -> list[Place]:
    """The wins in order (moves, then time to the tenth shown; the earlier win first among equals), each with
    its rank: one more than the number of wins strictly ahead of it."""
    ordered = sorted(wins, key=lambda w: (w.moves, tenths(w.seconds), w.finished_at, w.player))
    places: list[Place] = []
    for i, win in enumerate(ordered):
        tied = i and (win.moves, tenths(win.seconds)) == (ordered[i - 1].moves, tenths(ordered[i - 1].seconds))
        places.append(Place(places[-1].rank if tied else i + 1, win))
    return places


def daily_wins(conn: Connection, game: str, date: str) -> list[Win]:
    """The day's ranked wins of ``game``'s daily deal (see the module's docstring for which count)."""
    order = conn.row_order
    rows = conn.execute(
        "SELECT g.player, g.move_count, g.finished_at - COALESCE(g.first_move_at, g.started_at), g.finished_at, "
        "n.name FROM games g LEFT JOIN names n ON n.player = g.player "
        "WHERE g.daily = ? AND g.game = ? AND g.won = 1 AND g.assisted = 0 AND g.given_up = 0 "
        # the player's first game of the day's deal (a race of two requests may have made two)
        "AND NOT EXISTS (SELECT 1 FROM games e WHERE e.player = g.player AND e.game = g.game AND e.daily = g.daily "
        f"  AND (e.started_at < g.started_at OR (e.started_at = g.started_at AND e.{order} < g.{order}))) "
        # and no other game of that deal played before the win
        "AND NOT EXISTS (SELECT 1 FROM games o WHERE o.player = g.player AND o.game = g.game AND o.deal = g.deal "
        "  AND o.id <> g.id AND o.ever_moved = 1 AND COALESCE(o.first_move_at, o.started_at) < g.finished_at)",
        (date, game),
    ).fetchall()
    return [Win(who, int(moves), max(0.0, float(seconds)), float(finished), name)
            for who, moves, seconds, finished, name in rows]


# --- display names ------------------------------------------------------------------------------
class NoPlayer(Exception):
    """The player has no row yet (nothing stored): a name waits for their first game."""


class NameTaken(Exception):
    """Another player has this name (or one that reads alike)."""


class NameChangesUsed(Exception):
    """Every change of name allowed for now is used; ``retry_after`` seconds until the next one."""

    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(limit)
        self.limit = limit
        self.retry_after = retry_after


def name_of(conn: Connection, player: str) -> str | None:
    row = conn.execute("SELECT name FROM names WHERE player = ?", (player,)).fetchone()
    return None if row is None else str(row[0])


def changes_left(conn: Connection, player: str, now: float) -> int:
    used = conn.execute("SELECT COUNT(*) FROM name_changes WHERE player = ? AND made_at > ?",
                        (player, now - NAME_WINDOW)).fetchone()[0]
    return max(0, NAME_CHANGES - int(used))


def set_name(conn: Connection, player: str, name: str | None, folded: str | None, now: float) -> int:
    """Give ``player`` the display name ``name`` (None: none), inside the caller's write transaction; returns the
    changes left. The same name again changes nothing and counts nothing. Another player's name breaks the unique
    ``folded`` key (the caller turns that into :class:`NameTaken`); beyond :data:`NAME_CHANGES` in a day,
    :class:`NameChangesUsed`; a player with no row, :class:`NoPlayer`."""
    # Writing the player's row first makes two changes of one player wait for each other (a row lock in
    # PostgreSQL; SQLite's write lock does it anyway), so the count below is exact.
    if conn.execute("UPDATE players SET created_at = created_at WHERE id = ?", (player,)).rowcount != 1:
        if name is None:
            return NAME_CHANGES  # no name asked for, and none there: nothing to do
        raise NoPlayer(player)
    if name_of(conn, player) == name:
        return changes_left(conn, player, now)
    used, oldest = conn.execute("SELECT COUNT(*), MIN(made_at) FROM name_changes WHERE player = ? AND made_at > ?",
                                (player, now - NAME_WINDOW)).fetchone()
    if int(used) >= NAME_CHANGES:
        raise NameChangesUsed(NAME_CHANGES, max(1, math.ceil(float(oldest) + NAME_WINDOW - now)))
    if name is None:
        conn.execute("DELETE FROM names WHERE player = ?", (player,))
    else:
        conn.execute("INSERT INTO names (player, name, folded, changed_at) VALUES (?, ?, ?, ?) ON CONFLICT (player) "
                     "DO UPDATE SET name = excluded.name, folded = excluded.folded, changed_at = excluded.changed_at",
                     (player, name, folded, now))
    conn.execute("INSERT INTO name_changes (player, made_at) VALUES (?, ?)", (player, now))
    return NAME_CHANGES - int(used) - 1


def forget_players(conn: Connection, players: list[str]) -> None:
    """The names and name changes of players about to be forgotten (:func:`tableaux.web.ledger.tidy`)."""
    marks = ", ".join("?" * len(players))
    for table in ("names", "name_changes"):
        conn.execute(f"DELETE FROM {table} WHERE player IN ({marks}) "
                     f"AND NOT EXISTS (SELECT 1 FROM games WHERE games.player = {table}.player)", players)


def forget_name_changes(conn: Connection, now: float) -> int:
    return int(conn.execute("DELETE FROM name_changes WHERE made_at < ?", (now - NAME_WINDOW,)).rowcount)
