"""Which database the web game keeps its games in, and the little that differs between SQLite and PostgreSQL.

``--db`` names the database: a file path (or ``sqlite:///PATH``) is SQLite,
the embedded default that needs nothing installed; ``postgresql://...`` is a
PostgreSQL server that any number of server processes, on any number of
machines, can share. :func:`parse_database` reads that text and refuses
anything else before a file or a connection is made.

The store (:mod:`tableaux.web.store`) and the migrations
(:mod:`tableaux.web.migrations`) are written once, in SQL both databases
speak, against a :class:`Connection`. What differs is kept here and only here:

- placeholders (SQLite's ``?``; psycopg's ``%s``, translated from ``?``);
- a few column types (:class:`Types`): PostgreSQL's ``REAL`` is a 4-byte float
  and its ``INTEGER`` stops at 2**31, so times and deal numbers need wider ones;
- insertion order: SQLite numbers rows itself (``rowid``), PostgreSQL gets a column;
- how a writer takes the lock that orders it before others (``BEGIN IMMEDIATE``,
  or an advisory lock for migrations), and whether a change's writes can be one statement;
- connections: one per thread for SQLite (opened on first use), a pool
  (psycopg_pool) for PostgreSQL;
- which of each driver's errors mean the database is unavailable, or its disk full: they become the
  store's own errors (:mod:`tableaux.web.outage`), and a PostgreSQL server that went away is watched for
  until it is back.

psycopg is an optional extra (``pip install '.[postgres]'``), imported
only when a PostgreSQL URL is used.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..i18n import _
from .outage import Health, StoreError, StoreFull, StoreUnavailable, describe

ACCEPTED = "a file path, sqlite:///PATH or postgresql://USER@HOST/DATABASE"
"""What ``--db`` accepts, as the refusals say it."""
POSTGRES_EXTRA = "pip install '.[postgres]'"
MIGRATION_LOCK = 7_405_318_201
"""PostgreSQL advisory lock key that orders schema migrations between processes (any constant will do)."""
POOL_SIZE = 8
"""Connections each server process may hold to PostgreSQL (the thread pool queues for them)."""
POOL_TIMEOUT = 2.5
"""Seconds a request waits for a PostgreSQL connection before it is answered 503: with the connection
timeout below, every request is answered within 3 s while the database is away."""
CONNECT_TIMEOUT = 2
"""Seconds to open a PostgreSQL connection (libpq's shortest that it honours)."""
TCP_USER_TIMEOUT_MS = 2500
"""Milliseconds sent data may stay unacknowledged before the connection is given up (a server that vanished
from the network, rather than one that closed its connections)."""
BUSY_TIMEOUT = 2.5
"""Seconds an SQLite connection waits for another one's write before the request is answered 503."""
WAL_TIMEOUT = 15.0
"""Seconds opening a new SQLite database keeps trying to switch it to WAL while another process migrates it."""
CHECK_AFTER_IDLE = 1.0
"""Seconds a pooled PostgreSQL connection may sit unused before it is checked again as it is lent."""
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):")
_PASSWORD = re.compile(r"(//[^/@:]*:)[^/@]*@")


def shown(text: str) -> str:
    """A database URL with its password (if any) hidden, for messages and logs."""
    return _PASSWORD.sub(r"\1***@", text)


# --- which database -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Database:
    """A parsed ``--db``: an SQLite file (``path``) or a PostgreSQL server (``url``, as libpq reads it)."""

    path: Path | None = None
    url: str | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.path is not None

    def __str__(self) -> str:
        return str(self.path) if self.path is not None else shown(str(self.url))

    def engine(self) -> SqliteEngine | PostgresEngine:
        """How a store on this database gets its connections; :class:`StoreError` if it cannot."""
        if self.path is not None:
            return SqliteEngine(self.path)
        assert self.url is not None
        return PostgresEngine(self.url)


