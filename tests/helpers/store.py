"""Reading a store's database directly, the same way for SQLite and PostgreSQL, as the tests check it.

The SQL is the store's own dialect (``?`` placeholders); :func:`row_order` names the column that keeps
insertion order (SQLite's ``rowid``, PostgreSQL's ``seq``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tableaux.web.database import parse_database


def is_postgres(db: str | Path) -> bool:
    return not parse_database(db).is_sqlite


def query(db: str | Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one statement (a write is committed at once: the connection is in autocommit mode)."""
    conn = parse_database(db).engine().first()
    try:
        cur = conn.execute(sql, params)
        return [tuple(row) for row in cur.fetchall()] if cur.description is not None else []
    finally:
        conn.close()


def row_order(db: str | Path) -> str:
    return "seq" if is_postgres(db) else "rowid"


def columns(db: str | Path, table: str) -> set[str]:
    if is_postgres(db):
        return {r[0] for r in query(db, "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                                    (table,))}
    return {r[1] for r in query(db, f"PRAGMA table_info({table})")}


def check_integrity(db: str | Path) -> None:
    """SQLite's own checks of the file; PostgreSQL enforces the foreign keys itself, so they are read back."""
    if is_postgres(db):
        orphans = query(db, "SELECT COUNT(*) FROM games WHERE player NOT IN (SELECT id FROM players)")
        assert orphans == [(0,)]
        return
    assert query(db, "PRAGMA integrity_check") == [("ok",)]
    assert query(db, "PRAGMA foreign_key_check") == []
