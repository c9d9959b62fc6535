"""What a change writes beyond the game's own row, and the store's bookkeeping: functions over one connection
inside the store's transactions (:class:`tableaux.web.store.Store` calls them).

- the rows of a game's line a change touched (:func:`write_line`);
- each change's request id (:func:`remember`), so a request sent again is answered with what it did;
- new games counted per player and per client address, a minute at a time (:func:`count_new_game`);
- what is forgotten as time goes by (:func:`tidy`): request ids after a day, past minutes' counts, and
  games never moved once they are old, so that a flood of anonymous new games leaves nothing lasting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .dialect import Connection
from .standings import forget_name_changes, forget_players

CHANGES_KEPT = 24 * 3600.0
"""Seconds a change's request id is remembered: long enough for any retry, short enough to stay small."""
ROWS_A_STATEMENT = 300
"""Rows written by one INSERT (a game's whole line can be written at once: by migration, or a long undo cut)."""


@dataclass(frozen=True)
class Made:
    """A change remembered by its request id: the game it made or changed, the version it left, and the
    fingerprint of the request (the same id sent with a different request is refused)."""

    game_id: str
    version: int
    fingerprint: str


class RequestSeen(Exception):
    """This request id was used already: ``made`` is what it did."""

    def __init__(self, made: Made) -> None:
        super().__init__(made.game_id)
        self.made = made


class QuotaExceeded(Exception):
    """Too many new games in this minute for one of the counted buckets; ``retry_after`` seconds until the next."""

    def __init__(self, bucket: str, limit: int, retry_after: int) -> None:
        super().__init__(bucket)
        self.bucket = bucket
        self.limit = limit
        self.retry_after = retry_after


@dataclass(frozen=True)
class Request:
    """Who asks for a change and under which id: ``id`` is the page's ``Idempotency-Key`` (or one the server
    made), ``fingerprint`` what was asked (method, path and body), so a reused id is told apart."""

    id: str
    fingerprint: str




@dataclass
class GameChange:
    """What one change writes: the game's new row fields, and the rows of its line that change.

    ``cut``: the line's rows from this ply on are no longer its moves (a move other than the next one to
    redo cuts the redo line); ``added``: the moves written from there, ``(ply, move text)``;
    ``positions``: new hundredth positions along the line, ``(ply, packed position)``.
    """

    played: int
    line_length: int
    position: bytes
    seen: int
    won: bool
    cut: int | None = None
    added: list[tuple[int, str]] = field(default_factory=list)
    positions: list[tuple[int, bytes]] = field(default_factory=list)
    assisted: bool | None = None
    given_up: bool = False
    solution_won: bool = False


GAME_UPDATE = (
    "UPDATE games SET version = ?, move_count = ?, line_length = ?, position = ?, seen = ?, finished_at = ?, "
    "won = ?, elapsed = ?, last_move_at = ?, updated_at = ?, first_move_at = COALESCE(first_move_at, ?), "
    "ever_moved = 1, assisted = ?, given_up = ?, solution_won = ? WHERE id = ? AND player = ? AND version = ?"
)
"""A change's write of the game's own row, only if its version is still the one the change was made at. The time
of the game's first change is written once, by the first (the daily race times a win from there)."""


def write_line(conn: Connection, game_id: str, change: GameChange) -> None:
    """The rows of the game's line that ``change`` touched, one statement each: after a cut, the moves beyond the
    new line's end and the positions after the cut go; the moves added and the hundredth positions reached are
    written (over rows that were there)."""
    if change.cut is not None:
        conn.execute("DELETE FROM game_moves WHERE game_id = ? AND ply >= ?", (game_id, change.line_length))
        reached = [ply for ply, _position in change.positions]
        conn.execute("DELETE FROM game_positions WHERE game_id = ? AND ply > ?"
                     + (f" AND ply NOT IN ({', '.join('?' * len(reached))})" if reached else ""),
                     (game_id, change.cut, *reached))
    for start in range(0, len(change.added), ROWS_A_STATEMENT):
        part = change.added[start:start + ROWS_A_STATEMENT]
        conn.execute("INSERT INTO game_moves (game_id, ply, move) VALUES " + ", ".join(["(?, ?, ?)"] * len(part))
                     + " ON CONFLICT (game_id, ply) DO UPDATE SET move = excluded.move",
                     [value for ply, move in part for value in (game_id, ply, move)])
    for ply, position in change.positions:
        conn.execute("INSERT INTO game_positions (game_id, ply, position) VALUES (?, ?, ?) "
                     "ON CONFLICT (game_id, ply) DO UPDATE SET position = excluded.position",
                     (game_id, ply, position))


