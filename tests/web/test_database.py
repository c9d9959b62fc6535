"""``--db``: which database it names, what it refuses (in one line, before anything is created), and
what a PostgreSQL server that cannot be used answers."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx2
import pytest

from helpers.store import line_of, rewrite
from tableaux.cli import main
from tableaux.web.database import Database, parse_database
from tableaux.web.store import Store, StoreError


def test_a_file_path_or_an_sqlite_url_is_sqlite(tmp_path: Path) -> None:
    assert parse_database("games.sqlite3") == Database(path=Path("games.sqlite3"))
    assert parse_database(f"{tmp_path}/g.db") == Database(path=tmp_path / "g.db")
    assert parse_database("~/g.db").path == Path.home() / "g.db"
    assert parse_database("./odd:name.db").path == Path("odd:name.db")
    assert parse_database("C:games.db").path == Path("C:games.db")  # a drive letter, not a scheme
    # SQLAlchemy's spelling: three slashes before a relative path, four before an absolute one.
    assert parse_database("sqlite:///games.db").path == Path("games.db")
    assert parse_database(f"sqlite:///{tmp_path}/g.db").path == tmp_path / "g.db"
    assert parse_database(Path("postgresql://x")).path == Path("postgresql://x")  # a Path is always a file


@pytest.mark.parametrize("written", ["{folder}/g.db", "sqlite:///{folder}/g.db"])
def test_a_database_file_in_a_folder_that_does_not_exist_is_refused_not_made(tmp_path: Path, written: str) -> None:
    # A mistyped folder would start a new, empty database, and every player's games would seem lost.
    folder = tmp_path / "tablaux"
    with pytest.raises(StoreError, match="does not exist; create it first") as refused:
        parse_database(written.format(folder=folder))
    assert str(folder) in str(refused.value) and "\n" not in str(refused.value)
    assert not folder.exists()


def test_a_postgresql_url_is_postgresql() -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    for url in ("postgresql://user@db.example/tableaux", "postgres://user@127.0.0.1:5433/games",
                "postgresql:///tableaux?host=/run/postgresql"):
        database = parse_database(url)
        assert database.url == url and database.path is None and not database.is_sqlite


def test_a_libpq_key_value_string_is_postgresql_not_a_file_name() -> None:
    """libpq reads 'host=... dbname=...' wherever it reads a URL, and so does --db: it is never an SQLite file."""
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    for text in ("host=/run/postgresql dbname=tableaux user=tableaux", "dbname=tableaux",
                 "host = db.example port=5433 dbname='my games' sslmode=require"):
        database = parse_database(text)
        assert database.url == text and database.path is None and not database.is_sqlite
    with pytest.raises(StoreError, match="not a PostgreSQL connection string libpq can read") as refused:
        parse_database("host=db.example colour=blue")
    assert '"colour"' in str(refused.value) and "./NAME" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("db", [
    "mysql://root@db.example/games", "http://example.com/games.db", "postgresql:tableaux", "sqlite://host/g.db",
    "sqlite:///", "sqlite:///:memory:", "games:old.db", "   ",
])
def test_anything_else_is_refused_in_one_line_that_says_what_is_accepted(db: str) -> None:
    with pytest.raises(StoreError) as refused:
        parse_database(db)
    message = str(refused.value)
    assert "\n" not in message
    assert "sqlite:///PATH" in message and "postgresql://USER@HOST/DATABASE" in message


def test_a_url_libpq_cannot_read_is_refused_with_libpqs_reason() -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    with pytest.raises(StoreError, match="not a PostgreSQL URL libpq can read") as refused:
        parse_database("postgresql://user@host/db?colour=blue")
    assert '"colour"' in str(refused.value) and "\n" not in str(refused.value)


def test_a_password_in_a_url_is_never_shown() -> None:
    with pytest.raises(StoreError) as refused:
        parse_database("mysql://me:s3cret@db.example/games")
    assert "s3cret" not in str(refused.value) and "me:***@" in str(refused.value)
    assert str(Database(url="postgresql://me:s3cret@db.example/games")) == "postgresql://me:***@db.example/games"
    assert (str(Database(url="postgresql://db.example/games?user=me&password=s3cret&sslmode=require"))
            == "postgresql://db.example/games?user=me&password=***&sslmode=require")


def test_a_password_in_a_key_value_string_is_never_shown() -> None:
    assert str(Database(url="host=db.example password=s3cret dbname=games")) == (
        "host=db.example password=*** dbname=games")
    assert str(Database(url=r"dbname=games password = 'it\'s s3cret' user=me")) == "dbname=games password = *** user=me"
    assert str(Database(url=r"password='s3cret\\' host=h")) == "password=*** host=h"


@pytest.mark.parametrize(("url", "seen"), [
    ("postgresql://db.example/games?sslpassword=s3cret&sslmode=require",
     "postgresql://db.example/games?sslpassword=***&sslmode=require"),
    ("postgresql://db.example/games?%73sl%70assword=s3cret", "postgresql://db.example/games?%73sl%70assword=***"),
    ("postgresql://me@db.example/games?password=ab#s3cret", "postgresql://me@db.example/games?password=***"),
    ("host=db.example sslpassword=s3cret dbname=games", "host=db.example sslpassword=*** dbname=games"),
    (r"host=db.example password=ab\ s3cret dbname=games", "host=db.example password=*** dbname=games"),
])
def test_every_secret_parameter_is_hidden_wherever_the_database_is_shown(url: str, seen: str) -> None:
    """libpq reads a secret from each of these (a name in the query may be percent-encoded; a # is part of a
    value); the start line, the outage log's lines and the refusals all show the database without it."""
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    from psycopg.conninfo import conninfo_to_dict

    from tableaux.web.postgres_engine import PostgresEngine

    assert "s3cret" in str(conninfo_to_dict(url))  # what is hidden is a secret libpq reads
    assert str(parse_database(url)) == seen
    assert PostgresEngine(url).health.name == seen
    spelled = " " if "?" not in url else "&"
    with pytest.raises(StoreError, match="libpq can read") as refused:
        parse_database(url + spelled + "colour=blue")
    assert "s3cret" not in str(refused.value) and "***" in str(refused.value)


