"""Advice that does not peek: chance to win, hints and sampling, from what the player has seen.

Every function here that advises during play takes an observation
(:meth:`tableaux.Game.observation`), never a ``Game`` or a full position, so
it cannot use a face-down card even by mistake: the observation does not
contain one. The cards the player has never seen are filled in at random
(:func:`sample`), uniformly over every arrangement consistent with what was
seen, and the clairvoyant solver (:func:`tableaux.solver.solve`) decides each
sampled layout. ``docs/fair.md`` explains why the sampling is exact and what
the numbers do and do not mean.

:func:`where_lost` is the exception: it looks back over a game that is over,
when every card may be shown, so it takes the game's record.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..cards import DOWN, CardError, card_str, parse_card
from ..engine import Rules, State, TableauxError
from ..game import OBSERVATION_FORMAT, OBSERVATION_VERSION
from ..solver import BACKENDS, SolveResult, solve
from ..solver.survey import wilson

SAMPLES = 64
"""Sampled layouts per question, unless told otherwise."""

SAMPLE_NODES = 100_000 if "c" in BACKENDS else 20_000
"""Positions the solver may search per sampled layout (and per move tried on it) unless told otherwise.

A budget in positions, not seconds, so answers do not depend on the machine's
load. The compiled solver core searches tens of times faster, so it gets the
bigger budget: more layouts are decided, in less time.
"""

HINT_SECONDS = 2.0
"""A fair hint's default time limit: all its sampled layouts together."""

CANDIDATES = 3
"""Fair hints: how many of the best-voted first moves are tried on every winnable layout."""


class FairError(TableauxError, ValueError):
    """An observation, a record or an argument that fair play cannot work from."""


# --- reading an observation ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Knowledge:
    """An observation checked and turned into engine terms.

    ``slots[p][d]`` is the card (face-down bit included) known to lie at depth
    ``d`` of pile ``p``, or ``None`` where the player has never seen the card;
    ``down[p][d]`` says how that card lies. ``unseen`` lists the never-seen
    cards, sorted, and ``holes`` the never-seen slots in pile order.
    """

    rules: Rules
    slots: tuple[tuple[int | None, ...], ...]
    down: tuple[tuple[bool, ...], ...]
    redeals: int
    unseen: tuple[int, ...]
    holes: tuple[tuple[int, int], ...]

    def fill(self, cards: list[int]) -> State:
        """The full position with ``cards`` put into the holes, in order."""
        piles = [list(p) for p in self.slots]
        for (p, d), c in zip(self.holes, cards, strict=True):
            piles[p][d] = c
        return State(
            tuple(
                tuple((c | DOWN) if down else c for c, down in zip(pile, downs, strict=True))  # type: ignore[operator]
                for pile, downs in zip(piles, self.down, strict=True)
            ),
            self.redeals,
        )


def read(observation: Any) -> Knowledge:
    """Check an observation and turn it into engine terms; a malformed one raises :class:`FairError`."""
    from .. import GAMES

    if not isinstance(observation, dict) or observation.get("format") != OBSERVATION_FORMAT:
        raise FairError(
            f"not an observation: expected a dict from Game.observation() with \"format\": \"{OBSERVATION_FORMAT}\""
        )
    if observation.get("version") != OBSERVATION_VERSION:
        raise FairError(f"unsupported observation version {observation.get('version')!r}; "
                        f"this version reads {OBSERVATION_VERSION}")
    rules = GAMES.get(observation.get("game"))  # type: ignore[arg-type]
    if rules is None:
        raise FairError(f"observation names an unknown game {observation.get('game')!r}; "
                        f"known games are {', '.join(GAMES)}")
    piles = observation.get("piles")
    if not isinstance(piles, dict) or set(piles) != set(rules.pile_names):
        raise FairError(f"observation 'piles' must map each pile of {rules.title} to its cards: "
                        f"{', '.join(rules.pile_names)}")
    redeals = observation.get("redeals", 0)
    if isinstance(redeals, bool) or not isinstance(redeals, int) or redeals < 0:
        raise FairError(f"observation 'redeals' must be a whole number of at least 0, not {redeals!r}")
    slots: list[tuple[int | None, ...]] = []
    down: list[tuple[bool, ...]] = []
    holes: list[tuple[int, int]] = []
    known: set[int] = set()
    for p, name in enumerate(rules.pile_names):
        cards = piles[name]
        if not isinstance(cards, list):
            raise FairError(f"observation pile {name!r} must be a list of {{\"card\", \"up\"}} entries")
        pile: list[int | None] = []
        faces: list[bool] = []
        for d, entry in enumerate(cards):
            if not isinstance(entry, dict) or not isinstance(entry.get("up"), bool):
                raise FairError(
                    f"observation pile {name!r} card {d}: expected {{\"card\": CODE or null, \"up\": true or false}}"
                )
            code = entry.get("card")
            if code is None:
                pile.append(None)
                holes.append((p, d))
            else:
                try:
                    c = parse_card(code)
                except (CardError, TypeError):
                    raise FairError(f"observation pile {name!r} card {d}: {code!r} is not a card code") from None
                if c in known:
                    raise FairError(f"observation shows {card_str(c)} twice")
                known.add(c)
                pile.append(c)
            faces.append(not entry["up"])
        slots.append(tuple(pile))
        down.append(tuple(faces))
    unseen = tuple(c for c in range(52) if c not in known)
    if len(unseen) != len(holes):
        raise FairError(
            f"observation is inconsistent: {len(holes)} unseen slots for {len(unseen)} unseen cards (52 in all)"
        )
    return Knowledge(rules, tuple(slots), tuple(down), redeals, unseen, tuple(holes))


