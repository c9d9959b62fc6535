"""SQLite's connections: one per thread, opened on first use, the file in WAL mode.

The engine :class:`~tableaux.web.database.Database` gives a store on an SQLite file: how its connections are
opened, and which of sqlite3's errors mean the file cannot be used just now (503) or its disk is full (507).
The SQL itself is the same on both databases (:mod:`tableaux.web.dialect`), so each engine stands apart.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..i18n import _
from .dialect import Connection
from .outage import Health, StoreError, StoreFull, StoreMisconfigured, StoreUnavailable

BUSY_TIMEOUT = 5.0
"""Seconds a write waits for the file's write lock (SQLite's busy timeout, for every statement, BEGIN IMMEDIATE
included), and for its turn among this process's own writers, before the request is answered 503."""
WAL_TIMEOUT = 15.0
"""Seconds opening a new SQLite database keeps trying to switch it to WAL while another process migrates it."""


def wait_a_moment() -> None:
    """Between two tries of something another connection holds up."""
    time.sleep(0.01)


SQLITE_UNAVAILABLE = ("locked", "busy", "disk i/o error", "unable to open", "readonly")
"""SQLite error messages that mean the file cannot be used just now (the request is answered 503)."""
SQLITE_HELD_UP = ("locked", "busy")
"""Those of them that mean another writer held the file past the wait: a short failure, not an outage."""


class SqliteEngine:
    """One connection per thread, opened on first use: safe under uvicorn's thread pool, and the file is not
    reopened (nor the WAL checkpointed) on every request. WAL lets readers run beside the one writer,
    in this process and in others on the same machine.

    The file has one writer at a time. This process's writers take their turn on a lock of its own before
    they ask SQLite for the file's (``BEGIN IMMEDIATE``): SQLite's busy wait polls, sleeping longer each
    time, so among many threads of many processes polling for it one could wait out its timeout while the
    others took turns; in line here, only one writer a process polls. Each wait is :data:`BUSY_TIMEOUT`.

    A full disk (SQLite's "database or disk is full") is :class:`StoreFull`; a file that is locked for too
    long or cannot be read or written is :class:`StoreUnavailable`. A file has nothing to wait for, so
    its :class:`~tableaux.web.outage.Health` only logs when it fails and when it works again, and a lock that
    outlasted the wait is a short failure, logged at most once a minute with a count.
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
        self._writing = threading.Lock()
        """Held by the one thread of this process that writes (:meth:`_one_writer`)."""

    def translate(self, exc: BaseException, committing: bool = False) -> StoreError | None:
        """The store's error an SQLite error means; a failed commit was rolled back, so its outcome is known."""
        if not isinstance(exc, sqlite3.OperationalError):
            return None
        text = str(exc).lower()
        if "full" in text:
            return StoreFull(str(exc))
        if any(word in text for word in SQLITE_UNAVAILABLE):
            return StoreUnavailable(str(exc), held_up=any(word in text for word in SQLITE_HELD_UP))
        return None

    def _open(self) -> Connection:
        try:
            raw = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
            raw.execute("PRAGMA foreign_keys=ON")
            raw.execute("PRAGMA synchronous=FULL")  # a commit is on disk before the answer goes out
        except sqlite3.Error as exc:
            raise StoreMisconfigured(_("cannot open the database {file}: {error}").format(
                file=repr(str(self.path)), error=exc)) from None
        return Connection(raw, self.translate, self._one_writer)

    @contextmanager
    def _one_writer(self) -> Iterator[None]:
        """This process's turn to write, waited for as long as SQLite waits for the file's."""
        if not self._writing.acquire(timeout=BUSY_TIMEOUT):
            raise sqlite3.OperationalError("database is locked (the write before this one in this process waited "
                                           "too long: a slow write, or another program holding the file)")
        try:
            yield
        finally:
            self._writing.release()

    def first(self) -> Connection:
        """A connection of its own, for opening (migrating, reading the token key); the caller closes it."""
        conn = self._open()
        try:
            self._use_wal(conn)
        except BaseException as exc:
            conn.close()
            self._refuse_if_read_only(exc)
            raise
        return conn

    def check_writable(self) -> None:
        """:class:`StoreMisconfigured` for a file the server can only read: SQLite opens it for reading without a
        word, and a server would take requests and fail every change. The file's user version is written as it
        is, in a transaction rolled back; another process's write that holds the file past the wait leaves it
        untried (the first change will say)."""
        conn = self._open()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = int(conn.execute("PRAGMA user_version").fetchone()[0])
                conn.execute(f"PRAGMA user_version = {version}")
            finally:
                conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            self._refuse_if_read_only(exc)
            if not any(word in str(exc).lower() for word in SQLITE_HELD_UP):
                raise
        finally:
            conn.close()

    def _refuse_if_read_only(self, exc: BaseException) -> None:
        if isinstance(exc, sqlite3.OperationalError) and "readonly" in str(exc).lower():
            raise StoreMisconfigured(_(
                "cannot write to the database {file} ({error}): tableaux must be able to write the file and "
                "its folder, where SQLite keeps the -wal and -shm files beside it").format(
                file=repr(str(self.path)), error=exc)) from None

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
                self._failed(exc)
            raise
        except Exception as exc:
            error = self.translate(exc)
            if error is None:
                raise
            self._failed(error)
            raise error from None
        self.health.worked(conn.wrote)

    def _failed(self, error: StoreUnavailable | StoreFull | StoreError) -> None:
        reason = getattr(error, "reason", str(error))
        self.health.failed(reason, full=isinstance(error, StoreFull), short=getattr(error, "held_up", False))

    def reopened(self, action: Callable[[], None]) -> None:
        """Nothing to reopen for a file: see :meth:`PostgresEngine.reopened`."""

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()
