"""Saved games, players and statistics, in SQLite or PostgreSQL.

The database is the truth: every state change of a game is committed before
the server answers, so a crash or a restart loses nothing. A game is stored as
its deal, its line of moves (the moves played, then the redo line: one row a
move, in ``game_moves``), how many of them are played, and the position they
lead to, packed (``position``); every hundredth position along the line is
kept too (``game_positions``). So a game of any length is read in one row,
and a change writes what it changed: the game's row, and the moves added to
its line. The engine made every position (the store never applies a rule).

Each change is remembered by its request id (``changes``): the id the page
sends with it (``Idempotency-Key``), or one the server makes. It is written in
the change's own transaction, so a request sent again after its answer was
lost is known, in any server process, to have been stored already.

One store, two databases: :class:`Store` is written once, in SQL both speak;
:mod:`tableaux.web.dialect` and the engines hold what differs (placeholders, a few types,
connections). SQLite keeps a connection per thread (WAL mode, busy timeout),
PostgreSQL a connection pool, so the store is safe from uvicorn's thread pool
and from several server processes (on several machines, with PostgreSQL).
Writes that depend on what was read use the game's ``version`` as a
compare-and-swap in the database itself, so two tabs can never interleave
moves, whichever processes serve them.

Players: a player is the hash of a token the server issued (the browser's
cookie). Tokens carry a MAC made with a key kept in the database, so the server
recognises its own tokens without a row per visitor: the player's row is
written with the first thing that player stores (a new game), and a flood of
anonymous requests writes nothing.

The schema and its migration steps live in :mod:`tableaux.web.migrations`, a game's row in
:mod:`tableaux.web.records`, player tokens in :mod:`tableaux.web.tokens`, the rows the statistics read in
:mod:`tableaux.web.stats_rows` and their figures in :mod:`tableaux.web.player_stats`; :class:`Store` is the one
way in (it opens, migrates, reads and writes the database).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..i18n import _
from .clock import played_time
from .database import Database, StoreError, parse_database
from .dialect import Connection
from .ledger import (
    CHANGES_KEPT,
    GAME_UPDATE,
    GameChange,
    Made,
    QuotaExceeded,
    Request,
    RequestSeen,
    count_new_game,
    remember,
    tidy,
    write_at_once,
    write_line,
)
from .migrations import current_version, migrate
from .names import folded
from .outage import Health, StoreFull, StoreMisconfigured, StoreUnavailable, describe, one_line
from .player_stats import GameStats, combine, player_stats
from .records import COLUMNS, GAME_ID, GameRecord, record_of
from .standings import NameChangesUsed, NameTaken, NoPlayer, Win, changes_left, daily_wins, name_of, set_name
from .stats_rows import Counted, active_players, by_player, counted_rows, leave_out
from .tokens import hash_token, new_token, signed_player

__all__ = ["CHANGES_KEPT", "GameChange", "GameRecord", "Made", "NameChangesUsed", "NameTaken", "NoPlayer",
           "QuotaExceeded", "Request", "RequestSeen", "StaleVersionError", "Store", "StoreError", "StoreFull",
           "StoreMisconfigured", "StoreUnavailable", "Win"]


INSUFFICIENT_PRIVILEGE = "42501"
"""The SQLSTATE of a statement the database refused to the role it was run as (PostgreSQL: a role that may not
create tables in the schema, which since PostgreSQL 15 only the database's owner may by default)."""


class StaleVersionError(Exception):
    """The game changed since the version the caller read."""


class Store:
    """All database access: opens (and migrates) the database named by ``db``, a path or a ``--db`` text.

    ``wait``: a database that cannot be reached now is not an error (a server process starting while
    PostgreSQL is away): the store opens itself once it answers, and until then every request is answered
    503. Without it (the command line, tools), the opening fails at once.
    """

    def __init__(self, db: str | Path | Database, *, wait: bool = False) -> None:
        self.database = db if isinstance(db, Database) else parse_database(db)
        self.path = self.database.path
        """The SQLite file, or None for PostgreSQL."""
        self._known_players: set[str] = set()
        self._engine = self.database.engine()
        self._token_key: bytes | None = None
        self._opening = threading.Lock()
        self._engine.reopened(self._open_if_needed)
        try:
            self._open()
        except StoreUnavailable as exc:
            if not wait:
                raise
            self._engine.health.failed(exc.reason)  # watched for: opened by _open_if_needed once it answers

    def check_writable(self) -> None:
        """:class:`StoreMisconfigured` when the server could read the database but not write it (a SQLite file
        it may only read); tools that only read (``tableaux stats``) do not ask."""
        self._engine.check_writable()

    @property
    def health(self) -> Health:
        return self._engine.health

    def _open(self) -> None:
        """Migrate and read the key that signs player tokens, on a connection of its own."""
        conn = self._engine.first()
        try:
            migrate(conn)
            row = conn.execute("SELECT value FROM secrets WHERE name = 'player-token'").fetchone()
            self._token_key = bytes(row[0])
        except self._engine.database_errors as exc:
            error = self._engine.translate(exc)
            if isinstance(error, StoreUnavailable | StoreFull):  # the database's state now, not what --db says
                raise error from None
            if getattr(exc, "sqlstate", None) == INSUFFICIENT_PRIVILEGE:
                raise StoreMisconfigured(_(
                    "cannot use {file} as the saved games database: {error}. The role the server connects as must "
                    "be allowed to create tables in it: make it the database's owner (createdb -O ROLE, or ALTER "
                    "DATABASE ... OWNER TO ROLE), as docs/deploy.md shows").format(
                    file=repr(str(self.database)), error=describe(exc))) from None
            raise StoreMisconfigured(_("cannot use {file} as the saved games database: {error}").format(
                file=repr(str(self.database)), error=one_line(exc))) from None
        finally:
            conn.close()

    def _open_if_needed(self) -> None:
        with self._opening:
            if self._token_key is None:
                self._open()

    def _token(self) -> bytes:
        """The key that signs player tokens: read when the store opened, or now if the database was away then."""
        if self._token_key is None:
            self._engine.health.check()
            self._open_if_needed()
        assert self._token_key is not None
        return self._token_key

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        """A connection for one operation: this thread's (SQLite) or one from the pool (PostgreSQL)."""
        with self._engine.connection() as conn:
            yield conn

    def close(self) -> None:
        """Close every connection (the store reopens them if used again)."""
        self._engine.close()

    @contextmanager
    def _write(self, one_statement: bool = False) -> Iterator[Connection]:
        """A write transaction, committed before this returns: only then may the server answer.
        ``one_statement`` says the transaction is a single statement (PostgreSQL then commits it by itself)."""
        with self._connect() as conn, conn.transaction(one_statement=one_statement):
            yield conn

    def ping(self) -> None:
        """One statement on a connection, for the health check: :class:`StoreUnavailable` while the database is
        away (at once once it is known to be), like any request that needs it; :class:`StoreFull` while a write
        has failed for want of room on the disk and none has stored anything since (SQLite): a change would meet
        that, though the statement works. Nothing is written: a check must not take room, nor answer for it."""
        with self._connect() as conn:
            conn.execute("SELECT 1").fetchone()
        self._engine.health.check_room()

    # --- players --------------------------------------------------------------
    def player_exists(self, player: str) -> bool:
        if player in self._known_players:
            return True
        with self._connect() as conn:
            found = conn.execute("SELECT 1 FROM players WHERE id = ?", (player,)).fetchone() is not None
        if found:
            self._known_players.add(player)
        return found

    def issue_player(self) -> tuple[str, str]:
        """A fresh identity, ``(token, player id)``, written nowhere: its row comes with its first game."""
        return new_token(self._token())

    def new_player(self) -> tuple[str, str]:
        """A fresh identity with its row written at once (the statistics tools and tests use it)."""
        token, player = self.issue_player()
        with self._write() as conn:
            self._add_player(conn, player)
        return token, player

    def player_for_signed(self, token: str) -> str | None:
        """The player of a token this server signed, or None; answered without the database."""
        return signed_player(self._token, token)

    def player_for(self, token: str) -> str | None:
        """The player a token stands for, or None for a token this server did not issue."""
        player = self.player_for_signed(token)
        if player is None and self.player_exists(hash_token(token)):
            player = hash_token(token)  # issued before tokens were signed: known by its row
        return player

    @staticmethod
    def _add_player(conn: Connection, player: str) -> None:
        conn.execute("INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                     (player, time.time()))

    # --- games -----------------------------------------------------------------
    def create_game(
        self, player: str, game: str, deal: int, *, daily: str | None = None, grade: str | None = None,
        request: Request | None = None, quotas: Sequence[tuple[str, int]] = (),
    ) -> GameRecord:
        """A new game, stored with its player's row (written with the first thing a player stores).

        ``quotas``: ``(bucket, limit)`` pairs each counted once here, for this minute, across every server
        process on the database; over a limit, :class:`QuotaExceeded` and nothing stored. ``request``: the
        id it is remembered by (:class:`RequestSeen` when that id made something already).
        """
        now = time.time()
        record = GameRecord(
            id=secrets.token_urlsafe(16), player=player, game=game, deal=deal, version=0,
            started_at=now, finished_at=None, won=False, elapsed=0.0, last_move_at=None, updated_at=now,
            daily=daily, grade=grade,
        )
        with self._remembering(player, request):
            with self._write() as conn:
                count_new_game(conn, quotas, now)
                self._add_player(conn, player)
                conn.execute(
                    "INSERT INTO games (id, player, game, deal, version, started_at, updated_at, daily, grade) "
                    "VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)",
                    (record.id, player, game, deal, now, now, daily, grade),
                )
                remember(conn, player, request, record.id, 0, now)
        return record

    def daily_game(self, player: str, game: str, date: str) -> GameRecord | None:
        """The player's game of that day's daily deal (the first one, if a race made two), or None."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {COLUMNS} FROM games WHERE player = ? AND game = ? AND daily = ? "
                f"ORDER BY started_at, {conn.row_order} LIMIT 1", (player, game, date)
            ).fetchone()
        return None if row is None else record_of(row)

    def daily_deal(self, game: str, date: str) -> tuple[int, str | None] | None:
        """The deal of that day's daily race here, and its grade: those of the day's first daily game, or None
        before one. A server that takes a new catalogue mid-day keeps the race on the deal it began with."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT deal, grade FROM games WHERE daily = ? AND game = ? ORDER BY started_at, {conn.row_order} "
                "LIMIT 1", (date, game)
            ).fetchone()
        return None if row is None else (int(row[0]), row[1])

    def get_game(self, game_id: str, player: str) -> GameRecord | None:
        """The game, or ``None`` when it does not exist or belongs to someone else."""
        if not GAME_ID.fullmatch(game_id):
            return None
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {COLUMNS} FROM games WHERE id = ? AND player = ?", (game_id, player)
            ).fetchone()
        return None if row is None else record_of(row)

    def current_game(self, player: str, game: str | None = None) -> GameRecord | None:
        """The player's most recently changed unfinished game (of one game name, if given)."""
        sql = f"SELECT {COLUMNS} FROM games WHERE player = ? AND won = 0 AND given_up = 0"
        params: tuple[Any, ...] = (player,)
        if game is not None:
            sql += " AND game = ?"
            params += (game,)
        sql += " ORDER BY updated_at DESC, started_at DESC LIMIT 1"
        with self._connect() as conn:
            row = conn.execute(sql, params).fetchone()
        return None if row is None else record_of(row)

    def line(self, game_id: str, start: int, stop: int) -> list[str]:
        """Moves ``start`` to ``stop - 1`` of a game's line, as stored (move texts)."""
        if stop <= start:
            return []
        with self._connect() as conn:
            rows = conn.execute("SELECT ply, move FROM game_moves WHERE game_id = ? AND ply >= ? AND ply < ? "
                                "ORDER BY ply", (game_id, start, stop)).fetchall()
        if [ply for ply, _move in rows] != list(range(start, stop)):
            raise StoreError(_("saved game {id} is missing moves {first} to {last} of its line").format(
                id=game_id, first=start + 1, last=stop))
        return [move for _ply, move in rows]

    def nearest_position(self, game_id: str, ply: int) -> tuple[int, bytes] | None:
        """The kept position of a game's line nearest before or at ``ply`` (``(ply, packed)``), if any."""
        with self._connect() as conn:
            row = conn.execute("SELECT ply, position FROM game_positions WHERE game_id = ? AND ply <= ? "
                               "ORDER BY ply DESC LIMIT 1", (game_id, ply)).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def save_change(self, record: GameRecord, change: GameChange, request: Request | None = None, *,
                    time_played: float | None = None) -> GameRecord:
        """Store one state change made against ``record.version``; :class:`StaleVersionError` if it moved on.

        One transaction (on PostgreSQL one statement, one round trip: :func:`tableaux.web.ledger.write_at_once`):
        the game's row (only if its version is still ``record.version``), the rows of its line the change
        touched, and the request id. The clock (``elapsed``) becomes the ``time_played`` the page reports,
        within what the server allows (:func:`tableaux.web.clock.played_time`: at most the gap since the
        previous change, capped at :data:`tableaux.web.clock.IDLE_CAP`); it starts at the first change.
        ``assisted`` can only be set, never cleared (None keeps it); ``given_up`` ends the game as lost;
        ``solution_won``: the solver's line made the winning move.
        """
        now = time.time()
        elapsed = played_time(record.elapsed, record.last_move_at, now, time_played)
        new = replace(
            record, version=record.version + 1, played=change.played, line_length=change.line_length,
            position=change.position, seen=change.seen, won=change.won, elapsed=elapsed,
            finished_at=now if change.won or change.given_up else None, last_move_at=now, updated_at=now,
            ever_moved=True, assisted=record.assisted or bool(change.assisted), given_up=change.given_up,
            solution_won=change.solution_won,
        )
        game = (new.version, new.played, new.line_length, new.position, new.seen, new.finished_at, int(new.won),
                new.elapsed, now, now, now, int(new.assisted), int(new.given_up), int(new.solution_won), record.id,
                record.player, record.version)  # last move, update and (when it is the first) first change: all now
        with self._remembering(record.player, request), self._connect() as conn:
            if conn.writes_at_once:
                remembered = None if request is None else (
                    record.player, request.id, new.version, request.fingerprint, now)
                with conn.transaction(one_statement=True):
                    updated = write_at_once(conn, game, change, remembered)
            else:
                with conn.transaction():
                    updated = conn.execute(GAME_UPDATE, game).rowcount
                    if updated == 1:
                        write_line(conn, record.id, change)
                        remember(conn, record.player, request, record.id, new.version, now)
            if updated != 1:
                raise StaleVersionError(record.id)
        return new

    def find_change(self, player: str, request_id: str) -> Made | None:
        """What the player's request with this id did, if it was stored."""
        with self._connect() as conn:
            row = conn.execute("SELECT game_id, version, fingerprint FROM changes WHERE player = ? AND request = ?",
                               (player, request_id)).fetchone()
        return None if row is None else Made(row[0], int(row[1]), row[2])

    @contextmanager
    def _remembering(self, player: str, request: Request | None) -> Iterator[None]:
        """Turn the unique-key refusal of a request id already used into :class:`RequestSeen`."""
        try:
            yield
        except self._engine.integrity_errors:
            made = None if request is None else self.find_change(player, request.id)
            if made is None:
                raise
            raise RequestSeen(made) from None

    def tidy(self, now: float, unmoved_after: float) -> dict[str, int]:
        """Forget what is no longer needed: request ids older than :data:`CHANGES_KEPT`, quota counts of past
        minutes, and games never moved that started more than ``unmoved_after`` seconds ago (with the rows of
        players left with no game). A player who has moved a game keeps their newest game, moved or not.
        Returns how many rows of each went."""
        with self._write() as conn:
            if not conn.is_sqlite:  # a backlog to forget may take longer than a request's statements may
                conn.execute("SET LOCAL statement_timeout = 0")
            return tidy(conn, now, unmoved_after)

    # --- statistics ------------------------------------------------------------
    def stats(
        self, game_names: Sequence[str], player: str | None = None, today: str | None = None
    ) -> dict[str, GameStats]:
        """Statistics per game name, for one player, or for every player (each player's streaks kept apart).

        Assisted games are counted apart (``assisted``) and left out of every other figure. Daily deals
        count in the figures like any game, and in the daily ones too; ``today`` (UTC, YYYY-MM-DD) ends
        the daily streaks.
        """
        if today is None:
            from ..catalogue import today as utc_today

            today = utc_today().isoformat()
        out: dict[str, GameStats] = {}
        for name in game_names:
            total = GameStats()
            for rows, in_progress, extra in self._game_rows(name, player).values():
                total = combine(total, player_stats(rows, in_progress, extra, today))
            out[name] = total
        return out

    def _game_rows(self, game: str, player: str | None) -> dict[str, Counted]:
        """Per player: their counted games, and which are in progress (:func:`tableaux.web.stats_rows.by_player`)."""
        with self._connect() as conn:
            rows = counted_rows(conn, game, player)
        return by_player(rows)

    def players(self) -> list[tuple[str, float]]:
        """Players who have at least one game, most recently active first: ``(id, last activity)``."""
        with self._connect() as conn:
            return active_players(conn)

    def reset_stats(self, game: str | None = None, player: str | None = None) -> int:
        """Leave every game so far out of the statistics (the games themselves are kept). Returns how many."""
        with self._write(one_statement=True) as conn:
            return leave_out(conn, game, player)

    # --- the daily race ------------------------------------------------------------------
    def daily_wins(self, game: str, date: str) -> list[Win]:
        """The day's wins of ``game``'s daily deal that the leaderboard ranks (:mod:`tableaux.web.standings`)."""
        with self._connect() as conn:
            return daily_wins(conn, game, date)

    def name(self, player: str) -> tuple[str | None, int]:
        """The player's display name (None: none) and how many changes of it are left for now."""
        with self._connect() as conn:
            return name_of(conn, player), changes_left(conn, player, time.time())

    def set_name(self, player: str, name: str | None) -> int:
        """Give the player display name ``name`` (None: none, the board shows them as anonymous), read by
        :func:`tableaux.web.names.read_name` already. Returns the changes left; :class:`NameTaken`,
        :class:`NameChangesUsed` or :class:`NoPlayer` and nothing changed when it cannot be."""
        try:
            with self._write() as conn:
                return set_name(conn, player, name, None if name is None else folded(name), time.time())
        except self._engine.integrity_errors:
            raise NameTaken(name) from None

    def schema_version(self) -> int:
        with self._connect() as conn:
            return current_version(conn)
