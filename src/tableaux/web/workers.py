"""``tableaux serve --workers N``: N server processes answering on one port.

The parent binds the port (:func:`tableaux.web.server.open_socket`) and hands
the listening socket to N processes started by ``spawn`` (clean interpreters,
as the solver pool's are); the kernel spreads the connections among them. Each
process builds the whole app: its own connections to the database and its own
solver pool, with its own load shedding. Nothing a request needs lives in one
process's memory: the games, the version each write compares and swaps, and
the key that signs player cookies are all in the database, so any process can
answer any request, and two tabs on two processes cannot both play version 7.

The parent only watches over them. A process that dies (a crash, a SIGKILL) is
replaced; one that cannot start (its database unusable) stops the server with
its message; SIGTERM or Ctrl+C stops every process the way one server stops
(uvicorn finishes the requests in flight). Each process also exits by itself
if the parent is killed.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from typing import Any

from ..i18n import _
from .database import Database

STARTUP_FAILED = 3
"""Exit status of a process that could not build the app: restarting it would fail the same way."""
STOP_TIMEOUT = 30.0
"""Seconds each process gets to finish its requests when the server stops."""


@dataclass(frozen=True)
class Settings:
    """What each process needs to build the app (sent to it when it starts)."""

    database: Database
    allowed_hosts: tuple[str, ...] | None
    solver_workers: int


def serve(sock: socket.socket, settings: Settings) -> None:
    """In each process: the app on ``settings.database``, served on the shared socket until told to stop."""
    import uvicorn

    from ..common.watchdog import watch_parent
    from .app import create_app
    from .pool import SolverPool
    from .store import StoreError

    watch_parent()
    try:
        app = create_app(settings.database, allowed_hosts=settings.allowed_hosts,
                         pool=SolverPool(workers=settings.solver_workers))
    except (StoreError, OSError) as exc:
        print(f"tableaux: {exc}", file=sys.stderr, flush=True)
        sys.exit(STARTUP_FAILED)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")).run(sockets=[sock])


def run(sock: socket.socket, settings: Settings, count: int) -> int:
    """Serve ``sock`` from ``count`` processes until SIGTERM or Ctrl+C. Returns the exit status."""
    context = multiprocessing.get_context("spawn")
    stopping = threading.Event()

    def start() -> BaseProcess:
        process = context.Process(target=serve, args=(sock, settings), name="tableaux-server")
        process.start()
        return process

    def stop(*_args: Any) -> None:
        stopping.set()

    previous = signal.signal(signal.SIGTERM, stop)
    status = 0
    processes = [start() for _n in range(count)]
    try:
        while not stopping.is_set():
            wait([p.sentinel for p in processes], timeout=0.5)
            for i, process in enumerate(processes):
                if process.is_alive() or stopping.is_set():
                    continue
                if process.exitcode == STARTUP_FAILED:
                    status = 1
                    stopping.set()
                    break
                print(_("A server process ended (exit status {status}); starting another.").format(
                    status=process.exitcode), flush=True)
                processes[i] = start()
    except KeyboardInterrupt:
        pass  # Ctrl+C reached every process of the terminal: each stops by itself, as a single server does
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(STOP_TIMEOUT)
            if process.is_alive():
                process.kill()
                process.join()
        signal.signal(signal.SIGTERM, previous)
    return status
