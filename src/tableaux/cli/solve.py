"""``tableaux solve``: is a deal winnable? The verdict, and the winning line."""

from __future__ import annotations

import argparse
import json
import sys

from ..i18n import N_, _
from .args import add_solver_arguments, deal_number, game_choices, positive_float, positive_int, solver_options

HELP = N_("decide whether a deal can be won and print the winning line")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog = _("exit status: 0 winnable, 1 unwinnable (proved), 3 unknown (the budget or the memory ran out "
                 "first), 2 bad input")
    p.add_argument("game", choices=game_choices())
    p.add_argument("number", type=deal_number, help=_("deal number"))
    p.add_argument("--json", action="store_true", help=_("print the verdict, the line and the figures as JSON"))
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help=_("positions to search at most; a budget that does not depend on the machine's load"))
    p.add_argument("--time-limit", type=positive_float, default=None, help=_("seconds to search at most"))
    p.add_argument("--threads", type=int, choices=(1, 2), default=1,
                   help=_("with 2, the compiled search also runs its complete search on a second core from the "
                          "start: the same verdicts, and more decided within a time limit"))
    p.add_argument("--shortest", action="store_true",
                   help=_("search on, within the budget, for the winning line with the fewest moves, and print a "
                          "proved lower bound on them"))
    add_solver_arguments(p)


def run(args: argparse.Namespace) -> int:
    """Exit status 0 when winnable, 1 when proved unwinnable, 3 when undecided within the budget."""
    from ..rulebook.registry import rules
    from ..solver import SolverError, solve

    title = rules(args.game).title
    try:
        options = solver_options(args, max_nodes=args.max_nodes, time_limit=args.time_limit, threads=args.threads,
                                 shortest=args.shortest)
    except SolverError as exc:
        print(_("tableaux solve: error: {error}").format(error=exc), file=sys.stderr)
        return 2
    result = solve(args.game, args.number, options=options)
    if args.json:
        print(json.dumps({"game": args.game, "deal": args.number, **result.to_dict()}))  # a line that says its deal
    else:
        verdict = {"winnable": _("winnable"), "unwinnable": _("unwinnable"), "unknown": _("unknown")}[result.verdict]
        print(_("{game} deal {deal}: {verdict} ({nodes} positions, {seconds} s, {backend} search)").format(
            game=_(title), deal=args.number, verdict=verdict, nodes=result.nodes,
            seconds=f"{result.seconds:.3f}", backend=result.backend))
        if result.verdict == "winnable":
            print(_("winning line, {n} moves:").format(n=len(result.moves)))
            print(" ".join(str(m) for m in result.moves))
            if result.optimal:
                print(_("no winning line has fewer moves (proved)"))
            else:
                print(_("no winning line has fewer than {bound} moves (proved)").format(bound=result.lower_bound))
        elif result.relaxed is not None:
            print(_("proved: every position of the game relaxed above rank {rank}, which has every win the deal "
                    "has, was searched and none is won").format(rank=result.relaxed))
        elif result.verdict == "unwinnable":
            print(_("proved: every position reachable from the deal was searched or proved lost, and none is won"))
        elif result.out_of_memory:
            print(_("the memory ran out before the search finished; try a larger --memory"))
        elif result.verdict == "unknown":
            print(_("the budget ran out before the search finished; try a larger --time-limit or --max-nodes"))
    return {"winnable": 0, "unwinnable": 1, "unknown": 3}[result.verdict]
