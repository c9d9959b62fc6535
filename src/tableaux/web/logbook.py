"""The server's log: one logger for the web side, and lines that would repeat written at most once a minute.

A flood of refused requests, or a database that fails a request now and then, would otherwise write a line
each time and bury everything else; :class:`Throttle` writes the first at once and then at most one line every
:data:`REPORT_EVERY` seconds for each kind, saying how many it stands for, so the host still reads that it
happens and how often. Events held back are not left for the next one of their kind, which may never come: a
timer writes their line once the minute is over, and :func:`report_pending` writes every line still due when the
server process stops.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable

from ..i18n import _

log = logging.getLogger("tableaux.web")

REPORT_EVERY = 60.0
"""Seconds between two log lines of one kind, at least."""

Words = Callable[[int], str]
Later = Callable[[float, Callable[[], None]], None]
"""``later(seconds, action)``: run ``action`` in ``seconds``, in another thread."""


def in_a_thread(seconds: float, action: Callable[[], None]) -> None:
    """Run ``action`` in ``seconds`` in a daemon thread, which never holds up the process's exit."""
    timer = threading.Timer(seconds, action)
    timer.name = "tableaux-log-timer"
    timer.daemon = True
    timer.start()


schedule: Later = in_a_thread
"""How a throttle without a ``later`` of its own runs a line when its minute is over (the test suite holds it)."""

_THROTTLES: weakref.WeakSet[Throttle] = weakref.WeakSet()


class Throttle:
    """Log lines of one server process, at most one every :data:`REPORT_EVERY` seconds for each kind, each with how
    many events of that kind it stands for (since the line before).

    An event that comes too soon after its kind's line is counted, and its line is written when the minute is
    over (``later``, or else :data:`schedule`, runs it), or by :func:`report_pending`, whichever comes first:
    never later than a minute after the first event it counts. ``clock`` and ``later`` are the process's own
    clock and timers; tests hold them."""

    def __init__(self, every: float = REPORT_EVERY, clock: Callable[[], float] = time.monotonic,
                 later: Later | None = None) -> None:
        self.every = every
        self.clock = clock
        self.later = later
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._words: dict[str, Words] = {}
        self._sources: dict[str, Counter[str]] = {}
        """For each kind, the client addresses its events since its last line came from."""
        self._logged: dict[str, float] = {}
        self._scheduled: dict[str, object] = {}
        """The timer each kind waits on, by a ticket of its own: a timer whose ticket is not there has nothing to do."""
        _THROTTLES.add(self)

    def note(self, kind: str, words: Words, source: str | None = None) -> None:
        """One event of ``kind``; ``words(count)`` is the log line for ``count`` of them, made only when a line is
        due (the words of the kind's last event are the ones written). ``source``, the client address the event
        came from: the line names the one most of its events came from, the client a host would look at."""
        with self._lock:
            count = self._counts[kind] = self._counts.get(kind, 0) + 1
            self._words[kind] = self._with_source(kind, words, source)
            now = self.clock()
            last = self._logged.get(kind)
            if last is not None and now - last < self.every:
                if kind not in self._scheduled:
                    ticket = self._scheduled[kind] = object()
                    (self.later or schedule)(last + self.every - now, lambda: self._due(kind, ticket))
                return
            self._logged[kind] = now
            words = self._words.pop(kind)
            del self._counts[kind]
            self._sources.pop(kind, None)
        log.warning(words(count))

    def _with_source(self, kind: str, words: Words, source: str | None) -> Words:
        """``words``, followed by the address most of the kind's events since its last line came from."""
        if source is not None:
            self._sources.setdefault(kind, Counter())[source] += 1
        sources = self._sources.get(kind)
        if not sources:
            return words
        (address, most), = sources.most_common(1)
        return lambda count: words(count) + " " + _("Most came from {address} ({count}).").format(
            address=address, count=most)

    def _due(self, kind: str, ticket: object) -> None:
        """The kind's minute is over: its line, if events are waiting for one."""
        with self._lock:
            if self._scheduled.get(kind) is not ticket:
                return
            del self._scheduled[kind]
            count = self._counts.pop(kind, 0)
            words = self._words.pop(kind, None)
            self._sources.pop(kind, None)
            if not count or words is None:
                return
            self._logged[kind] = self.clock()
        log.warning(words(count))

    def report(self) -> None:
        """Write the line of every kind with events waiting for one, now (a pending timer then finds none)."""
        with self._lock:
            now = self.clock()
            waiting = [(self._words.pop(kind), count) for kind, count in self._counts.items()]
            self._logged.update(dict.fromkeys(self._counts, now))
            self._counts.clear()
            self._sources.clear()
        for words, count in waiting:
            log.warning(words(count))


def report_pending() -> None:
    """Every throttle's waiting lines, now: the process is stopping, and counts held back would be lost."""
    for throttle in list(_THROTTLES):
        throttle.report()
