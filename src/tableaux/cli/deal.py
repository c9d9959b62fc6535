"""``tableaux deal``: print a deal as a player sees it, or every card as JSON."""

from __future__ import annotations

import argparse
import json

from ..i18n import N_, _
from .args import deal_number, game_choices

HELP = N_("print a deal")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=game_choices())
    p.add_argument("number", type=deal_number, help=_("deal number, 0..4294967295"))
    p.add_argument("--json", action="store_true", help=_("print position() with every card, for tools"))


def run(args: argparse.Namespace) -> int:
    from ..play.game import new_game

    game = new_game(args.game, args.number)
    if args.json:
        print(json.dumps(game.position(), indent=1))
        return 0
    from ..play.board import draw
    from ..terminal.output import glyphs_for, output, plain_console

    out = plain_console()  # rich is loaded for a terminal only: see terminal/output.py
    if out is None:
        from rich.console import Console

        out = output(Console(highlight=False))
    for line in draw(game.public_position(), glyphs_for(out)):
        out.board_line(line)
    return 0
