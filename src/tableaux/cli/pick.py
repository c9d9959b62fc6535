"""``tableaux pick``: a deal from the catalogue of graded deals (docs/difficulty.md)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ..i18n import N_, _
from .args import game_choices

if TYPE_CHECKING:
    from ..catalogue import Entry

HELP = N_("pick a deal from the catalogue of graded deals (docs/difficulty.md)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..catalogue import GRADES

    p.add_argument("game", choices=game_choices())
    p.add_argument("--winnable", action="store_true", help=_("only deals the solver has won"))
    p.add_argument("--difficulty", choices=GRADES, default=None,
                   help=_("only winnable deals of this grade (implies --winnable)"))
    p.add_argument("--json", action="store_true",
                   help=_('print {"game", "deal", "verdict", "grade", "par", "par_lower_bound"}'))


def describe(entry: Entry, title: str) -> str:
    """One line on a catalogued deal, in the player's language."""
    from ..catalogue.grades import grade_word

    if entry.winnable:
        text = _(
            "{game} deal {deal}: winnable, {grade} ({safe} of {first} first moves won by a short search, "
            "winning line of {line} moves, {nodes} positions searched)"
        ).format(game=title, deal=entry.deal, grade=grade_word(entry.grade), safe=entry.safe_first_moves,
                 first=entry.first_moves, line=entry.line, nodes=entry.nodes)
        return f"{text}; {par_words(entry)}" if entry.par is not None else text
    verdicts = {"winnable": _("winnable"), "unwinnable": _("unwinnable"), "unknown": _("unknown")}
    return _("{game} deal {deal}: {verdict}").format(game=title, deal=entry.deal,
                                                     verdict=verdicts.get(entry.verdict, entry.verdict))


def par_words(entry: Entry) -> str:
    """The par in the player's language: its moves, and the proved fewest when they are not the same."""
    if entry.par == entry.par_bound:
        return _("par {par} moves, the fewest there are").format(par=entry.par)
    return _("par {par} moves (no win in fewer than {bound})").format(par=entry.par, bound=entry.par_bound)


def entry_json(entry: Entry) -> dict[str, object]:
    """The fields ``pick --json`` and ``daily --json`` share about a deal."""
    return {"game": entry.game, "deal": entry.deal, "verdict": entry.verdict, "grade": entry.grade,
            "par": entry.par, "par_lower_bound": entry.par_bound}


def run(args: argparse.Namespace) -> int:
    from ..catalogue import pick
    from ..rulebook.registry import rules

    entry = pick(args.game, winnable=args.winnable, difficulty=args.difficulty)
    if args.json:
        print(json.dumps(entry_json(entry)))
    else:
        print(describe(entry, _(rules(args.game).title)))
        print(_("play it: tableaux play {game} --deal {deal}").format(game=entry.game, deal=entry.deal))
    return 0
