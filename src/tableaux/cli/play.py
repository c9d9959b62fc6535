"""``tableaux play``: a game in the terminal (:mod:`tableaux.terminal.line`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import N_, _
from .args import deal_number, game_choices, usage_error

HELP = N_("play in the terminal")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", choices=game_choices(), help=_("which game (may be left out with --load)"))
    start = p.add_mutually_exclusive_group()
    start.add_argument("--deal", type=deal_number, default=None, help=_("deal number (random when omitted)"))
    start.add_argument("--load", metavar="FILE", default=None, help=_("resume a saved game"))
    start.add_argument("--resume", action="store_true",
                       help=_("go back to the unfinished game played last (of GAME, if given); "
                       "games are kept as you play"))


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..i18n import use_environment
    from ..play.game import new_game
    from ..play.saves import SaveFileError, load
    from ..rulebook.registry import GAMES, rules
    from ..terminal.line import InputFn, play_loop, scripted_input
    from ..terminal.unfinished import Unfinished, default_dir

    unfinished = Unfinished(default_dir())
    message = ""
    if getattr(args, "resume", False):
        kept = [s for s in unfinished.games() if args.game in (None, s.game.name)]
        if not kept:
            if args.game:
                text = _("no unfinished {game} game is kept in {directory}").format(
                    game=_(rules(args.game).title), directory=unfinished.directory)
            else:
                text = _("no unfinished game is kept in {directory}").format(directory=unfinished.directory)
            return usage_error("play", text)
        game, message = kept[0].game, _("Resumed {game}.").format(game=kept[0].describe())
    elif args.load is not None:
        try:
            game = load(Path(args.load).expanduser())
        except SaveFileError as exc:
            return usage_error("play", str(exc))
        if args.game is not None and args.game != game.name:
            return usage_error("play", _("{file} holds a {game} game, not {name}").format(
                file=args.load, game=_(game.rules.title), name=args.game))
    elif args.game is None:
        return usage_error("play", _("say which game: one of {games}").format(games=", ".join(GAMES)))
    else:
        game = new_game(args.game, args.deal)
    use_environment()
    console = Console(highlight=False)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:
            pass
        input_fn: InputFn = input
    else:
        input_fn = scripted_input(sys.stdin, console)
    play_loop(game, input_fn, console, unfinished, message)
    return 0
