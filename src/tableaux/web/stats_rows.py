"""What the statistics read from the database, and how a reset leaves games out of them: functions over one
connection inside the store's transactions (:class:`tableaux.web.store.Store` calls them).

The figures themselves are pure functions over these rows (:mod:`tableaux.web.player_stats`); this is the
reading side: which games count (``counted``), in what order, and which of a player's unfinished games are
still in progress.
"""

from __future__ import annotations

from typing import Any

from .dialect import Connection

Counted = tuple[list[tuple[bool, bool, float, int]], set[int], list[tuple[bool, bool, str | None]]]
"""One player's counted games: ``(won, moved, elapsed, moves)`` for each, oldest first; which of them are still in
progress; and ``(assisted, given up, daily date)`` for each."""


def counted_rows(conn: Connection, game: str, player: str | None) -> dict[str, list[tuple[Any, ...]]]:
    """The counted games of ``game`` (of one player, or of everyone), per player, in order of starting."""
    sql = (
        "SELECT player, won, ever_moved, elapsed, move_count, started_at, updated_at, assisted, given_up, daily "
        "FROM games WHERE counted = 1 AND game = ?"
    )
    params: tuple[Any, ...] = (game,)
    if player is not None:
        sql += " AND player = ?"
        params += (player,)
    rows: dict[str, list[tuple[Any, ...]]] = {}
    sql += f" ORDER BY started_at, {conn.row_order}"
    for who, won, moved, elapsed, moves, started, updated, assisted, given_up, daily in conn.execute(sql, params):
        rows.setdefault(who, []).append(
            (bool(won), bool(moved) or bool(given_up), float(elapsed), int(moves), float(started),
             float(updated or started), bool(assisted), bool(given_up), daily)
        )
    return rows


def by_player(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, Counted]:
    """Per player: their counted games oldest first, which of them are still in progress, and for each
    ``(assisted, given up, daily date)``.

    An unfinished game is in progress unless a later deal was started
    after its last change: leaving a game for a new deal loses it, as in
    AisleRiot, while going back to it (another tab) keeps it open. A game
    given up is finished.
    """
    out: dict[str, Counted] = {}
    for who, games in rows.items():
        newest_start = games[-1][4]  # rows are in order of starting
        last = len(games) - 1
        in_progress = {
            i for i, g in enumerate(games)
            if not g[0] and not g[7] and (i == last or g[5] >= newest_start)
        }
        out[who] = ([g[:4] for g in games], in_progress, [g[6:9] for g in games])
    return out


def active_players(conn: Connection) -> list[tuple[str, float]]:
    """Players who have at least one game, most recently active first: ``(id, last activity)``."""
    return [
        (who, float(last))
        for who, last in conn.execute(
            "SELECT player, MAX(COALESCE(updated_at, started_at)) AS last FROM games "
            "GROUP BY player ORDER BY last DESC"
        )
    ]


def leave_out(conn: Connection, game: str | None, player: str | None) -> int:
    """Leave every counted game (of one game name, of one player, if given) out of the statistics; how many."""
    sql = "UPDATE games SET counted = 0 WHERE counted = 1"
    params: tuple[Any, ...] = ()
    if game is not None:
        sql += " AND game = ?"
        params += (game,)
    if player is not None:
        sql += " AND player = ?"
        params += (player,)
    return conn.execute(sql, params).rowcount
