"""The server's log: one logger for the web side, and lines that would repeat written at most once a minute.

A flood of refused requests, or a database that fails a request now and then, would otherwise write a line
each time and bury everything else; :class:`Throttle` writes the first at once and then at most one line every
:data:`REPORT_EVERY` seconds for each kind, saying how many it stands for, so the host still reads that it
happens and how often.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("tableaux.web")

REPORT_EVERY = 60.0
"""Seconds between two log lines of one kind, at least."""


class Throttle:
    """Log lines of one server process, at most one every :data:`REPORT_EVERY` seconds for each kind, each with how
    many events of that kind it stands for (since the line before)."""

    def __init__(self, every: float = REPORT_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._logged: dict[str, float] = {}

    def note(self, kind: str, words: Callable[[int], str]) -> None:
        """One event of ``kind``; ``words(count)`` is the log line for ``count`` of them, made only when a line is
        due."""
        with self._lock:
            count = self._counts[kind] = self._counts.get(kind, 0) + 1
            now = self.clock()
            last = self._logged.get(kind)
            if last is not None and now - last < self.every:
                return
            self._logged[kind] = now
            del self._counts[kind]
        log.warning(words(count))
