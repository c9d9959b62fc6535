"""A player's statistics from the browser game: games played and won, streaks, best times, the daily deal's runs.

Pure functions over what the store read, so the figures can be tested (and
property-tested) without a database; :meth:`tableaux.web.store.Store.stats`
reads the rows and hands them here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any


def tenths(seconds: float | None) -> float | None:
    """Cut to a tenth, as the game's own clock does (views.py), so a won game's time and its record agree."""
    return None if seconds is None else math.floor(seconds * 10) / 10


@dataclass
class GameStats:
    """Statistics of one game name for one player (or for everybody, in the CLI)."""

    played: int = 0
    won: int = 0
    current_streak: int = 0
    best_streak: int = 0
    best_time: float | None = None
    worst_time: float | None = None
    fewest_moves: int | None = None
    assisted: int = 0
    """Games played with the solver's help (a solution shown, or taken back to where the game was lost): kept
    out of every figure above."""
    daily_played: int = 0
    daily_won: int = 0
    daily_streak: int = 0
    """Consecutive UTC days, up to today (or yesterday, while today's deal is still open), with the daily deal won."""
    best_daily_streak: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    def win_rate_text(self) -> str:
        """The win rate as the command line shows it: none ("-") for a game never played, rather than 0%."""
        return f"{self.win_rate:.0%}" if self.played else "-"

    def to_dict(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "won": self.won,
            "win_rate": round(self.win_rate, 4),
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "best_time": tenths(self.best_time),
            "worst_time": tenths(self.worst_time),
            "fewest_moves": self.fewest_moves,
            "assisted": self.assisted,
            "daily_played": self.daily_played,
            "daily_won": self.daily_won,
            "daily_streak": self.daily_streak,
            "best_daily_streak": self.best_daily_streak,
        }


def compute_stats(
    games: Sequence[tuple[bool, bool, float, int]], in_progress: Collection[int] | None = None
) -> GameStats:
    """Statistics from ``(won, played, elapsed, moves)`` per game, oldest first.

    A game counts as played once a move was made (or when won). A played game
    that was not won breaks the streak, unless it is still in progress (its
    index is in ``in_progress``; by default only the newest game is): it may
    yet be won, so it counts as played but leaves the streak open.
    """
    stats = GameStats()
    run = 0
    open_games = {len(games) - 1} if in_progress is None else set(in_progress)
    for i, (won, played, elapsed, moves) in enumerate(games):
        if not (played or won):
            continue
        stats.played += 1
        if won:
            stats.won += 1
            run += 1
            stats.best_streak = max(stats.best_streak, run)
            stats.best_time = elapsed if stats.best_time is None else min(stats.best_time, elapsed)
            stats.worst_time = elapsed if stats.worst_time is None else max(stats.worst_time, elapsed)
            stats.fewest_moves = moves if stats.fewest_moves is None else min(stats.fewest_moves, moves)
        elif i not in open_games:
            run = 0
    stats.current_streak = run
    return stats


def daily_streaks(won_days: Collection[str], today: str) -> tuple[int, int]:
    """``(current, best)`` runs of consecutive UTC days in ``won_days`` (``YYYY-MM-DD``).

    The current run ends today, or yesterday while today's deal may still be won; an older run is over.
    """
    from datetime import date, timedelta

    days = sorted({date.fromisoformat(d) for d in won_days})
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    now = date.fromisoformat(today)
    current = run if previous is not None and now - previous <= timedelta(days=1) else 0
    return current, best


def player_stats(
    rows: Sequence[tuple[bool, bool, float, int]], in_progress: Collection[int],
    extra: Sequence[tuple[bool, bool, str | None]], today: str,
) -> GameStats:
    """One player's figures for one game name, from their counted games oldest first.

    ``extra`` holds ``(assisted, given up, daily date)`` per game: assisted
    games are counted apart and left out of every other figure, daily deals
    count like any game and in the daily figures too.
    """
    helped = {i for i, (assisted, _, _) in enumerate(extra) if assisted}
    kept = [i for i in range(len(rows)) if i not in helped]
    stats = compute_stats([rows[i] for i in kept], {n for n, i in enumerate(kept) if i in in_progress})
    stats.assisted = sum(1 for i in helped if rows[i][0] or rows[i][1])
    daily = [(day, rows[i][0]) for i, (assisted, _, day) in enumerate(extra)
             if day is not None and not assisted and (rows[i][0] or rows[i][1])]
    stats.daily_played = len(daily)
    stats.daily_won = sum(1 for _, won in daily if won)
    stats.daily_streak, stats.best_daily_streak = daily_streaks(
        [day for day, won in daily if won], today)
    return stats


def combine(a: GameStats, b: GameStats) -> GameStats:
    """Totals over players; streaks are each player's own, so the best of them is reported."""

    def pick(x: float | None, y: float | None, f: Callable[[float, float], float]) -> float | None:
        return y if x is None else x if y is None else f(x, y)

    fewest = pick(a.fewest_moves, b.fewest_moves, min)
    return GameStats(
        played=a.played + b.played,
        won=a.won + b.won,
        current_streak=max(a.current_streak, b.current_streak),
        best_streak=max(a.best_streak, b.best_streak),
        best_time=pick(a.best_time, b.best_time, min),
        worst_time=pick(a.worst_time, b.worst_time, max),
        fewest_moves=None if fewest is None else int(fewest),
        assisted=a.assisted + b.assisted,
        daily_played=a.daily_played + b.daily_played,
        daily_won=a.daily_won + b.daily_won,
        daily_streak=max(a.daily_streak, b.daily_streak),
        best_daily_streak=max(a.best_daily_streak, b.best_daily_streak),
    )
