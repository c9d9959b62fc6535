"""How ``tableaux serve`` runs its server processes: one, or (``--workers N``) N on one port under uvicorn's
own supervisor.

Every process serves the same app the same way (:func:`server_config`): uvicorn, with the HTTP
protocol of :mod:`tableaux.web.connections` (a deadline for each request to arrive, a cap on
connections), and the client's address taken from X-Forwarded-For only when the connection comes from a
proxy named with ``--trusted-proxy`` (uvicorn's ``forwarded_allow_ips``).

With ``--workers N`` the parent binds the port (:func:`tableaux.web.server.open_socket`) and hands the
listening socket to :class:`uvicorn.supervisors.Multiprocess`, the supervisor ``uvicorn --workers``
runs: it starts N processes by ``spawn`` (clean interpreters, as the solver pool's are), pings each one
and replaces one that dies or hangs, stops them all the way one server stops on SIGTERM or Ctrl+C
(uvicorn finishes the requests in flight), replaces them one by one on SIGHUP, and adds or retires one on
SIGTTIN or SIGTTOU. The kernel spreads the connections among the processes. Nothing a request needs
lives in one process's memory (games, versions, the key that signs player cookies are all in the
database), so any process answers any request.

What uvicorn's supervisor does not do, and this module adds (:class:`Supervisor`, :func:`worker_app`):

- a process exits by itself when the parent is killed (SIGKILL gives the parent no chance to stop
  them, and uvicorn's would serve on, orphaned): :func:`tableaux.common.watchdog.watch_parent`;
- the terminal is told, in its language, when a process is replaced; and the parent's exit status says
  whether a process failed to start (uvicorn's supervisor then stops, and returns nothing);
- a process never fails to start because the database is away: its store waits for it and answers 503
  meanwhile (:class:`tableaux.web.store.Store`, ``wait``), so a replacement started during an outage
  serves at once and the port never closes. The parent gives up only when the database is refused at the
  first start (a wrong --db, a newer schema), before any process starts
  (:func:`tableaux.web.server.run_serve`).
"""

from __future__ import annotations

import functools
import logging
import socket
import sys
from dataclasses import dataclass, field
from typing import Any

from uvicorn.config import STARTUP_FAILURE, Config
from uvicorn.supervisors import Multiprocess

from ..i18n import _
from .connections import KEEP_ALIVE, REQUEST_TIMEOUT, GuardedConfig, connection_cap
from .database import Database
from .limits import BACKLOG, MAX_CONNECTIONS, Limits

HEALTHCHECK = 30
"""Seconds a process may take to answer the supervisor's ping before it counts as hung and is replaced (long:
a busy machine must not cost a process that is only slow)."""
STOP_TIMEOUT = 30
"""Seconds each process gets to finish its requests when the server stops."""


@dataclass(frozen=True)
class Settings:
    """What each process needs to build the app (sent to it when it starts)."""

    database: Database
    allowed_hosts: tuple[str, ...] | None
    solver_workers: int | None = None
    limits: Limits = field(default_factory=Limits)
    trusted_proxies: tuple[str, ...] = ()
    max_connections: int = MAX_CONNECTIONS
    leaderboard: bool = True
    request_timeout: float = REQUEST_TIMEOUT
    keep_alive: float = KEEP_ALIVE


def configure_logging(several: bool = False) -> None:
    """The server's own lines (the database going away and coming back, the connection cap) go to stderr, once
    each, naming the process when there are ``several``; the connection pool's retries, which the store watches
    itself, are left out."""
    logger = logging.getLogger("tableaux")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("tableaux[%(process)d]: %(message)s" if several
                                               else "tableaux: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    logging.getLogger("psycopg.pool").setLevel(logging.CRITICAL)


def build_app(settings: Settings) -> Any:
    """The app of one server process."""
    from .app import create_app
    from .pool import SolverPool

    return create_app(settings.database, allowed_hosts=settings.allowed_hosts, limits=settings.limits,
                      pool=SolverPool(workers=settings.solver_workers), leaderboard=settings.leaderboard)


def worker_app(settings: Settings) -> Any:
    """In each process of ``--workers N``: exit with the parent, then build the app."""
    from ..common.watchdog import watch_parent

    watch_parent()
    configure_logging(several=True)
    return build_app(settings)


def server_config(app: Any, settings: Settings, workers: int = 1, factory: bool = False) -> Config:
    """uvicorn's settings for every process: the guarded protocol, the keep-alive and the connection cap, and
    the proxies whose forwarded address is believed. ``factory``: ``app`` is called in each process to make it."""
    return GuardedConfig(
        app, log_level="warning", access_log=False, lifespan="on", request_timeout=settings.request_timeout,
        timeout_keep_alive=settings.keep_alive, limit_concurrency=connection_cap(settings.max_connections),
        backlog=BACKLOG,
        proxy_headers=bool(settings.trusted_proxies), forwarded_allow_ips=list(settings.trusted_proxies) or None,
        workers=workers, factory=factory,
        timeout_worker_healthcheck=HEALTHCHECK, timeout_graceful_shutdown=STOP_TIMEOUT,
    )


class Supervisor(Multiprocess):
    """uvicorn's supervisor, saying in the terminal's language when it replaces a process."""

    def keep_subprocess_alive(self) -> None:
        before = list(self.processes)
        super().keep_subprocess_alive()
        for process in before:
            if process not in self.processes:
                print(_("A server process ended (exit status {status}); starting another.").format(
                    status=process.exitcode), flush=True)

    def failed_to_start(self) -> bool:
        return any(process.exitcode == STARTUP_FAILURE for process in self.processes)


def run(sock: socket.socket, settings: Settings, count: int) -> int:
    """Serve ``sock`` from ``count`` processes until SIGTERM or Ctrl+C. Returns the exit status."""
    config = server_config(functools.partial(worker_app, settings), settings, workers=count, factory=True)
    supervisor = Supervisor(config, sockets=[sock])
    supervisor.run()
    return 1 if supervisor.failed_to_start() else 0
