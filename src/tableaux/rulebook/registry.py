"""Every game by name: the one place that lists the games and what each one is offered in.

The rules classes know how a game plays; this module knows which games
exist. Everything above it (the solver's command line, the fair-play
advice, the catalogue, the terminal and the browser) asks here, so a game
registered here is offered everywhere at once, and a name is never written
into another module.
"""

from __future__ import annotations

from .eagle_wing import EagleWing
from .engine import Rules, TableauxError
from .king_albert import KingAlbert, KingAlbertClassic

GAMES: dict[str, Rules] = {r.name: r for r in (KingAlbert(), EagleWing(), KingAlbertClassic())}
"""Every game by name. ``king-albert`` and ``eagle-wing`` are AisleRiot's rules; ``king-albert-classic`` is the
traditional game (every card face up, one card moved at a time)."""


GRADE_CUTS: dict[str, tuple[float, float]] = {
    "king-albert": (2.2, 2.95),
    "eagle-wing": (2.65, 2.9),
    "king-albert-classic": (3.81, 6.13),
}
"""Per game, ``(medium from, hard from)`` on the catalogue's difficulty score: about a third of the winnable
deals of each game in each grade (measured on the shipped catalogue; see ``docs/difficulty.md``). Fixed numbers,
so a deal's grade never depends on which other deals are in a catalogue."""


class UnknownGameError(TableauxError, ValueError):
    """A game name we do not have."""


def rules(name: str) -> Rules:
    """The rules object for a game name, or a clear error listing the known games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise UnknownGameError(f"unknown game {name!r}; known games are {', '.join(GAMES)}") from None


def browser_games() -> tuple[Rules, ...]:
    """The games the browser offers, in the order of :data:`GAMES` (``Rules.in_browser``)."""
    return tuple(r for r in GAMES.values() if r.in_browser)
