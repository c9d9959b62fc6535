"""A game's clock: the time played, as the page counts it and the server allows it.

The page counts only the time the player is playing: not while the page is hidden or the window has lost focus,
nor after a minute without input (static/clock.js). It sends the game's total with each change it asks for, and
the server stores it, never more than its own count allows: the time stored before, plus the wall time since the
previous change, each gap capped at :data:`IDLE_CAP`. So a page cannot claim more than the wall time, a wrong or
hostile figure is bounded, and the clock never runs backwards. A client that sends no figure (a script) gets the
server's count, as before the page counted. The clock starts at the first move: time before it is no play.

Pure functions of the stored figures, with no database in them, so the rule can be tested on its own (and
property-tested) and the store applies it in one call.
"""

from __future__ import annotations

IDLE_CAP = 600.0
"""Longest gap between two changes that still counts as playing time (seconds), when the page says nothing.

A longer gap means the player walked away or closed the tab; counting it would make the clock meaningless when
a game is resumed the next day.
"""


def allowed_time(played: float, last_move_at: float | None, now: float) -> float:
    """The most time a game may have been played by ``now``: what was stored at the previous change, plus the
    wall time since it, capped at :data:`IDLE_CAP`; before the first move, nothing (the clock starts there)."""
    if last_move_at is None:
        return played
    return played + min(max(now - last_move_at, 0.0), IDLE_CAP)


def played_time(played: float, last_move_at: float | None, now: float, reported: float | None) -> float:
    """The time to store with a change made at ``now``: the page's ``reported`` total, kept between what was stored
    before (the clock never runs backwards) and :func:`allowed_time`; the allowed time when the page says nothing."""
    most = allowed_time(played, last_move_at, now)
    if reported is None:
        return most
    return min(max(reported, played), most)
