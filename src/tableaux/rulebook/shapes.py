"""The rulebook's JSON shapes as ``TypedDict``: a card of a pile and a move, as every answer writes them, and
the rules in words (:mod:`.guide`).

They are for type checkers and for the web API, whose models are derived from them
(:mod:`tableaux.web.fields`). They live apart from :mod:`.engine`, which hands them out by name
(``engine.CardDict``), because ``typing`` is loaded for them alone: the rules, and a command that only
plays or solves, start without it (``benchmarks/cli.py``).
"""

from __future__ import annotations

from typing import Literal, TypedDict

PileKind = Literal["fan", "stack", "stock", "closed"]
"""How a pile shows its cards (:class:`tableaux.rulebook.guide.Spot`): ``fan`` spreads them downwards, ``stack``
shows the top one, ``stock`` is a face-down deck with its count, ``closed`` a closed pile drawn as its top card
and its count (Eagle Wing's trunk: as in AisleRiot, only its top shows)."""


class Paragraph(TypedDict):
    """A paragraph of a game's rules in words."""

    kind: Literal["paragraph"]
    text: str


class Items(TypedDict):
    """A bulleted list of a game's rules in words."""

    kind: Literal["list"]
    items: list[str]


Block = Paragraph | Items
Guide = list[Block]


class CardDict(TypedDict):
    """One card of a pile as JSON: its code (``None`` when the player cannot see it) and how it lies."""

    card: str | None
    up: bool


class MoveDict(TypedDict):
    """A move as JSON (:meth:`Move.to_dict`)."""

    source: str
    count: int
    target: str
    text: str
