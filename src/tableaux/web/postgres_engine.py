"""PostgreSQL's connections: a pool of autocommit connections, watched while the server is away.

The engine :class:`~tableaux.web.database.Database` gives a store on a PostgreSQL server: how its connections
are opened, checked and pooled, which of psycopg's errors mean the server is away (503) or its disk full (507),
and a new pool once the server answers again. psycopg is an optional extra (``pip install '.[postgres]'``),
imported only here and only when a PostgreSQL URL is used. The SQL itself is the same on both databases
(:mod:`tableaux.web.dialect`), so each engine stands apart.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..i18n import _
from .dialect import Connection
from .outage import Health, StoreError, StoreFull, StoreMisconfigured, StoreUnavailable, describe, one_line, shown

POOL_SIZE = 8
"""Connections each server process may hold to PostgreSQL (the thread pool queues for them)."""
POOL_TIMEOUT = 2.5
"""Seconds a request waits for a PostgreSQL connection before it is answered 503: with the connection
timeout below, every request is answered within 3 s while the database is away (refusing or dropping
connections; a server that hangs with its connections open is waited for: docs/deploy.md)."""
CONNECT_TIMEOUT = 2
"""Seconds to open a PostgreSQL connection (libpq's shortest that it honours)."""
TCP_USER_TIMEOUT_MS = 2500
"""Milliseconds sent data may stay unacknowledged before the connection is given up (a server that vanished
from the network, rather than one that closed its connections)."""
CHECK_AFTER_IDLE = 1.0
"""Seconds a pooled PostgreSQL connection may sit unused before it is checked again as it is lent."""
LOCK_TIMEOUT_MS = 2500
"""Milliseconds a request's statement may wait for a lock another session holds (``lock_timeout``) before the
server gives it up and the request is answered 503, nothing changed."""
STATEMENT_TIMEOUT_MS = 3000
"""Milliseconds any statement of a request may run (``statement_timeout``), lock waits included. Set on the
pool's connections only: the migrations (which wait for one another's advisory lock) and the round of forgetting
may take longer."""
HELD_UP = ("57014", "55P03")
"""SQLSTATEs of a statement the server gave up (its time, or a lock's, ran out): the server answers; nothing
was changed, since a commit is never cut short by them."""


POSTGRES_STILL_COMING = ("starting up", "shutting down", "in recovery", "too many clients", "not yet accepting",
                         "terminating connection")
"""What a PostgreSQL server that refuses a connection says when it will take one again soon."""
REFUSED_AS_WRITTEN = re.compile(r'invalid "?\w+"? value|for connection option|invalid port number|could not parse '
                                r'network address|definition of service|service file')
"""What libpq says when it cannot use the connection's settings as written (a value it does not know, a service
that is not defined): waiting for the server would not help."""
NO_PASSWORD = "no password supplied"
"""What libpq says when the server asks for a password and none was given: refused as written too, with advice."""


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

    @classmethod
    def _configure_pooled(cls, raw: Any) -> None:
        """A connection for requests: none of its statements waits on another session's lock, nor runs, for
        longer than a player should wait for an answer (a table locked by hand, a stuck transaction)."""
        cls._configure(raw)
        raw.execute(f"SET lock_timeout = {LOCK_TIMEOUT_MS}")
        raw.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")

    def translate(self, exc: BaseException, committing: bool = False) -> StoreError | None:
        """The store's error a psycopg error means. A connection lost while a commit was on its way leaves the
        change's outcome unknown; one lost before that changed nothing."""
        import psycopg
        from psycopg import errors

        if isinstance(exc, errors.DiskFull):
            return StoreFull(describe(exc))
        if not isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            return None
        return StoreUnavailable(shown(describe(exc)), outcome_unknown=committing and self._connection_lost(exc),
                                held_up=getattr(exc, "sqlstate", None) in HELD_UP)

    @staticmethod
    def _connection_lost(exc: BaseException) -> bool:
        """Whether ``exc`` is the connection itself failing (rather than the server refusing a statement)."""
        import psycopg

        state = getattr(exc, "sqlstate", None)
        return isinstance(exc, psycopg.InterfaceError) or state is None or state.startswith(("08", "57P"))

    def first(self) -> Connection:
        """A connection of its own, for opening the store. Settings libpq cannot use (a malformed value, no
        password where the server asks for one) and a server that answered and refused (no such database or
        role, a password refused) are :class:`StoreMisconfigured`: the configuration is wrong. A server that
        cannot be reached, or says it will take connections soon, is :class:`StoreUnavailable`."""
        import psycopg

        try:
            raw = psycopg.connect(self.url, **self._connect_kwargs())
            self._configure(raw)
        except psycopg.Error as exc:
            text = one_line(exc)
            if NO_PASSWORD in text:
                raise StoreMisconfigured(_(
                    "cannot connect to the PostgreSQL database {url}: it asks for a password and none was given; "
                    "put it in ~/.pgpass or PGPASSWORD, or use a service file (PGSERVICE)").format(
                    url=shown(self.url))) from None
            if REFUSED_AS_WRITTEN.search(text) or (
                    "FATAL" in text and not any(words in text for words in POSTGRES_STILL_COMING)):
                raise StoreMisconfigured(_("cannot connect to the PostgreSQL database {url}: {error}").format(
                    url=shown(self.url), error=shown(" ".join(describe(exc).split())))) from None
            raise StoreUnavailable(shown(describe(exc))) from None
        return Connection(raw, self.translate)

    def check_writable(self) -> None:
        """Nothing to try here: a role that may not create the tables is refused when the store opens (its
        migrations), and one refused a write later gets that write's error."""

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

    def _lend(self, pool: Any) -> Any:
        """A connection of ``pool``, checked when it sat idle (:data:`CHECK_AFTER_IDLE`). A dead one is handed back
        (the pool drops it and makes another) and the pool checks every idle connection at once: a restarted
        server kills them all together, and the pool's own check of each as it is lent waits a second, then
        two, between one dead connection and the next, past the pool's timeout when three or more died."""
        from psycopg_pool import ConnectionPool

        raw = pool.getconn()
        if time.monotonic() - self._returned.get(id(raw), 0.0) <= CHECK_AFTER_IDLE:
            return raw
        try:
            ConnectionPool.check_connection(raw)
        except Exception:
            pool.putconn(raw)
            pool.check()
            return pool.getconn()
        return raw

    def _returning(self, raw: Any) -> None:
        self._returned[id(raw)] = time.monotonic()

    def _get_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                from psycopg_pool import ConnectionPool

                self._pool = ConnectionPool(
                    self.url, kwargs=self._connect_kwargs(), min_size=1, max_size=POOL_SIZE, open=True,
                    configure=self._configure_pooled, reset=self._returning, timeout=POOL_TIMEOUT,
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
                self.health.failed(exc.reason, short=exc.held_up)
            raise
        except PoolTimeout:
            reason = _("no database connection came free within {seconds} s").format(seconds=POOL_TIMEOUT)
            self.health.failed(reason)
            raise StoreUnavailable(reason) from None
        except Exception as exc:
            error = self.translate(exc)
            if error is None:
                raise
            if isinstance(error, StoreUnavailable) and (error.held_up or self._connection_lost(exc)):
                self.health.failed(error.reason, short=error.held_up)
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
                raw = self._lend(pool)
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
