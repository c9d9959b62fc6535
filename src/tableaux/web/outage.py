"""What the server does when its database fails: the store's own errors, and the watch kept over an outage.

Every failure of the database reaches the routes as one of the store's errors, which the app answers
cleanly (the connection stays usable for the next request): :class:`StoreUnavailable` with 503 and a
Retry-After header, :class:`StoreFull` with 507, and :class:`StoreError` for the rest. Each says what
happened, whether the request changed anything, and that the player's earlier moves are safe; the driver's
own words (the database's host, how it failed) go to the server's log and the command line, never to a
player (``for_players``).

:class:`Health` keeps the watch over one database for one server process. The first failure that looks
like the database going away (a dropped connection, a refused one, no connection free in time) makes it
look for itself, at once, with a fresh connection. If that works, the failure was short, but a request failed
with it: the log says so, at most a line a minute saying how many (:class:`~tableaux.web.logbook.Throttle`).
If it fails too the database is *down*: one line
goes to the log, every request is answered 503 at once (without waiting on a connection that cannot
come), and a thread keeps trying to connect, a quarter of a second after the first try and at most a
second apart after that, so the server is back within about a second of the database's return; then
one more line goes to the log. A fixed, short interval is what keeps recovery quick: the connection
pool's own retries double their wait, so after a long outage it took about as long again to come back.

:func:`describe`, :func:`one_line` and :func:`shown` word a driver's error and a database URL (its password
hidden) for these errors' messages and the log.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

from ..i18n import _, ngettext
from .logbook import Throttle, log

RETRY_AFTER = 2
"""Seconds a client is asked to wait (Retry-After) before trying again while the database is unavailable."""
RETRY_AFTER_FULL = 30
"""Seconds to wait before trying again when the disk is full (freeing space takes someone's action)."""
FIRST_LOOK = 0.25
"""Seconds between the first failed look for the database and the next one; each wait then doubles, up to
:data:`LONGEST_WAIT`."""
LONGEST_WAIT = 1.0


class StoreError(Exception):
    """The database cannot be used (refused --db, newer schema, unreadable file, unreachable server).

    Defined at the bottom of the store's modules, because parsing, connecting and migrating raise it
    too; :mod:`tableaux.web.store` is where callers import it from.
    """


class StoreMisconfigured(StoreError):
    """``--db`` names a database that cannot be used as written: no such database or role, a password refused or
    missing, a URL libpq cannot use, a file that is not a database or cannot be opened, a schema newer than this
    tableaux. Waiting would not help, so the server does not start: exit status 2, as for any bad argument."""


class StoreUnavailable(StoreError):
    """The database does not answer just now: answered 503 with Retry-After; trying again later may work.

    ``outcome_unknown``: a change was on its way to the database when the connection failed, so it may
    have been stored or not; the message says so, and sending the same request again with the same
    request id (``Idempotency-Key``) settles it.

    ``held_up``: the database answers, but another's lock (or, on PostgreSQL, the statement's own work) held
    the request past its time, so it was given up and nothing was changed: a short failure, not an outage.
    """

    def __init__(self, reason: str, *, outcome_unknown: bool = False, held_up: bool = False) -> None:
        self.reason = reason
        self.outcome_unknown = outcome_unknown
        self.held_up = held_up
        if outcome_unknown:
            message = _("The saved games database stopped answering while this change was being saved, so it "
                        "may or may not have been stored ({reason}). Your earlier moves are safe. Send the same "
                        "request again, with the same request id, to find out: it is never applied twice.")
        else:
            message = _("The saved games database cannot be reached just now ({reason}), so nothing was changed. "
                        "Your earlier moves are safe. Try again in a moment.")
        super().__init__(message.format(reason=reason))

    @property
    def retry_after(self) -> int:
        return RETRY_AFTER

    def for_players(self) -> str:
        """What a player reads, in the request's language: what happened and what to do, without the driver's
        words (which name the database's host and say how it failed: the server's log has them)."""
        if self.outcome_unknown:
            return _("The saved games database stopped answering while this change was being saved, so it may or "
                     "may not have been stored. Your earlier moves are safe. Send the same request again, with the "
                     "same request id, to find out: it is never applied twice.")
        return _("The saved games database cannot be reached just now, so nothing was changed. Your earlier moves "
                 "are safe. Try again in a moment.")


class StoreFull(StoreError):
    """The database's disk is full: answered 507 (Insufficient Storage); nothing was changed."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(_("The saved games database's disk is full ({reason}), so nothing was changed. Your "
                           "earlier moves are safe. Try again later.").format(reason=reason))

    @property
    def retry_after(self) -> int:
        return RETRY_AFTER_FULL

    def for_players(self) -> str:
        """What a player reads, in the request's language, without the driver's words."""
        return _("The saved games database's disk is full, so nothing was changed. Your earlier moves are safe. "
                 "Try again later.")


class Health:
    """Whether one server process finds its database answering, and the watch kept while it does not.

    ``name`` is the database as the log names it; ``look`` tries a fresh connection (raising if it
    cannot); ``on_return`` runs once the database answers again, before requests are let through
    (a store reopens its connection pool there, and opens itself if it never could). With ``watch``
    off (SQLite: a file on this machine, with nothing to wait for) there is no thread: each operation is
    its own look, and only the log lines are kept.
    """

    def __init__(self, name: str, look: Callable[[], None] | None = None,
                 on_return: Callable[[], None] | None = None) -> None:
        self.name = name
        self._look = look
        self._on_return = on_return
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._reason = ""
        self._said: set[str] = set()
        """The reasons the log has given while the database is away."""
        self._full = False
        """Down because a write found the disk full (while down, however it went down): reads still work, so only a
        write that stores something shows it is over."""
        self._watching = False
        self._blips = Throttle()
        """Failures the first look found over: each failed a request, so the log says so, at most once a minute."""

    @property
    def down(self) -> bool:
        return self._down_since is not None

    def check(self) -> None:
        """Raise :class:`StoreUnavailable` at once while the database is known to be down (watched databases)."""
        if self._down_since is not None and self._look is not None:
            raise StoreUnavailable(self._reason)

    def check_room(self) -> None:
        """Raise :class:`StoreFull` while a write has failed here for want of room on the disk and none has stored
        anything since (unwatched databases, whose writes report how they went): what a write would meet now,
        which a read cannot tell, since reads go on working on a full disk."""
        with self._lock:
            full, reason = self._down_since is not None and self._full, self._reason
        if full:
            raise StoreFull(reason)

    def failed(self, reason: str, full: bool = False, short: bool = False) -> None:
        """An operation failed the way a database that went away fails (``full``: its disk is full): look for it
        (or, unwatched, log it). ``short``: it failed for a moment only, held up past its wait by a lock (or,
        on PostgreSQL, a statement over its time) on a database that answers; the log counts it among the short
        failures, at most a line a minute, and nothing is looked for."""
        if short:
            self._short(reason)
            return
        if self._look is None:
            self._lost(reason, full)
            return
        with self._lock:
            if self._watching:
                return
            self._watching = True
        threading.Thread(target=self._watch, args=(reason,), name="tableaux-database-watch", daemon=True).start()

    def worked(self, wrote: bool) -> None:
        """An operation succeeded, and ``wrote`` or not (unwatched databases: that is how their return is noticed;
        after a full disk, only a write that works)."""
        if self._down_since is not None and self._look is None and (wrote or not self._full):
            self._back()

    def _lost(self, reason: str, full: bool = False) -> None:
        """The database cannot be used, for ``reason``: said as it goes, and again for each new reason while it
        stays away (a server that could not be reached and now refuses the password is another thing to mend)."""
        with self._lock:
            first = self._down_since is None
            if first:
                self._down_since = time.monotonic()
                self._full = full
                self._said = set()
            elif full:
                self._full = True
            self._reason = reason
            new = reason not in self._said
            self._said.add(reason)
        if first:
            log.warning(_("The saved games database {name} cannot be used: {reason}. Requests that need it are "
                          "refused, saying so, until it can.").format(name=self.name, reason=reason))
        elif new:
            log.warning(_("The saved games database {name} still cannot be used, now: {reason}.").format(
                name=self.name, reason=reason))

    def _back(self) -> None:
        with self._lock:
            since, self._down_since = self._down_since, None
        if since is not None:
            log.warning(_("The saved games database {name} answers again, after {seconds:.1f} s.").format(
                name=self.name, seconds=time.monotonic() - since))

    def _short(self, reason: str) -> None:
        """A request failed, and the database answered again at once (``reason``: why it failed)."""
        self._blips.note("short", lambda count: ngettext(
            "The saved games database {name} failed {count} request and answered again at once ({reason}).",
            "The saved games database {name} failed {count} requests, each time answering again at "
            "once, since the last such line (the last: {reason}).", count).format(
                name=self.name, count=count, reason=reason))

    def _watch(self, reason: str) -> None:
        """Look for the database until it answers: at once, then every quarter second, doubling up to a second.
        When it answers at once, the failure (``reason``) was short, but a request failed with it: logged as such."""
        assert self._look is not None
        wait = FIRST_LOOK
        try:
            while True:
                try:
                    self._look()
                    if self._on_return is not None:
                        self._on_return()
                except Exception as exc:  # whatever the driver raises: the database still does not answer
                    self._lost(getattr(exc, "reason", None) or describe(exc))
                    time.sleep(wait)
                    wait = min(2 * wait, LONGEST_WAIT)
                    continue
                if self._down_since is None:
                    self._short(reason)
                self._back()
                return
        finally:
            with self._lock:
                self._watching = False


def describe(exc: BaseException) -> str:
    """A driver's error as a short reason: its first line, without libpq's advice lines nor psycopg's opening
    words."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text.removeprefix("connection failed: ").removeprefix("connection is bad: ").strip()


_SECRETS = ("password", "sslpassword")
"""The libpq parameters whose values are secrets: the server's password, and the one that unlocks the client's
SSL key."""
_PASSWORD = re.compile(r"(//[^/@:]*:)[^/@]*@")
_SECRET_KEY = "|".join("".join(f"(?:{letter}|%{ord(letter):02x})" for letter in key) for key in _SECRETS)
"""A secret's name as a URL's query may spell it: libpq decodes a parameter's name too (``%70assword``)."""
_SECRET_PARAMETER = re.compile(rf"([?&](?:{_SECRET_KEY})=)[^&]*", re.IGNORECASE)
"""A secret parameter of a URL, up to the next parameter: libpq reads a ``#`` or ``?`` as part of the value."""
_SECRET_PAIR = re.compile(rf"((?:^|\s)(?:{'|'.join(_SECRETS)})\s*=\s*)(?:'(?:[^'\\]|\\.)*'?|(?:[^\s\\]|\\.)*)",
                          re.IGNORECASE)
"""A secret ``keyword=value`` pair, its value quoted or not (unquoted, a backslash keeps a space in it)."""


def shown(text: str) -> str:
    """A database URL or libpq connection string with its secrets hidden, for messages and logs: the password in a
    URL's ``user:password@`` part, and the value of each parameter that holds a secret (:data:`_SECRETS`), whether
    a URL's query or a ``keyword=value`` pair (quoted or not) gives it. Every place that shows a database to a
    person shows it through here, so one that libpq reads a secret from is hidden in each of them."""
    hidden = _SECRET_PARAMETER.sub(r"\1***", _PASSWORD.sub(r"\1***@", text))
    return _SECRET_PAIR.sub(r"\1***", hidden)


def one_line(exc: BaseException) -> str:
    """An error message on one line (libpq's span several, with tabs)."""
    return " ".join(str(exc).split())
