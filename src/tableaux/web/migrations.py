"""The schema of the saved games database, as a list of migration steps.

Schema changes are a list of steps (:data:`MIGRATIONS`) applied in order and
recorded in ``schema_version``; steps only add, never drop. :func:`migrate`
takes each step in its own transaction and re-reads the version under the
write lock, so several server processes starting at once, or a crash in the
middle, leave the database at one version or the next, never in between.

SQLite and PostgreSQL share this one history: each step is written once, in
SQL both speak, with the few column types that differ taken from the
connection (:class:`~tableaux.web.dialect.Types`). Both run DDL inside a
transaction, which is what makes a step all or nothing.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

from ..i18n import _
from .dialect import Connection, connection_of
from .outage import StoreError, StoreMisconfigured

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "StoreError", "current_version", "migrate"]


def _v1(db: Connection) -> None:
    t = db.types
    db.execute(f"CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, created_at {t.real} NOT NULL)")
    db.execute(
        f"""CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            player TEXT NOT NULL REFERENCES players(id),
            game TEXT NOT NULL,
            deal {t.int64} NOT NULL,
            moves TEXT NOT NULL DEFAULT '[]',
            redo TEXT NOT NULL DEFAULT '[]',
            version INTEGER NOT NULL DEFAULT 0,
            started_at {t.real} NOT NULL,
            finished_at {t.real},
            won INTEGER NOT NULL DEFAULT 0,
            elapsed {t.real} NOT NULL DEFAULT 0{t.row_order_column}
        )"""
    )
    db.execute("CREATE INDEX IF NOT EXISTS games_by_player ON games (player, game, started_at)")


def _v2(db: Connection) -> None:
    """Clock and activity columns: time of the last change, and moves in the current line."""
    t = db.types
    db.execute(f"ALTER TABLE games ADD COLUMN updated_at {t.real}")
    db.execute(f"ALTER TABLE games ADD COLUMN last_move_at {t.real}")
    db.execute("ALTER TABLE games ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN ever_moved INTEGER NOT NULL DEFAULT 0")
    # Fill the new columns from what version 1 recorded.
    db.execute("UPDATE games SET updated_at = COALESCE(finished_at, started_at)")
    # Counted in Python rather than with the databases' JSON functions, which differ (and older SQLite lacks),
    # and written back a few hundred games a statement: there are only so many different counts.
    groups: dict[tuple[int, int], list[str]] = {}
    for gid, moves, redo, won in db.execute("SELECT id, moves, redo, won FROM games").fetchall():
        count = len(json.loads(moves))
        groups.setdefault((count, int(bool(count or json.loads(redo) or won))), []).append(gid)
    for (count, moved), ids in groups.items():
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            db.execute(f"UPDATE games SET move_count = ?, ever_moved = ? WHERE id IN ({', '.join('?' * len(part))})",
                       (count, moved, *part))


def _v3(db: Connection) -> None:
    """Statistics resets: a reset hides earlier games from the statistics but keeps them."""
    db.execute("ALTER TABLE games ADD COLUMN counted INTEGER NOT NULL DEFAULT 1")
    db.execute("CREATE INDEX IF NOT EXISTS games_recent ON games (player, won, updated_at)")


def _v4(db: Connection) -> None:
    """The key that signs player tokens, so a player needs no row until it stores something.

    Kept in the database, so every server process on it, on any machine, signs and recognises the same tokens.
    """
    db.execute(f"CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value {db.types.blob} NOT NULL)")
    db.execute("INSERT INTO secrets (name, value) VALUES ('player-token', ?) ON CONFLICT DO NOTHING",
               (secrets.token_bytes(32),))


def _v5(db: Connection) -> None:
    """Fair play and the daily deal: help taken, games given up, the daily date and the grade picked."""
    db.execute("ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN given_up INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN daily TEXT")
    db.execute("ALTER TABLE games ADD COLUMN grade TEXT")
    db.execute("CREATE INDEX IF NOT EXISTS games_daily ON games (player, game, daily)")


def _v6(db: Connection) -> None:
    """Games of any length, the truth about each change, and limits on what one client may cost.

    - The line of moves (played, then the redo line) moves from the JSON lists of the games row into rows
      of its own (``game_moves``, one per move), so a move writes one row rather than the whole history
      again; the position after the moves played is kept with the game (``position``, packed bytes;
      NULL is the deal, or for a game stored before this step, worked out from its line when it is first
      read), and every hundredth position of the line in ``game_positions``, so undo replays at most a
      hundred moves. ``seen`` holds one bit per card the player has had on view. The JSON columns stay
      (steps only add) and are emptied.
    - ``changes`` remembers each change by its request id (the page's ``Idempotency-Key``, or one the
      server made), so that any server process answers a request sent again with what the first one did.
    - ``quotas`` counts new games per player and per client address, a minute at a time, across processes.
    - ``games_unmoved`` finds the games never moved, which expire.
    """
    t = db.types
    db.execute(f"ALTER TABLE games ADD COLUMN position {t.blob}")
    db.execute("ALTER TABLE games ADD COLUMN line_length INTEGER NOT NULL DEFAULT 0")
    db.execute(f"ALTER TABLE games ADD COLUMN seen {t.int64} NOT NULL DEFAULT 0")
    db.execute("CREATE TABLE IF NOT EXISTS game_moves (game_id TEXT NOT NULL REFERENCES games(id), "
               "ply INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (game_id, ply))")
    db.execute(f"CREATE TABLE IF NOT EXISTS game_positions (game_id TEXT NOT NULL REFERENCES games(id), "
               f"ply INTEGER NOT NULL, position {t.blob} NOT NULL, PRIMARY KEY (game_id, ply))")
    db.execute(f"CREATE TABLE IF NOT EXISTS changes (player TEXT NOT NULL, request TEXT NOT NULL, "
               f"game_id TEXT NOT NULL, version INTEGER NOT NULL, fingerprint TEXT NOT NULL, "
               f"made_at {t.real} NOT NULL, PRIMARY KEY (player, request))")
    db.execute("CREATE INDEX IF NOT EXISTS changes_by_age ON changes (made_at)")
    db.execute(f"CREATE TABLE IF NOT EXISTS quotas (bucket TEXT NOT NULL, minute {t.int64} NOT NULL, "
               f"used INTEGER NOT NULL, PRIMARY KEY (bucket, minute))")
    db.execute("CREATE INDEX IF NOT EXISTS games_unmoved ON games (started_at) WHERE ever_moved = 0")
    rows: list[tuple[str, int, str]] = []
    lengths: dict[int, list[str]] = {}
    for gid, moves, redo in db.execute(
        "SELECT id, moves, redo FROM games WHERE moves <> '[]' OR redo <> '[]'"
    ).fetchall():
        line = json.loads(moves) + json.loads(redo)
        rows += [(gid, ply, move) for ply, move in enumerate(line)]
        lengths.setdefault(len(line), []).append(gid)
    for start in range(0, len(rows), 500):
        part = rows[start:start + 500]
        db.execute("INSERT INTO game_moves (game_id, ply, move) VALUES " + ", ".join(["(?, ?, ?)"] * len(part)),
                   [value for row in part for value in row])
    for length, ids in lengths.items():
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            db.execute(f"UPDATE games SET line_length = ?, moves = '[]', redo = '[]' "
                       f"WHERE id IN ({', '.join('?' * len(part))})", (length, *part))


def _v7(db: Connection) -> None:
    """The daily race: when each game was first changed, players' display names, and their changes.

    - ``first_move_at``: the server's time of a game's first change, so a win's time on the leaderboard is the
      server's own (from its first change to its last), never the page's; NULL for a game never changed, or
      changed before this step (the leaderboard then counts from the deal, ``started_at``).
    - ``games_by_day``: a day's daily deals of one game, read for its leaderboard.
    - ``names``: a player's display name as chosen, and ``folded``, the form two names that read alike share
      (case-folded), unique across players.
    - ``name_changes``: one row a change of name, so that changes can be limited to so many a day.
    """
    t = db.types
    db.execute(f"ALTER TABLE games ADD COLUMN first_move_at {t.real}")
    db.execute("CREATE INDEX IF NOT EXISTS games_by_day ON games (daily, game)")
    db.execute(f"CREATE TABLE IF NOT EXISTS names (player TEXT PRIMARY KEY REFERENCES players(id), "
               f"name TEXT NOT NULL, folded TEXT NOT NULL UNIQUE, changed_at {t.real} NOT NULL)")
    db.execute(f"CREATE TABLE IF NOT EXISTS name_changes (player TEXT NOT NULL, made_at {t.real} NOT NULL)")
    db.execute("CREATE INDEX IF NOT EXISTS name_changes_by_player ON name_changes (player, made_at)")


def _v8(db: Connection) -> None:
    """Who won a won game: ``solution_won`` is 1 when the solver's line that "Show solution" plays made the
    winning move, so the game says so whenever it is shown again. A game won before this step reads as the
    player's win (which one the solution played out was never stored)."""
    db.execute("ALTER TABLE games ADD COLUMN solution_won INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5, _v6, _v7, _v8)
"""Migration step ``i`` brings the schema from version ``i`` to ``i + 1``. Append only."""

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: Connection | Any) -> int:
    db = connection_of(conn)
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def migrate(conn: Connection | Any, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing migration steps up to ``target``, each in its own transaction. Returns the version.

    ``conn`` is a :class:`~tableaux.web.dialect.Connection`, or a raw sqlite3 or psycopg (autocommit) one.
    """
    db = connection_of(conn)
    with db.transaction(migrating=True):
        version = current_version(db)
    if version > SCHEMA_VERSION:
        raise StoreMisconfigured(_(
            "the database has schema version {version}, newer than this tableaux understands "
            "({supported}); upgrade tableaux or use another --db").format(version=version, supported=SCHEMA_VERSION))
    while version < target:
        with db.transaction(migrating=True):
            # Another process may have migrated meanwhile: re-read under the write lock.
            version = current_version(db)
            if version < target:
                MIGRATIONS[version](db)
                version += 1
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
    return version
