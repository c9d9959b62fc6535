"""Hints: which move to suggest, and whether it comes from a proof or a rule of thumb.

The heuristic here never suggests a pointless move (a lone card or a whole
pile onto an empty pile, a move that just undoes the previous one, or one that
returns to a position the game has already been in, so following its hints
never goes round in circles). The solver, when it answers within its budget,
gives a move from a winning line instead, or says that no line wins; see
:func:`hint`.
"""

from __future__ import annotations

from collections.abc import Collection
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


def is_pointless(
    rules: Rules,
    state: State,
    move: RawMove,
    previous: RawMove | None,
    seen: Collection[State] | None = None,
) -> bool:
    """A move that cannot help.

    That is: a lone card or a whole pile onto an empty pile (the same
    position with the piles swapped), taking back the previous move (the
    same cards straight back where they came from), or any move back to a
    position this game has already been in (``seen``), which is how a
    heuristic would otherwise go round in circles.
    """
    src, count, dst = move
    if (
        previous is not None
        and previous[0] == dst
        and previous[2] == src
        and previous[1] == count
        and rules.stock not in (src, dst)
    ):
        return True
    piles = state.piles
    if dst in rules.tableau and not piles[dst] and src in rules.tableau and count == len(piles[src]):
        return True
    return bool(seen) and rules.apply(state, move) in seen  # type: ignore[operator]


def heuristic_moves(
    rules: Rules,
    state: State,
    previous: RawMove | None = None,
    seen: Collection[State] | None = None,
) -> list[RawMove]:
    """Legal, non-pointless moves (see :func:`is_pointless`), best first, by a player's rules of thumb."""
    piles = state.piles
    foundations = set(rules.foundations)

    def rank(move: RawMove) -> tuple[int, int]:
        src, count, dst = move
        source = piles[src]
        if src in foundations:
            return (9, 0)  # taking a card back is a last resort
        if src == rules.stock:
            return (7, 0)  # the stock comes after every useful card move
        if dst == rules.stock:
            return (8, 0)  # turning the waste over uses up a redeal
        if dst in foundations:
            return (0, RANK[source[-1]])
        uncovers = len(source) > count and source[-count - 1] & DOWN
        if uncovers:
            return (1, -len(source))
        if len(source) == count:
            return (2, 0)  # empties a pile (Eagle Wing refills it from the reserve)
        return (3 if piles[dst] else 5, -count)

    moves = [m for m in rules.moves(state) if not is_pointless(rules, state, m, previous, seen)]
    return sorted(moves, key=rank)


def history(game: Game) -> set[State]:
    """Every position this game has been in along its played line."""
    return set(game.positions)


def heuristic_hint(game: Game) -> Hint:
    previous = game.rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    moves = heuristic_moves(game.rules, game.state, previous, history(game))
    if not moves:
        if game.is_won():
            return Hint(None, "none", "The game is won.")
        if game.legal_moves():
            return Hint(None, "none", (
                "No useful move is left: every legal move only swaps piles, "
                "takes back the last move or repeats a position."
            ))
        return Hint(None, "none", "No move is left.")
    move = game.rules.to_move(moves[0])
    return Hint(move, "heuristic", f"Try {move} (a rule of thumb, not a proof).")


def solver_hint(game: Game, time_limit: float | None = None) -> Hint | None:
    """A hint from the solver: the next move of a winning line, or the news that none exists; None if undecided.

    By default the solver gets :data:`~tableaux.solver.HINT_NODES` positions and
    :data:`~tableaux.solver.HINT_SECONDS` seconds, whichever runs out first.
    """
    from .solver import HINT_NODES, HINT_SECONDS, solve

    if game.is_won():
        return None
    if time_limit is None:
        result = solve(game, max_nodes=HINT_NODES, time_limit=HINT_SECONDS)
    else:
        result = solve(game, time_limit=time_limit)
    if result.verdict == "winnable" and result.moves:
        move = result.moves[0]
        return Hint(move, "solver", f"Play {move}: it starts a winning line of {len(result.moves)} moves.")
    if result.verdict == "unwinnable":
        fallback = heuristic_hint(game)
        text = "This position can no longer be won: the solver searched every line from here."
        if fallback.move is not None:
            text += f" You can still play {fallback.move}."
        return Hint(fallback.move, "solver", text, unwinnable=True)
    return None


def hint(game: Game, *, time_limit: float | None = None) -> Hint:
    """The solver's move when it decides the position within its budget (see :func:`solver_hint`), else the
    heuristic's."""
    return solver_hint(game, time_limit) or heuristic_hint(game)
