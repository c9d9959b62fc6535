"""The daily deal: the same winnable deal for every player on the same UTC day."""

from __future__ import annotations

import datetime as dt
import hashlib
import re

from ..i18n import _
from .files import load
from .grades import CatalogueError, Entry

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """``YYYY-MM-DD`` exactly (the form the daily deal is keyed by), or a clear error saying so."""
    if isinstance(text, str) and DATE.fullmatch(text.strip()):
        try:
            return dt.date.fromisoformat(text.strip())
        except ValueError as exc:
            raise CatalogueError(_(
                "not a real date: {text} ({error}); a date is YYYY-MM-DD, for example 2025-03-14").format(
                text=repr(text), error=exc)) from None
    raise CatalogueError(_("a date must be written YYYY-MM-DD, for example 2025-03-14, not {text}").format(
        text=repr(text)))


def today() -> dt.date:
    """Today in UTC: the daily deal changes at midnight UTC for every player at once."""
    return dt.datetime.now(dt.UTC).date()


DAILY_TRIES = 1000


def daily(game: str, date: dt.date | str | None = None) -> Entry:
    """The daily deal of ``game`` for ``date`` (a date or ``YYYY-MM-DD``; today in UTC when None).

    Candidate ``i`` (0, 1, 2, ...) is ``deals[sha256("GAME:YYYY-MM-DD:i") mod len(deals)]`` over the
    catalogue's deals in deal order; the first winnable candidate is the daily deal. Every player with the same
    catalogue gets the same deal, and a solver that later decides more deals only changes the days whose earlier
    candidates it newly decided.
    """
    day = today() if date is None else parse_date(date) if isinstance(date, str) else date
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise CatalogueError(_("a date must be a datetime.date or YYYY-MM-DD text, not {date}").format(date=repr(date)))
    catalogue = load(game)
    entries = catalogue.entries
    if not catalogue.winnable:
        raise CatalogueError(_("the {game} catalogue has no winnable deal").format(game=game))
    for i in range(DAILY_TRIES):
        digest = hashlib.sha256(f"{game}:{day.isoformat()}:{i}".encode()).digest()
        entry = entries[int.from_bytes(digest[:8], "big") % len(entries)]
        if entry.winnable:
            return entry
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()  # pragma: no cover - needs ~0 winnable
    return catalogue.winnable[int.from_bytes(digest[:8], "big") % len(catalogue.winnable)]
