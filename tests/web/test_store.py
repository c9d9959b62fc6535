"""The store, on SQLite and on PostgreSQL: migrations, compare-and-swap saves, the clock, and statistics."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tableaux
from helpers.store import is_postgres, line_of, query, rewrite
from tableaux.web import store as store_module
from tableaux.web.clock import IDLE_CAP
from tableaux.web.database import parse_database
from tableaux.web.migrations import MIGRATIONS, SCHEMA_VERSION, current_version, migrate
from tableaux.web.player_stats import GameStats, compute_stats
from tableaux.web.store import StaleVersionError, Store, StoreError


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    opened = Store(database)
    yield opened
    opened.close()


def test_new_database_is_at_the_latest_schema(store: Store, database: str) -> None:
    assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
    if is_postgres(database):
        tables = {r[0] for r in query(database, "SELECT table_name FROM information_schema.tables "
                                                "WHERE table_schema = 'public'")}
    else:
        tables = {r[0] for r in query(database, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"schema_version", "players", "games", "secrets"} <= tables


def test_a_new_sqlite_database_is_in_wal_mode(tmp_path: Path) -> None:
    """WAL lets readers run beside the writer, in this process and in the other --workers."""
    path = tmp_path / "s.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_reopening_does_not_migrate_twice(database: str) -> None:
    Store(database).close()
    Store(database).close()
    versions = [r[0] for r in query(database, "SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, SCHEMA_VERSION + 1))


def test_migrating_a_version_1_database_keeps_its_data(database: str) -> None:
    """A database written by schema version 1, with games in it, opens under the current schema intact."""
    game = tableaux.new_game("king-albert", 17)
    moves = [str(game.play(game.legal_moves()[0])) for _ in range(3)]
    conn = parse_database(database).engine().first()
    assert migrate(conn, target=1) == 1
    conn.execute("INSERT INTO players (id, created_at) VALUES ('p1', 1000.0)")
    rows = [
        ("g-won", "p1", "eagle-wing", 5, "[]", "[]", 80, 1000.0, 1300.0, 1, 250.0),
        ("g-open", "p1", "king-albert", 17, json.dumps(moves[:2]), json.dumps(moves[2:]), 4, 2000.0, None, 0, 30.0),
        ("g-fresh", "p1", "king-albert", 18, "[]", "[]", 0, 3000.0, None, 0, 0.0),
    ]
    for row in rows:
        conn.execute(
            "INSERT INTO games (id, player, game, deal, moves, redo, version, started_at, finished_at, won, "
            "elapsed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row,
        )
    conn.close()

    store = Store(database)
    assert store.schema_version() == SCHEMA_VERSION
    record = store.get_game("g-open", "p1")
    assert record is not None
    assert line_of(store, record) == (moves[:2], moves[2:]) and record.version == 4
    assert record.deal == 17 and record.elapsed == 30.0 and record.won is False
    assert record.ever_moved is True and record.updated_at == 2000.0
    assert store.get_game("g-fresh", "p1").ever_moved is False  # type: ignore[union-attr]
    won = store.get_game("g-won", "p1")
    assert won is not None and won.won and won.finished_at == 1300.0 and won.updated_at == 1300.0
    stats = store.stats(("king-albert", "eagle-wing"), "p1")
    assert stats["eagle-wing"].won == 1 and stats["eagle-wing"].best_time == 250.0
    assert stats["king-albert"].played == 1  # the untouched game does not count
    # The old games are now playable through the current code.
    assert store.current_game("p1", "king-albert").id == "g-fresh"  # type: ignore[union-attr]
    new = store.save_change(record, rewrite(moves))
    assert new.version == 5 and line_of(store, store.get_game("g-open", "p1")) == (moves, [])
    store.close()


def test_each_migration_step_applies_on_top_of_the_previous(new_database: Callable[[], str]) -> None:
    for target in range(1, SCHEMA_VERSION + 1):
        conn = parse_database(new_database()).engine().first()
        assert migrate(conn, target=target) == target
        assert current_version(conn) == target
        assert migrate(conn) == SCHEMA_VERSION
        conn.close()


def test_processes_opening_a_new_database_at_once_migrate_it_once(database: str) -> None:
    """Several server processes starting together: each step is taken once, under the migration lock."""
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def open_store() -> None:
        barrier.wait()
        try:
            Store(database).close()
        except BaseException as exc:  # reported below, with the others
            errors.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert [r[0] for r in query(database, "SELECT version FROM schema_version ORDER BY version")] == list(
        range(1, SCHEMA_VERSION + 1))
    assert len(query(database, "SELECT value FROM secrets")) == 1


def test_opening_a_new_sqlite_database_waits_for_another_process_writing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Switching a new file to WAL needs it to itself, and SQLite refuses at once (no busy wait) while another
    connection writes, as a process opening the same new database a moment earlier does while it migrates."""
    from tableaux.web import sqlite_engine

    path = tmp_path / "new.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("CREATE TABLE elsewhere (x INTEGER)")
    waits: list[int] = []

    def the_other_write_ends() -> None:  # the store's wait between two tries
        waits.append(1)
        if len(waits) == 1:
            other.execute("COMMIT")

    monkeypatch.setattr(sqlite_engine, "wait_a_moment", the_other_write_ends)
    store = Store(path)
    assert waits and store.schema_version() == SCHEMA_VERSION
    store.close()
    other.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_newer_schema_is_refused_not_damaged(database: str) -> None:
    Store(database).close()
    query(database, "INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 5,))
    with pytest.raises(StoreError, match="newer than this tableaux understands"):
        Store(database)
    assert len(query(database, "SELECT version FROM schema_version")) == SCHEMA_VERSION + 1


def test_unopenable_database_path_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StoreError):
        Store(tmp_path / "dir.sqlite3")


