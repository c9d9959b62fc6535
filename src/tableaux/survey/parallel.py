"""Running many deals at once: local worker processes, or a Dask cluster.

Surveys (:mod:`.survey`, :mod:`tableaux.survey.fair`) and the catalogue's
grading hand their per-deal work here as a picklable task. A worker that dies
(killed, out of memory) breaks a local pool: the deals it had not answered run
again in a fresh pool, so they are retried, never counted as lost. Workers
exit by themselves when the process that started them is gone
(:func:`tableaux.common.watchdog.watch_parent`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from ..common.watchdog import watch_parent
from ..i18n import _
from .files import SURVEY_EXTRA, SurveyError


def batches(deals: list[int], workers: int, one_by_one: bool = False) -> list[list[int]]:
    """Deals in batches: small while there are few deals (every worker busy), up to 64 when there are many;
    one deal each when each may take minutes, so that a stopped survey loses at most one deal a worker."""
    size = 1 if one_by_one else max(1, min(64, len(deals) // (8 * max(1, workers))))
    return [deals[i:i + size] for i in range(0, len(deals), size)]


POOL_RESTARTS = 3
"""How many times in a row a pool may break without finishing a deal before the survey gives up."""


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


def run_on_dask(
    task: Callable[[list[int]], list[dict[str, Any]]], todo: list[list[int]], scheduler: str
) -> Iterator[list[dict[str, Any]]]:
    """Run ``task(batch)`` for every batch on a Dask cluster, yielding each batch's rows as they arrive."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SurveyError(_("--scheduler needs Dask distributed, which the survey extra installs: {install}").format(
            install=SURVEY_EXTRA)) from None
    try:
        client = Client(scheduler, timeout=5)
    except OSError as exc:
        raise SurveyError(_("cannot reach the Dask scheduler at {address}: {error}").format(
            address=repr(scheduler), error=exc)) from None
    try:
        futures = [client.submit(task, batch, pure=False) for batch in todo]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
