"""``tableaux survey``: solve a range of deals, resumably, and report the winnable share; or, with
``--player fair`` (or ``hindsight``), play each deal without peeking and report the no-peek win rate."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Any

from ..i18n import N_, _, ngettext
from ..rulebook.deal import DealError, parse_deals
from .args import (
    add_solver_arguments,
    bounded,
    deal_range,
    game_choices,
    positive_float,
    positive_int,
    solver_options,
    whole,
)

HELP = N_("solve a range of deals and report the winnable share")

TIME_LIMIT = 10.0
"""Seconds per deal of a solver survey given neither ``--time-limit`` nor ``--max-nodes``: with ``--max-nodes``
alone a survey has no time limit, so its verdicts do not depend on the machine's load. The option's default is
None, not this, so that a no-peek survey can tell it was given and refuse it."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=game_choices())
    p.add_argument("--deals", required=True, type=deal_range, help=_("range of deal numbers, for example 1-100000"))
    p.add_argument("--workers", type=positive_int, default=None,
                   help=_("processes solving deals side by side (default: one per core)"))
    p.add_argument("--time-limit", type=positive_float, default=None,
                   help=_("seconds per deal (default {seconds:g}, or none with --max-nodes); not with --player fair "
                          "or hindsight, whose budget is --max-nodes").format(seconds=TIME_LIMIT))
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help=_("positions per deal; a budget that does not depend on the machine's load"))
    add_solver_arguments(p)
    p.add_argument("--out", default=None,
                   help=_("results file (JSON lines, appended; resumes; gzip when it ends in .gz)"))
    p.add_argument("--no-lines", action="store_true",
                   help=_("leave the winning lines out of the file (for big surveys; tableaux solve gives them again)"))
    p.add_argument("--scheduler", default=None, help=_("tcp://HOST:PORT of a Dask distributed scheduler"))
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help=_("draw how long deals took and the running winnable share into this PNG file "
                          "(needs the survey extra)"))
    p.add_argument("--player", choices=("solver", "fair", "hindsight"), default="solver",
                   help=_("solver: decide each deal seeing every card (default); fair: play each deal to the end "
                   "without peeking, a plan up to each card turned; hindsight: the older no-peek player, one move "
                   "at a time; --max-nodes is then per sampled layout, --time-limit refused"))
    p.add_argument("--samples", type=positive_int, default=64,
                   help=_("--player fair or hindsight: sampled layouts per decision"))
    p.add_argument("--seed", type=bounded(whole, N_("a seed"), 0, 2**63), default=0,
                   help=_("--player fair or hindsight: the same seed replays the same games"))


def missing_extra(args: argparse.Namespace) -> str | None:
    """Say which option needs the survey extra, before any deal is solved rather than after hours of them."""
    for option, value, module, what in (
        ("--scheduler", args.scheduler, "distributed", "Dask distributed"),
        ("--plot", args.plot, "matplotlib", "matplotlib"),
    ):
        if value is not None and importlib.util.find_spec(module) is None:
            from ..survey.files import SURVEY_EXTRA

            return _("{option} needs {what}, which the survey extra installs: {extra}").format(
                option=option, what=what, extra=SURVEY_EXTRA)
    return None


def run(args: argparse.Namespace) -> int:
    if args.player in ("fair", "hindsight"):
        return run_fair(args)
    from ..solver import SolverError
    from ..survey.files import SurveyError, check_out
    from ..survey.solver import resume_results, survey, worth_retrying

    try:
        if (missing := missing_extra(args)) is not None:
            raise SurveyError(missing)
        deals = parse_deals(args.deals)
        time_limit = args.time_limit if args.time_limit is not None or args.max_nodes else TIME_LIMIT
        options = solver_options(args, max_nodes=args.max_nodes, time_limit=time_limit)
        if args.scheduler is not None and not args.scheduler.startswith(("tcp://", "tls://", "inproc://")):
            raise SurveyError(_("--scheduler must look like tcp://HOST:PORT, not {value}").format(
                value=repr(args.scheduler)))
        workers = args.workers or os.cpu_count() or 1
        check_out(args.out)
        already = resume_results(args.out, args.game)
    except (SurveyError, DealError, SolverError) as exc:
        print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
        return 2
    present = [already[d] for d in deals if d in already]
    again = sum(1 for row in present if worth_retrying(row, options))
    skipped = len(present) - again
    where = args.scheduler or ngettext("{n} local worker", "{n} local workers", workers).format(n=workers)
    if time_limit is None:
        budget = _("{nodes} positions").format(nodes=args.max_nodes)
    elif args.max_nodes:
        budget = _("{seconds} s or {nodes} positions").format(seconds=f"{time_limit:g}", nodes=args.max_nodes)
    else:
        budget = _("{seconds} s").format(seconds=f"{time_limit:g}")
    text = _("{game}: deals {first}-{last}, {budget} per deal, {where}").format(
        game=args.game, first=deals.start, last=deals.stop - 1, budget=budget, where=where)
    if skipped:
        text += _("; {n} already in {file}, skipped").format(n=skipped, file=args.out)
    if again:
        text += ngettext("; {n} unknown there, solved again with this bigger budget",
                         "; {n} unknown there, solved again with this bigger budget", again).format(n=again)
    if not options.first_pass:
        text += _("; no first pass: the whole budget goes to the complete search")
    if options.layered:
        text += _("; the layered complete search")
    if options.relaxed is not None:
        text += _("; the game relaxed above rank {rank} first").format(rank=options.relaxed)
    elif not options.relaxed_stage:
        text += _("; no relaxed stage")
    print(text, file=sys.stderr)

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    rows = {d: already[d] for d in deals if d in already}  # the range's results: the file's, then this run's

    def tally() -> str:
        verdicts = [r["verdict"] for r in rows.values()]
        return _("won {won} lost {lost} unknown {unknown}").format(
            won=verdicts.count("winnable"), lost=verdicts.count("unwinnable"), unknown=verdicts.count("unknown"))

    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[counts]}"), TimeRemainingColumn(), transient=False,
    ) as bar:
        task = bar.add_task(args.game, total=len(deals), counts=tally())

        def on_result(row: dict[str, Any]) -> None:
            rows[row["deal"]] = row

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, counts=tally())

        try:
            summary = survey(args.game, deals, options=options, workers=workers, out=args.out,
                             scheduler=args.scheduler, lines=not args.no_lines, progress=progress,
                             on_result=on_result)
        except SurveyError as exc:
            print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            interrupted(args.out, args.game, deals)
            return 130
    print(summary.text())
    if args.plot:
        from ..survey.plot import plot

        plot(list(rows.values()), args.plot, _("{game}, deals {first}-{last}").format(
            game=args.game, first=deals.start, last=deals.stop - 1))
        print(_("plot written to {file}").format(file=args.plot))
    return 0


