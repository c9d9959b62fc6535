"""A player's own answers across games: statistics per game, and the daily race (its leaderboard, the
player's place and display name).

They are about the player, not one game, so they stand apart from the play answers.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ..fields import DATE, GameName, derive
from ..names import NAME_MAX, NAME_MIN
from ..player_stats import GameStats as PlayerStats
from ..standings import NAME_CHANGES, TOP
from .answer import Answer, NonNegative, Share


class WinRate(Answer):
    win_rate: Share = Field(description="games won of games played (0 before the first game)")


Seconds = Annotated[float, Field(ge=0)]
GameStats = derive(
    "GameStats", PlayerStats, WinRate,
    "One game's statistics for the player (``tableaux.web.player_stats.GameStats.to_dict()``).",
    played=NonNegative, won=NonNegative, current_streak=NonNegative, best_streak=NonNegative,
    best_time=Seconds | None, worst_time=Seconds | None, fewest_moves=Annotated[int, Field(ge=1)] | None,
    assisted=Annotated[int, Field(ge=0, description="games played with the solver's help, counted apart")],
    daily_played=NonNegative, daily_won=NonNegative,
    daily_streak=Annotated[int, Field(ge=0, description="UTC days in a row with the daily deal won")],
    best_daily_streak=NonNegative,
)
AllStats = dict[GameName, GameStats]


class RaceEntry(Answer):
    """One place on the daily race's leaderboard: nothing in it but a name, moves, a time and a rank."""

    rank: Annotated[int, Field(ge=1)] = Field(description="1 for the best; wins equal in moves and time share one")
    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="the player's display name; null for a player without one (the page shows 'Anonymous')")
    moves: Annotated[int, Field(ge=1)] = Field(description="moves of the winning game (fewer ranks higher)")
    seconds: Annotated[float, Field(ge=0)] = Field(
        description="the server's time from the game's first change to its win, cut to a tenth (less ranks higher "
        "among equal moves): the server's own clock, not the time the page counts")
    you: bool = Field(description="this is the asking player's entry")


class Leaderboard(Answer):
    """The daily race of one game for today (UTC): the unassisted wins of the daily deal, fewest moves first, then
    the shortest time by the server's clock. Assisted, given-up and unfinished games are not ranked."""

    game: GameName
    date: Annotated[str, Field(pattern=DATE)] = Field(description="the UTC date of the daily deal")
    top: list[RaceEntry] = Field(max_length=TOP, description=f"the first {TOP} places")
    you: RaceEntry | None = Field(description="the asking player's place, wherever it is (null: not ranked)")
    status: Literal["ranked", "not-played", "playing", "assisted", "given-up", "played-before"] = Field(
        description="where the asking player's game of today's deal stands: ranked; not played yet; still being "
        "played; won or played with the solver's help (not ranked); given up; or won after playing another "
        "game of the same deal first (not ranked)")
    ranked: Annotated[int, Field(ge=0)] = Field(description="how many players are ranked today")
    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="the asking player's display name (null: none, shown as anonymous)")
    changes_left: Annotated[int, Field(ge=0, le=NAME_CHANGES)] = Field(
        description=f"changes of that name left for now (at most {NAME_CHANGES} in 24 hours)")


class NameAnswer(Answer):
    """The player's display name on the daily race's leaderboard."""

    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="null: none (the leaderboard shows the player as anonymous)")
    changes_left: Annotated[int, Field(ge=0, le=NAME_CHANGES)] = Field(
        description=f"changes of name left for now (at most {NAME_CHANGES} in 24 hours)")
