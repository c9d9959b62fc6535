"""The terminal's record of finished games (won, given up, or left with no legal move) and the statistics worked
out from it.

One JSON line per finished game in ``finished.jsonl`` beside the unfinished games: the game, the deal,
how it ended, its moves and time, and whether the solver helped. Appending a line never rewrites what
was there, so a crash loses at most the line being written, and a line that cannot be read is skipped.
The figures come from :func:`tableaux.web.player_stats.compute_stats`, the browser's own, so the two
games count alike (games the solver helped with are counted apart and left out of the rest).
"""

from __future__ import annotations

import os

from ..i18n import _
from ..play.game import Game

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import Any

    from ..web.player_stats import GameStats
    from .unfinished import StrPath

RESULTS = ("won", "given-up", "lost")
"""How a game ended: ``lost`` is a game left (quit, or another game taken up) with no legal move."""


class Record:
    """The file of finished games. (A plain class, as :class:`~.sitting.Sitting` is.)"""

    def __init__(self, path: StrPath) -> None:
        self.path = path

    def add(self, game: Game, result: str, seconds: float) -> None:
        import json
        from datetime import UTC, datetime  # loaded when a game ends, not by every start

        if result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS}, not {result!r}")
        line = {"game": game.name, "deal": game.deal, "result": result, "moves": len(game.moves_played),
                "seconds": round(seconds, 1), "assisted": game.assisted,
                "at": datetime.now(UTC).isoformat(timespec="seconds")}
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")

    def entries(self) -> list[dict[str, Any]]:
        """Every readable line, oldest first."""
        import json

        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return []
        found = []
        for line in text.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and entry.get("result") in RESULTS and isinstance(entry.get("game"), str):
                found.append(entry)
        return found

    def stats(self, name: str) -> GameStats:
        """The figures of one game, as the browser works them out."""
        from ..web.player_stats import compute_stats

        mine = [e for e in self.entries() if e["game"] == name]
        counted = [e for e in mine if not e.get("assisted")]
        rows = [(e["result"] == "won", True, _number(e.get("seconds")), int(_number(e.get("moves"))))
                for e in counted]
        stats = compute_stats(rows, in_progress=())
        stats.assisted = len(mine) - len(counted)
        return stats


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else 0.0


def clock(seconds: float | None) -> str:
    """A time as a clock shows it (``1:05``, ``1:02:05``), or ``-`` for none: whole seconds gone by."""
    if seconds is None:
        return "-"
    hours, rest = divmod(int(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def stats_rows(stats: GameStats, unfinished: int) -> list[tuple[str, str]]:
    """The statistics of one game as (label, figure) rows, in the browser's words."""
    return [
        (_("Played"), str(stats.played)),
        (_("Won"), str(stats.won)),
        (_("Win rate"), stats.win_rate_text()),
        (_("Current streak"), str(stats.current_streak)),
        (_("Best streak"), str(stats.best_streak)),
        (_("Best time"), clock(stats.best_time)),
        (_("Fewest moves"), "-" if stats.fewest_moves is None else str(stats.fewest_moves)),
        (_("Games with the solver's help (not counted above)"), str(stats.assisted)),
        (_("Unfinished games kept (not counted above)"), str(unfinished)),
    ]
