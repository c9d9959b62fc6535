"""The server's throttled log lines, held for a test: the process's shared :data:`~tableaux.web.limits.REFUSALS`
made fresh, and its timers kept in a list to run when the test says the minute is over."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tableaux.web.limits import REFUSALS


def held_refusals(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, Callable[[], None]]]:
    """REFUSALS with nothing counted, and no timer of an earlier test's that could write into this one's log; the
    timers it sets, ``(seconds, action)``, are returned instead of started."""
    scheduled: list[tuple[float, Callable[[], None]]] = []
    for kept in ("_logged", "_counts", "_words", "_sources", "_scheduled"):
        monkeypatch.setattr(REFUSALS, kept, {})
    monkeypatch.setattr(REFUSALS, "later", lambda seconds, action: scheduled.append((seconds, action)))
    return scheduled
