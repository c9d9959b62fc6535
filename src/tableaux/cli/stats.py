"""``tableaux stats``: a browser player's statistics (games won, streaks, times), read from the game's database;
``--reset`` starts them afresh. The figures themselves are worked out in :mod:`tableaux.web.player_stats`."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..i18n import N_, _, ngettext
from .args import add_db_argument, game_choices

if TYPE_CHECKING:
    from rich.console import Console

    from ..web.store import Store

HELP = N_("show or reset game statistics")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_db_argument(p)
    p.add_argument("--reset", action="store_true", help=_("reset statistics (asks for confirmation)"))
    p.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    p.add_argument("--game", choices=game_choices(), default=None)


def format_time(seconds: float | None) -> str:
    """A time as a clock shows it (``1:05``, ``1:02:05``), or ``-`` for none."""
    if seconds is None:
        return "-"
    whole = int(seconds)  # whole seconds gone by, as the browser's clock (formatTime in state.js) shows them
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..rulebook.registry import rules
    from ..web.fields import WEB_GAMES
    from ..web.server import database_of
    from ..web.store import Store, StoreError

    console = Console()
    if args.yes and not args.reset:
        print(_("tableaux stats: --yes only goes with --reset"), file=sys.stderr)
        return 2
    try:
        database = database_of(args.db)
    except StoreError as exc:
        print(f"tableaux stats: {exc}", file=sys.stderr)
        return 2
    names = (args.game,) if args.game else WEB_GAMES
    which = _(rules(args.game).title) if args.game else _("all games")
    if database.path is not None and not database.path.exists():
        console.print(_("No games recorded yet ({path} does not exist).").format(path=database.path))
        return 0
    try:
        store = Store(database)
    except (StoreError, OSError) as exc:
        print(f"tableaux stats: {exc}", file=sys.stderr)
        return 1
    try:
        return show_stats(console, store, args, names, which)
    finally:
        store.close()


def show_stats(console: Console, store: Store, args: argparse.Namespace, names: tuple[str, ...], which: str) -> int:
    """``tableaux stats`` on an open store: reset first if asked (and confirmed), then the table."""
    from rich.table import Table

    from ..rulebook.registry import rules

    if args.reset:
        if not args.yes:
            try:
                question = _("Reset the statistics of {which} for every player? Saved games are kept. [y/N] ")
                answer = input(question.format(which=which))
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                console.print(_("Nothing was reset."))
                return 1
        count = store.reset_stats(args.game)
        console.print(ngettext("Statistics of {which} reset ({count} game left out from now on).",
                               "Statistics of {which} reset ({count} games left out from now on).", count).format(
            which=which, count=count))

    stats = store.stats(names)
    # One column per game keeps the table narrow enough for any terminal.
    table = Table(title=_("Statistics"), caption=str(store.database))
    table.add_column("")
    for name in stats:
        table.add_column(_(rules(name).title), justify="right", no_wrap=True)
    rows = {
        _("Played"): lambda s: str(s.played),
        _("Won"): lambda s: str(s.won),
        _("Win rate"): lambda s: f"{s.win_rate:.0%}",
        _("Current streak"): lambda s: str(s.current_streak),
        _("Best streak"): lambda s: str(s.best_streak),
        _("Best time"): lambda s: format_time(s.best_time),
        _("Worst time"): lambda s: format_time(s.worst_time),
        _("Fewest moves"): lambda s: "-" if s.fewest_moves is None else str(s.fewest_moves),
        # The same rows as the browser's statistics, in its words: games played with the solver's help are
        # counted apart, and the daily deal has figures of its own.
        _("Games with the solver's help (not counted above)"): lambda s: str(s.assisted),
        _("Daily deals played"): lambda s: str(s.daily_played),
        _("Daily deals won"): lambda s: str(s.daily_won),
        _("Daily streak (days in a row)"): lambda s: str(s.daily_streak),
        _("Best daily streak"): lambda s: str(s.best_daily_streak),
    }
    for label, cell in rows.items():
        table.add_row(label, *(cell(s) for s in stats.values()))
    console.print(table)
    players = len(store.players())
    if players > 1:
        console.print(_("{players} players (browsers) share this database; the figures add up their games, "
                        "and streaks are each player's own (the longest is shown).").format(players=players))
    return 0
