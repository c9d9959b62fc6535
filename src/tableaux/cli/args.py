"""Argument types for the command line: each refuses bad text with what was wrong and what is accepted."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable

from ..i18n import N_, _
from ..rulebook.deal import MAX_DEAL, DealError, parse_deals, plain_number

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import Any

    from ..solver import SolveOptions


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


def whole(text: str) -> int:
    """A whole number in plain digits (:func:`~tableaux.rulebook.deal.plain_number`), as the messages' "a whole
    number" promises; ValueError for anything else."""
    number = plain_number(text)
    if number is None:
        raise ValueError(text)
    return number


deal_number = bounded(whole, N_("a deal number"), 0, MAX_DEAL)
positive_int = bounded(whole, N_("a count"), 1, float("inf"))
positive_float = bounded(float, N_("a time in seconds"), 1e-3, 1e9)
port_number = bounded(whole, N_("a port"), 1, 65535)
memory_mb = bounded(whole, N_("a size in MiB"), 16, 1 << 20)
disk_mb = bounded(whole, N_("a size in MiB"), 0, 1 << 30)


def proxy_address(text: str) -> str:
    """A ``--trusted-proxy``: ``*`` (any), an IP address or a network, written the way uvicorn compares it with the
    address a connection comes from. A host name never equals such an address, so it is refused rather than
    kept as a proxy that is never trusted; ``10.0.0.1/8`` is read as the network it lies in."""
    value = text.strip()
    if value == "*":
        return value
    try:
        if "/" in value:
            return str(ipaddress.ip_network(value, strict=False))
        return str(ipaddress.ip_address(value.removeprefix("[").removesuffix("]")))
    except ValueError:
        raise argparse.ArgumentTypeError(_(
            "a trusted proxy is an IP address (192.0.2.7, ::1), a network (10.0.0.0/8) or * for any, "
            "not {text}").format(text=repr(text))) from None


def deal_range(text: str) -> str:
    """Check ``--deals`` while parsing, so a bad range gets the usage message; the survey parses it again."""
    try:
        parse_deals(text)
    except DealError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def game_choices() -> tuple[str, ...]:
    """Every registered game: a game added to the registry is a command-line choice at once."""
    from ..rulebook.registry import GAMES

    return tuple(GAMES)


def usage_error(command: str, message: str) -> int:
    """Report a bad argument the way argparse does (exit status 2), for checks argparse cannot make."""
    print(_("usage: tableaux {command} ...\ntableaux {command}: error: {message}").format(
        command=command, message=message), file=sys.stderr)
    return 2


def add_db_argument(p: argparse.ArgumentParser) -> None:
    """Where the browser game keeps its games: ``serve`` and ``stats`` read the same database."""
    p.add_argument("--db", default=None, metavar="PATH|URL",
                   help=_("where games are kept: a database file (default: in the user data directory), "
                          "sqlite:///PATH, or postgresql://USER@HOST/DATABASE (pip install '.[postgres]')"))


def rank_kept(text: str) -> int:
    """The rank ``--relaxed`` keeps apart: a whole number from 1 to 13."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 13:
        raise argparse.ArgumentTypeError(_("a rank from 1 (Aces) to 13 (Kings), not {value}").format(value=repr(text)))
    return value


def add_solver_arguments(p: argparse.ArgumentParser) -> None:
    """The solver's options that ``solve`` and ``survey`` share."""
    from ..solver import BACKENDS, DEFAULT_MEMORY_MB

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
    p.add_argument("--relaxed", type=rank_kept, default=None, metavar="RANK",
                   help=_("King Albert: first search the game relaxed above RANK (1-13; 4 is a good start), "
                   "where higher cards are known by rank and colour only and foundations take either suit of "
                   "their colour; it has every win the deal has, so when it has none the deal is proved lost"))
    p.add_argument("--no-relaxed-stage", dest="relaxed_stage", action="store_false",
                   help=_("King Albert: leave out the relaxed verdicts, with which the complete search drops "
                   "every position whose game relaxed above the Threes has no win (to measure the usual search "
                   "alone)"))
    p.add_argument("--layered", action="store_true",
                   help=_("classic King Albert: a complete search that holds one class of positions at a time "
                   "instead of all of them, for deals whose spaces no memory holds; it finds wins late, "
                   "after the first pass"))


def solver_options(args: argparse.Namespace, **more: Any) -> SolveOptions:
    """The solver's options on the command line (:func:`add_solver_arguments`, plus ``more``), checked for
    ``args.game`` in the one place options are checked (:class:`~tableaux.solver.SolveOptions`).

    A refusal is a SolverError worded with the command line's flags, in the player's language.
    """
    from ..rulebook.registry import rules
    from ..solver import LAYERED_GAME, RELAXED_GAMES, SolveOptions, SolverError

    try:
        options = SolveOptions(memory_mb=args.memory, backend=args.backend, first_pass=args.first_pass,
                               layered=args.layered, disk_mb=args.disk, relaxed=args.relaxed,
                               relaxed_stage=args.relaxed_stage, **more)
        options.check_game(rules(args.game))
    except SolverError as exc:
        flags = {"layered-game": _("--layered plays {game} only, not {other}"),
                 "relaxed-game": _("--relaxed plays {game} only, not {other}"),
                 "disk-needs-layered": _("--disk goes with --layered")}
        text = flags.get(exc.reason or "")
        if text is None:
            raise
        game = ", ".join(RELAXED_GAMES) if exc.reason == "relaxed-game" else LAYERED_GAME
        raise SolverError(text.format(game=game, other=exc.game), exc.reason, exc.game) from None
    return options