# --- sampling ----------------------------------------------------------------------------------------------
def _check_count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FairError(f"{what} must be a whole number of at least 1, not {value!r}")
    return value


def _check_budget(max_nodes: Any, time_limit: Any) -> None:
    if max_nodes is not None:
        _check_count(max_nodes, "max_nodes")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not time_limit > 0
    ):
        raise FairError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}")


def _rng(seed: Any) -> random.Random:
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise FairError(f"seed must be a whole number or a string, not {seed!r}")
    return random.Random(seed)


def sample_states(knowledge: Knowledge, n: int, seed: int | str = 0) -> list[State]:
    """``n`` full positions, each a uniformly random arrangement of the unseen cards in the unseen slots.

    One Fisher-Yates shuffle (``random.Random.shuffle``) per sample gives each
    of the k! arrangements the same chance, and nothing observed depends on
    how the unseen cards lie, so this is exactly the conditional distribution
    of the real layout given the observation (see ``docs/fair.md``).
    """
    rng = _rng(seed)
    out = []
    for _ in range(_check_count(n, "the number of samples")):
        cards = list(knowledge.unseen)
        rng.shuffle(cards)
        out.append(knowledge.fill(cards))
    return out


def position_of(rules: Rules, state: State, observation: dict[str, Any]) -> dict[str, Any]:
    """A full position dict shaped like ``Game.position()`` (``deal`` is ``None``: no deal is known)."""
    won = rules.won(state)
    view = observation.get("position", {})
    return {
        "game": rules.name,
        "title": rules.title,
        "deal": None,
        "piles": rules.pile_dicts(state, hide=False),
        "score": rules.score(state),
        "won": won,
        "over": not won and not rules.moves(state),
        "moves_played": view.get("moves_played", len(observation.get("moves", []))),
        "can_undo": view.get("can_undo", False),
        "can_redo": view.get("can_redo", False),
        **rules.extra(state),
    }


def sample(observation: dict[str, Any], n: int, *, seed: int | str = 0) -> list[dict[str, Any]]:
    """``n`` complete positions (dicts shaped like ``Game.position()``) consistent with ``observation``.

    Every card the player knows is where the observation puts it; the cards
    never seen are spread over the never-seen slots uniformly at random, each
    arrangement equally likely. The same ``seed`` gives the same samples.
    """
    knowledge = read(observation)
    return [position_of(knowledge.rules, s, observation) for s in sample_states(knowledge, n, seed)]


# --- solving the samples ---------------------------------------------------------------------------------
class _Solver:
    """Solves sampled positions once each, within one overall deadline."""

    def __init__(self, rules: Rules, max_nodes: int | None, time_limit: float | None) -> None:
        self.rules = rules
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.cache: dict[State, SolveResult] = {}
        self.nodes = 0

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def __call__(self, state: State) -> SolveResult:
        known = self.cache.get(state)
        if known is not None:
            return known
        limit = None if self.deadline is None else max(1e-3, self.deadline - time.perf_counter())
        result = solve((self.rules, state), max_nodes=self.max_nodes, time_limit=limit)
        self.nodes += result.nodes
        if result.verdict != "unknown" or self.deadline is None:
            self.cache[state] = result  # an unknown found in a hurry is not the budget's last word
        return result