def interrupted(out: str | None, game: str, deals: range, field: str = "verdict") -> None:
    """What a stopped survey kept, read back from its file, and how to go on: run the same command again."""
    from ..survey.files import SurveyError, read_results

    if out is None:
        print(_("\nInterrupted: the results were not saved (no --out file)."), file=sys.stderr)
        return
    try:
        saved = sum(1 for d in read_results(out, game, field=field) if d in deals)
    except (SurveyError, OSError):
        saved = 0
    print(ngettext("\nInterrupted: {n} deal of this range is saved in {file}; run the same command again to resume.",
                   "\nInterrupted: {n} deals of this range are saved in {file}; run the same command again to "
                   "resume.", saved).format(n=saved, file=out), file=sys.stderr)


def check_player(rows: dict[int, dict[str, Any]], out: str | None, player: str) -> None:
    """Refuse to resume a results file that another player wrote: its deals would count as this player's."""
    from ..survey.files import SurveyError

    others = sorted({str(row.get("player", "fair")) for row in rows.values()} - {player})
    if others:
        raise SurveyError(_("{file} holds games of the {other} player, not the {player} player; give another --out")
                          .format(file=out, other=", ".join(others), player=player))


def run_fair(args: argparse.Namespace) -> int:
    """``--player fair`` or ``hindsight``: a no-peek player over a range of deals (:mod:`tableaux.survey.fair`)."""
    from ..survey.fair import SURVEY_NODES, check_settings, row_settings
    from ..survey.fair import run as play_deals
    from ..survey.files import SurveyError, check_out, resume_results

    try:
        deals = parse_deals(args.deals)
        if args.scheduler is not None:
            raise SurveyError(_("--player {player} runs on local workers only; leave out --scheduler").format(
                player=args.player))
        if args.time_limit is not None:
            raise SurveyError(_("--player {player} takes no --time-limit: its budget is --max-nodes, positions per "
                                "sampled layout (default {nodes}), so that a game replays alike on any machine; "
                                "leave out --time-limit").format(player=args.player, nodes=SURVEY_NODES))
        workers = args.workers or os.cpu_count() or 1
        check_out(args.out)
        already = resume_results(args.out, args.game, field="won")
        check_player(already, args.out, args.player)
        samples = args.samples
        max_nodes = args.max_nodes or SURVEY_NODES
        check_settings(already, args.out, row_settings(args.player, samples=samples, seed=args.seed,
                                                       max_nodes=max_nodes))
    except (SurveyError, DealError) as exc:
        print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
        return 2
    skipped = sum(1 for d in deals if d in already)
    text = ngettext(
        "{game}: deals {first}-{last} played by the {player} player without peeking ({samples} sampled layouts per "
        "decision, {nodes} positions per layout, seed {seed}), {workers} worker",
        "{game}: deals {first}-{last} played by the {player} player without peeking ({samples} sampled layouts per "
        "decision, {nodes} positions per layout, seed {seed}), {workers} workers", workers).format(
        game=args.game, first=deals.start, last=deals.stop - 1, player=args.player, samples=samples, nodes=max_nodes,
        seed=args.seed, workers=workers)
    if skipped:
        text += _("; {n} already in {file}, skipped").format(n=skipped, file=args.out)
    print(text, file=sys.stderr)

    def show(row: dict[str, Any]) -> None:
        if row["won"]:
            text = _("deal {deal}: won in {moves} moves, {seconds} s")
        else:
            text = _("deal {deal}: lost ({end}) in {moves} moves, {seconds} s")
        print(text.format(deal=row["deal"], end=row.get("end"), moves=len(row["moves"]),
                          seconds=f"{row['seconds']:.1f}"), file=sys.stderr)

    try:
        summary = play_deals(args.game, deals, samples=samples, seed=args.seed, max_nodes=max_nodes,
                             player=args.player, workers=workers, out=args.out, on_result=show)
    except (SurveyError, DealError) as exc:
        print(_("tableaux survey: error: {error}").format(error=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        interrupted(args.out, args.game, deals, "won")
        return 130
    n = summary["deals"]
    if not n:
        print(_("no results yet"))
        return 0
    print(_("deals {n}: won by the {player} player {won} ({share}%)\n"
            "no-peek win rate: 95% CI {low}% .. {high}% (a lower bound on the best play without peeking)").format(
        n=n, player=args.player, won=summary["won"], share=f"{100 * summary['share']:.2f}",
        low=f"{100 * summary['low']:.2f}",
        high=f"{100 * summary['high']:.2f}"))
    print(_("{seconds} s per move ({moves} moves played)").format(
        seconds=f"{summary['seconds_per_move']:.3f}", moves=summary["moves"]))
    return 0
