"""``tableaux serve`` (and ``tableaux`` alone): the browser game (:mod:`tableaux.web`)."""

from __future__ import annotations

import argparse

from ..i18n import N_, _
from .args import add_db_argument, port_number, positive_float, positive_int, proxy_address

HELP = N_("start the browser game (the default command)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1: this computer only)"))
    p.add_argument("--port", type=port_number, default=None,
                   help=_("port (default 8000, or the next free one when it is busy); a port named here is used or "
                          "refused, never moved"))
    add_db_argument(p)
    p.add_argument("--workers", type=positive_int, default=1,
                   help=_("server processes answering on the port (default 1); they share the database"))
    p.add_argument("--no-browser", action="store_true", help=_("do not open a web browser"))
    p.add_argument("--no-leaderboard", action="store_true",
                   help=_("no daily race: no leaderboard of the daily deal and no display names (a private "
                          "install)"))
    p.add_argument("--trusted-proxy", action="append", metavar="ADDRESS", type=proxy_address,
                   help=_("a reverse proxy in front of the server, by IP address or network (repeat for several; * "
                          "for any): the client address it puts in X-Forwarded-For is the one counted for new games"))
    p.add_argument("--games-per-minute", type=positive_int, default=None, metavar="N",
                   help=_("new games each player may start in a minute (default 30); beyond it, 429"))
    p.add_argument("--games-per-minute-per-address", type=positive_int, default=None, metavar="N",
                   help=_("new games one client address may start in a minute (default 120); beyond it, 429"))
    p.add_argument("--requests-per-address", type=positive_int, default=None, metavar="N",
                   help=_("API requests one client address may have in hand at once in each server process (default "
                          "8; those waiting for the solver apart); beyond it, 429"))
    p.add_argument("--max-connections", type=positive_int, default=None, metavar="N",
                   help=_("connections each server process keeps open at most (default 1000, and fewer than "
                          "its file limit allows); beyond it, new ones are closed"))
    p.add_argument("--request-timeout", type=positive_float, default=None, metavar="SECONDS",
                   help=_("seconds a request may take to arrive whole (default 10); a slower one is answered "
                          "408 and its connection closed"))
    p.add_argument("--keep-alive", type=positive_float, default=None, metavar="SECONDS",
                   help=_("seconds a connection may stay idle between two requests (default 5)"))


def run(args: argparse.Namespace) -> int:
    from ..web.server import run_serve

    return run_serve(args)