def win_chance(
    observation: dict[str, Any],
    samples: int = SAMPLES,
    *,
    seed: int | str = 0,
    max_nodes: int | None = SAMPLE_NODES,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """The chance that the cards the player has not seen lie in a winnable way.

    ``samples`` layouts of the unseen cards are drawn (:func:`sample`) and each
    is solved with every card known, within ``max_nodes`` positions. Returns:

    * ``share``: the share of sampled layouts the solver proves winnable;
    * ``low``, ``high``: a 95% (Wilson) interval for the share over all
      layouts, with layouts the solver could not decide counted as lost for
      ``low`` and as won for ``high``;
    * ``samples``: layouts solved (fewer than asked only when ``time_limit``
      ran out); ``decided``: how many of them got a verdict; ``winnable``.

    What it is: the chance that a player who could see every card from now on
    would win. A player who does not peek must choose moves before the hidden
    cards show, so no such player does better on average: this is an upper
    bound on what fair play can achieve, not a promise. It is 1 for a won game.
    It reads only the observation, which holds no unseen card and no deal number.
    """
    knowledge = read(observation)
    _check_budget(max_nodes, time_limit)
    states = sample_states(knowledge, samples, seed)
    solver = _Solver(knowledge.rules, max_nodes, time_limit)
    won = lost = done = 0
    for state in states:
        if done and solver.out_of_time():
            break
        verdict = solver(state).verdict
        done += 1
        won += verdict == "winnable"
        lost += verdict == "unwinnable"
    unknown = done - won - lost
    return {
        "share": won / done,
        "low": wilson(won, done)[0],
        "high": wilson(won + unknown, done)[1],
        "samples": done,
        "decided": won + lost,
        "winnable": won,
    }


def hint(
    observation: dict[str, Any],
    samples: int = SAMPLES,
    *,
    seed: int | str = 0,
    max_nodes: int | None = SAMPLE_NODES,
    time_limit: float | None = None,
    candidates: int = CANDIDATES,
    avoid: Collection[str] = (),
) -> dict[str, Any]:
    """The move that keeps the most sampled layouts winnable (perfect-information Monte Carlo).

    Each sampled layout is solved; the first move of its winning line wins
    there. The ``candidates`` moves with most such wins are then tried on
    every winnable layout they did not already win (the layout after the
    move is solved), so each candidate's count is the number of sampled
    layouts in which it keeps a win within the budget. Moves in ``avoid``
    (notation) are never suggested: callers pass moves that only go back to
    a position the game has been in.

    Returns ``{"move", "wins", "samples", "decided", "winnable", "layouts",
    "counts", "line"}``: the suggested move in notation (``None`` when no sampled
    layout is won by an allowed move), the layouts it wins in, the layouts
    solved, how many got a verdict, how many are winnable at all, how many of
    the solved layouts differ (1 once no card is hidden), and every counted
    move's wins. ``line`` is a whole winning line starting with the move when
    no card is left to guess (at most one unseen card), else ``None``: a
    player who knows every card can follow one plan instead of asking again
    at each move. The legal moves are the same in every layout, since they
    depend only on cards on view.

    This is a strong practical strategy, not an optimal one: it plays as if
    it will know the hidden cards later ("strategy fusion"), so it can prefer
    a move that only a clairvoyant player could follow up.
    """
    knowledge = read(observation)
    _check_budget(max_nodes, time_limit)
    _check_count(candidates, "candidates")
    rules = knowledge.rules
    states = sample_states(knowledge, samples, seed)
    solver = _Solver(rules, max_nodes, time_limit)
    wins: dict[str, set[int]] = {}
    raw_of: dict[str, tuple[int, int, int]] = {}
    winnable: list[int] = []
    done = decided = 0
    for i, state in enumerate(states):
        if done and solver.out_of_time():
            break
        result = solver(state)
        done += 1
        decided += result.verdict != "unknown"
        if result.winnable:
            winnable.append(i)
            if result.moves and str(result.moves[0]) not in avoid:
                text = str(result.moves[0])
                wins.setdefault(text, set()).add(i)
                raw_of[text] = rules.to_raw(result.moves[0])
    # The best-voted moves, tried on every winnable layout: a layout's solver line shows one winning
    # first move, and others may win there too.
    # Ties go to the move a player's rule of thumb ranks first (cards home, cards uncovered), which only
    # looks at cards on view: among moves that keep as many layouts winnable, it is the one that makes progress.
    from ..hints import heuristic_moves

    thumb = {str(rules.to_move(m)): r for r, m in enumerate(heuristic_moves(rules, states[0]))}
    order = sorted(wins, key=lambda t: (-len(wins[t]), thumb.get(t, len(thumb)), t))
    for text in order[:candidates]:
        for i in winnable:
            if solver.out_of_time():
                break
            if i not in wins[text] and solver(rules.apply(states[i], raw_of[text])).winnable:
                wins[text].add(i)
    best = min(wins, key=lambda t: (-len(wins[t]), order.index(t)), default=None)
    line = None
    if knowledge.unseen[1:] == () and best is not None:  # nothing left to guess: the layout is the position
        result = solver(rules.apply(states[0], raw_of[best]))
        line = [best, *(str(m) for m in result.moves)] if result.winnable else None
    return {
        "move": best,
        "wins": len(wins[best]) if best is not None else 0,
        "samples": done,
        "decided": decided,
        "winnable": len(winnable),
        "layouts": len(set(states[:done])),
        "counts": {t: len(wins[t]) for t in sorted(wins, key=lambda t: (-len(wins[t]), order.index(t)))},
        "line": line,
    }


def unseen_count(observation: dict[str, Any]) -> int:
    """How many cards the player has never seen (checked, unlike reading ``observation["unseen"]``)."""
    return len(read(observation).unseen)


from .lost import where_lost  # noqa: E402 - the look back over a finished game, in its own module

__all__ = [
    "CANDIDATES",
    "SAMPLES",
    "SAMPLE_NODES",
    "FairError",
    "Knowledge",
    "hint",
    "read",
    "sample",
    "sample_states",
    "unseen_count",
    "where_lost",
    "win_chance",
]
