"""``tableaux serve`` (the default command) and ``tableaux stats``.

The server binds its socket itself before handing it to uvicorn, so "is the
port free?" and "listen on it" are one step: a busy default port moves on to
the next free one with no race, and the URL printed is the one really served.
A port named with ``--port`` is that port or none: a proxy, a firewall rule or
another machine's settings point at it, and a server that moved elsewhere would
only seem to be up.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..i18n import _
from .database import Database, StoreError, parse_database
from .limits import BACKLOG, MAX_CONNECTIONS, Limits
from .outage import StoreMisconfigured

if TYPE_CHECKING:
    from .workers import Settings

DEFAULT_PORT = 8000
PORT_ATTEMPTS = 20
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


class ServeError(Exception):
    """The server cannot start; the message says why and what to do."""


def default_db() -> Path:
    """The browser game's database, in the user data directory the terminal keeps its games in."""
    from ..common.dirs import user_dir

    return Path(user_dir("data")) / "tableaux.sqlite3"


def database_of(arg: str | None) -> Database:
    """The database ``--db`` names (the SQLite file in the user data directory without it);
    :class:`~tableaux.web.database.StoreError` with one line when it names none."""
    return parse_database(arg) if arg is not None else Database(path=default_db())  # "" is refused, not the default


def open_socket(host: str, port: int, attempts: int = PORT_ATTEMPTS) -> tuple[socket.socket, int]:
    """A listening socket on ``host`` at ``port`` or (``attempts`` above 1) the next free port after it."""
    last = min(port + attempts - 1, 65535)
    for candidate in range(port, last + 1):
        try:
            infos = socket.getaddrinfo(host, candidate, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
            # IPv4 first: "localhost" then works for browsers that try 127.0.0.1 only.
            family, kind, proto, _name, address = sorted(infos, key=lambda i: i[0] != socket.AF_INET)[0]
        except socket.gaierror as exc:
            raise ServeError(_("cannot listen on host {host}: {error}").format(
                host=repr(host), error=exc.strerror)) from None
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # allows TIME_WAIT, never a live listener
        try:
            sock.bind(address)
            sock.listen(BACKLOG)
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRINUSE and attempts == 1:
                raise ServeError(_("port {port} on {host} is in use; choose another with --port, or leave --port "
                                   "out to take the first free one from {default}").format(
                    port=port, host=host, default=DEFAULT_PORT)) from None
            if exc.errno == errno.EADDRINUSE:
                continue
            raise ServeError(_("cannot listen on {host} port {port}: {error}").format(
                host=host, port=candidate, error=exc.strerror)) from None
        return sock, candidate
    raise ServeError(_("ports {first} to {last} on {host} are all busy; choose another with --port").format(
        first=port, last=last, host=host))


def loopback_names(host: str, address: str) -> tuple[str, ...] | None:
    """The names a server that only this machine can reach answers to in the Host header (against DNS
    rebinding), or None when it listens beyond this machine. Decided by ``address``, the one its socket is bound
    to, not by how ``--host`` spells it: 127.0.0.2, or a machine name that /etc/hosts maps to 127.0.1.1, is this
    machine alone too."""
    try:
        loopback = ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return None
    if not loopback:
        return None
    bound = (address, f"[{address}]") if ":" in address else (address,)
    return tuple(dict.fromkeys((*LOOPBACK_NAMES, host.lower(), *bound)))


def url_for(host: str, port: int) -> str:
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def browser_available() -> bool:
    """Whether opening a browser can show something: a desktop platform, a display, or $BROWSER.

    Without a display Python's webbrowser falls back to text browsers, which
    would take over the terminal the server logs to, so we only print the URL.
    """
    if sys.platform in ("darwin", "win32") or os.environ.get("BROWSER"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser_when_ready(ready: Callable[[], bool], url: str) -> None:
    def wait_and_open() -> None:
        for _attempt in range(200):
            if ready():
                break
            time.sleep(0.05)
        try:
            opened = webbrowser.open(url)
        except webbrowser.Error:
            opened = False
        if not opened:
            print(_("Could not open a web browser; open {url} yourself.").format(url=url), flush=True)

    threading.Thread(target=wait_and_open, name="open-browser", daemon=True).start()


def check_database(database: Database) -> str | None:
    """Open the database once before serving: a refused one (a wrong --db, a newer schema, a file that is not a
    database or that the server may only read) raises :class:`StoreError`
    (:class:`~tableaux.web.outage.StoreMisconfigured` for a wrong --db); one that cannot be reached now gives the
    reason, and the server starts anyway, answering 503 until it can be (a server started before its database, or
    during an outage)."""
    from .store import Store, StoreUnavailable

    try:
        store = Store(database)
    except StoreUnavailable as exc:
        return exc.reason
    try:
        store.check_writable()
    finally:
        store.close()
    return None


def settings_of(args: argparse.Namespace, database: Database, allowed_hosts: tuple[str, ...] | None) -> Settings:
    from .pool import default_workers
    from .workers import Settings

    workers = getattr(args, "workers", 1)
    proxies = tuple(getattr(args, "trusted_proxy", None) or ())
    limits = Limits(
        games_per_player=getattr(args, "games_per_minute", None) or Limits.games_per_player,
        games_per_address=getattr(args, "games_per_minute_per_address", None) or Limits.games_per_address,
        requests_per_address=getattr(args, "requests_per_address", None) or Limits.requests_per_address,
    )
    return Settings(
        database, allowed_hosts, solver_workers=max(1, default_workers() // workers) if workers > 1 else None,
        limits=limits, trusted_proxies=("*",) if "*" in proxies else proxies,  # uvicorn trusts any for "*" alone
        max_connections=getattr(args, "max_connections", None) or MAX_CONNECTIONS,
        leaderboard=not getattr(args, "no_leaderboard", False),
        **{name: value for name in ("request_timeout", "keep_alive") if (value := getattr(args, name, None))},
    )


def run_serve(args: argparse.Namespace) -> int:
    """One server process, or (``--workers N``) N of them on one port, over one database.

    The database is checked (opened, migrated) before the port is taken, so a refused ``--db`` or an
    unusable database stops here with one line and nothing created (exit status 2 when ``--db`` itself is
    wrong: a malformed URL, a password missing or refused, no such database). One that cannot be reached does
    not: the server says so in one line and serves, answering 503 until it answers (:func:`check_database`).
    """
    import uvicorn

    from .workers import build_app, configure_logging, run, server_config

    host = args.host
    workers = getattr(args, "workers", 1)
    try:
        database = database_of(args.db)
    except StoreError as exc:
        print(f"tableaux: {exc}", file=sys.stderr)
        return 2
    try:
        away = check_database(database)
        asked = args.port or DEFAULT_PORT
        sock, port = open_socket(host, asked, attempts=PORT_ATTEMPTS if args.port is None else 1)
    except (ServeError, StoreError, OSError) as exc:
        print(f"tableaux: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, StoreMisconfigured) else 1
    allowed_hosts = loopback_names(host, str(sock.getsockname()[0]))
    settings = settings_of(args, database, allowed_hosts)
    if port != asked:
        print(_("Port {busy} is busy; using port {port} instead.").format(busy=asked, port=port), flush=True)
    url = url_for(host, port)
    print(_("tableaux: King Albert and Eagle Wing at {url}").format(url=url), flush=True)
    print(_("Saved games and statistics: {path}").format(path=database), flush=True)
    if away is not None:
        print(_("The saved games database cannot be reached yet ({reason}); until it can, requests are answered "
                "503 and the server keeps looking for it.").format(reason=away), flush=True)
    if workers > 1:
        print(_("{count} server processes answer on this port.").format(count=workers), flush=True)
    cores = os.cpu_count() or 1
    if workers > cores:  # allowed (a host may know better), but rarely meant
        print(_("Warning: --workers {count} starts more server processes than this machine has cores ({cores}); "
                "they take turns on them, so answers get slower, not faster.").format(count=workers, cores=cores),
              file=sys.stderr, flush=True)
    if allowed_hosts is None:
        print(_("Listening on {host}: other computers that can reach this one can play too "
                "(each browser only ever sees its own games).").format(host=f"[{host}]" if ":" in host else host),
              flush=True)
    print(_("Press Ctrl+C to stop."), flush=True)
    server = None
    if workers == 1:
        configure_logging()
        server = uvicorn.Server(server_config(build_app(settings), settings))
    if not args.no_browser:
        if browser_available():
            # Several processes: the socket already listens, so the browser's request waits for the first of them.
            open_browser_when_ready(lambda: server is None or server.started, url)
        else:
            print(_("No web browser available here; open {url} in one.").format(url=url), flush=True)
    try:
        if server is not None:
            server.run(sockets=[sock])
            return 0
        return run(sock, settings, workers)
    finally:
        sock.close()
