"""Cards as small integers, and their text notation.

A card is an ``int``: ``suit * 13 + rank - 1`` (0 = AC ... 51 = KS), the same
order as AisleRiot's unshuffled deck. A face-down card carries the ``DOWN`` bit
(64) so a pile stays a plain tuple of ints: cheap to copy, hash and compare,
which matters because the solver visits millions of positions.

Text form: rank ``A23456789TJQK`` then suit ``CDHS`` (``TS``, ``AH``). Parsing
also accepts ``10`` for ten and lower case.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
DOWN = 64
"""Bit set on a card int while the card lies face down."""

RANK_WORDS = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")

# Lookup tables indexed by card int, face-down bit included (0..127), so that
# hot loops never do arithmetic to learn a rank, a suit or a colour.
RANK: tuple[int, ...] = tuple((c & 63) % 13 + 1 if (c & 63) < 52 else 0 for c in range(128))
SUIT: tuple[int, ...] = tuple((c & 63) // 13 if (c & 63) < 52 else 0 for c in range(128))
RED: tuple[bool, ...] = tuple(SUIT[c] in (1, 2) for c in range(128))


class CardError(ValueError):
    """Raised for text that is not a card."""


def card_str(c: int) -> str:
    """Notation of a card, whichever way up it lies (``TS``)."""
    c &= 63
    return RANKS[c % 13] + SUITS[c // 13]


def card_name(c: int) -> str:
    """Words for screen readers and messages: ``10 of hearts``."""
    c &= 63
    return f"{RANK_WORDS[c % 13]} of {SUIT_WORDS[c // 13]}"


def parse_card(text: str) -> int:
    """Parse ``TS``, ``10s``, ``ah``... into a card int (face up).

    Anything else raises :class:`CardError` naming what is accepted.
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be text like 'TS' or '10D', not {type(text).__name__}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(
            f"not a card: {text!r}; a card is a rank (A 2-9 T/10 J Q K) "
            "then a suit (C D H S), for example 'TS', '10D' or 'ah'"
        )
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])
