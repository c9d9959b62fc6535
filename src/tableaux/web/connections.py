"""Connection hygiene for a server others can reach: how long a request may take to arrive, and how many
connections one process keeps open.

uvicorn closes a keep-alive connection that stays idle after an answer (``timeout_keep_alive``) and
bounds the size of a request's head, but it waits for ever for a request that arrives slowly, or not at
all, on a new connection, and it accepts connections until the process runs out of file descriptors:
then every accept fails, and asyncio logs each failure (hundreds of thousands of lines a minute) while no
request is answered. :class:`GuardedProtocol` is uvicorn's own HTTP/1.1 protocol on httptools (its C
parser, which costs a request less CPU than h11) with the two limits it lacks, passed to uvicorn as its
``http`` protocol class by :class:`GuardedConfig`:

- a request (its head and its body) must arrive within :data:`REQUEST_TIMEOUT` seconds (or
  ``--request-timeout``) of its first byte, or of the connection's opening: otherwise the connection is
  answered 408 and closed;
- at most ``limit_concurrency`` connections are open in one process (set below the process's file
  limit by :func:`connection_cap`): beyond that a new connection is closed at once, so the process keeps
  answering the ones it has, and the log says so (:data:`~tableaux.web.limits.REFUSALS`: at most a line a
  minute). asyncio accepts up to the listen backlog's worth of connections in one go before any can be
  closed, so the backlog is kept small (:data:`~tableaux.web.limits.BACKLOG`, uvicorn's is 2048) and that many
  descriptors are kept free beyond the cap.

The time the app takes to answer is not limited here: a request that has arrived is the server's to answer.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..i18n import _
from .limits import BACKLOG, MAX_CONNECTIONS, REFUSALS

REQUEST_TIMEOUT = 10.0
"""Seconds a request may take to arrive whole (head and body), from its first byte or the connection's opening, by
default (``tableaux serve --request-timeout``)."""
KEEP_ALIVE = 5.0
"""Seconds a keep-alive connection may stay idle between two requests (uvicorn's ``timeout_keep_alive``), by
default (``tableaux serve --keep-alive``)."""
RESERVED_FILES = BACKLOG + 64
"""File descriptors kept for everything else: one accept round's new connections (before the cap closes them),
database connections, the solver pool's pipes, logs."""


def timed_out(seconds: float) -> bytes:
    """The 408 for a request that did not arrive in time: with a JSON body saying so, as every error has."""
    body = json.dumps({"error": f"the request did not arrive whole within {seconds:g} s; the connection is "
                                f"closed"}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body))


def connection_cap(wanted: int = MAX_CONNECTIONS) -> int:
    """How many connections one process may keep: ``wanted``, or fewer when the file limit is low. The soft
    limit is raised to the hard one first (as servers usually do), so the cap is rarely the limit's doing."""
    try:
        import resource
    except ImportError:  # not on Unix: no limit to read
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_FILES))


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol on httptools, with a cap on connections and a deadline for each request to
    arrive: from its first byte (or the connection's opening) to the parser's message-complete."""

    _arrived = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._refused = False
        self.request_timeout: float = getattr(self.config, "request_timeout", REQUEST_TIMEOUT)
        # The cap is applied here, to new connections only. uvicorn would also answer every request 503 (plain
        # text, a warning logged each time) while the connections or the requests in hand reach it: at the cap,
        # the connections already open would get no answer but that.
        self.cap: int | None = self.limit_concurrency
        self.limit_concurrency = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cap = self.cap
        if cap is not None and len(self.connections) >= cap:
            self._refused = True
            transport.abort()
            REFUSALS.note("connections", lambda _refused: _(
                "{count} connections are open, the most this process keeps: new ones are closed until some end."
            ).format(count=cap))
            return
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            transport.write(timed_out(self.request_timeout))
        transport.close()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._arrived:
            self._arm()  # bytes of a next request
        super().data_received(data)

    def on_message_begin(self) -> None:
        self._arrived = False
        if self._deadline is None:
            self._arm()
        super().on_message_begin()

    def on_message_complete(self) -> None:
        self._arrived = True
        self._disarm()
        super().on_message_complete()


class GuardedConfig(Config):
    """uvicorn's settings, with the deadline for a request to arrive (``tableaux serve --request-timeout``) that
    :class:`GuardedProtocol` reads from them: uvicorn hands each protocol object its settings, and sends them to
    each server process of ``--workers N``."""

    def __init__(self, *args: Any, request_timeout: float = REQUEST_TIMEOUT, **kwargs: Any) -> None:
        super().__init__(*args, http=GuardedProtocol, **kwargs)
        self.request_timeout = request_timeout
