"""``tableaux daily``: the deal of the day (UTC), the same winnable deal for every player."""

from __future__ import annotations

import argparse
import datetime as dt
import json

from ..i18n import N_, _
from .args import game_choices

HELP = N_("today's deal (UTC), the same winnable deal for every player")


def date_argument(text: str) -> dt.date:
    """An argparse type, so a bad date gets the usage message and exit status 2."""
    from ..catalogue import CatalogueError, parse_date

    try:
        return parse_date(text)
    except CatalogueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=game_choices())
    p.add_argument("--date", type=date_argument, default=None, metavar="YYYY-MM-DD",
                   help=_("another day's deal (default: today in UTC)"))
    p.add_argument("--json", action="store_true",
                   help=_('print {"game", "date", "deal", "grade", "par", "par_lower_bound"}'))


def run(args: argparse.Namespace) -> int:
    from ..catalogue import daily, today
    from ..rulebook.registry import rules
    from .pick import entry_json, par_words

    day = args.date or today()
    entry = daily(args.game, day)
    if args.json:
        fields = entry_json(entry)
        print(json.dumps({"game": entry.game, "date": day.isoformat(), "deal": entry.deal, "grade": entry.grade,
                          "par": fields["par"], "par_lower_bound": fields["par_lower_bound"]}))
    else:
        text = _("{game} daily deal for {date}: deal {deal}").format(
            game=_(rules(args.game).title), date=day.isoformat(), deal=entry.deal)
        print(f"{text}; {par_words(entry)}" if entry.par is not None else text)
        print(_("play it: tableaux play {game} --deal {deal}").format(game=entry.game, deal=entry.deal))
    return 0
