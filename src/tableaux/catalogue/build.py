"""Building the shipped catalogues: ``python -m tableaux.catalogue build`` grades a range of deals of each game.

Grading a deal takes the solver a few milliseconds to a few seconds, so it is
done ahead of time, with fixed node budgets (never time limits), so a grade is
the same on every machine however busy it is.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from ..rulebook.deal import DealError, parse_deals
from ..rulebook.engine import Rules
from ..rulebook.registry import GAMES, rules
from ..solver import DEFAULT_MEMORY_MB, SolveOptions, default_backend, solve
from .files import FORMAT, VERSION, Catalogue, load, parse_catalogue, shipped_path, write
from .grades import COLUMNS, GRADES, Entry, grade_of

DEAL_BUDGET = 200_000
"""Positions the solver may search to decide a deal. A node budget, never a time limit, so a grade is the same on
every machine however busy it is."""
CHILD_BUDGET = 20_000
"""Positions the solver may search for each position one first move leads to."""


def grade_deal(rules: Rules, deal: int, backend: str | None = None) -> Entry:
    """Solve deal ``deal`` and each position its first moves lead to, with the fixed budgets: one catalogue row.

    The first move of the winning line found is safe by construction (the
    rest of the line wins from there), so it is counted without a search.
    Every other first move is safe when the solver wins its position within
    :data:`CHILD_BUDGET`; a position left undecided counts as not safe.
    """
    start = rules.deal(deal)
    # The usual search and its own line, as the grades were defined on them; the first moves only need verdicts.
    options = SolveOptions(memory_mb=DEFAULT_MEMORY_MB, backend=backend, line="found", relaxed_stage=False)
    result = solve((rules, start), options=options, max_nodes=DEAL_BUDGET)
    if not result.winnable:
        return Entry(rules.name, deal, result.verdict, nodes=result.nodes)
    first = rules.to_raw(result.moves[0])
    moves = rules.moves(start)
    safe = 0
    for move in moves:
        if move == first:
            safe += 1
        elif solve((rules, rules.apply(start, move)), options=options, max_nodes=CHILD_BUDGET, line="none").winnable:
            safe += 1
    grade = grade_of(rules.name, len(moves), safe, result.nodes)
    return Entry(rules.name, deal, "winnable", len(moves), safe, len(result.moves), result.nodes, grade)


def _grade_task(task: tuple[str, int, str | None]) -> list[Any]:
    game, deal, backend = task
    return grade_deal(rules(game), deal, backend).row()


def build(game: str, deals: range, out: Path, workers: int = 1, backend: str | None = None) -> Catalogue:
    """Grade ``deals`` of ``game`` and write the catalogue file: the same file for the same solver and budgets."""
    rules(game)
    backend = backend or default_backend()
    tasks = [(game, d, backend) for d in deals]
    rows: Iterable[list[Any]]
    if workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            rows = pool.map(_grade_task, tasks, chunksize=16)
    else:
        rows = map(_grade_task, tasks)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "deals": f"{deals.start}-{deals.stop - 1}",
        "deal_budget": DEAL_BUDGET,
        "child_budget": CHILD_BUDGET,
        "backend": backend,
        "columns": list(COLUMNS),
        "rows": list(rows),
    }
    catalogue = parse_catalogue(game, data)
    write(data, out)
    return catalogue


def summary(catalogue: Catalogue) -> str:
    entries = catalogue.entries
    counts = {v: sum(e.verdict == v for e in entries) for v in ("winnable", "unwinnable", "unknown")}
    grades = {g: sum(e.grade == g for e in entries) for g in GRADES}
    pars = [e for e in entries if e.par is not None]
    optimal = sum(e.par == e.par_bound for e in pars)
    return (f"{catalogue.game}: {len(entries)} deals, "
            + ", ".join(f"{n} {v}" for v, n in counts.items())
            + "; graded " + ", ".join(f"{n} {g}" for g, n in grades.items())
            + f"; par for {len(pars)} ({optimal} proved the fewest)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tableaux.catalogue",
        description="Regenerate the graded deal catalogues shipped in tableaux/data/catalogue/ (docs/difficulty.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="solve and grade a range of deals of each game")
    p.add_argument("--games", nargs="+", choices=tuple(GAMES), default=list(GAMES))
    p.add_argument("--deals", default="1-3000", help="range of deal numbers (default 1-3000)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--out", type=Path, default=None, help="directory (default: the package's data/catalogue)")
    p = sub.add_parser("summary", help="count the verdicts and grades of the shipped catalogues")
    p = sub.add_parser("par", help="work out each winnable deal's par, resumably (tableaux/catalogue/par.py)")
    p.add_argument("--games", nargs="+", choices=tuple(GAMES), default=list(GAMES))
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--limit", type=int, default=None, help="deals to do at most in this run (default: all)")
    p.add_argument("--results", type=Path, default=None, help="where the rows are kept (default: results/)")
    p.add_argument("--merge", action="store_true",
                   help="only write the pars of the rows kept so far into the catalogues, and rewrite the rows as "
                   "one gzip stream each (not while a build runs on them)")
    args = parser.parse_args(argv)
    if args.command == "summary":
        for game in GAMES:
            print(summary(load(game)))
        return 0
    if args.command == "par":
        from .par import RESULTS
        from .par import build as build_par

        limit = 0 if args.merge else args.limit
        counts = build_par(args.games, args.results or RESULTS, workers=max(1, args.workers), limit=limit)
        for game, n in counts.items():
            print(f"{game}: {n} of {len(load(game).winnable)} winnable deals have a par", flush=True)
        return 0
    try:
        deals = parse_deals(args.deals)
    except DealError as exc:
        parser.error(str(exc))
    for game in args.games:
        out = (args.out or shipped_path(game).parent) / f"{game}.json.gz"
        print(summary(build(game, deals, out, workers=max(1, args.workers))), flush=True)
    return 0
