"""Surveys: solve a range of deals, keep every result on disk, summarise the winnable share.

Results are JSON lines appended as each batch of deals finishes (:mod:`.survey_file`), so an
interrupted survey loses at most the deals in flight, and a rerun with the
same ``--out`` skips every deal already in the file. The summary is always
computed from the file, so a resumed survey reports the same totals as an
uninterrupted one.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..deal import MAX_DEAL
from ..i18n import _
from . import DEFAULT_MEMORY_MB
from .survey_file import SurveyError, append_results, drop_torn_tail, read_results


def parse_deals(text: str) -> range:
    """``"1-100000"`` (inclusive) or a single ``"17"`` -> a range of deal numbers."""
    t = text.strip()
    first, sep, last = t.partition("-")
    try:
        lo = int(first)
        hi = int(last) if sep else lo
    except ValueError:
        raise SurveyError(_("deals must be a range like 1-100000 or one number, not {text}").format(
            text=repr(text))) from None
    if not 0 <= lo <= hi <= MAX_DEAL:
        raise SurveyError(_("deals must be FIRST-LAST with 0 <= FIRST <= LAST <= {max}, not {text}").format(
            max=MAX_DEAL, text=repr(text)))
    return range(lo, hi + 1)


def solve_deal(
    game: str,
    deal: int,
    time_limit: float | None,
    max_nodes: int | None = None,
    *,
    memory_mb: int | None = None,
    backend: str | None = None,
    first_pass: bool = True,
    layered: bool = False,
    disk_mb: int = 0,
    lines: bool = True,
) -> dict[str, Any]:
    """One deal of a survey; runs in a worker process, so it imports and returns plain data.

    A row made without the first pass says so (``"first_pass": false``); rows without the field had it.
    A row made by the layered complete search says so too (``"layered": true``), and records the disk it
    could use (``"disk_mb"``) when it could. An unknown row whose search ran out of memory (or disk) says so
    (``"out_of_memory": true``): that, not the positions or the time, is what a retry must give more of."""
    from .. import new_game
    from . import solve

    memory_mb = memory_mb or DEFAULT_MEMORY_MB
    result = solve(new_game(game, deal), time_limit=time_limit, max_nodes=max_nodes, memory_mb=memory_mb,
                   backend=backend, first_pass=first_pass, layered=layered, disk_mb=disk_mb)
    row: dict[str, Any] = {
        "game": game,
        "deal": deal,
        "verdict": result.verdict,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
        "time_limit": time_limit,
        "max_nodes": max_nodes,
        "memory_mb": memory_mb,
        "backend": result.backend,
    }
    if not first_pass:
        row["first_pass"] = False
    if layered:
        row["layered"] = True
    if disk_mb:
        row["disk_mb"] = disk_mb
    if result.out_of_memory:
        row["out_of_memory"] = True
    if lines:
        row["line"] = " ".join(str(m) for m in result.moves)
    return row


def solve_batch(game: str, deals: list[int], options: dict[str, Any]) -> list[dict[str, Any]]:
    """Several deals in one task: most deals take a millisecond, far less than sending a task to a worker."""
    return [solve_deal(game, deal, **options) for deal in deals]


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there is no data."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


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


def batches(deals: list[int], workers: int, one_by_one: bool = False) -> list[list[int]]:
    """Deals in batches: small while there are few deals (every worker busy), up to 64 when there are many;
    one deal each when each may take minutes, so that a stopped survey loses at most one deal a worker."""
    size = 1 if one_by_one else max(1, min(64, len(deals) // (8 * max(1, workers))))
    return [deals[i:i + size] for i in range(0, len(deals), size)]


def run_tasks(
    game: str,
    deals: list[int],
    options: dict[str, Any],
    workers: int,
    scheduler: str | None,
    one_by_one: bool = False,
) -> Iterator[list[dict[str, Any]]]:
    """Solve ``deals`` in parallel, yielding the results of each batch as it arrives (any order)."""
    if scheduler is not None:
        yield from _run_dask(game, batches(deals, 64, one_by_one), options, scheduler)
        return
    if workers == 1:
        for batch in batches(deals, 1, one_by_one):
            yield solve_batch(game, batch, options)
        return
    yield from _run_pool(game, batches(deals, workers, one_by_one), options, workers)


POOL_RESTARTS = 3
"""How many times in a row a pool may break without finishing a deal before the survey gives up."""


def _run_pool(
    game: str, todo: list[list[int]], options: dict[str, Any], workers: int
) -> Iterator[list[dict[str, Any]]]:
    yield from run_batches(partial(solve_batch, game, options=options), todo, workers)


def _each(task: Callable[[int], dict[str, Any]], deals: list[int]) -> list[dict[str, Any]]:
    return [task(deal) for deal in deals]


def run_deals(task: Callable[[int], dict[str, Any]], deals: list[int], workers: int) -> Iterator[dict[str, Any]]:
    """Run ``task(deal)`` for every deal in local worker processes, yielding each row as it arrives
    (see :func:`run_batches`)."""
    for rows in run_batches(partial(_each, task), [[d] for d in deals], workers):
        yield from rows


def run_batches(
    task: Callable[[list[int]], list[dict[str, Any]]], todo: list[list[int]], workers: int
) -> Iterator[list[dict[str, Any]]]:
    """Run ``task(batch)`` for every batch of deals in local worker processes, yielding the rows of
    each (every row with its ``deal``) as they arrive. ``task`` must be picklable (a module-level
    function or a ``functools.partial`` of one). A worker that dies (killed, out of memory) breaks
    the pool: the deals it had not answered are run again in a fresh pool, so they are retried, never
    counted as lost; only a pool that keeps breaking without progress stops the survey."""
    from concurrent.futures.process import BrokenProcessPool

    fruitless = 0
    while todo:
        answered: set[int] = set()
        try:
            for rows in _pool_pass(task, todo, workers):
                answered.update(row["deal"] for row in rows)
                yield rows
            return
        except BrokenProcessPool:
            fruitless = 0 if answered else fruitless + 1
            if fruitless >= POOL_RESTARTS:
                raise SurveyError(_(
                    "survey workers died {n} times in a row without solving a deal "
                    "(out of memory?); the results so far are kept, rerun to resume").format(n=POOL_RESTARTS)
                ) from None
            todo = [b for b in ([d for d in batch if d not in answered] for batch in todo) if b]


def _pool_pass(
    task: Callable[[list[int]], list[dict[str, Any]]], todo: list[list[int]], workers: int
) -> Iterator[list[dict[str, Any]]]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=workers, initializer=watch_parent) as pool:
        pending = set()
        queue = iter(todo)
        try:
            # Keep a few tasks per worker queued, not all of them: an interrupt then loses little.
            for batch in queue:
                pending.add(pool.submit(task, batch))
                if len(pending) >= 2 * workers:
                    break
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
                    nxt = next(queue, None)
                    if nxt is not None:
                        pending.add(pool.submit(task, nxt))
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def watch_parent() -> None:
    """Pool worker start-up: exit as soon as the survey process is gone.

    A killed survey (SIGKILL, a crash) cannot shut its pool down, and a worker
    blocked on the task queue would never notice, so each worker checks its
    parent twice a second from a daemon thread.
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _run_dask(
    game: str, todo: list[list[int]], options: dict[str, Any], scheduler: str
) -> Iterator[list[dict[str, Any]]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SurveyError(_("--scheduler needs Dask distributed: pip install 'tableaux[survey]'")) from None
    try:
        client = Client(scheduler, timeout=5)
    except OSError as exc:
        raise SurveyError(_("cannot reach the Dask scheduler at {address}: {error}").format(
            address=repr(scheduler), error=exc)) from None
    try:
        futures = [client.submit(solve_batch, game, batch, options, pure=False) for batch in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()


def worth_retrying(row: dict[str, Any], time_limit: float | None, max_nodes: int | None,
                   memory_mb: int | None = None, first_pass: bool = True, layered: bool = False,
                   disk_mb: int = 0) -> bool:
    """An unknown deal is solved again when this run's budget is bigger: that is how a survey's
    last open deals get a second, larger budget. The new row comes later in the file and wins.

    Memory is part of the budget: a search whose table fills forgets positions and searches them
    again, so the same number of positions decides more with more memory (classic deal 161 is
    unknown at 400 million positions in 1 GiB and won in 153 million in 8 GiB). Rows written before
    the memory was recorded had the default.

    So is the first pass: it takes up to half of a node budget, and a run without it gives the
    complete search all of it. A deal left unknown with the first pass is worth a run without it at
    the same budget (classic deal 70493: unknown at 400 million positions with it, proved lost in 203
    million without); the other way round, only a bigger budget is.

    And so is the layered complete search, a search another than the depth-first one: a deal left
    unknown by the depth-first one is worth a layered run at the same budget (and memory), and a layered
    run with more disk than the row had is worth making too."""
    if row["verdict"] != "unknown":
        return False

    def more(new: float | None, old: float | None) -> bool:
        return (new is None and old is not None) or (new is not None and old is not None and new > old)

    old_nodes, old_time = row.get("max_nodes"), row.get("time_limit")
    memory, old_memory = memory_mb or DEFAULT_MEMORY_MB, row.get("memory_mb") or DEFAULT_MEMORY_MB
    if (max_nodes is not None and old_nodes is not None and max_nodes < old_nodes) or memory < old_memory:
        return False
    if layered and (not row.get("layered", False) or disk_mb > row.get("disk_mb", 0)):
        return True
    return (more(max_nodes, old_nodes) or memory > old_memory
            or (max_nodes == old_nodes and more(time_limit, old_time))
            or (max_nodes == old_nodes and not more(old_time, time_limit) and not first_pass
                and row.get("first_pass", True)))


def survey(
    game: str,
    deals: range,
    *,
    time_limit: float | None,
    workers: int = 1,
    out: str | Path | None = None,
    scheduler: str | None = None,
    max_nodes: int | None = None,
    memory_mb: int | None = None,
    backend: str | None = None,
    first_pass: bool = True,
    layered: bool = False,
    disk_mb: int = 0,
    lines: bool = True,
    progress: Callable[[int, int], None] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> Summary:
    """Solve every deal of ``deals`` not already in ``out``; return the summary over the whole range."""
    done = read_results(out, game)
    drop_torn_tail(out)
    wanted = set(deals)
    todo = [d for d in deals
            if d not in done or worth_retrying(done[d], time_limit, max_nodes, memory_mb, first_pass, layered, disk_mb)]
    results = {d: r for d, r in done.items() if d in wanted}
    if progress:
        progress(len(results), len(deals))
    options = {"time_limit": time_limit, "max_nodes": max_nodes, "memory_mb": memory_mb, "backend": backend,
               "first_pass": first_pass, "layered": layered, "disk_mb": disk_mb, "lines": lines}
    # Deals solved again with a bigger budget are the ones that took the whole smaller one: minutes each.
    one_by_one = all(d in done for d in todo)
    for rows in run_tasks(game, todo, options, workers, scheduler, one_by_one):
        append_results(out, rows)
        for row in rows:
            results[row["deal"]] = row
            if on_result:
                on_result(row)
        if progress:
            progress(len(results), len(deals))
    return summarise(results[d] for d in deals if d in results)


def plot(rows: list[dict[str, Any]], path: str | Path, title: str) -> None:
    """Time distribution and running winnable share, as a PNG (no display needed)."""
    try:
        import matplotlib
    except ImportError:  # the survey extra is not installed
        raise SurveyError(_("plotting needs matplotlib, which the survey extra installs: "
                            "pip install 'tableaux[survey]'")) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["deal"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    times = [max(float(r["seconds"]), 1e-4) for r in rows]
    if times:
        bins = [10 ** (k / 4) for k in range(-16, 9)]
        for verdict, colour in (("winnable", "tab:green"), ("unwinnable", "tab:red"), ("unknown", "tab:gray")):
            part = [t for t, r in zip(times, rows, strict=True) if r["verdict"] == verdict]
            left.hist(part, bins=bins, alpha=0.6, label=f"{verdict} ({len(part)})", color=colour)
        left.set_xscale("log")
        left.legend()
    left.set_xlabel("seconds per deal")
    left.set_ylabel("deals")
    left.set_title("time distribution")
    won = low = 0
    xs, lows, highs = [], [], []
    for i, r in enumerate(rows, 1):
        won += r["verdict"] == "winnable"
        low += r["verdict"] != "unwinnable"
        xs.append(i)
        lows.append(won / i)
        highs.append(low / i)
    right.plot(xs, lows, label="winnable (unknown as lost)")
    right.plot(xs, highs, label="winnable or unknown")
    right.set_xlabel("deals solved (in deal order)")
    right.set_ylabel("running share")
    right.set_ylim(0, 1)
    right.legend()
    right.set_title("running winnable share")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
