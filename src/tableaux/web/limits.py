"""What one client may cost everyone else: new games a minute, games never moved, connections and slow sends.

The figures are the server's settings (``tableaux serve`` options, see docs/deploy.md); every server
process on one database enforces the same ones.

- New games are counted per player and per client address, a minute at a time, in the database
  (:func:`tableaux.web.ledger.count_new_game`), so the count holds across every process and machine
  on it; beyond either limit a new game is answered 429 with Retry-After. The address is the socket's,
  or behind a proxy named as trusted (``--trusted-proxy``) the one its X-Forwarded-For header gives
  (uvicorn reads it), without any port given with it; an IPv6 address counts by its /64 network, which one
  machine usually has whole.
- A game never moved costs nothing lasting: after :attr:`Limits.unmoved_after` it is forgotten, and a
  player with no game left with it (a flood of anonymous new games leaves nothing behind). A player
  who has moved a game keeps their newest one.
- API requests one client address has in hand at once, in one process: at most
  :attr:`Limits.requests_per_address`; beyond, a request is answered 429 at once, before any work
  (:class:`tableaux.web.middleware.AddressShare`). A client that opens dozens of connections and keeps each
  busy would otherwise hold the process's threads and its database connections, and every other player's
  move would wait in line behind its requests. A request waiting for a solver worker steps out of its address's
  share while it waits (:func:`waiting_for_solver`): the solver pool shares its places out by address itself,
  and players behind one address may each wait for one. What it does in the server's own threads (a hint by the
  rule of thumb when the pool is full, a chance already worked out) counts.
- Connections: see :mod:`tableaux.web.connections`.

What the limits refuse is logged for the host (:data:`REFUSALS`): the first refusal of each kind at once, then at
most a line a minute with how many there were, so a flood shows in the log without flooding it.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from .logbook import Throttle

BACKLOG = 64
"""Connections the kernel queues for a server, and so the most asyncio accepts in one go (uvicorn's default is
2048): :mod:`tableaux.web.connections` keeps that many file descriptors free beyond its connection cap."""
MAX_CONNECTIONS = 1000
"""Connections one server process keeps open at most, unless its file limit is lower
(:func:`tableaux.web.connections.connection_cap`)."""


@dataclass(frozen=True)
class Limits:
    games_per_player: int = 30
    """New games one player may start in a minute (a person starts a few; pressing "New game" fast, a dozen)."""
    games_per_address: int = 120
    """New games one client address may start in a minute: several players behind one address share it."""
    unmoved_after: float = 3600.0
    """Seconds a game never moved is kept (a player who has moved a game keeps their newest one anyway)."""
    tidy_every: float = 60.0
    """Seconds between two rounds of forgetting (old request ids, past minutes' counts, games never moved)."""
    requests_per_address: int = 8
    """API requests one client address may have in hand at once in one process, those waiting for a solver worker
    apart (:func:`waiting_for_solver`). A page has one or two at most (a move, a view); players behind one
    address (a school, a NAT) take turns of milliseconds. Hints answered by the rule of thumb (the client's share
    of the pool taken) count: left out, one client's flood of them was answered in full (docs/deploy.md). With
    16, one client keeping 48 connections busy still took a polite client's moves from 14 ms to 61 ms (median)
    and 1.6 s (slowest) on SQLite; with 4, to 38 ms and 0.3 s."""

    def quotas(self, player: str, address: str | None) -> list[tuple[str, int]]:
        """The counters a new game of ``player`` from ``address`` (as :func:`address_bucket` counts it) is counted
        in, with their limits."""
        out = [(f"player:{player}", self.games_per_player)]
        if address:
            out.append((f"address:{address}", self.games_per_address))
        return out


def _without_port(address: str) -> str:
    """``address`` without the port a proxy may give with it in X-Forwarded-For (``203.0.113.5:41234``,
    ``[2001:db8::1]:443``): the port is the client's connection to the proxy, a new one for each, not the client.
    Anything else is returned as it is: an IPv6 address without brackets has colons of its own."""
    host, colon, port = address.rpartition(":")
    if not (colon and port.isascii() and port.isdigit() and len(port) <= 5 and int(port) <= 65535):
        host = address  # no port: perhaps a bracketed IPv6 address alone
    elif ":" in host and not host.startswith("["):
        return address  # an IPv6 address without brackets, whose last group is no port
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def address_bucket(address: str) -> str:
    """The address a client is counted by: an IPv4 address as it is, an IPv6 one by its /64 network, either without
    a port given with it (:func:`_without_port`). uvicorn leaves a port in the address it reads from a trusted
    proxy's X-Forwarded-For before version 0.45; counted with it, a client would get a share of its own for each
    connection the proxy made."""
    try:
        ip = ipaddress.ip_address(_without_port(address))
    except ValueError:
        return address  # not an IP address (a test client, a Unix socket): counted by what it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


REFUSALS = Throttle()
"""This process's refusals: new games over a quota, solver jobs with no place, connections over the cap."""


STEP_OUT: ContextVar[Callable[[], contextlib.AbstractContextManager[None]] | None] = ContextVar(
    "step_out", default=None)
"""How the request being answered steps out of its address's share (set by
:class:`tableaux.web.middleware.AddressShare`); None outside one."""


@contextlib.contextmanager
def waiting_for_solver() -> Iterator[None]:
    """While a request waits for a solver worker (:meth:`tableaux.web.pool.SolverPool.run`): out of its address's
    share of requests in hand, and back in it after."""
    step_out = STEP_OUT.get()
    with step_out() if step_out is not None else contextlib.nullcontext():
        yield
