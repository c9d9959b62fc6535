"""``tableaux play``: a game in the terminal, on the full-screen board (:mod:`tableaux.terminal.screen`) or in
the line mode (:mod:`tableaux.terminal.line`)."""

from __future__ import annotations

import argparse
import os
import sys

from ..i18n import N_, _
from .args import deal_number, game_choices, usage_error

HELP = N_("play in the terminal")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", choices=game_choices(), help=_("which game (may be left out with --load)"))
    p.add_argument("--deal", type=deal_number, default=None,
                   help=_("deal number (random when omitted); deals it afresh unless --resume"))
    start = p.add_mutually_exclusive_group()
    start.add_argument("--load", metavar="FILE", default=None, help=_("resume a saved game"))
    start.add_argument("--resume", action="store_true",
                       help=_("go back to the unfinished game played last (of GAME and deal N, if given); "
                              "games are kept as you play"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--tui", action="store_true",
                      help=_("the full-screen board, with a cursor and the mouse (the default in a terminal)"))
    mode.add_argument("--line", action="store_true",
                      help=_("the line mode: moves typed as text (always used when input or output is not a "
                             "terminal)"))


def full_screen(args: argparse.Namespace) -> bool:
    """The board needs a terminal both ways: piped input or output always gets the line mode."""
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if args.tui and not terminal:
        print(_("tableaux play: --tui needs a terminal for input and output; playing in the line mode"),
              file=sys.stderr)
    return terminal and not args.line


def run(args: argparse.Namespace) -> int:
    from ..play.game import new_game
    from ..play.saves import SaveFileError, load
    from ..rulebook.registry import GAMES, rules
    from ..terminal.record import Record
    from ..terminal.unfinished import Saved, Unfinished, data_dir

    if args.load is not None and args.deal is not None:
        return usage_error("play", _("argument --deal: not allowed with argument --load"))
    unfinished = Unfinished(os.path.join(data_dir(), "unfinished"))
    record = Record(os.path.join(data_dir(), "finished.jsonl"))
    message = ""
    resumed: Saved | None = None
    if getattr(args, "resume", False):
        kept = [s for s in unfinished.games() if args.game in (None, s.game.name) and args.deal in (None, s.game.deal)]
        if not kept:
            if args.game and args.deal is not None:
                text = _("no unfinished {game} game of deal {deal} is kept in {directory}").format(
                    game=_(rules(args.game).title), deal=args.deal, directory=unfinished.directory)
            elif args.game:
                text = _("no unfinished {game} game is kept in {directory}").format(
                    game=_(rules(args.game).title), directory=unfinished.directory)
            else:
                text = _("no unfinished game is kept in {directory}").format(directory=unfinished.directory)
            return usage_error("play", text)
        resumed = kept[0]
        game, message = resumed.game, _("Resumed {game}.").format(game=resumed.describe())
    elif args.load is not None:
        from pathlib import Path

        try:
            game = load(Path(args.load).expanduser())
        except SaveFileError as exc:
            return usage_error("play", str(exc))
        if args.game is not None and args.game != game.name:
            return usage_error("play", _("{file} holds a game of {game}, not {name}").format(
                file=args.load, game=_(game.rules.title), name=args.game))
    elif args.game is None:
        return usage_error("play", _("say which game: one of {games}").format(games=", ".join(GAMES)))
    else:
        game = new_game(args.game, args.deal)
    from ..i18n import use_environment

    use_environment()
    if full_screen(args):
        from ..terminal.screen import play_screen

        play_screen(game, unfinished, record, message, resumed)
        return 0
    from ..terminal.line import InputFn, play_loop, scripted_input
    from ..terminal.output import output, plain_console

    out = plain_console()  # rich is loaded for a terminal only: see terminal/output.py
    if out is None:
        from rich.console import Console

        out = output(Console(highlight=False))
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - line editing and history for input()
        except ImportError:
            pass
        input_fn: InputFn = input
    else:
        input_fn = scripted_input(sys.stdin, out)
    play_loop(game, input_fn, out, unfinished, message, record=record, resumed=resumed)
    return 0
