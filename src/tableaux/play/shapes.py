"""A position's JSON shape as a ``TypedDict``: what :meth:`Game.position` returns.

For type checkers and for the web API, whose models are derived from it (:mod:`tableaux.web.fields`).
It lives apart from :mod:`.game`, which hands it out by name (``game.Position``), because ``typing`` is
loaded for it alone: a game is played without it (``benchmarks/cli.py``).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ..rulebook.shapes import CardDict


class Position(TypedDict):
    """A position as JSON (:meth:`Game.position`): the one shape the library, the web API and the browser share.

    ``deal`` is ``None`` where no deal is known (a sampled layout). The last
    five fields are those of games with a stock (Eagle Wing's :meth:`Rules.extra`).
    """

    game: str
    title: str
    deal: int | None
    piles: dict[str, list[CardDict]]
    score: int
    won: bool
    over: bool
    moves_played: int
    can_undo: bool
    can_redo: bool
    status: str
    stock_left: NotRequired[int]
    reserve_left: NotRequired[int]
    base_rank: NotRequired[str]
    base_card: NotRequired[str]
    redeals_left: NotRequired[int]
