"""What the player has seen, checked, and the layouts of the unseen cards that agree with it.

An observation (:meth:`tableaux.Game.observation`) holds every card the
player has had on view and nothing else. :func:`read` checks one and turns it
into engine terms; :func:`sample_states` fills the never-seen slots with the
never-seen cards, uniformly over every arrangement, which is exactly the
distribution of the real layout given what was seen (``docs/fair.md``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ...play.position import OBSERVATION_FORMAT, OBSERVATION_VERSION, position_dict
from ...play.shapes import Position
from ...rulebook.cards import DOWN, CardError, card_str, parse_card
from ...rulebook.engine import Rules, State, TableauxError
from ...rulebook.registry import GAMES


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
def nothing_to_guess(unseen: int) -> bool:
    """Whether ``unseen`` never-seen cards leave nothing to guess: at most one, which has one place to lie, so there
    is one layout, the real one, and the solver's verdict on it is the whole answer (no layouts to sample, no
    interval, nothing played blind)."""
    return unseen <= 1


MAX_SAMPLES = 100_000
"""The most layouts one call draws: each is a whole position held in memory (100,000 take about 160 MB), and far
more than any figure needs (the hints draw 64)."""


def check_count(value: Any, what: str, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (most is not None and value > most):
        limit = "of at least 1" if most is None else f"from 1 to {most:,}"
        raise FairError(f"{what} must be a whole number {limit}, not {value!r}")
    return value


def _rng(seed: Any) -> random.Random:
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise FairError(f"seed must be a whole number or a string, not {seed!r}")
    return random.Random(seed)


def sample_states(knowledge: Knowledge, n: int, seed: int | str = 0, deadline: float | None = None) -> list[State]:
    """``n`` full positions, each a uniformly random arrangement of the unseen cards in the unseen slots.

    With a ``deadline`` (a :func:`time.perf_counter` time) the drawing stops there, after the first layout: a
    caller's time limit covers the drawing too. The layouts drawn are the first of the ``n`` the seed gives.

    One Fisher-Yates shuffle (``random.Random.shuffle``) per sample gives each
    of the k! arrangements the same chance, and nothing observed depends on
    how the unseen cards lie, so this is exactly the conditional distribution
    of the real layout given the observation (see ``docs/fair.md``).
    """
    rng = _rng(seed)
    out = []
    for i in range(check_count(n, "the number of samples", MAX_SAMPLES)):
        if i and deadline is not None and time.perf_counter() >= deadline:
            break
        cards = list(knowledge.unseen)
        rng.shuffle(cards)
        out.append(knowledge.fill(cards))
    return out


def sample(observation: dict[str, Any], n: int, *, seed: int | str = 0) -> list[Position]:
    """``n`` complete positions (dicts shaped like ``Game.position()``) consistent with ``observation``.

    Every card the player knows is where the observation puts it; the cards
    never seen are spread over the never-seen slots uniformly at random, each
    arrangement equally likely. The same ``seed`` gives the same samples.
    """
    knowledge = read(observation)
    view = observation.get("position", {})
    return [
        position_dict(
            knowledge.rules, s, deal=None,
            moves_played=view.get("moves_played", len(observation.get("moves", []))),
            can_undo=view.get("can_undo", False), can_redo=view.get("can_redo", False),
        )
        for s in sample_states(knowledge, n, seed)
    ]


def unseen_count(observation: dict[str, Any]) -> int:
    """How many cards the player has never seen (checked, unlike reading ``observation["unseen"]``)."""
    return len(read(observation).unseen)