@pytest.mark.parametrize(("url", "token"), [
    ("postgresql://games:s3cr%zzet@db.example/games", None),  # a password libpq cannot decode
    ("postgresql://games@db.example/games?sslpassword=s3cr%zz", None),
    ("postgresql://games@db.example/g%zzames", "g%zzames"),  # no secret: the refusal still shows what was wrong
])
def test_libpqs_refusal_of_a_password_it_cannot_read_does_not_repeat_the_password(url: str, token: str | None) -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    with pytest.raises(StoreError, match="invalid percent-encoded token") as refused:
        parse_database(url)
    assert "s3cr" not in str(refused.value)
    assert f'"{token or "***"}"' in str(refused.value)


@pytest.mark.parametrize("command", ["serve", "stats"])
def test_the_command_line_refuses_a_bad_db_with_one_line_and_creates_nothing(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = [command, "--db", "mysql://root@db.example/games"] + (["--no-browser"] if command == "serve" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mysql:" in err and "postgresql://USER@HOST/DATABASE" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.server
@pytest.mark.slow
def test_an_unreachable_postgresql_server_at_start_is_one_line_and_the_server_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server started before its database (or during an outage) says so in one line and serves: every request
    is answered 503 with Retry-After, saying that nothing changed, until the database answers, and so is the
    health check. No folder named
    'postgresql:' with SQLite inside, as `serve --db postgresql://...` once made."""
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    from helpers.net import free_port
    from helpers.server import server, wait_until_answering

    monkeypatch.chdir(tmp_path)
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", "postgresql://nobody@127.0.0.1:1/games"]
    with server(args) as s:
        url = s.url()
        s.wait_for("cannot be reached yet .*Connection refused.* answered 503")
        wait_until_answering(url)
        r = httpx2.post(url + "api/games", json={"game": "king-albert", "deal": 1}, timeout=30)
        assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
        answer = r.json()
        assert answer["cause"] == "database" and answer["outcome"] == "unchanged"
        assert "nothing was changed" in answer["error"] and "earlier moves are safe" in answer["error"]
        assert "127.0.0.1" not in answer["error"] and "refused" not in answer["error"]  # the log's, not theirs
        health = httpx2.get(url + "api/health", timeout=30)  # what a load balancer or a monitor sees
        assert health.status_code == 503 and health.json()["cause"] == "database", health.text
        assert httpx2.head(url + "api/health", timeout=30).status_code == 503
    assert list(tmp_path.iterdir()) == []


def refusal(command: str, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``tableaux COMMAND --db URL`` run to its end (a server that started instead would time out), with no
    password but the URL's: no PGPASSWORD, no password file."""
    env = {k: v for k, v in os.environ.items() if k != "PGPASSWORD"}
    env.update(PGPASSFILE=str(cwd / "no-passfile"), XDG_DATA_HOME=str(cwd / "xdg"))
    from helpers.net import free_port

    serving = ["--no-browser", "--port", str(free_port())] if command == "serve" else []
    return subprocess.run([sys.executable, "-m", "tableaux", command, "--db", url, *serving],
                          capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["serve", "stats"])
@pytest.mark.parametrize(("url", "wrong"), [
    ("postgresql://me:s3cret@127.0.0.1:1/games?sslmode=bogus", 'invalid sslmode value: "bogus"'),
    ("postgresql://me:s3cret@127.0.0.1:abc/games", "port 'abc' is not a number from 1 to 65535"),
    # by a host name, libpq looked the port up as a service, failed as an unreachable host would, and the server
    # waited for it
    ("postgresql://me:s3cret@localhost:notaport/games", "port 'notaport' is not a number from 1 to 65535"),
    ("host=localhost port=99999 dbname=games password=s3cret", "port '99999' is not a number from 1 to 65535"),
])
def test_a_url_libpq_cannot_use_refuses_the_start_in_one_line_that_says_what_is_wrong(
    command: str, url: str, wrong: str, tmp_path: Path,
) -> None:
    """Waiting for the server cannot mend a malformed URL: it is a bad argument (exit status 2), not an outage to
    answer 503 through, and never a 'try again in a moment'."""
    pytest.importorskip("psycopg", reason="PostgreSQL URLs are read by psycopg (pip install '.[postgres]')")
    proc = refusal(command, url, tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1 and wrong in proc.stderr, proc.stderr
    assert "s3cret" not in proc.stdout + proc.stderr and "try again" not in proc.stderr.lower()


BLOCKED = """
import sys
for name in ("psycopg", "psycopg_pool"):
    sys.modules[name] = None  # as if the postgres extra were not installed
from tableaux.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", ["serve", "stats"])
def test_a_postgresql_url_without_the_extra_names_the_extra(command: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED, command, "--db", "postgresql://user@127.0.0.1/games",
         *(["--no-browser", "--port", "1"] if command == "serve" else [])],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")},
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
    assert "pip install '.[postgres]'" in proc.stderr
    assert list(tmp_path.iterdir()) == []


# --- a PostgreSQL server that is there -------------------------------------------------------------
def test_a_database_that_does_not_exist_is_a_store_error_naming_it(postgres_cluster: Any) -> None:
    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL database") as refused:
        Store(postgres_cluster.url("no_such_database"))
    assert "no_such_database" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("command", ["serve", "stats"])
@pytest.mark.parametrize(("password", "wrong"), [
    ("", "asks for a password and none was given; put it in ~/.pgpass or PGPASSWORD"),
    ("wr0ng", 'password authentication failed for user "keeper"'),
])
def test_a_missing_or_refused_password_refuses_the_start_in_one_line_that_never_shows_it(
    command: str, password: str, wrong: str, postgres_cluster: Any, tmp_path: Path,
) -> None:
    """A server that asks for a password the server process does not have is a configuration to mend, not an
    outage: one line saying so, exit status 2, and the password given (a wrong one) is never printed."""
    url = postgres_cluster.password_role("keeper", "s3cret")
    if password:
        url = url.replace("keeper@", f"keeper:{password}@")
    proc = refusal(command, url, tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1 and wrong in proc.stderr, proc.stderr
    assert "wr0ng" not in proc.stdout + proc.stderr and "try again" not in proc.stderr.lower()


def test_a_role_that_may_not_create_the_tables_is_told_to_own_the_database(
    postgres_cluster: Any, tmp_path: Path,
) -> None:
    """Since PostgreSQL 15 only a database's owner may create tables in its public schema: a role that is not is a
    configuration to mend, and the one line says how, without the SQL's position marks."""
    database = postgres_cluster.new_database()  # owned by the cluster's own role
    try:
        url = postgres_cluster.password_role("visitor", "s3cret").replace("visitor@", "visitor:s3cret@")
        url = url.rsplit("/", 1)[0] + "/" + database.rsplit("/", 1)[1]
        proc = refusal("serve", url, tmp_path)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.count("\n") == 1 and "permission denied for schema public" in proc.stderr, proc.stderr
        assert "make it the database's owner (createdb -O ROLE" in proc.stderr and "LINE 1" not in proc.stderr
        assert "s3cret" not in proc.stderr
    finally:
        postgres_cluster.drop_database(database)


def test_a_key_value_string_opens_the_postgresql_database_it_names(
    postgres_cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # (where an SQLite file of that name would be made)
    url = postgres_cluster.new_database()
    try:
        store = Store(f"host=127.0.0.1 port={postgres_cluster.port} dbname={url.rsplit('/', 1)[1]} user=tableaux")
        _, player = store.new_player()
        assert store.player_exists(player) and store.path is None
        store.close()
        store = Store(url)  # the same database as its URL names
        assert store.player_exists(player)
        store.close()
        assert list(tmp_path.iterdir()) == []
    finally:
        postgres_cluster.drop_database(url)


def test_moves_are_committed_synchronously_even_where_the_server_says_otherwise(postgres_cluster: Any) -> None:
    """With synchronous_commit = off a server acknowledges commits it may still lose; the store turns it on."""
    import psycopg

    url = postgres_cluster.new_database()
    name = url.rsplit("/", 1)[1]
    try:
        with psycopg.connect(postgres_cluster.url(), autocommit=True) as conn:
            conn.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        with psycopg.connect(url) as conn:
            assert conn.execute("SHOW synchronous_commit").fetchone() == ("off",)
        store = Store(url)
        with store._connect() as conn:
            assert conn.execute("SHOW synchronous_commit").fetchone() == ("on",)
        store.close()
    finally:
        postgres_cluster.drop_database(url)


def test_a_restarted_postgresql_server_costs_no_more_than_the_requests_during_the_restart(
    postgres_cluster: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Connections the pool holds die with the server; the pool checks one that sat idle as it lends it, so the
    first request after the restart gets a new connection instead of an error, however many idle connections
    died (here four, which requests at once left in the pool). (Idle here means any time at all: the test does
    not wait out the second a busy server's connections go unchecked.)"""
    import psycopg

    from tableaux.web import postgres_engine

    monkeypatch.setattr(postgres_engine, "CHECK_AFTER_IDLE", 0.0)
    url = postgres_cluster.new_database()
    try:
        store = Store(url)
        _, player = store.new_player()
        record = store.create_game(player, "king-albert", 3)
        with contextlib.ExitStack() as held:  # four operations at once: four connections, idle in the pool after
            for _ in range(4):
                held.enter_context(store._engine.connection())
        with psycopg.connect(postgres_cluster.url(), autocommit=True) as conn:  # what a restart does to them
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE datname = %s AND pid <> pg_backend_pid()", (url.rsplit("/", 1)[1],))
        assert store.save_change(record, rewrite(["T1>T2"])).version == 1
        assert line_of(store, store.get_game(record.id, player)) == (["T1>T2"], [])
        store.close()
    finally:
        postgres_cluster.drop_database(url)


def test_an_operation_waiting_for_a_connection_when_the_pool_is_renewed_takes_one_from_the_new_pool(
    postgres_cluster: Any,
) -> None:
    """When the database answers again after a lost connection the pool is closed and a new one made; a request
    that was waiting for a connection of the old one (asking, say, whether a change whose reply was lost was
    stored) is served by the new pool rather than told the database is away."""
    import threading
    import time

    from tableaux.web import postgres_engine

    url = postgres_cluster.new_database()
    store = Store(url)
    try:
        engine = store._engine
        old = engine._get_pool()
        held = [old.getconn() for _ in range(postgres_engine.POOL_SIZE)]
        outcome: list[object] = []
        waiter = threading.Thread(target=lambda: outcome.append(_attempt(store.find_change, "nobody", "r-1")))
        waiter.start()
        deadline = time.monotonic() + 30
        while old.get_stats().get("requests_waiting", 0) < 1:
            assert time.monotonic() < deadline and waiter.is_alive(), outcome
            time.sleep(0.01)
        engine._came_back()  # what the watch does once the database answers again
        waiter.join()
        for conn in held:
            old.putconn(conn)
        assert outcome == [None]  # answered by the new pool: no such change
        assert engine._get_pool() is not old
    finally:
        store.close()
        postgres_cluster.drop_database(url)


def _attempt(action: Any, *args: Any) -> object:
    try:
        return action(*args)
    except Exception as exc:  # the test reports it
        return exc


def looks(*failures: Exception | None) -> Any:
    """A look for the database that fails with each of ``failures`` in turn; None: it answers."""
    tries = iter(failures)

    def look() -> None:
        failure = next(tries)
        if failure:
            raise failure

    return look


def _watched(health: Any, reason: str) -> None:
    """``health.failed(reason)``, and wait for the watch it starts to end."""
    import threading

    health.failed(reason)
    for thread in threading.enumerate():
        if thread.name == "tableaux-database-watch":
            thread.join()


def test_a_failure_the_first_look_finds_over_is_logged_as_short_at_most_once_a_minute_with_a_count(
        caplog: pytest.LogCaptureFixture) -> None:
    """A request failed, though the database answered again at once: the host reads of it, and of how many more,
    without a line for each; a real outage still gets its two lines, and no such line."""
    from tableaux.web.outage import Health

    now = [0.0]
    health = Health("games@db", look=lambda: None)
    health._blips.clock = lambda: now[0]
    with caplog.at_level("WARNING", logger="tableaux.web"):
        _watched(health, "server closed the connection unexpectedly")
        for moment in (1.0, 2.0, 61.0):
            now[0] = moment
            _watched(health, "SSL SYSCALL error: EOF detected")
    assert [r.getMessage() for r in caplog.records] == [
        "The saved games database games@db failed 1 request and answered again at once (server closed the "
        "connection unexpectedly).",
        "The saved games database games@db failed 3 requests, each time answering again at once, since the last "
        "such line (the last: SSL SYSCALL error: EOF detected)."]
    assert not health.down
    caplog.clear()
    outage = Health("games@db", look=looks(OSError("connection refused"), None))
    with caplog.at_level("WARNING", logger="tableaux.web"):
        _watched(outage, "connection refused")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and "cannot be used: connection refused" in lines[0] and "answers again" in lines[1]
    assert not outage.down


def test_a_file_that_found_its_disk_full_while_it_failed_otherwise_is_back_only_when_a_write_works() -> None:
    """An SQLite file that first failed to be read (an I/O error), then had a write fail for want of room: a read
    that works says the file can be read, not that a change would find room, so the health check still says the
    disk is full until a write works."""
    from tableaux.web.outage import Health, StoreFull

    health = Health("games.sqlite3")
    health.check_room()
    health.failed("disk I/O error")
    health.failed("database or disk is full", full=True)
    health.worked(wrote=False)
    assert health.down
    with pytest.raises(StoreFull):
        health.check_room()
    health.worked(wrote=True)
    assert not health.down
    health.check_room()


def test_a_database_that_stays_away_for_a_new_reason_says_the_new_reason_once(
        caplog: pytest.LogCaptureFixture) -> None:
    """Down when the server started, then back but refusing its password: the log said only the first reason while
    every request got 503, so the host looked for a network fault."""
    from tableaux.web.outage import Health

    refused, wrong = OSError("connection refused"), OSError('password authentication failed for user "games"')
    outage = Health("games@db", look=looks(refused, wrong, refused, wrong, wrong, None))
    with caplog.at_level("WARNING", logger="tableaux.web"):
        _watched(outage, "connection refused")
    lines = [r.getMessage() for r in caplog.records]
    assert lines[:2] == [
        "The saved games database games@db cannot be used: connection refused. Requests that need it are refused, "
        "saying so, until it can.",
        'The saved games database games@db still cannot be used, now: password authentication failed for user '
        '"games".']
    assert len(lines) == 3 and lines[2].startswith("The saved games database games@db answers again, after ")
