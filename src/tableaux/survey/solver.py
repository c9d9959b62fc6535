"""Surveys: solve a range of deals, keep every result on disk, summarise the winnable share.

Results are JSON lines appended as each batch of deals finishes (:mod:`.survey_file`), so an
interrupted survey loses at most the deals in flight, and a rerun with the
same ``--out`` skips every deal already in the file. The summary is always
computed from the file, so a resumed survey reports the same totals as an
uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..common.intervals import percentile, wilson
from ..common.version import VERSION
from ..i18n import _
from ..play.game import new_game
from ..rulebook.registry import rules
from ..solver import DEFAULT_MEMORY_MB, SolveOptions, solve
from ..solver.strategy import strategy_for
from .files import append_results, check_out, drop_torn_tail, resume_results
from .parallel import batches, run_batches, run_on_dask


def solve_deal(game: str, deal: int, options: SolveOptions, lines: bool = True) -> dict[str, Any]:
    """One deal of a survey; runs in a worker process, so it imports and returns plain data.

    A row records the options it was solved with, so that a later run knows what a retry must give more of
    (:func:`worth_retrying`). A row made without the first pass says so (``"first_pass": false``); rows without
    the field had it. A row made by the layered complete search says so too (``"layered": true``), and records
    the disk it could use (``"disk_mb"``) when it could. A row whose solve searched the relaxed game first
    records the rank it kept apart (``"relaxed"``), whatever the verdict; a row made without the relaxed stage
    says so (``"relaxed_stage": false``), since its search differs from a default one (classic deal 44: 19.4 million
    positions without it, 1.6 million with it); a row without the field had it, if its build had the stage at
    all (CHANGELOG.md: the kept classic rows are older than it, and rows before the relaxed verdicts had a stage
    of another kind). An unknown row whose search ran out of
    memory (or disk) says so (``"out_of_memory": true``): that, not the positions or the time, is what a retry
    must give more of. Every row records the build that made it (``"version"``); rows without it are older than
    the field."""
    result = solve(new_game(game, deal), options=options if lines else options.replace(line="none"))
    row: dict[str, Any] = {
        "game": game,
        "deal": deal,
        "verdict": result.verdict,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "time_limit": options.time_limit,
        "max_nodes": options.max_nodes,
        "memory_mb": options.memory_mb,
        "backend": result.backend,
        "version": VERSION,
    }
    if not options.first_pass:
        row["first_pass"] = False
    if options.layered:
        row["layered"] = True
    if options.disk_mb:
        row["disk_mb"] = options.disk_mb
    if options.relaxed is not None:
        row["relaxed"] = options.relaxed
    if not options.relaxed_stage and options.relaxed is None:  # with a rank, there is no stage to leave out
        row["relaxed_stage"] = False
    if result.out_of_memory:
        row["out_of_memory"] = True
    if lines:
        row["line"] = " ".join(str(m) for m in result.moves)
    return row


def solve_batch(game: str, deals: list[int], options: SolveOptions, lines: bool = True) -> list[dict[str, Any]]:
    """Several deals in one task: most deals take a millisecond, far less than sending a task to a worker."""
    return [solve_deal(game, deal, options, lines) for deal in deals]


@dataclass
class Summary:
    deals: int
    winnable: int
    unwinnable: int
    unknown: int
    low: float
    high: float
    median: float
    p90: float
    p99: float
    max: float

    @property
    def share(self) -> float:
        """Winnable share among decided deals."""
        decided = self.winnable + self.unwinnable
        return self.winnable / decided if decided else float("nan")

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "share_of_decided": self.share}

    def text(self) -> str:
        n = self.deals
        if not n:
            return _("no results yet")
        pct = 100 / n
        lines = (
            _("deals {n}: winnable {won} ({won_pct:.2f}%), unwinnable {lost} ({lost_pct:.2f}%), "
              "unknown {unknown} ({unknown_pct:.2f}%)"),
            _("winnable share: 95% CI {low:.2f}% .. {high:.2f}% "
              "(unknown counted as lost for the lower end, as won for the upper end)"),
            _("seconds per deal: median {median:.3f}, p90 {p90:.3f}, p99 {p99:.3f}, max {max:.3f}"),
        )
        figures = {
            "n": n, "won": self.winnable, "won_pct": self.winnable * pct, "lost": self.unwinnable,
            "lost_pct": self.unwinnable * pct, "unknown": self.unknown, "unknown_pct": self.unknown * pct,
            "low": 100 * self.low, "high": 100 * self.high, "median": self.median, "p90": self.p90,
            "p99": self.p99, "max": self.max,
        }
        return "\n".join(line.format(**figures) for line in lines)


def summarise(rows: Iterable[dict[str, Any]]) -> Summary:
    rows = list(rows)
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    n = len(rows)
    won = counts["winnable"]
    low = wilson(won, n)[0]
    high = wilson(won + counts["unknown"], n)[1]
    times = sorted(float(r["seconds"]) for r in rows)
    return Summary(
        n, won, counts["unwinnable"], counts["unknown"], low, high,
        percentile(times, 50), percentile(times, 90), percentile(times, 99), times[-1] if times else float("nan"),
    )


def run_tasks(
    game: str,
    deals: list[int],
    options: SolveOptions,
    workers: int,
    scheduler: str | None,
    one_by_one: bool = False,
    lines: bool = True,
) -> Iterator[list[dict[str, Any]]]:
    """Solve ``deals`` in parallel, yielding the results of each batch as it arrives (any order)."""
    task = partial(solve_batch, game, options=options, lines=lines)
    if scheduler is not None:
        yield from run_on_dask(task, batches(deals, 64, one_by_one), scheduler)
        return
    if workers == 1:
        for batch in batches(deals, 1, one_by_one):
            yield task(batch)
        return
    yield from run_batches(task, batches(deals, workers, one_by_one), workers)


def worth_retrying(row: dict[str, Any], options: SolveOptions) -> bool:
    """An unknown deal is solved again when this run's budget is bigger: that is how a survey's
    last open deals get a second, larger budget. The new row comes later in the file and wins.

    Memory is part of the budget: a search whose table fills forgets positions and searches them
    again, so the same number of positions decides more with more memory (classic deal 161 is
    unknown at 400 million positions in 1 GiB and won in 153 million in 8 GiB). A row without
    ``memory_mb`` is read as the default memory.

    So is the first pass: it takes up to half of a node budget, and a run without it gives the
    complete search all of it. A deal left unknown with the first pass is worth a run without it at
    the same budget (classic deal 70493: unknown at 400 million positions with it, proved lost in 203
    million without); the other way round, only a bigger budget is.

    And so is the layered complete search, a search another than the depth-first one: a deal left
    unknown by the depth-first one is worth a layered run at the same budget (and memory), and a layered
    run with more disk than the row had is worth making too. So is a run that searches a relaxed game first,
    at a rank the row's run did not keep apart, and, in a game with a relaxed stage (classic King Albert's
    relaxed verdicts), a run with the stage where the row's run had none (``"relaxed_stage": false``): the
    verdicts prove lost deals the usual search leaves open. The other way round, a run without them, only a
    bigger budget is."""
    if row["verdict"] != "unknown":
        return False
    time_limit, max_nodes, first_pass = options.time_limit, options.max_nodes, options.first_pass
    layered, disk_mb, relaxed = options.layered, options.disk_mb, options.relaxed

    def more(new: float | None, old: float | None) -> bool:
        return (new is None and old is not None) or (new is not None and old is not None and new > old)

    old_nodes, old_time = row.get("max_nodes"), row.get("time_limit")
    memory, old_memory = options.memory_mb, row.get("memory_mb") or DEFAULT_MEMORY_MB
    if (max_nodes is not None and old_nodes is not None and max_nodes < old_nodes) or memory < old_memory:
        return False
    if layered and (not row.get("layered", False) or disk_mb > row.get("disk_mb", 0)):
        return True
    if relaxed is not None and row.get("relaxed") != relaxed:
        return True
    if (relaxed is None and options.relaxed_stage and row.get("relaxed_stage", True) is False
            and strategy_for(rules(row["game"])).relaxed_verdicts is not None):
        return True
    return (more(max_nodes, old_nodes) or memory > old_memory
            or (max_nodes == old_nodes and more(time_limit, old_time))
            or (max_nodes == old_nodes and not more(old_time, time_limit) and not first_pass
                and row.get("first_pass", True)))


def survey(
    game: str,
    deals: range,
    *,
    options: SolveOptions | None = None,
    workers: int = 1,
    out: str | Path | None = None,
    scheduler: str | None = None,
    lines: bool = True,
    progress: Callable[[int, int], None] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    **settings: Any,
) -> Summary:
    """Solve every deal of ``deals`` not already in ``out``; return the summary over the whole range.

    How each deal is solved is ``options`` (a :class:`SolveOptions`), or its fields as keywords
    (``time_limit=10, max_nodes=1_000_000``), or both, the keywords changing the value."""
    options = (options or SolveOptions()).replace(**settings) if settings else options or SolveOptions()
    options.check_game(rules(game))
    check_out(out)
    done = resume_results(out, game)
    drop_torn_tail(out)
    wanted = set(deals)
    todo = [d for d in deals if d not in done or worth_retrying(done[d], options)]
    results = {d: r for d, r in done.items() if d in wanted}
    if progress:
        progress(len(results), len(deals))
    # Deals solved again with a bigger budget are the ones that took the whole smaller one: minutes each.
    one_by_one = all(d in done for d in todo)
    for rows in run_tasks(game, todo, options, workers, scheduler, one_by_one, lines):
        append_results(out, rows)
        for row in rows:
            results[row["deal"]] = row
            if on_result:
                on_result(row)
        if progress:
            progress(len(results), len(deals))
    return summarise(results[d] for d in deals if d in results)
