"""Where the board's cursor may rest and how the arrows move it; which move Enter plays.

The cursor rests on a card the player can see: the top card of a pile, or any face-up card of a tableau
pile (a covered card of a build, to pick it up with everything above it), or the place of an empty pile.
It reads the public position only. Which moves are legal is the game's to say (:meth:`Game.legal_moves`);
nothing here knows a rule.
"""

from __future__ import annotations

from typing import Any

from ...play.game import Game
from ...rulebook.engine import Move

Place = tuple[str, int]
"""A pile and a card's index in it (-1 for an empty pile)."""


def fanned(pile: str) -> bool:
    """Tableau piles are fanned out, every card in view; the others show their top card only."""
    return pile.partition("-")[0] == "tableau"


def first_seen(cards: list[dict[str, Any]]) -> int:
    """The index of the deepest card on view in a pile (its top when none is), -1 for an empty pile."""
    for index, card in enumerate(cards):
        if card["up"] and card["card"] is not None:
            return index
    return len(cards) - 1


def settle(position: dict[str, Any], place: Place) -> Place:
    """``place`` made valid for ``position``: on a card in view, or the top card."""
    pile, index = place
    cards = position["piles"][pile]
    top = len(cards) - 1
    if not fanned(pile) or index > top or index < 0:
        return pile, top
    return pile, max(index, first_seen(cards))


def row_of(rows: list[list[str]], pile: str) -> int:
    return next(i for i, row in enumerate(rows) if pile in row)


def step(position: dict[str, Any], rows: list[list[str]], xs: dict[str, int], place: Place, key: str) -> Place:
    """Where an arrow key takes the cursor: left and right along a row of piles; up and down through the cards
    in view of a tableau pile, and on to the row above or below past its ends."""
    pile, index = settle(position, place)
    r = row_of(rows, pile)
    row = rows[r]
    if key in ("left", "right"):
        i = row.index(pile) + (1 if key == "right" else -1)
        if not 0 <= i < len(row):
            return pile, index
        return settle(position, (row[i], len(position["piles"][row[i]]) - 1))
    cards = position["piles"][pile]
    if fanned(pile) and cards:
        if key == "up" and index > first_seen(cards):
            return pile, index - 1
        if key == "down" and index < len(cards) - 1:
            return pile, index + 1
    r += -1 if key == "up" else 1
    if not 0 <= r < len(rows):
        return pile, index
    nearest = min(rows[r], key=lambda other: abs(xs.get(other, 0) - xs.get(pile, 0)))
    top = len(position["piles"][nearest]) - 1
    if key == "up" or not fanned(nearest):
        return settle(position, (nearest, top))
    return settle(position, (nearest, first_seen(position["piles"][nearest])))


def count_from(position: dict[str, Any], place: Place) -> int:
    """How many cards a pick-up at ``place`` takes: that card and every card above it."""
    pile, index = place
    return max(0, len(position["piles"][pile]) - index) if index >= 0 else 0


def moves_of(game: Game, pile: str, count: int) -> list[Move]:
    """The legal moves of ``count`` cards from ``pile``."""
    return [m for m in game.legal_moves() if m.source == pile and m.count == count]


def best_move(game: Game, pile: str, count: int) -> Move | None:
    """The move Enter plays: home first (as a double click sends it), then onto a pile that holds cards,
    then anywhere legal."""
    home = game.home_move(pile)
    if home is not None and home.count == count:
        return home
    moves = moves_of(game, pile, count)
    if not moves:
        return None
    index = game.rules.index

    def rank(move: Move) -> tuple[int, int]:
        kind = move.target.partition("-")[0]
        empty = not game.state.piles[index[move.target]]
        return (0 if kind == "foundation" else 1 if not empty else 2, index[move.target])

    return min(moves, key=rank)