def parse_database(db: str | Path) -> Database:
    """What ``--db`` names; :class:`StoreError` with one line (what is wrong, what is accepted) otherwise.

    Nothing is created here: a refused value leaves no file and no connection behind.
    ``sqlite:///games.db`` is relative and ``sqlite:////var/lib/games.db`` absolute, as SQLAlchemy writes them.
    """
    if isinstance(db, Path):
        return Database(path=db)
    text = db.strip()
    scheme = _SCHEME.match(text)
    if scheme is None:  # a plain path (a Windows drive letter is one character: still a path)
        if not text:
            raise StoreError(_("--db is empty; give {accepted}").format(accepted=ACCEPTED))
        return Database(path=Path(text).expanduser())
    name = scheme.group(1).lower()
    if name == "sqlite":
        path = text[len("sqlite:///"):] if text[:10].lower() == "sqlite:///" else ""
        if not path or path == ":memory:":
            raise StoreError(_("--db {db}: an SQLite URL is sqlite:///PATH to a file (sqlite:////PATH from the "
                               "root); accepted: {accepted}").format(db=repr(shown(text)), accepted=ACCEPTED))
        return Database(path=Path(path).expanduser())
    if name in ("postgresql", "postgres"):
        if not text[len(name) + 1:].startswith("//"):
            raise StoreError(_("--db {db}: a PostgreSQL URL starts with postgresql://; accepted: {accepted}").format(
                db=repr(shown(text)), accepted=ACCEPTED))
        try:
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:
            raise StoreError(_("--db {db} needs psycopg (PostgreSQL support): {install}").format(
                db=repr(shown(text)), install=POSTGRES_EXTRA)) from None
        try:
            conninfo_to_dict(text)
        except Exception as exc:  # psycopg.ProgrammingError: libpq's own reading of the URL
            raise StoreError(_("--db {db} is not a PostgreSQL URL libpq can read ({error}); accepted: "
                               "{accepted}").format(db=repr(shown(text)), error=shown(one_line(exc)),
                                                    accepted=ACCEPTED)) from None
        return Database(url=text)
    raise StoreError(_("--db {db}: {scheme}: is not a database tableaux can use; accepted: {accepted} "
                       "(write a file name that has a colon as ./NAME)").format(
        db=repr(shown(text)), scheme=scheme.group(1), accepted=ACCEPTED))


def one_line(exc: BaseException) -> str:
    """An error message on one line (libpq's span several, with tabs)."""
    return " ".join(str(exc).split())


# --- the dialects -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Types:
    """Column types the migrations write as ``{types.real}`` and so on, per database."""

    real: str
    """A time in seconds or a duration: an 8-byte float."""
    int64: str
    """A deal number (up to 2**32 - 1)."""
    blob: str
    row_order_column: str
    """Appended to the games table's columns: what numbers its rows in insertion order, when the database
    does not (its name is :attr:`Connection.row_order`)."""


SQLITE_TYPES = Types(real="REAL", int64="INTEGER", blob="BLOB", row_order_column="")
POSTGRES_TYPES = Types(real="DOUBLE PRECISION", int64="BIGINT", blob="BYTEA",
                       row_order_column=",\n            seq BIGINT GENERATED BY DEFAULT AS IDENTITY")


