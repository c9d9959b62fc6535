"""``tableaux stats``: the browser game's statistics, read from its database; ``--reset`` starts them afresh."""

from __future__ import annotations

import argparse

from ..i18n import N_, _
from .args import add_db_argument, game_choices

HELP = N_("show or reset game statistics")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_db_argument(p)
    p.add_argument("--reset", action="store_true", help=_("reset statistics (asks for confirmation)"))
    p.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    p.add_argument("--game", choices=game_choices(), default=None)


def run(args: argparse.Namespace) -> int:
    from ..web.server import run_stats

    return run_stats(args)
