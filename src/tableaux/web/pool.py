"""The server's solver runs in worker processes, never in the server's own process.

A search holds a CPU core for up to its time limit. Run in the event loop or
in the server's threads, it would share the interpreter with every other
request, and a flood of hints would slow every other player's moves. So each
solver call is sent to a :class:`~concurrent.futures.ProcessPoolExecutor` and
awaited; the workers run at a lower CPU priority, so that on a busy machine the
server's answers come first.

The pool takes at most ``limit`` jobs at once (running or waiting). When it is
full, :meth:`SolverPool.reserve` says so at once and the caller answers with
the rule of thumb instead of queueing: a hint that waits behind ten others
is no use to anyone.

No client takes the whole pool: each job is reserved for a client (its address,
counted as the new-game quota counts it: :func:`tableaux.web.limits.address_bucket`),
and one client holds at most ``per_client`` places at once: by default
:data:`PAGE_AT_ONCE`, what one player's page asks at once, and the pool has one
place more than two a worker, so that a client holding its share never holds
them all. A script asking for hints or chances in a loop gets the rule of thumb
or a 503 for the requests beyond its share, and every other player still finds
a place.

Workers are started by ``spawn`` (a clean interpreter, not a fork of a server
with threads and open database connections) and exit by themselves if the
server dies without shutting them down.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..i18n import ngettext
from .limits import REFUSALS, waiting_for_solver

if TYPE_CHECKING:
    from ..advice.effort import Effort

PAGE_AT_ONCE = 2
"""Solver answers one player's page may wait for at once: the chance it asks after each move, and a hint."""

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's (Unix ``nice``)."""


def default_workers() -> int:
    """One core is left to the server itself: on two cores, one worker."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """While a worker may be started: SIGINT blocked in this thread, and so in the new process, which inherits the
    mask. Ctrl+C in the terminal reaches the whole process group, and a worker still loading its modules would end
    with Python's KeyboardInterrupt and its traceback under the server's own quiet stop; held, the signal waits
    for :func:`_start_worker`, which lets it end the worker as the signal's default does."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker() -> None:
    from ..common.watchdog import watch_parent

    watch_parent()  # exit when the server is gone, even after a SIGKILL
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl+C ends a worker at once, without a traceback
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held since it was started (_interrupts_held)
    if hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)


def _ready() -> int:
    return os.getpid()


def hint_job(saved: dict[str, Any], spend: Effort, mode: str = "fair", lang: str = "en") -> dict[str, Any]:
    """In a worker: a stored game's hint (``saved``: :func:`tableaux.web.views.saved_game`), as
    :func:`tableaux.advice.hints.hint` gives it (the solver's, or the rule of thumb's), worded in ``lang``, the
    language of the request that asked for it.

    A fair hint reads only the game's observation (``hints.hint`` sees to that); a peeking one says so.
    """
    from ..advice.hints import hint
    from ..i18n import speaking
    from .views import game_of_saved

    with speaking(lang):
        return dict(hint(game_of_saved(saved), mode=mode, spend=spend).to_dict())


def chance_job(observation: dict[str, Any], spend: Effort) -> dict[str, Any]:
    """In a worker: the chance to win, from what the player has seen and nothing else.

    It is given the observation, never the game, so it cannot look at a face-down card.
    """
    from ..advice.fair import win_chance

    assert spend.samples is not None
    return win_chance(observation, spend.samples, max_nodes=spend.positions, time_limit=spend.seconds).to_dict()


def lost_job(saved: dict[str, Any], spend: Effort) -> dict[str, Any]:
    """In a worker: where a finished game was lost (:func:`tableaux.advice.fair.where_lost`, which sees every card)."""
    from ..advice.fair import FairError, where_lost

    try:
        found = where_lost(saved, max_nodes=spend.positions, time_limit=spend.seconds)
    except FairError:
        return {"verdict": "unknown"}
    if found is None:
        return {"verdict": "winnable"}
    if found.get("deal_unwinnable"):
        return {"verdict": "never"}
    return {"verdict": "lost", "move_index": found["move_index"], "move": found["move"], "line": found["line"],
            "certain": found["certain"], "last_possible": found["last_possible"],
            "cards": moved_cards(saved, found["move_index"])}


