"""Cards as small integers, and their text notation.

A card is an ``int``: ``suit * 13 + rank - 1`` (0 = AC ... 51 = KS), the same
order as AisleRiot's unshuffled deck. A face-down card carries the ``DOWN`` bit
(64) so a pile stays a plain tuple of ints: cheap to copy, hash and compare,
which matters because the solver visits millions of positions.

Text form: rank ``A23456789TJQK`` then suit ``CDHS`` (``TS``, ``AH``). Parsing
also accepts ``10`` for ten and lower case.
"""

from __future__ import annotations

from ..i18n import N_, _

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_LABELS = {rank: "10" if rank == "T" else rank for rank in RANKS}
"""How each rank reads on a card face: its letter, but ten is written 10 (the notation's ``T`` keeps codes two long)."""
DOWN = 64
"""Bit set on a card int while the card lies face down."""

# TRANSLATORS: a rank's name, shown alone ("Base card: Queen") and as {rank} in "{rank} of {suit}". Keep the
# number ranks as digits, as the cards print them ("Base card: 4" in every language; Dutch "harten 10").
RANK_WORDS = (N_("Ace"), N_("2"), N_("3"), N_("4"), N_("5"), N_("6"), N_("7"), N_("8"), N_("9"), N_("10"),
              N_("Jack"), N_("Queen"), N_("King"))
"""AisleRiot's words (its Eagle Wing status line says "Base Card: 8"), so English matches it exactly."""
# TRANSLATORS: a suit's name, used only as {suit} in "{rank} of {suit}".
SUIT_WORDS = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
CARD_NAME = N_("{rank} of {suit}")
"""One pattern for the whole name, so that each language puts rank and suit in its own order ("Pik-König")."""

# Lookup tables indexed by card int, face-down bit included (0..127), so that
# hot loops never do arithmetic to learn a rank, a suit or a colour.
RANK: tuple[int, ...] = tuple((c & 63) % 13 + 1 if (c & 63) < 52 else 0 for c in range(128))
SUIT: tuple[int, ...] = tuple((c & 63) // 13 if (c & 63) < 52 else 0 for c in range(128))
RED: tuple[bool, ...] = tuple(SUIT[c] in (1, 2) for c in range(128))


class TableauxError(Exception):
    """Base class of every error the library raises on purpose.

    It lives here, in the lowest layer, so that the cards' and the deal's own errors can be its subclasses too."""


class CardError(TableauxError, ValueError):
    """Raised for text that is not a card."""


def card_str(c: int) -> str:
    """Notation of a card, whichever way up it lies (``TS``)."""
    c = card_number(c)
    return RANKS[c % 13] + SUITS[c // 13]


def card_number(c: int) -> int:
    """``c`` face up (0..51), or :class:`CardError` for an int that is no card: the face-down bit masked off
    another number would name some card, and one past the deck would fail deep in a lookup."""
    if isinstance(c, bool) or not isinstance(c, int) or not (0 <= c < 52 or DOWN <= c < DOWN + 52):
        raise CardError(_("not a card number: {card}; a card is a whole number from 0 to 51 (suit * 13 + rank - 1), "
                          "or from {down} to {last} while it lies face down").format(
            card=repr(c), down=DOWN, last=DOWN + 51))
    return c & ~DOWN


def rank_name(rank: int) -> str:
    """A rank (1 = Ace ... 13 = King) in words, in the current language: ``Queen``, ``Dame``."""
    return _(RANK_WORDS[rank - 1])


def card_name(c: int) -> str:
    """Words for screen readers and messages, in the current language: ``10 of hearts``, ``Herz-König``."""
    c = card_number(c)
    return _(CARD_NAME).format(rank=rank_name(c % 13 + 1), suit=_(SUIT_WORDS[c // 13]))


def parse_card(text: str) -> int:
    """Parse ``TS``, ``10s``, ``ah``... into a card int (face up).

    Anything else raises :class:`CardError` naming what is accepted.
    """
    if not isinstance(text, str):
        raise CardError(_("a card must be text like 'TS' or '10D', not {kind}").format(kind=type(text).__name__))
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(_(
            "not a card: {text}; a card is a rank (A 2-9 T/10 J Q K) "
            "then a suit (C D H S), for example 'TS', '10D' or 'ah'").format(text=repr(text)))
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])