def write_at_once(conn: Connection, game: Sequence[object], change: GameChange,
                  remembered: Sequence[object] | None) -> int:
    """The whole of a change in one statement, for PostgreSQL (its data-modifying WITH): the game's row
    (:data:`GAME_UPDATE` with ``game``, its parameters), the line's rows as :func:`write_line` writes them and
    the request id (``remembered``: player, request id, version, fingerprint, time), each only if the game's
    row was updated. One statement is one round trip, and its own transaction. Returns the rows updated (0:
    the version moved on, and nothing was written)."""
    parts = [f"game AS ({GAME_UPDATE} RETURNING id)"]
    params: list[object] = list(game)
    if change.cut is not None:
        reached = [ply for ply, _position in change.positions]
        parts.append("cut_moves AS (DELETE FROM game_moves WHERE game_id IN (SELECT id FROM game) AND ply >= ?)")
        parts.append("cut_positions AS (DELETE FROM game_positions WHERE game_id IN (SELECT id FROM game) AND "
                     "ply > ?" + (f" AND ply NOT IN ({', '.join('?' * len(reached))})" if reached else "") + ")")
        params += [change.line_length, change.cut, *reached]
    if change.added:
        rows = ", ".join(["(CAST(? AS INTEGER), CAST(? AS TEXT))"] * len(change.added))
        parts.append(f"moves AS (INSERT INTO game_moves (game_id, ply, move) SELECT game.id, v.ply, v.move FROM game, "
                     f"(VALUES {rows}) AS v(ply, move) ON CONFLICT (game_id, ply) DO UPDATE SET move = excluded.move)")
        params += [value for pair in change.added for value in pair]
    if change.positions:
        rows = ", ".join(["(CAST(? AS INTEGER), CAST(? AS BYTEA))"] * len(change.positions))
        parts.append(f"positions AS (INSERT INTO game_positions (game_id, ply, position) SELECT game.id, v.ply, "
                     f"v.position FROM game, (VALUES {rows}) AS v(ply, position) "
                     f"ON CONFLICT (game_id, ply) DO UPDATE SET position = excluded.position)")
        params += [value for pair in change.positions for value in pair]
    if remembered is not None:
        player, request, version, fingerprint, now = remembered
        parts.append("remembered AS (INSERT INTO changes (player, request, game_id, version, fingerprint, made_at) "
                     "SELECT ?, ?, id, ?, ?, ? FROM game)")
        params += [player, request, version, fingerprint, now]
    return int(conn.execute(f"WITH {', '.join(parts)} SELECT COUNT(*) FROM game", params).fetchone()[0])


def remember(conn: Connection, player: str, request: Request | None, game_id: str, version: int, now: float) -> None:
    """Keep the request id with what it did; a second use of one id breaks the table's key (the store turns
    that into :class:`RequestSeen`)."""
    if request is not None:
        conn.execute("INSERT INTO changes (player, request, game_id, version, fingerprint, made_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (player, request.id, game_id, version, request.fingerprint, now))


def count_new_game(conn: Connection, quotas: Sequence[tuple[str, int]], now: float) -> None:
    """Count one new game in each ``(bucket, limit)`` for this minute; :class:`QuotaExceeded` (and the caller's
    transaction rolled back, so a refused game is not counted) when one goes over its limit."""
    minute = int(now // 60)
    for bucket, limit in quotas:
        used = conn.execute(
            "INSERT INTO quotas (bucket, minute, used) VALUES (?, ?, 1) "
            "ON CONFLICT (bucket, minute) DO UPDATE SET used = quotas.used + 1 RETURNING used", (bucket, minute)
        ).fetchone()[0]
        if used > limit:
            raise QuotaExceeded(bucket, limit, max(1, math.ceil((minute + 1) * 60 - now)))


def tidy(conn: Connection, now: float, unmoved_after: float) -> dict[str, int]:
    """Forget request ids older than :data:`CHANGES_KEPT`, counts of minutes past, and games never moved that
    started over ``unmoved_after`` seconds ago, with the rows of players who are left with none (and their display
    names), and name changes older than the day they are counted in.

    A player who has moved a game keeps their newest game, moved or not: it is what they come back to,
    and what the statistics take as the deal started last. Every other game never moved counts in no
    statistic, so forgetting it changes none.
    """
    gone = {
        "changes": conn.execute("DELETE FROM changes WHERE made_at < ?", (now - CHANGES_KEPT,)).rowcount,
        "quotas": conn.execute("DELETE FROM quotas WHERE minute < ?", (int(now // 60) - 1,)).rowcount,
        "name_changes": forget_name_changes(conn, now),
    }
    deleted = conn.execute(
        "DELETE FROM games WHERE ever_moved = 0 AND started_at < ? AND NOT ("
        " EXISTS (SELECT 1 FROM games moved WHERE moved.player = games.player AND moved.ever_moved = 1)"
        " AND NOT EXISTS (SELECT 1 FROM games later WHERE later.player = games.player"
        "                 AND later.started_at > games.started_at)"
        ") RETURNING player", (now - unmoved_after,)).fetchall()
    gone["games"] = len(deleted)
    gone["players"] = 0
    players = {row[0] for row in deleted}
    ordered = sorted(players)
    for start in range(0, len(ordered), ROWS_A_STATEMENT):
        part = ordered[start:start + ROWS_A_STATEMENT]
        forget_players(conn, part)
        gone["players"] += conn.execute(
            f"DELETE FROM players WHERE id IN ({', '.join('?' * len(part))}) "
            "AND NOT EXISTS (SELECT 1 FROM games WHERE games.player = players.id)", part).rowcount
    return gone