def test_a_file_that_is_not_a_database_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list: eggs, milk\n" * 100)
    with pytest.raises(StoreError, match="not a database"):
        Store(path)
    assert path.read_text().startswith("shopping list")  # and it was left alone


def test_a_database_under_a_file_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="cannot create the folder"):
        Store(tmp_path / "file" / "db.sqlite3")


def test_players_are_stored_by_hash_of_their_token(store: Store, database: str) -> None:
    token, player = store.new_player()
    assert token not in player and store.player_exists(player)
    assert not store.player_exists("0" * 64)
    assert query(database, "SELECT id FROM players") == [(player,)]


def test_save_change_is_a_compare_and_swap(store: Store) -> None:
    _, player = store.new_player()
    record = store.create_game(player, "king-albert", 1)
    first = store.save_change(record, rewrite(["T1>T2"]))
    assert first.version == 1
    with pytest.raises(StaleVersionError):
        store.save_change(record, rewrite(["T3>T4"]))  # made against version 0
    assert line_of(store, store.get_game(record.id, player)) == (["T1>T2"], [])


def test_concurrent_saves_against_one_version_store_exactly_one(store: Store) -> None:
    _, player = store.new_player()
    record = store.create_game(player, "eagle-wing", 2)
    results: list[str] = []
    barrier = threading.Barrier(8)

    def save(i: int) -> None:
        barrier.wait()
        try:
            store.save_change(record, rewrite([f"move-{i}"]))
            results.append(f"move-{i}")
        except StaleVersionError:
            results.append("stale")

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    winners = [r for r in results if r != "stale"]
    assert len(winners) == 1 and results.count("stale") == 7
    stored = store.get_game(record.id, player)
    assert stored is not None and line_of(store, stored)[0] == winners and stored.version == 1


