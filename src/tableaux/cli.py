"""The ``tableaux`` command: argument parsing only; each command's work lives in its own module.

Handlers are imported when their command runs, so ``tableaux deal`` does not
pay for loading the web server, and a bad argument always gets argparse's
usage message and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module

from .argparse_words import translated_argparse
from .deal import MAX_DEAL
from .i18n import N_, _


def bounded(convert: Callable[[str], float], what: str, low: float, high: float) -> Callable[[str], float]:
    """An argparse type: ``convert`` the text, then insist on ``low <= value <= high``.

    One factory for every number the command line takes, so each gives the same
    kind of message: what was wrong and what is accepted.
    """

    def parse(text: str) -> float:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(refusal(text)) from None
        if not low <= value <= high:  # also refuses NaN
            raise argparse.ArgumentTypeError(refusal(text))
        return value

    def refusal(text: str) -> str:
        # Whole sentences for the translators, never pieces: which one depends on the kind and the bounds.
        if high == float("inf"):
            accepted = _("a number of at least {low}") if convert is float else _("a whole number of at least {low}")
        else:
            accepted = (_("a number from {low} to {high}") if convert is float
                        else _("a whole number from {low} to {high}"))
        top = "" if high == float("inf") else f"{high:g}" if convert is float else str(int(high))
        accepted = accepted.format(low=f"{low:g}", high=top)
        return _("{what} must be {accepted}, not {text}").format(what=_(what), accepted=accepted, text=repr(text))

    return parse


deal_number = bounded(int, N_("a deal number"), 0, MAX_DEAL)
positive_int = bounded(int, N_("a count"), 1, float("inf"))
positive_float = bounded(float, N_("a time in seconds"), 1e-3, 1e9)
port_number = bounded(int, N_("a port"), 1, 65535)
memory_mb = bounded(int, N_("a size in MiB"), 16, 1 << 20)
disk_mb = bounded(int, N_("a size in MiB"), 0, 1 << 30)


def deal_range(text: str) -> str:
    """Check ``--deals`` while parsing, so a bad range gets the usage message; the survey parses it again."""
    from .solver.survey import SurveyError, parse_deals

    try:
        parse_deals(text)
    except SurveyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def handler(spec: str) -> Callable[[argparse.Namespace], int]:
    """``"module:function"`` resolved lazily, relative to this package."""

    def run(args: argparse.Namespace) -> int:
        module, _colon, func = spec.partition(":")
        return getattr(import_module(f"tableaux.{module}"), func)(args)

    return run


def build_parser() -> argparse.ArgumentParser:
    from . import GAMES  # the one list of games: a game added there is a command-line choice at once

    game_names = tuple(GAMES)
    parser = argparse.ArgumentParser(
        prog="tableaux",
        description=_("King Albert and Eagle Wing solitaire, as GNOME AisleRiot plays them. "
        "With no command, starts the browser game."),
    )
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))

    # --- terminal play (tableaux.terminal) --------------------------------
    p = sub.add_parser("play", help=_("play in the terminal"))
    p.add_argument("game", nargs="?", choices=game_names, help=_("which game (may be left out with --load)"))
    start = p.add_mutually_exclusive_group()
    start.add_argument("--deal", type=deal_number, default=None, help=_("deal number (random when omitted)"))
    start.add_argument("--load", metavar="FILE", default=None, help=_("resume a saved game"))
    start.add_argument("--resume", action="store_true",
                       help=_("go back to the unfinished game played last (of GAME, if given); "
                       "games are kept as you play"))
    p.set_defaults(func=handler("terminal:run_play"))

    p = sub.add_parser("deal", help=_("print a deal"))
    p.add_argument("game", choices=game_names)
    p.add_argument("number", type=deal_number, help=_("deal number, 0..4294967295"))
    p.add_argument("--json", action="store_true", help=_("print position() with every card, for tools"))
    p.set_defaults(func=handler("terminal:run_deal"))

    # --- graded deals and the daily deal (tableaux.catalogue) ----------------
    from .catalogue import GRADES, date_argument

    p = sub.add_parser("pick", help=_("pick a deal from the catalogue of graded deals (docs/difficulty.md)"))
    p.add_argument("game", choices=game_names)
    p.add_argument("--winnable", action="store_true", help=_("only deals the solver has won"))
    p.add_argument("--difficulty", choices=GRADES, default=None,
                   help=_("only winnable deals of this grade (implies --winnable)"))
    p.add_argument("--json", action="store_true", help=_('print {"game", "deal", "verdict", "grade"}'))
    p.set_defaults(func=handler("catalogue:run_pick"))

    p = sub.add_parser("daily", help=_("today's deal (UTC), the same winnable deal for every player"))
    p.add_argument("game", choices=game_names)
    p.add_argument("--date", type=date_argument, default=None, metavar="YYYY-MM-DD",
                   help=_("another day's deal (default: today in UTC)"))
    p.add_argument("--json", action="store_true", help=_('print {"game", "date", "deal"}'))
    p.set_defaults(func=handler("catalogue:run_daily"))

    # --- solver (tableaux.solver.cli) -------------------------------------
    p = sub.add_parser("solve", help=_("decide whether a deal can be won and print the winning line"))
    p.add_argument("game", choices=game_names)
    p.add_argument("number", type=deal_number, help=_("deal number"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--max-nodes", type=positive_int, default=None)
    p.add_argument("--time-limit", type=positive_float, default=None)
    p.add_argument("--threads", type=int, choices=(1, 2), default=1,
                   help=_("with 2, the compiled search also runs its complete search on a second core from the "
                          "start: the same verdicts, and more decided within a time limit"))
    add_solver_arguments(p)
    p.set_defaults(func=handler("solver.cli:run_solve"))

    p = sub.add_parser("survey", help=_("solve a range of deals and report the winnable share"))
    p.add_argument("game", choices=game_names)
    p.add_argument("--deals", required=True, type=deal_range, help=_("range of deal numbers, for example 1-100000"))
    p.add_argument("--workers", type=positive_int, default=None)
    p.add_argument("--time-limit", type=positive_float, default=10.0, help=_("seconds per deal (default 10)"))
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help=_("positions per deal; a budget that does not depend on the machine's load"))
    add_solver_arguments(p)
    p.add_argument("--out", default=None,
                   help=_("results file (JSON lines, appended; resumes; gzip when it ends in .gz)"))
    p.add_argument("--no-lines", action="store_true",
                   help=_("leave the winning lines out of the file (for big surveys; tableaux solve gives them again)"))
    p.add_argument("--scheduler", default=None, help=_("tcp://HOST:PORT of a Dask distributed scheduler"))
    p.add_argument("--plot", default=None, metavar="FILE.png")
    p.add_argument("--player", choices=("solver", "fair"), default="solver",
                   help=_("solver: decide each deal seeing every card (default); fair: play each deal to the end "
                   "with fair hints only (no peeking); --max-nodes is then per sampled layout, --time-limit unused"))
    p.add_argument("--samples", type=positive_int, default=64, help=_("--player fair: sampled layouts per move"))
    p.add_argument("--seed", type=bounded(int, N_("a seed"), 0, 2**63), default=0,
                   help=_("--player fair: the same seed replays the same games"))
    p.set_defaults(func=handler("solver.cli:run_survey"))

    # --- browser game (tableaux.web) --------------------------------------
    p = sub.add_parser("serve", help=_("start the browser game (the default command)"))
    add_serve_arguments(p)
    p.set_defaults(func=handler("web.server:run_serve"))

    p = sub.add_parser("stats", help=_("show or reset game statistics"))
    add_db_argument(p)
    p.add_argument("--reset", action="store_true", help=_("reset statistics (asks for confirmation)"))
    p.add_argument("--yes", action="store_true", help=_("do not ask for confirmation"))
    p.add_argument("--game", choices=game_names, default=None)
    p.set_defaults(func=handler("web.server:run_stats"))
    return parser


def add_solver_arguments(p: argparse.ArgumentParser) -> None:
    from .solver import BACKENDS, DEFAULT_MEMORY_MB

    p.add_argument("--memory", type=memory_mb, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help=_("memory one search may take, in MiB (default {mb}); "
                          "when it is full the search slows down, and may end 'unknown', never wrong").format(
                       mb=DEFAULT_MEMORY_MB))
    p.add_argument("--backend", choices=BACKENDS, default=None,
                   help=_("which search runs: the compiled core (c) or the pure-Python reference "
                   "(default: the fastest built)"))
    p.add_argument("--no-first-pass", dest="first_pass", action="store_false",
                   help=_("give the whole budget to the complete search, with no first pass looking for a "
                   "quick win: proving a deal lost gets all of the positions instead of half, some wins take "
                   "longer (for the deals a survey left unknown)"))
    p.add_argument("--disk", type=disk_mb, default=0, metavar="MB",
                   help=_("with --layered: files of up to MB MiB (in TMPDIR) for a class of positions too big "
                   "for --memory, searched on disk instead of ending 'unknown' (default 0: none)"))
    p.add_argument("--layered", action="store_true",
                   help=_("classic King Albert: a complete search that holds one class of positions at a time "
                   "instead of all of them, for deals whose spaces no memory holds; it finds wins late, "
                   "after the first pass"))


def add_serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1: this computer only)"))
    p.add_argument("--port", type=port_number, default=8000,
                   help=_("port (default 8000; when it is busy the next free port is used)"))
    add_db_argument(p)
    p.add_argument("--workers", type=positive_int, default=1,
                   help=_("server processes answering on the port (default 1); they share the database"))
    p.add_argument("--no-browser", action="store_true", help=_("do not open a web browser"))


def add_db_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, metavar="PATH|URL",
                   help=_("where games are kept: a database file (default: in the user data directory), "
                          "sqlite:///PATH, or postgresql://USER@HOST/DATABASE (pip install 'tableaux[postgres]')"))


def parser_and_args(argv: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    from .i18n import use_environment

    use_environment()  # messages in the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG; English by default
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["serve", *argv]
    try:
        with translated_argparse():  # argparse's own words ("usage:", "invalid choice") in that language too
            args = parser_and_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
