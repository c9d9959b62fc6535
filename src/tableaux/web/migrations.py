"""The schema of the saved games database, as a list of migration steps.

Schema changes are a list of steps (:data:`MIGRATIONS`) applied in order and
recorded in ``schema_version``; steps only add, never drop. :func:`migrate`
takes each step in its own transaction and re-reads the version under the
write lock, so several server processes starting at once, or a crash in the
middle, leave the database at one version or the next, never in between.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable

from ..i18n import _


class StoreError(Exception):
    """The database cannot be used (newer schema, unreadable file).

    Defined here, below the store, because :func:`migrate` raises it too;
    :mod:`tableaux.web.store` raises it for everything else and is where callers import it from.
    """


def _v1(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, created_at REAL NOT NULL)")
    conn.execute(
        """CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            player TEXT NOT NULL REFERENCES players(id),
            game TEXT NOT NULL,
            deal INTEGER NOT NULL,
            moves TEXT NOT NULL DEFAULT '[]',
            redo TEXT NOT NULL DEFAULT '[]',
            version INTEGER NOT NULL DEFAULT 0,
            started_at REAL NOT NULL,
            finished_at REAL,
            won INTEGER NOT NULL DEFAULT 0,
            elapsed REAL NOT NULL DEFAULT 0
        )"""
    )
    conn.execute("CREATE INDEX IF NOT EXISTS games_by_player ON games (player, game, started_at)")


def _v2(conn: sqlite3.Connection) -> None:
    """Clock and activity columns: time of the last change, and moves in the current line."""
    conn.execute("ALTER TABLE games ADD COLUMN updated_at REAL")
    conn.execute("ALTER TABLE games ADD COLUMN last_move_at REAL")
    conn.execute("ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE games ADD COLUMN ever_moved INTEGER NOT NULL DEFAULT 0")
    # Fill the new columns from what version 1 recorded.
    conn.execute("UPDATE games SET updated_at = COALESCE(finished_at, started_at)")
    # Counted in Python rather than with SQLite's JSON functions, which older SQLite builds lack.
    rows = conn.execute("SELECT id, moves, redo, won FROM games").fetchall()
    for gid, moves, redo, won in rows:
        count = len(json.loads(moves))
        moved = bool(count or json.loads(redo) or won)
        conn.execute("UPDATE games SET move_count = ?, ever_moved = ? WHERE id = ?", (count, int(moved), gid))


def _v3(conn: sqlite3.Connection) -> None:
    """Statistics resets: a reset hides earlier games from the statistics but keeps them."""
    conn.execute("ALTER TABLE games ADD COLUMN counted INTEGER NOT NULL DEFAULT 1")
    conn.execute("CREATE INDEX IF NOT EXISTS games_recent ON games (player, won, updated_at)")


def _v4(conn: sqlite3.Connection) -> None:
    """The key that signs player tokens, so a player needs no row until it stores something."""
    conn.execute("CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
    conn.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES ('player-token', ?)", (secrets.token_bytes(32),))


def _v5(conn: sqlite3.Connection) -> None:
    """Fair play and the daily deal: help taken, games given up, the daily date and the grade picked."""
    conn.execute("ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE games ADD COLUMN given_up INTEGER NOT NULL DEFAULT 0")
    conn.execute("ALTER TABLE games ADD COLUMN daily TEXT")
    conn.execute("ALTER TABLE games ADD COLUMN grade TEXT")
    conn.execute("CREATE INDEX IF NOT EXISTS games_daily ON games (player, game, daily)")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5)
"""Migration step ``i`` brings the schema from version ``i`` to ``i + 1``. Append only."""

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: sqlite3.Connection) -> int:
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing migration steps up to ``target``, each in its own transaction. Returns the version."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = current_version(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if version > SCHEMA_VERSION:
        raise StoreError(_(
            "the database has schema version {version}, newer than this tableaux understands "
            "({supported}); upgrade tableaux or use another --db").format(version=version, supported=SCHEMA_VERSION))
    while version < target:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated meanwhile: re-read under the write lock.
            version = current_version(conn)
            if version < target:
                MIGRATIONS[version](conn)
                version += 1
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version
