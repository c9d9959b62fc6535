"""``tableaux stats``: the browser game's statistics (games won, streaks, times), read from its database, for one
player or, with ``--all``, every player together; ``--reset`` starts them afresh. The figures themselves are
worked out in :mod:`tableaux.web.player_stats`.

A browser is a player (its cookie); the database does not know who sits at which browser, so the command says
whose figures it shows: by default the player who played last, with the others listed for ``--player``.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..i18n import N_, _, ngettext
from ..terminal.record import clock as format_time  # a time as the clocks show it, the terminal's and the browser's
from .args import add_db_argument, game_choices

if TYPE_CHECKING:
    from rich.console import Console

    from ..web.store import Store

HELP = N_("show or reset the browser game's statistics, per player")

SHORT_ID = 8
"""How much of a player's id (a 64-digit hash of their cookie) is shown: enough to tell players apart."""
LISTED = 10
"""How many other players the note under the table names."""


def terminal_note() -> str:
    """Where the terminal's own statistics are: it keeps them apart, beside its unfinished games."""
    return _("Games played in the terminal have statistics of their own: 'stats' in 'tableaux play'.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_db_argument(p)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--player", metavar="ID",
                     help=_("the player (browser) whose statistics to show: the start of the id this command "
                            "lists; by default the player who played last"))
    who.add_argument("--all", action="store_true", help=_("every player's games added up"))
    p.add_argument("--reset", action="store_true",
                   help=_("reset the statistics shown (asks for confirmation; saved games are kept)"))
    p.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    p.add_argument("--game", choices=game_choices(), default=None, help=_("only this game's statistics"))


def short_id(player: str) -> str:
    return player[:SHORT_ID]


def when(timestamp: float) -> str:
    """A moment in UTC, to the minute: the same on every machine that reads the database."""
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%d %H:%M UTC")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..web.server import database_of
    from ..web.store import Store, StoreError, StoreMisconfigured, StoreUnavailable

    console = Console()
    if args.yes and not args.reset:
        print(_("tableaux stats: --yes only goes with --reset"), file=sys.stderr)
        return 2
    try:
        database = database_of(args.db)
    except StoreError as exc:
        print(f"tableaux stats: {exc}", file=sys.stderr)
        return 2
    if database.path is not None and not database.path.exists():
        console.print(_("No browser games recorded yet ({path} does not exist).").format(path=database.path))
        console.print(terminal_note())
        return 0
    try:
        store = Store(database)
    except StoreUnavailable as exc:  # its message is the player's ("your earlier moves are safe"): the host's here
        print(_("tableaux stats: cannot reach the saved games database ({reason}); nothing was read or changed")
              .format(reason=exc.reason), file=sys.stderr)
        return 1
    except (StoreError, OSError) as exc:
        print(f"tableaux stats: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, StoreMisconfigured) else 1
    try:
        return show_stats(console, store, args)
    finally:
        store.close()


def pick_player(players: list[tuple[str, float]], wanted: str | None) -> tuple[str, float] | str:
    """The player ``--player`` names (the start of an id), or the one who played last; else what was wrong."""
    if wanted is None:
        return players[0]
    found = [p for p in players if p[0].startswith(wanted.strip().lower())] if wanted.strip() else []
    if len(found) == 1:
        return found[0]
    ids = ", ".join(short_id(p) for p, _last in players[:LISTED]) + (", …" if len(players) > LISTED else "")
    if found:
        return _("--player {id} fits {n} players; give more of the id (the players: {ids})").format(
            id=repr(wanted), n=len(found), ids=ids)
    return _("no player's id starts with {id}; the players: {ids}").format(id=repr(wanted), ids=ids)


def show_stats(console: Console, store: Store, args: argparse.Namespace) -> int:
    """``tableaux stats`` on an open store: whose figures, reset first if asked (and confirmed), then the table."""
    from ..rulebook.registry import rules
    from ..web.fields import WEB_GAMES

    names = (args.game,) if args.game else WEB_GAMES
    which = _(rules(args.game).title) if args.game else _("all games")
    players = store.players()
    if not players:
        console.print(_("No browser games recorded yet."))
        console.print(terminal_note())
        return 0
    if args.all:
        player = None
        whose = _("every player together")
    else:
        picked = pick_player(players, args.player)
        if isinstance(picked, str):
            print(f"tableaux stats: {picked}", file=sys.stderr)
            return 2
        player = picked[0]
        whose = _("player {id}").format(id=short_id(player))
    if args.reset:
        if not args.yes:
            try:
                question = _("Reset the statistics of {which} for {whose}? Saved games are kept. [y/N] ")
                answer = input(question.format(which=which, whose=whose))
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                console.print(_("Nothing was reset."))
                return 1
        count = store.reset_stats(args.game, player)
        console.print(ngettext("Statistics of {which} reset for {whose} ({count} game left out from now on).",
                               "Statistics of {which} reset for {whose} ({count} games left out from now on).",
                               count).format(which=which, whose=whose, count=count))
    print_table(console, store, names, player, whose)
    print_players(console, players, player)
    return 0


def print_table(console: Console, store: Store, names: tuple[str, ...], player: str | None, whose: str) -> None:
    """One column per game (narrow enough for any terminal); the rows are the browser's statistics, in its words."""
    from rich.table import Table

    from ..rulebook.registry import rules

    stats = store.stats(names, player)
    table = Table(title=_("Statistics of {whose}").format(whose=whose), caption=str(store.database))
    table.add_column("")
    for name in stats:
        table.add_column(_(rules(name).title), justify="right", no_wrap=True)
    rows = {
        _("Games played"): lambda s: str(s.played),
        _("Games won"): lambda s: str(s.won),
        _("Win rate"): lambda s: s.win_rate_text(),
        _("Current winning streak"): lambda s: str(s.current_streak),
        _("Best winning streak"): lambda s: str(s.best_streak),
        _("Fastest win"): lambda s: format_time(s.best_time),
        _("Slowest win"): lambda s: format_time(s.worst_time),
        _("Fewest moves in a win"): lambda s: "-" if s.fewest_moves is None else str(s.fewest_moves),
        _("Games with the solver's help (not counted above)"): lambda s: str(s.assisted),
        _("Daily deals played"): lambda s: str(s.daily_played),
        _("Daily deals won"): lambda s: str(s.daily_won),
        _("Daily streak (days in a row)"): lambda s: str(s.daily_streak),
        _("Best daily streak"): lambda s: str(s.best_daily_streak),
    }
    for label, cell in rows.items():
        table.add_row(label, *(cell(s) for s in stats.values()))
    console.print(table)


def print_players(console: Console, players: list[tuple[str, float]], shown: str | None) -> None:
    """Under the table: which player it was and who else has games here, so another's figures are one flag away."""
    if shown is not None:
        last = dict(players)[shown]
        console.print(_("Player {id} last played {when}.").format(id=short_id(shown), when=when(last)))
    else:
        console.print(_("Streaks are each player's own; the longest is shown."))
    others = [(p, last) for p, last in players if p != shown]
    if not others:
        return
    listed = "; ".join(f"{short_id(p)} ({when(last)})" for p, last in others[:LISTED])
    more = len(others) - LISTED
    if more > 0:
        listed += "; " + ngettext("and {n} more", "and {n} more", more).format(n=more)
    console.print(ngettext("{n} other player: {players}.", "{n} other players: {players}.", len(others)).format(
        n=len(others), players=listed) if shown is not None
        else _("The players: {players}.").format(players=listed))
    console.print(_("--player ID shows one player's statistics, --all every player's added up."))
