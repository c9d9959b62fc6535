"""The ``tableaux`` command: one module per command, each with its arguments and its work.

Only the chosen command's module is loaded and only its arguments are built,
and each command module loads what its work needs (the solver, the terminal,
the web server) only when it runs: a command starts in a few times a bare
interpreter's start (``python benchmarks/cli.py``). A bad argument always gets
argparse's usage message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from importlib import import_module
from types import ModuleType

from .. import __version__
from ..i18n import _, use_environment
from .words import translated_argparse

TYPE_CHECKING = False  # typing is not loaded: the line mode starts without it (tests/cli/test_cli_startup.py)
if TYPE_CHECKING:
    from typing import TextIO

COMMANDS = ("play", "deal", "pick", "daily", "solve", "survey", "serve", "stats")
"""Every command, in the order ``tableaux --help`` lists them; each is the module ``tableaux.cli.COMMAND``."""


def command(name: str) -> ModuleType:
    """The module of one command (loaded on first use)."""
    return import_module(f"{__name__}.{name}")

DEFAULT_COMMAND = "serve"
"""What ``tableaux`` with no command (or only options) runs: the browser game."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, that command alone is built (the rest need not be, and some of
    them load the solver to list its backends)."""
    parser = argparse.ArgumentParser(
        prog="tableaux",
        description=_("King Albert and Eagle Wing solitaire, as GNOME AisleRiot plays them. "
        "With no command, starts the browser game."),
    )
    parser.add_argument("--version", action="version", version=f"tableaux {__version__}")
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for name in COMMANDS if only is None else (only,):
        # With ``only`` (the command line names its command first), argparse needs no other command: its
        # messages then come from that command's parser, or name the commands as COMMAND.
        module = command(name)
        p = sub.add_parser(name, help=_(module.HELP))
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The tableaux package's folder: a warning raised from a module in it is the command's own."""


def show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: TextIO | None = None, line: str | None = None, *, python: Callable[..., None]) -> None:
    """A warning of the library's own (``TABLEAUX_SOLVER=bad``) as one line on stderr, as the command says what is
    wrong elsewhere, not as Python's two lines with a source line a player has no use for. A warning from
    another package keeps Python's form (``python``), which says where it came from."""
    if not os.path.abspath(filename).startswith(PACKAGE + os.sep):
        python(message, category, filename, lineno, file, line)
        return
    print(_("tableaux: warning: {message}").format(message=message), file=file or sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    use_environment()  # messages in the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG; English by default
    python = warnings.showwarning
    warnings.showwarning = functools.partial(show_warning, python=python)
    try:
        return run(argv)
    finally:
        warnings.showwarning = python


def run(argv: Sequence[str] | None) -> int:
    """The command ``argv`` names (``sys.argv`` by default), and its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = [DEFAULT_COMMAND, *argv]
    try:
        with translated_argparse():  # argparse's own words ("usage:", "invalid choice") in that language too
            args = build_parser(argv[0] if argv[0] in COMMANDS else None).parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return 2
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # output still buffered meets a closed pipe here, not at exit
    except KeyboardInterrupt:
        print()
        return 130
    except BrokenPipeError:
        # Whoever read the output stopped (``tableaux solve ... | head -1``): that is not an
        # error, so no traceback. Point stdout at /dev/null so the flush at exit stays quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE: what a shell reports for a writer whose pipe closed
    return status


__all__ = ["COMMANDS", "build_parser", "main"]
