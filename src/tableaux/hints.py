"""Hints: which move to suggest, and whether it comes from a proof or a rule of thumb.

The heuristic here never suggests a pointless move (a lone card or a whole
pile onto an empty pile, or a move that just undoes the previous one). The
solver, when it answers within its budget, gives a move from a winning line
instead; see :func:`hint`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .cards import DOWN, RANK
from .engine import Move, RawMove, Rules, State

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class Hint:
    """A suggested move (``None`` when there is none) and where it came from."""

    move: Move | None
    source: Literal["solver", "heuristic", "none"]
    message: str
    unwinnable: bool = False
    """True when the solver proved that no line from here wins."""

    def to_dict(self) -> dict[str, object]:
        return {
            "move": None if self.move is None else {**self.move.to_dict(), "text": str(self.move)},
            "source": self.source,
            "message": self.message,
            "unwinnable": self.unwinnable,
        }


def is_pointless(rules: Rules, state: State, move: RawMove, previous: RawMove | None) -> bool:
    """A move that cannot help: shuffling a whole pile onto an empty one, or undoing the last move."""
    src, count, dst = move
    if previous is not None and previous[0] == dst and previous[2] == src and previous[1] == count:
        return True
    piles = state.piles
    return dst in rules.tableau and not piles[dst] and count == len(piles[src])


def heuristic_moves(rules: Rules, state: State, previous: RawMove | None = None) -> list[RawMove]:
    """Legal, non-pointless moves, best first, by a player's rules of thumb."""
    piles = state.piles
    foundations = set(rules.foundations)

    def rank(move: RawMove) -> tuple[int, int]:
        src, count, dst = move
        source = piles[src]
        if src in foundations:
            return (9, 0)  # taking a card back is a last resort
        if piles[src] and src == 0 and dst == 1 and rules.name == "eagle-wing":
            return (7, 0)  # the stock comes after every useful card move
        if dst == 0 and rules.name == "eagle-wing":
            return (8, 0)
        if dst in foundations:
            return (0, RANK[source[-1]])
        uncovers = len(source) > count and source[-count - 1] & DOWN
        if uncovers:
            return (1, -len(source))
        if len(source) == count:
            return (2, 0)  # empties a pile (Eagle Wing refills it from the reserve)
        return (3 if piles[dst] else 5, -count)

    moves = [m for m in rules.moves(state) if not is_pointless(rules, state, m, previous)]
    return sorted(moves, key=rank)


def heuristic_hint(game: Game) -> Hint:
    previous = game.rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    moves = heuristic_moves(game.rules, game.state, previous)
    if not moves:
        if game.is_won():
            return Hint(None, "none", "The game is won.")
        if game.legal_moves():
            return Hint(None, "none", "No useful move is left; only moves that change nothing remain.")
        return Hint(None, "none", "No move is left.")
    move = game.rules.to_move(moves[0])
    return Hint(move, "heuristic", f"Try {move} (a rule of thumb, not a proof).")


def hint(game: Game, *, time_limit: float = 0.3) -> Hint:
    """The solver's move when it finds a win within ``time_limit``, else the heuristic's."""
    try:
        from .solver import solver_hint  # the solver is optional until it lands
    except ImportError:
        return heuristic_hint(game)
    return solver_hint(game, time_limit=time_limit) or heuristic_hint(game)
