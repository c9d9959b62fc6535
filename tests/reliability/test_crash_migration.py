"""A schema migration killed midway, on SQLite and on PostgreSQL: each step is one transaction, so a kill at any
moment leaves a whole schema version (integrity intact, every game's moves where that version keeps them), and
the next opening of the store finishes the migration.

A version-1 database of 40,000 games is opened by the store in a process killed at chosen points: on SQLite at
counted steps of SQLite's own work, on PostgreSQL at shares of the measured opening time.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tableaux
from helpers.crash import HANG
from helpers.store import check_integrity, columns, query, stored_lines


def old_database(db: str, games: int) -> list[tuple[str, str]]:
    """A schema-1 database (as the first release wrote it) holding ``games`` games; their ids and moves."""
    from tableaux.web.database import parse_database
    from tableaux.web.migrations import migrate

    conn = parse_database(db).engine().first()
    migrate(conn, target=1)
    conn.execute("INSERT INTO players (id, created_at) VALUES ('p1', 1.0)")
    game = tableaux.new_game("king-albert", 1)
    line = [str(game.play(game.legal_moves()[0])) for _ in range(6)]
    rows = [(f"g{i:06d}", json.dumps(line[:i % 7])) for i in range(games)]
    with conn.transaction():
        for chunk in range(0, games, 500):  # many rows a statement: the same SQL for both stores, and quick
            part = rows[chunk:chunk + 500]
            conn.execute(
                "INSERT INTO games (id, player, game, deal, moves, redo, version, started_at) VALUES "
                + ", ".join(["(?, 'p1', 'king-albert', 1, ?, '[]', 0, 1.0)"] * len(part)),
                [value for row in part for value in row],
            )
    conn.close()
    return rows


KILLED_AT_STEP = """
import os, signal, sqlite3, sys
from tableaux.web.store import Store

path, at = sys.argv[1], int(sys.argv[2])
connect, steps = sqlite3.connect, 0

def step():
    global steps
    steps += 1
    if steps == at:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0

def counting(*args, **kwargs):
    conn = connect(*args, **kwargs)
    conn.set_progress_handler(step, 1000)
    return conn

sqlite3.connect = counting
Store(path)
print(steps)
"""
"""Open a database with the store and SIGKILL the process at the ``at``-th step of SQLite's work (a step is
1,000 virtual machine instructions), in the middle of whatever statement runs then; ``at`` 0 never kills
and prints the steps the whole opening took."""


def test_a_migration_killed_midway_leaves_a_consistent_database_that_finishes_later(tmp_path: Path) -> None:
    """Each migration step is one transaction: a kill at any moment leaves a whole schema version, never half.

    The kills land at chosen points of SQLite's own work, not after a time, so a busy machine kills
    at the same places as an idle one.
    """
    import signal
    import subprocess
    import sys

    from tableaux.web.migrations import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    rows = old_database(str(path), 40_000)
    original = path.read_bytes()

    def open_killed_at(at: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", KILLED_AT_STEP, str(path), str(at)],
                              capture_output=True, text=True, timeout=HANG)

    whole = open_killed_at(0)
    assert whole.returncode == 0, whole.stderr
    steps = int(whole.stdout)
    assert steps > 20, "the migration is too short to be killed midway"
    rng = random.Random(3)
    seen_versions: set[int] = set()
    for at in sorted(rng.sample(range(1, steps), 12)):
        for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        path.write_bytes(original)
        killed = open_killed_at(at)
        assert killed.returncode == -signal.SIGKILL, (at, killed.returncode, killed.stderr)
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            version = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
            assert ("move_count" in columns) == (version >= 2) and ("counted" in columns) == (version >= 3)
        assert stored_moves(str(path), version) == rows
        seen_versions.add(version)
    assert len(seen_versions - {SCHEMA_VERSION}) >= 2, f"the kills left only versions {seen_versions}"
    db = str(path)
    assert_a_later_opening_finishes(db, rows)


def stored_moves(db: str, version: int) -> list[tuple[str, str]]:
    """Every game's id and moves played (as JSON), wherever the schema at ``version`` keeps them: in the games
    row's JSON list before version 6, in rows of their own from then on."""
    if version < 6:
        return sorted(query(db, "SELECT id, moves FROM games"))
    return sorted((gid, json.dumps(moves)) for gid, (moves, _redo) in stored_lines(db).items())


def assert_a_later_opening_finishes(db: str, rows: list) -> None:
    """Opening the store after the kills finishes the migration, and every game keeps its moves and counts."""
    from tableaux.web.migrations import SCHEMA_VERSION
    from tableaux.web.store import Store

    store = Store(db)  # finishes whatever is left
    assert store.schema_version() == SCHEMA_VERSION
    store.close()
    assert stored_moves(db, SCHEMA_VERSION) == rows
    check_integrity(db)  # every line replays; the old JSON lists are emptied
    counts = query(db, "SELECT move_count, line_length, ever_moved, moves, redo FROM games")
    assert all(count == length and ever == (count > 0) and (moves, redo) == ("[]", "[]")
               for count, length, ever, moves, redo in counts)


@pytest.mark.parametrize("new_database", ["postgresql"], indirect=True)
def test_a_migration_killed_midway_on_postgresql_leaves_a_consistent_database_that_finishes_later(
    new_database: Callable[[], str],
) -> None:
    """Each migration step is one transaction on PostgreSQL too: a kill leaves a whole schema version, never half.

    PostgreSQL's work cannot be counted in steps from the client, so the kills land at shares of the measured
    opening time, halved whenever the migration was already done: a slow or fast machine only moves them.
    """
    import subprocess
    import sys

    from tableaux.web.migrations import SCHEMA_VERSION

    command = [sys.executable, "-c", "import sys; from tableaux.web.store import Store; Store(sys.argv[1])"]
    probe = new_database()
    old_database(probe, 40_000)
    started = time.monotonic()
    subprocess.run([*command, probe], check=True)
    full = time.monotonic() - started  # how long opening (and migrating) takes, start to end
    db = new_database()
    rows = old_database(db, 40_000)
    rng = random.Random(3)
    seen_versions: set[int] = set()
    midway = 0  # kills that landed before the migration was done
    fraction = 0.5  # of the measured opening time; halved whenever a kill comes too late to test anything
    for _ in range(12):
        proc = subprocess.Popen([*command, db])
        time.sleep(rng.uniform(0.6, 1.0) * fraction * full)
        proc.kill()
        proc.wait()
        check_integrity(db)
        version = query(db, "SELECT MAX(version) FROM schema_version")[0][0]
        names = columns(db, "games")
        assert ("move_count" in names) == (version >= 2) and ("counted" in names) == (version >= 3)
        assert stored_moves(db, version) == rows
        seen_versions.add(version)
        if version == SCHEMA_VERSION:
            # The migration finished before the kill (a loaded machine starts Python slowly or quickly):
            # start again from the old schema and kill sooner, so some kill surely lands midway.
            db = new_database()
            old_database(db, 40_000)
            fraction /= 2
        else:
            midway += 1
            # Two versions left by kills, or four kills into the same step (most land in the longest one, which
            # moves every game's moves into rows of their own), are enough: each kill is checked as above.
            if len(seen_versions - {SCHEMA_VERSION}) >= 2 or midway >= 4:
                break
    assert seen_versions - {SCHEMA_VERSION}, "no kill landed before the migration was done"
    assert_a_later_opening_finishes(db, rows)
