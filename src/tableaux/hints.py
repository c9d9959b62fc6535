"""Hints: which move to suggest, and whether it comes from the solver or a rule of thumb.

Two modes (:func:`hint`). A *fair* hint (the default) uses only what the
player has seen: :func:`tableaux.fair.hint` solves sampled layouts of the
hidden cards and suggests the move that wins in most of them. A *peek* hint
asks the solver about the real deal, face-down cards included, and says so.

The heuristic here never suggests a pointless move (a lone card or a whole
pile onto an empty pile, a move that just undoes the previous one, or one that
returns to a position the game has already been in, so following its hints
never goes round in circles). It looks at no hidden card, so both modes fall
back on it when the solver does not answer within its budget.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .cards import DOWN, RANK
from .engine import Move, RawMove, Rules, State
from .i18n import N_, _

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
    peeks: bool = False
    """True when the hint used cards the player cannot see (``mode="peek"``); its message says so too."""

    def to_dict(self) -> dict[str, object]:
        """JSON-ready; ``"peeks": true`` is added only to a hint that peeked.

        Leaving the field out of fair hints keeps this the shape clients
        already accept (the web API's Hint model lists four fields).
        """
        out: dict[str, object] = {
            "move": None if self.move is None else {**self.move.to_dict(), "text": str(self.move)},
            "source": self.source,
            "message": self.message,
            "unwinnable": self.unwinnable,
        }
        if self.peeks:
            out["peeks"] = True
        return out


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
            return Hint(None, "none", _("The game is won."))
        if game.legal_moves():
            return Hint(None, "none", _(
                "No useful move is left: every legal move only swaps piles, "
                "takes back the last move or repeats a position."
            ))
        return Hint(None, "none", _("No move is left."))
    move = game.rules.to_move(moves[0])
    return Hint(move, "heuristic", _("Try {move} (a rule of thumb, not a proof).").format(move=move))


PEEKING = N_("(Peeking: the solver looked at the face-down cards.)")
"""Ends every message of a hint that used hidden cards."""


def solver_hint(game: Game, time_limit: float | None = None) -> Hint | None:
    """A peeking hint: the next move of a winning line of the real deal, or the news that none exists.

    None if undecided. The solver sees the face-down cards, so the hint is
    marked ``peeks`` and its message says so. By default the solver gets
    :data:`~tableaux.solver.HINT_NODES` positions and
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
        text = _("Play {move}: it starts a winning line of {n} moves.").format(move=move, n=len(result.moves))
        return Hint(move, "solver", text + " " + _(PEEKING), peeks=True)
    if result.verdict == "unwinnable":
        fallback = heuristic_hint(game)
        text = _("This position can no longer be won: the solver searched every line from here.")
        if fallback.move is not None:
            text += " " + _("You can still play {move}.").format(move=fallback.move)
        return Hint(fallback.move, "solver", text + " " + _(PEEKING), unwinnable=True, peeks=True)
    return None


def repeating_moves(game: Game) -> set[str]:
    """Legal moves that are pointless (see :func:`is_pointless`), in notation: a fair hint never suggests them.

    This looks at the real positions of the game's history, but reveals
    nothing: two positions of one game with the same public view hold the
    same hidden cards in the same places (face-down cards never move, and
    the unseen stock and trunk are fixed by their counts), so "back to an
    earlier position" is something the player can see.
    """
    rules, state = game.rules, game.state
    previous = rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    seen = history(game)
    return {str(rules.to_move(m)) for m in rules.moves(state) if is_pointless(rules, state, m, previous, seen)}


def fair_hint(
    game: Game,
    *,
    time_limit: float | None = None,
    samples: int | None = None,
    seed: int | str = 0,
    max_nodes: int | None = None,
) -> Hint:
    """A hint from what the player has seen only: :func:`tableaux.fair.hint` on ``game.observation()``.

    ``time_limit`` bounds the whole hint (all sampled layouts together) and
    ``max_nodes`` the solver's positions per layout; ``samples`` and
    ``max_nodes`` default to :data:`tableaux.fair.SAMPLES` and
    :data:`tableaux.fair.SAMPLE_NODES`. When no sampled layout is won in
    time, the rule of thumb answers, saying so.
    """
    from . import fair

    if game.is_won() or not game.legal_moves():
        return heuristic_hint(game)
    observation = game.observation()
    answer = fair.hint(
        observation,
        fair.SAMPLES if samples is None else samples,
        seed=seed,
        max_nodes=fair.SAMPLE_NODES if max_nodes is None else max_nodes,
        time_limit=fair.HINT_SECONDS if time_limit is None else time_limit,
        avoid=repeating_moves(game),
    )
    n, wins, decided = answer["samples"], answer["wins"], answer["decided"]
    known = observation["unseen"] <= 1  # one hidden card can lie in one place only: nothing to guess
    if answer["move"] is not None:
        move = game.parse_move(answer["move"])
        if known:
            return Hint(move, "solver", _(
                "Play {move}: it starts a winning line (no card is hidden any more).").format(move=move))
        if decided < n:
            text = _("Play {move}: it wins in {wins} of {n} possible layouts of the hidden cards "
                     "({undecided} of them undecided within the solver's budget).").format(
                move=move, wins=wins, n=n, undecided=n - decided)
        else:
            text = _("Play {move}: it wins in {wins} of {n} possible layouts of the hidden cards.").format(
                move=move, wins=wins, n=n)
        return Hint(move, "solver", text)
    fallback = heuristic_hint(game)
    if decided == n and answer["winnable"] == 0:
        if known:
            text = _("This position can no longer be won: the solver searched every line from here.")
        else:
            text = _("None of {n} possible layouts of the hidden cards can be won from here.").format(n=n)
        if fallback.move is not None:
            text += " " + _("You can still play {move}.").format(move=fallback.move)
        return Hint(fallback.move, "solver", text, unwinnable=known)
    if fallback.move is None:
        return fallback
    return Hint(fallback.move, "heuristic", _(
        "Try {move} (a rule of thumb, not a proof: no sampled layout of the hidden cards was won within the "
        "solver's budget).").format(move=fallback.move))


HINT_MODES = ("fair", "peek")


def hint(
    game: Game,
    *,
    time_limit: float | None = None,
    mode: str = "fair",
    samples: int | None = None,
    seed: int | str = 0,
    max_nodes: int | None = None,
) -> Hint:
    """A suggested move.

    ``mode="fair"`` (the default) uses only what the player has seen
    (:func:`fair_hint`). ``mode="peek"`` is the clairvoyant hint: the
    solver's move on the real deal when it finds a win within
    ``time_limit``, else the heuristic's; it says that it peeks.
    """
    if mode == "peek":
        return solver_hint(game, time_limit) or heuristic_hint(game)
    if mode == "fair":
        return fair_hint(game, time_limit=time_limit, samples=samples, seed=seed, max_nodes=max_nodes)
    from .engine import TableauxError

    raise TableauxError(f"unknown hint mode {mode!r}; the modes are {', '.join(HINT_MODES)}")