def moved_cards(saved: dict[str, Any], index: int) -> list[str]:
    """The cards that move ``index`` of a saved game took, by code, from the position the player saw before it
    (so a card dealt face down from the stock is not named): the page names them, as pile codes say little."""
    from ..play.game import Game
    from ..play.saves import game_from_dict

    game = game_from_dict(saved)
    move = game.moves_played[index]
    before = Game.replay(game.rules, game.deal, game.moves_played[:index]).public_position()
    return [entry["card"] for entry in before["piles"][move.source][-move.count:] if entry["card"] is not None]


def solution_job(saved: dict[str, Any], spend: Effort) -> dict[str, Any]:
    """In a worker: the solver's winning line from the game's current position (it sees the face-down cards)."""
    from ..solver import solve
    from .views import game_of_saved

    result = solve(game_of_saved(saved), max_nodes=spend.positions, time_limit=spend.seconds)
    return {"verdict": result.verdict, "moves": [str(m) for m in result.moves] if result.winnable else []}


class Place:
    """A place in the pool, taken by :meth:`SolverPool.reserve` for one job of one client."""

    __slots__ = ("client",)

    def __init__(self, client: str | None) -> None:
        self.client = client


class SolverPool:
    """A bounded process pool, started on first use and restarted if a worker dies."""

    def __init__(self, workers: int | None = None, limit: int | None = None, per_client: int | None = None) -> None:
        self.workers = workers or default_workers()
        self.limit = limit if limit is not None else 2 * self.workers + 1
        self.per_client = per_client if per_client is not None else max(1, min(PAGE_AT_ONCE, self.limit - 1))
        """The most places one client holds at once (module docstring)."""
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._taken = 0
        self._by_client: dict[str, int] = {}
        self._closed = False

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the solver pool is shut down")
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                )
            return self._executor

    def start(self) -> None:
        """Start the workers now rather than at the first hint (they take a moment to import the engine)."""
        with self._lock:
            self._closed = False
        pool = self._pool()
        for _worker in range(self.workers):
            with _interrupts_held():
                pool.submit(_ready)

    def reserve(self, client: str | None = None) -> Place | None:
        """Take a place for one job of ``client`` (None: a job of the server's own); None when the pool is full or
        the client holds its share already (the caller then does without it)."""
        with self._lock:
            refused = self._closed or self._taken >= self.limit
            held = 0 if client is None else self._by_client.get(client, 0)
            if not refused and held < self.per_client:
                if client is not None:
                    self._by_client[client] = held + 1
                self._taken += 1
                return Place(client)
        if not self._closed:
            REFUSALS.note("solver", lambda count: ngettext(
                "{count} solver answer done without the solver (a hint by the rule of thumb, a chance, a solution or "
                "where a game was lost answered 503), the pool full or the asking address holding its share, since "
                "the last such line.",
                "{count} solver answers done without the solver (a hint by the rule of thumb, a chance, a solution or "
                "where a game was lost answered 503), the pool full or the asking address holding its share, since "
                "the last such line.", count).format(count=count), source=client)
        return None

    def release(self, place: Place) -> None:
        with self._lock:
            self._taken -= 1
            client = place.client
            if client is not None:
                held = self._by_client.pop(client) - 1
                if held:
                    self._by_client[client] = held

    @property
    def busy(self) -> int:
        """Jobs running or waiting."""
        return self._taken

    async def run(self, place: Place, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` in a worker, in a ``place`` taken with :meth:`reserve` (released here).

        Returns None if the worker died (the pool is then replaced, so the next job runs).
        """
        try:
            pool = self._pool()
            with _interrupts_held():
                future: Future[Any] = pool.submit(fn, *args)
            try:
                with waiting_for_solver():  # out of its address's share of requests meanwhile
                    return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._replace(pool)
                return None
        finally:
            self.release(place)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Stop the workers: searches in progress are abandoned (nobody is waiting for them any more)."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
