"""Deal numbers: the same shuffle AisleRiot makes from the same seed.

AisleRiot seeds GLib's ``GRand`` (a Mersenne Twister, MT19937) with the deal
number and shuffles with ``g_rand_int_range``. We reproduce the generator
exactly so that deal N here is deal N there. Python's own ``random`` module
is an MT19937 too; we load it with the state GLib's 32-bit seeding produces
and read tempered 32-bit outputs with ``getrandbits(32)``, which is what
``g_rand_int`` returns.

``_deal`` (``_deal.c``), built with the solver's core where a C compiler is at
hand, makes the same shuffle some twenty times faster: seeding alone is a loop
of 623 steps, longer in Python than many a King Albert solve takes the core.
This module's shuffle stays the reference (``tests/rules/test_cards_and_deals.py``
holds the two to the same decks), and deals alone where ``_deal`` is not built.
"""

from __future__ import annotations

import random

from ..i18n import _
from .cards import TableauxError

try:
    from ._deal import shuffled_deck as _compiled_deck  # type: ignore[import-not-found]
except ImportError:  # built without a C compiler: the shuffle below deals alone
    _compiled_deck = None

MAX_DEAL = 0xFFFFFFFF
"""Deal numbers are unsigned 32-bit integers: 0 .. 4294967295."""


class DealError(TableauxError, ValueError):
    """Raised for a deal number outside 0 .. 4294967295."""


def check_deal(deal: object) -> int:
    """Return ``deal`` as an int, or raise :class:`DealError` saying what is accepted.

    Only an int is a deal number, as a float is not: the text ``"17"`` is read by :func:`read_deal`, where a
    player typed it, so that a program passing text by mistake hears of it.
    """
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise DealError(_("deal number must be a whole number from 0 to {max}, not {deal}").format(
            max=MAX_DEAL, deal=repr(deal)))
    if not 0 <= deal <= MAX_DEAL:
        raise DealError(_("deal number must be from 0 to {max}, not {deal}").format(max=MAX_DEAL, deal=deal))
    return deal


def plain_number(text: str) -> int | None:
    """The whole number ``text`` writes in plain digits (0-9, with spaces around them), else None: the one reading
    of a number a player types. ``str.isdigit`` alone would let ``²`` through to ``int``, which cannot read it, and
    ``int`` alone reads ``1_000``, ``+5`` and other scripts' digits."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def read_deal(text: str) -> int | None:
    """A deal number as a player types it: digits, with spaces around them, or nothing for a random deal (None).
    Anything else raises :class:`DealError` as :func:`check_deal` does."""
    if not text.strip():
        return None
    number = plain_number(text)
    return check_deal(text.strip() if number is None else number)


class GRand:
    """GLib's ``GRand`` seeded with ``g_rand_new_with_seed``."""

    def __init__(self, seed: int) -> None:
        mt = [seed & 0xFFFFFFFF]
        for i in range(1, 624):
            prev = mt[-1]
            mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
        self._rng = random.Random()
        # Index 624 makes the generator twist before its first output, as GLib does.
        self._rng.setstate((3, (*mt, 624), None))

    def int32(self) -> int:
        """``g_rand_int``: the next tempered 32-bit output."""
        return self._rng.getrandbits(32)

    def int_range(self, n: int) -> int:
        """``g_rand_int_range(rand, 0, n)`` for 1 <= n <= 2**31, rejection sampling included."""
        leftover = (0x80000000 % n) * 2
        if leftover >= n:
            leftover -= n
        maxvalue = 0xFFFFFFFF - leftover
        while True:
            r = self.int32()
            if r <= maxvalue:
                return r % n


def shuffled_deck(deal: int) -> list[int]:
    """The 52 cards in the order they are dealt for deal number ``deal`` (the compiled shuffle's, where it is
    built: the same as :func:`python_deck`'s)."""
    deal = check_deal(deal)
    return python_deck(deal) if _compiled_deck is None else _compiled_deck(deal)


def python_deck(deal: int) -> list[int]:
    """:func:`shuffled_deck` in Python, the reference, for a deal number already checked.

    AisleRiot picks cards one at a time (swap-remove from the deck) and then
    deals from the end of the picked list, so we return the picks reversed.
    """
    rand = GRand(deal)
    vec = list(range(52))
    picked = []
    for i in range(52):
        j = i + rand.int_range(52 - i)
        picked.append(vec[j])
        vec[j] = vec[i]
    picked.reverse()
    return picked


def parse_deals(text: str) -> range:
    """``"1-100000"`` (inclusive) or a single ``"17"`` -> a range of deal numbers."""
    t = text.strip()
    first, sep, last = t.partition("-")
    try:
        lo = int(first)
        hi = int(last) if sep else lo
    except ValueError:
        raise DealError(_("deals must be a range like 1-100000 or one number, not {text}").format(
            text=repr(text))) from None
    if not 0 <= lo <= hi <= MAX_DEAL:
        raise DealError(_("deals must be FIRST-LAST with 0 <= FIRST <= LAST <= {max}, not {text}").format(
            max=MAX_DEAL, text=repr(text)))
    return range(lo, hi + 1)
