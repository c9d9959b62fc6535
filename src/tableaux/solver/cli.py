"""``tableaux solve`` and ``tableaux survey``: the command-line face of the solver."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys

from .. import new_game
from ..i18n import _, ngettext
from . import LAYERED_GAME, solve
from .survey import SurveyError, parse_deals, plot, read_results, survey, worth_retrying


def run_solve(args: argparse.Namespace) -> int:
    """Exit status 0 when winnable, 1 when proved unwinnable, 3 when undecided within the budget."""
    game = new_game(args.game, args.number)
    if args.layered and args.game != LAYERED_GAME:
        print(_("tableaux solve: error: --layered plays {game} only, not {other}").format(
            game=LAYERED_GAME, other=args.game), file=sys.stderr)
        return 2
    if args.disk and not args.layered:
        print(_("tableaux solve: error: --disk goes with --layered"), file=sys.stderr)
        return 2
    result = solve(game, max_nodes=args.max_nodes, time_limit=args.time_limit, memory_mb=args.memory,
                   backend=args.backend, threads=args.threads, first_pass=args.first_pass, layered=args.layered,
                   disk_mb=args.disk)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        verdict = {"winnable": _("winnable"), "unwinnable": _("unwinnable"), "unknown": _("unknown")}[result.verdict]
        print(_("{game} deal {deal}: {verdict} ({nodes} positions, {seconds} s, {backend} search)").format(
            game=_(game.rules.title), deal=args.number, verdict=verdict, nodes=result.nodes,
            seconds=f"{result.seconds:.3f}", backend=result.backend))
        if result.verdict == "winnable":
            print(_("winning line, {n} moves:").format(n=len(result.moves)))
            print(" ".join(str(m) for m in result.moves))
        elif result.verdict == "unwinnable":
            print(_("proved: every position reachable from the deal was searched and none is won"))
        elif result.out_of_memory:
            print(_("the memory ran out before the search finished; try a larger --memory"))
        elif result.verdict == "unknown":
            print(_("the budget ran out before the search finished; try a larger --time-limit or --max-nodes"))
    return {"winnable": 0, "unwinnable": 1, "unknown": 3}[result.verdict]


EXTRA = "pip install 'tableaux[survey]'"
"""How to get the optional packages of ``--scheduler`` and ``--plot``."""


def missing_extra(args: argparse.Namespace) -> str | None:
    """Say which option needs the survey extra, before any deal is solved rather than after hours of them."""
    for option, value, module, what in (
        ("--scheduler", args.scheduler, "distributed", "Dask distributed"),
        ("--plot", args.plot, "matplotlib", "matplotlib"),
    ):
        if value is not None and importlib.util.find_spec(module) is None:
            return _("{option} needs {what}, which the survey extra installs: {extra}").format(
                option=option, what=what, extra=EXTRA)
    return None


def run_survey(args: argparse.Namespace) -> int:
    if getattr(args, "player", "solver") == "fair":
        from ..fair.survey import run_fair_survey

        return run_fair_survey(args)
    try:
        if (missing := missing_extra(args)) is not None:
            raise SurveyError(missing)
        deals = parse_deals(args.deals)
        if args.layered and args.game != LAYERED_GAME:
            raise SurveyError(_("--layered plays {game} only, not {other}").format(game=LAYERED_GAME, other=args.game))
        if args.disk and not args.layered:
            raise SurveyError(_("--disk goes with --layered"))
        if args.scheduler is not None and not args.scheduler.startswith(("tcp://", "tls://", "inproc://")):
            raise SurveyError(_("--scheduler must look like tcp://HOST:PORT, not {value}").format(
                value=repr(args.scheduler)))
        workers = args.workers or os.cpu_count() or 1
        already = read_results(args.out, args.game)
    except SurveyError as exc:
        print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
        return 2
    present = [already[d] for d in deals if d in already]
    again = sum(1 for row in present
                if worth_retrying(row, args.time_limit, args.max_nodes, args.memory, args.first_pass, args.layered,
                                  args.disk))
    skipped = len(present) - again
    where = args.scheduler or ngettext("{n} local worker", "{n} local workers", workers).format(n=workers)
    seconds = f"{args.time_limit:g}"
    if args.max_nodes:
        budget = _("{seconds} s or {nodes} positions").format(seconds=seconds, nodes=args.max_nodes)
    else:
        budget = _("{seconds} s").format(seconds=seconds)
    text = _("{game}: deals {first}-{last}, {budget} per deal, {where}").format(
        game=args.game, first=deals.start, last=deals.stop - 1, budget=budget, where=where)
    if skipped:
        text += _("; {n} already in {file}, skipped").format(n=skipped, file=args.out)
    if again:
        text += ngettext("; {n} unknown there, solved again with this bigger budget",
                         "; {n} unknown there, solved again with this bigger budget", again).format(n=again)
    if not args.first_pass:
        text += _("; no first pass: the whole budget goes to the complete search")
    if args.layered:
        text += _("; the layered complete search")
    print(text, file=sys.stderr)

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[counts]}"), TimeRemainingColumn(), transient=False,
    ) as bar:
        task = bar.add_task(args.game, total=len(deals), counts="")

        fresh: dict[int, dict] = {}

        def on_result(row: dict) -> None:
            counts[row["verdict"]] += 1
            fresh[row["deal"]] = row

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done,
                       counts=_("won {won} lost {lost} unknown {unknown}").format(
                           won=counts["winnable"], lost=counts["unwinnable"], unknown=counts["unknown"]))

        try:
            summary = survey(args.game, deals, time_limit=args.time_limit, workers=workers, out=args.out,
                             scheduler=args.scheduler, max_nodes=args.max_nodes, memory_mb=args.memory,
                             backend=args.backend, first_pass=args.first_pass, layered=args.layered,
                             disk_mb=args.disk, lines=not args.no_lines,
                             progress=progress,
                             on_result=on_result)
        except SurveyError as exc:
            print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
            return 2
    print(summary.text())
    if args.plot:
        rows = {**{d: r for d, r in already.items() if d in deals}, **fresh}
        plot(list(rows.values()), args.plot, _("{game}, deals {first}-{last}").format(
            game=args.game, first=deals.start, last=deals.stop - 1))
        print(_("plot written to {file}").format(file=args.plot))
    return 0


__all__ = ["run_solve", "run_survey"]