@lru_cache(maxsize=256)
def _pyformat(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


Translate = Callable[[BaseException, bool], StoreError | None]
"""An engine's reading of a driver error: the store's error it means (the flag: it came as a transaction was
being committed), or None for an error that says nothing about the database's availability."""


class Connection:
    """One connection, speaking the store's SQL (``?`` placeholders) to either database.

    Wraps a raw ``sqlite3.Connection`` or ``psycopg.Connection`` (in autocommit
    mode, as the store opens them: a transaction is always explicit).
    """

    def __init__(self, raw: Any, translate: Translate | None = None) -> None:
        self.raw = raw
        self.is_sqlite = isinstance(raw, sqlite3.Connection)
        self.types = SQLITE_TYPES if self.is_sqlite else POSTGRES_TYPES
        self.row_order = "rowid" if self.is_sqlite else "seq"
        self._translate = translate
        self.wrote = False
        """Set when a write transaction on it commits (an SQLite store knows its disk has room again)."""
        self.writes_at_once = not self.is_sqlite
        """Whether several writes can be one statement (PostgreSQL's data-modifying WITH; SQLite has none)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the cursor (``fetchone``, ``fetchall``, ``rowcount``, iteration)."""
        if self.is_sqlite:
            return self.raw.execute(sql, params)
        return self.raw.execute(_pyformat(sql), tuple(params))

    def close(self) -> None:
        self.raw.close()

    @contextmanager
    def transaction(self, *, migrating: bool = False, one_statement: bool = False) -> Iterator[Connection]:
        """A write transaction, committed on leaving (rolled back on an exception).

        SQLite takes its write lock up front (``BEGIN IMMEDIATE``), so writers
        queue instead of deadlocking (a write that only upgrades a read lock
        fails at once when another process wrote meanwhile). PostgreSQL locks
        rows as it writes them, and commits a lone statement by itself
        (``one_statement``: one round trip instead of three); a migration first
        takes an advisory lock that orders it behind any other process's.
        """
        if one_statement and not self.is_sqlite:
            with self._committing():
                yield self
            return
        self.execute("BEGIN IMMEDIATE" if self.is_sqlite else "BEGIN")
        try:
            if migrating and not self.is_sqlite:
                self.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            yield self
        except BaseException:
            try:
                self.execute("ROLLBACK")
            except Exception:  # noqa: S110 - a dead connection: the error that killed it is the one to report
                pass
            raise
        with self._committing():
            self.execute("COMMIT")
        self.wrote = True

    @contextmanager
    def _committing(self) -> Iterator[None]:
        """A commit on its way: a connection lost now leaves its outcome unknown, and the error says so."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            error = self._translate(exc, True) if self._translate is not None else None
            if error is None:
                raise
            raise error from None


def connection_of(conn: Connection | Any) -> Connection:
    """``conn`` as a :class:`Connection` (tests and tools may hand in a raw one)."""
    return conn if isinstance(conn, Connection) else Connection(conn)


# --- connecting -----------------------------------------------------------------------------------------
def wait_a_moment() -> None:
    """Between two tries of something another connection holds up."""
    time.sleep(0.01)


SQLITE_UNAVAILABLE = ("locked", "busy", "disk i/o error", "unable to open", "readonly")
"""SQLite error messages that mean the file cannot be used just now (the request is answered 503)."""


class SqliteEngine:
    """One connection per thread, opened on first use: safe under uvicorn's thread pool, and the file is not
    reopened (nor the WAL checkpointed) on every request. WAL lets readers run beside the one writer,
    in this process and in others on the same machine.

    A full disk (SQLite's "database or disk is full") is :class:`StoreFull`; a file that is locked for too
    long or cannot be read or written is :class:`StoreUnavailable`. A file has nothing to wait for, so
    its :class:`~tableaux.web.outage.Health` only logs when it fails and when it works again.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.database_errors: tuple[type[BaseException], ...] = (sqlite3.DatabaseError,)
        self.integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(_("cannot create the folder for the database {file}: {error}").format(
                file=repr(str(self.path)), error=exc.strerror)) from None
        self.health = Health(str(path))
        self._local = threading.local()
        self._connections: list[Connection] = []
        self._lock = threading.Lock()

    def translate(self, exc: BaseException, committing: bool = False) -> StoreError | None:
        """The store's error an SQLite error means; a failed commit was rolled back, so its outcome is known."""
        if not isinstance(exc, sqlite3.OperationalError):
            return None
        text = str(exc).lower()
        if "full" in text:
            return StoreFull(str(exc))
        if any(word in text for word in SQLITE_UNAVAILABLE):
            return StoreUnavailable(str(exc))
        return None

    def _open(self) -> Connection:
        try:
            raw = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            raw.execute("PRAGMA foreign_keys=ON")
            raw.execute("PRAGMA synchronous=FULL")  # a commit is on disk before the answer goes out
        except sqlite3.Error as exc:
            raise StoreError(_("cannot open the database {file}: {error}").format(
                file=repr(str(self.path)), error=exc)) from None
        return Connection(raw, self.translate)

    def first(self) -> Connection:
        """A connection of its own, for opening (migrating, reading the token key); the caller closes it."""
        conn = self._open()
        try:
            self._use_wal(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _use_wal(conn: Connection) -> None:
        """Switch the file to WAL. The switch needs the file to itself, and SQLite refuses it at once (no
        busy wait) while another connection writes, as another process opening a new database at the same
        moment does while it migrates: so it is tried again until that write is over."""
        deadline = time.monotonic() + WAL_TIMEOUT
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
            wait_a_moment()

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """This thread's connection, for one operation."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open()
            with self._lock:
                self._connections.append(conn)
        conn.wrote = False
        try:
            yield conn
        except StoreError as exc:
            if isinstance(exc, StoreUnavailable | StoreFull):
                self.health.failed(exc.reason, isinstance(exc, StoreFull))
            raise
        except Exception as exc:
            error = self.translate(exc)
            if error is None:
                raise
            self.health.failed(error.reason, isinstance(error, StoreFull))  # type: ignore[attr-defined]
            raise error from None
        self.health.worked(conn.wrote)

    def reopened(self, action: Callable[[], None]) -> None:
        """Nothing to reopen for a file: see :meth:`PostgresEngine.reopened`."""

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()


POSTGRES_STILL_COMING = ("starting up", "shutting down", "in recovery", "too many clients", "not yet accepting",
                         "terminating connection")
"""What a PostgreSQL server that refuses a connection says when it will take one again soon."""


class PostgresEngine:
    """A psycopg_pool pool of autocommit connections, created on first use and again after :meth:`close`.

    A connection idle for more than :data:`CHECK_AFTER_IDLE` seconds is checked
    as the pool lends it (a restart of the server leaves dead ones behind);
    under load, connections come back within that time and no request pays the
    extra round trip. Connections commit synchronously: a server configured with
    ``synchronous_commit = off`` would acknowledge moves it could still lose.

    While the server is away (:attr:`health`), requests are refused at once and the pool is closed, so
    that its own reconnection, whose waits double, does not decide when the server is back: once a fresh
    connection works, a new pool is made.
    """

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.database_errors: tuple[type[BaseException], ...] = (psycopg.Error,)
        self.integrity_errors: tuple[type[BaseException], ...] = (psycopg.IntegrityError,)
        self._pool: Any = None
        self._lock = threading.Lock()
        self._returned: dict[int, float] = {}
        """When each connection (by id) last came back to the pool."""
        self._when_back: list[Callable[[], None]] = []
        self.health = Health(shown(url), look=self._look, on_return=self._came_back)

    def _connect_kwargs(self) -> dict[str, Any]:
        # Named after the process, so an operator (or a test) can tell whose connections are whose.
        return {"autocommit": True, "connect_timeout": CONNECT_TIMEOUT, "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
                "application_name": f"tableaux {os.getpid()}"}

    @staticmethod
    def _configure(raw: Any) -> None:
        if raw.execute("SHOW synchronous_commit").fetchone()[0] == "off":
            raw.execute("SET synchronous_commit = on")

    def translate(self, exc: BaseException, committing: bool = False) -> StoreError | None:
        """The store's error a psycopg error means. A connection lost while a commit was on its way leaves the
        change's outcome unknown; one lost before that changed nothing."""
        import psycopg
        from psycopg import errors

        if isinstance(exc, errors.DiskFull):
            return StoreFull(describe(exc))
        if not isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            return None
        return StoreUnavailable(shown(describe(exc)), outcome_unknown=committing and self._connection_lost(exc))

    @staticmethod
    def _connection_lost(exc: BaseException) -> bool:
        """Whether ``exc`` is the connection itself failing (rather than the server refusing a statement)."""
        import psycopg

        state = getattr(exc, "sqlstate", None)
        return isinstance(exc, psycopg.InterfaceError) or state is None or state.startswith(("08", "57P"))

    def first(self) -> Connection:
        """A connection of its own, for opening the store. A server that answered and refused (no such database
        or role, a password refused) is a :class:`StoreError`: the configuration is wrong. One that cannot be
        reached, or says it will take connections soon, is :class:`StoreUnavailable`."""
        import psycopg

        try:
            raw = psycopg.connect(self.url, **self._connect_kwargs())
            self._configure(raw)
        except psycopg.Error as exc:
            text = one_line(exc)
            if "FATAL" in text and not any(words in text for words in POSTGRES_STILL_COMING):
                raise StoreError(_("cannot connect to the PostgreSQL database {url}: {error}").format(
                    url=shown(self.url), error=shown(text))) from None
            raise StoreUnavailable(shown(describe(exc))) from None
        return Connection(raw, self.translate)

    def _look(self) -> None:
        """One fresh connection, to see whether the server answers (raises if it does not)."""
        self.first().close()

    def reopened(self, action: Callable[[], None]) -> None:
        """Run ``action`` whenever the server answers again after being away (before requests go to it)."""
        self._when_back.append(action)

    def _came_back(self) -> None:
        self._drop_pool()
        for action in self._when_back:
            action()

    def _check(self, raw: Any) -> None:
        if time.monotonic() - self._returned.get(id(raw), 0.0) > CHECK_AFTER_IDLE:
            from psycopg_pool import ConnectionPool

            ConnectionPool.check_connection(raw)

    def _returning(self, raw: Any) -> None:
        self._returned[id(raw)] = time.monotonic()

    def _get_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                from psycopg_pool import ConnectionPool

                self._pool = ConnectionPool(
                    self.url, kwargs=self._connect_kwargs(), min_size=1, max_size=POOL_SIZE, open=True,
                    configure=self._configure, check=self._check, reset=self._returning, timeout=POOL_TIMEOUT,
                    name="tableaux", num_workers=2,
                )
            return self._pool

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """A pooled connection for one operation; :class:`StoreUnavailable` at once while the server is away."""
        from psycopg_pool import PoolTimeout

        self.health.check()
        try:
            with self._pooled() as raw:
                yield Connection(raw, self.translate)
        except StoreError as exc:
            if isinstance(exc, StoreUnavailable):
                self.health.failed(exc.reason)
            raise
        except PoolTimeout:
            reason = _("no database connection came free within {seconds} s").format(seconds=POOL_TIMEOUT)
            self.health.failed(reason)
            raise StoreUnavailable(reason) from None
        except Exception as exc:
            error = self.translate(exc)
            if error is None:
                raise
            if isinstance(error, StoreUnavailable) and self._connection_lost(exc):
                self.health.failed(error.reason)
            raise error from None

    @contextmanager
    def _pooled(self) -> Iterator[Any]:
        """A connection of the pool. The watch replaces the pool when the database answers again after a lost
        connection, and may close it while an operation waits for a connection: that operation takes one
        from the new pool, as it would have a moment later."""
        from psycopg_pool import PoolClosed

        for last in (False, True):
            pool = self._get_pool()
            try:
                raw = pool.getconn()
            except PoolClosed:
                if last or self._pool is pool:
                    raise
                continue
            break
        try:
            with raw:  # commit or roll back, as the pool's own connection() does; a pooled one stays open
                yield raw
        finally:
            pool.putconn(raw)

    def _drop_pool(self) -> None:
        """Close the pool (its connections may all be dead); the next operation makes a new one."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close(timeout=1.0)

    def close(self) -> None:
        self._drop_pool()