def test_other_players_games_are_invisible(store: Store) -> None:
    _, alice = store.new_player()
    _, bob = store.new_player()
    record = store.create_game(alice, "king-albert", 3)
    assert store.get_game(record.id, bob) is None
    assert store.current_game(bob) is None
    with pytest.raises(StaleVersionError):  # a save naming the wrong player changes nothing
        store.save_change(record.__class__(**{**record.__dict__, "player": bob}), rewrite(["x"]))


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_clock_starts_at_the_first_move_and_ignores_long_absences(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(1000.0)
    monkeypatch.setattr(store_module.time, "time", clock)
    _, player = store.new_player()
    record = store.create_game(player, "king-albert", 4)
    clock.now = 1500.0  # time before the first move is not play time
    assert record.elapsed_now() == 0.0
    record = store.save_change(record, rewrite(["a"]))
    assert record.elapsed == 0.0
    clock.now = 1530.0
    assert record.elapsed_now() == 30.0
    record = store.save_change(record, rewrite(["a", "b"]))
    assert record.elapsed == 30.0
    clock.now = 1530.0 + 5 * IDLE_CAP  # walked away: at most IDLE_CAP counts
    assert record.elapsed_now() == 30.0 + IDLE_CAP
    record = store.save_change(record, rewrite(["a", "b", "c"], won=True))
    assert record.won and record.elapsed == 30.0 + IDLE_CAP
    clock.now += 1000.0
    assert record.elapsed_now() == 30.0 + IDLE_CAP  # a won game's clock is stopped


# --- statistics -------------------------------------------------------------------
def stats_of(*games: tuple[bool, bool, float, int]) -> GameStats:
    return compute_stats(list(games))


W = (True, True, 100.0, 90)
L = (False, True, 50.0, 10)
UNTOUCHED = (False, False, 0.0, 0)


def test_no_games_no_statistics() -> None:
    s = compute_stats([])
    assert s.to_dict() == {"played": 0, "won": 0, "win_rate": 0.0, "current_streak": 0, "best_streak": 0,
                           "best_time": None, "worst_time": None, "fewest_moves": None, "assisted": 0,
                           "daily_played": 0, "daily_won": 0, "daily_streak": 0, "best_daily_streak": 0}


def test_streaks_win_rate_times_and_moves() -> None:
    s = compute_stats([W, (True, True, 80.0, 120), L, W, (True, True, 300.0, 85), W, L, UNTOUCHED])
    assert s.played == 7 and s.won == 5
    assert s.win_rate == pytest.approx(5 / 7)
    assert s.best_streak == 3
    assert s.current_streak == 0  # the last played game was lost (a later game exists)
    assert s.best_time == 80.0 and s.worst_time == 300.0 and s.fewest_moves == 85


def test_the_newest_unfinished_game_leaves_the_streak_open() -> None:
    assert stats_of(W, W, L).current_streak == 2  # still being played
    assert stats_of(W, W, L).played == 3
    assert stats_of(W, W, L, UNTOUCHED).current_streak == 0  # abandoned: a new game was started
    assert stats_of(W, W, UNTOUCHED).current_streak == 2


def test_the_game_in_progress_can_be_an_older_one() -> None:
    # W, then A (played, unfinished), then B (played, unfinished): with B in progress A is lost ...
    assert compute_stats([W, L, L], in_progress={2}).current_streak == 0
    # ... but when the player went back to A (it changed last), B is the abandoned one.
    assert compute_stats([W, L, L], in_progress={1}).current_streak == 0
    assert compute_stats([W, W, L], in_progress={2}).current_streak == 2
    assert compute_stats([W, L, W], in_progress={1}).current_streak == 2  # A still open between two wins
    assert compute_stats([W, L], in_progress=()).current_streak == 0


def test_a_game_left_for_a_new_deal_is_lost_unless_the_player_goes_back_to_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(1000.0)
    monkeypatch.setattr(store_module.time, "time", clock)
    _, player = store.new_player()

    def tick() -> None:
        clock.now += 10

    first = store.create_game(player, "eagle-wing", 1)
    tick()
    store.save_change(first, rewrite(["m"], won=True))
    tick()
    unfinished = store.create_game(player, "eagle-wing", 2)
    tick()
    unfinished = store.save_change(unfinished, rewrite(["m"]))
    tick()
    second = store.create_game(player, "eagle-wing", 3)
    tick()
    store.save_change(second, rewrite(["m"], won=True))
    # Won, unfinished (left for another deal), won: the unfinished game broke the streak.
    assert store.stats(["eagle-wing"], player)["eagle-wing"].current_streak == 1
    tick()
    store.save_change(unfinished, rewrite(["m", "n"]))  # ... but the player went back to it
    assert store.current_game(player).id == unfinished.id  # type: ignore[union-attr]
    s = store.stats(["eagle-wing"], player)["eagle-wing"]
    assert s.current_streak == 2 and s.played == 3 and s.won == 2  # still open: it may yet be won
    tick()
    store.create_game(player, "eagle-wing", 4)  # a fresh deal: now it is left for good
    assert store.stats(["eagle-wing"], player)["eagle-wing"].current_streak == 1


def test_untouched_games_are_not_played() -> None:
    s = stats_of(UNTOUCHED, UNTOUCHED, W)
    assert s.played == 1 and s.win_rate == 1.0


def test_reset_leaves_old_games_out_but_keeps_them(store: Store, database: str) -> None:
    _, alice = store.new_player()
    _, bob = store.new_player()
    for player in (alice, bob):
        for name in ("king-albert", "eagle-wing"):
            record = store.create_game(player, name, 9)
            store.save_change(record, rewrite(["x"], won=True))
    names = ("king-albert", "eagle-wing")
    assert store.reset_stats("king-albert", alice) == 1
    assert store.stats(names, alice)["king-albert"].played == 0
    assert store.stats(names, alice)["eagle-wing"].won == 1
    assert store.stats(names, bob)["king-albert"].won == 1
    assert store.stats(names)["king-albert"].won == 1  # everybody: only bob's game is left
    assert store.reset_stats() == 3
    assert all(s.played == 0 for s in store.stats(names).values())
    assert len(store.players()) == 2
    assert query(database, "SELECT COUNT(*) FROM games") == [(4,)]


def test_only_tokens_the_store_signed_stand_for_a_player(new_database: Callable[[], str]) -> None:
    store = Store(new_database())
    token, player = store.issue_player()
    assert store.player_for(token) == player and store.players() == []  # issued, written nowhere
    for i in range(len(token)):  # any one character changed, the last one's spare bits included
        for other in "AQgw-_9z":
            forged = token[:i] + other + token[i + 1:]
            if forged != token:
                assert store.player_for(forged) is None, forged
    # Another database has another key: its tokens mean nothing here.
    other = Store(new_database())
    elsewhere, _ = other.issue_player()
    other.close()
    assert store.player_for(elsewhere) is None
    # Tokens from before signing are known by their row.
    old_token = "B" * 43
    with store._write() as conn:
        conn.execute("INSERT INTO players (id, created_at) VALUES (?, 0)", (store_module.hash_token(old_token),))
    assert store.player_for(old_token) == store_module.hash_token(old_token)
    store.close()
