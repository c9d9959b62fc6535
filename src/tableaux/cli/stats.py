"""``tableaux stats``: the browser game's statistics, read from its database; ``--reset`` starts them afresh."""

from __future__ import annotations

import argparse

from ..i18n import N_, _
from .args import game_choices

HELP = N_("show or reset game statistics")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help=_("database file (default: in the user data directory)"))
    p.add_argument("--reset", action="store_true", help=_("reset statistics (asks for confirmation)"))
    p.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    p.add_argument("--game", choices=game_choices(), default=None)


def run(args: argparse.Namespace) -> int:
    from ..web.server import run_stats

    return run_stats(args)
