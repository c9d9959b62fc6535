"""Fair play in the web API: the chance to win, giving up, where a game was lost, and the solution.

Each answer that needs the solver is worked out in the solver pool (:mod:`tableaux.web.pool`), never in
the server's own process. What each one may look at:

* the chance to win is given the game's *observation* only (what the player has seen), so by
  construction it cannot peek;
* where a game was lost looks at every card, so it answers only for a game that is over (stuck or given
  up), as :func:`tableaux.advice.fair.where_lost` is meant to be used, or one with no card left to guess
  (:func:`tableaux.advice.fair.may_look_back`);
* the solution looks at every card too: it says so (``peeks``), and showing it marks the game as
  assisted, as does going back to where a lost game could still have been won.

When every worker is busy these answer 503 at once rather than queue, so that no client holds a worker in
reserve: the page asks for the chance again after the next move, and for the solution or where a game was
lost again shortly, for up to half a minute (``static/api.js``). Answers are kept, so asking twice costs one
search: the chance per observation (players who have seen the same share it), the others per game version.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from ..advice import fair
from ..i18n import _
from ..play.game import Game
from . import models as api
from .errors import ApiError
from .games import GAME_ERRORS, GameId, Games, KeyDep, asked, check_version, games_of, ok
from .identity import Client, Player
from .pool import chance_job, lost_job, solution_job
from .store import GameRecord
from .store import Request as Asked
from .views import saved_game

BUSY_RETRY = 1
"""Seconds the answer to a busy solver asks the page to wait (it asks again after the next move anyway)."""


def solver_busy(message: str) -> ApiError:
    """503 when the solver's workers have no room: nothing was changed, ask again shortly."""
    return ApiError(503, message, cause="solver", outcome="unchanged", retry_after=BUSY_RETRY,
                    headers={"Retry-After": str(BUSY_RETRY)})


ANSWERS_KEPT = 256
Kept = tuple[str, str] | tuple[str, str, int]
"""What a kept answer is found by: the chance by what the player has seen, the others by game and version."""


class Assist:
    """The solver-backed answers of one app, with their time limits and the answers already worked out."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self._kept: OrderedDict[Kept, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def _recall(self, key: Kept) -> dict[str, Any] | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def _keep(self, key: Kept, answer: dict[str, Any]) -> None:
        with self._lock:
            self._kept[key] = answer
            while len(self._kept) > ANSWERS_KEPT:
                self._kept.popitem(last=False)

    async def _in_pool(self, client: str | None, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` worked out in the pool for ``client`` (the asking address); 503 when the pool is full or
        the client holds its share of it already (:mod:`tableaux.web.pool`)."""
        pool = self.games.pool
        place = pool.reserve(client)
        if place is None:
            raise solver_busy("the solver's workers are all busy; ask again in a moment")
        answer = await pool.run(place, fn, *args)
        if answer is None:
            raise solver_busy("a solver worker stopped; ask again in a moment")
        return answer

    async def chance(self, game_id: str, player: str, client: str | None = None) -> dict[str, Any]:
        version, observation = await run_in_threadpool(
            self.games.inspect, game_id, player, lambda record, game: (record.version, game.observation())
        )
        # Kept by what the player has seen, which is all the chance is worked out from: every player at the start
        # of one deal (the daily deal's, a shared link's) shares one search, and the answer tells none of them more
        # than they see.
        seen = hashlib.sha256(json.dumps(observation, sort_keys=True).encode()).hexdigest()
        key = ("chance", seen)
        answer = self._recall(key)
        if answer is None:
            answer = await self._in_pool(client, chance_job, observation, self.games.spend["chance"])
            self._keep(key, answer)
        return {"version": version, **answer}

    async def lost(self, game_id: str, player: str, client: str | None = None) -> dict[str, Any]:
        def finished(record: GameRecord, game: Game) -> tuple[int, dict[str, Any]]:
            if not may_look_back(record, game):
                raise ApiError(422, _("where the game was lost is only worked out once it is over (no move left, "
                                      "or given up): it looks at every card, face-down ones too"))
            return record.version, game.to_dict()

        version, saved = await run_in_threadpool(self.games.inspect, game_id, player, finished)
        key = ("lost", game_id, version)
        answer = self._recall(key)
        if answer is None:
            answer = {"version": version,
                      **await self._in_pool(client, lost_job, saved, self.games.spend["where-lost"])}
            self._keep(key, answer)
        return answer

    async def solution(self, game_id: str, player: str, version: int, request: Asked | None = None,
                       played: float | None = None, client: str | None = None) -> dict[str, Any]:
        def current(record: GameRecord, game: Game) -> tuple[dict[str, Any], bool]:
            check_version(record, game, version)
            if record.finished:
                raise ApiError(422, _("this game is finished; there is nothing left to solve"))
            return saved_game(game), game.observation()["unseen"] > 0

        saved, hidden = await run_in_threadpool(self.games.inspect, game_id, player, current)
        found = await self._in_pool(client, solution_job, saved, self.games.spend["solution"])
        # The way to win shown, or that there is none where cards are hidden (what only a look at them tells: a
        # racer could try moves against the hidden cards for free): the game is assisted from now on.
        if found["verdict"] == "winnable" or (found["verdict"] == "unwinnable" and hidden):
            view = await run_in_threadpool(functools.partial(
                self.games.change, game_id, player, version, lambda game: None, assisted=True, request=request,
                played=played))
        else:
            view = await run_in_threadpool(self.games.view, game_id, player)
        return {**found, "peeks": True, "view": view}


def give_up_action(game: Game) -> None:
    """Giving up changes no card; the game is then finished and lost."""


def rewind_action(keep: int) -> Callable[[Game], None]:
    def act(game: Game) -> None:
        game.back_to(keep)

    return act


def may_look_back(record: GameRecord, game: Game) -> bool:
    """Whether where the game was lost may be worked out and gone back to now (:func:`fair.may_look_back`)."""
    ended = record.given_up or (game.is_over() and not record.won)
    return fair.may_look_back(ended, game.observation()["unseen"])


def rewind_check(keep: int) -> Callable[[GameRecord, Game], None]:
    def check(record: GameRecord, game: Game) -> None:
        if not may_look_back(record, game):
            raise ApiError(422, _("going back to where the game was lost is for a game that is over (no move "
                                  "left, or given up), or one with no card hidden; use undo during play"))
        played = game.played_count
        if keep > played:
            raise ApiError(422, _("keep must be at most the {played} moves played, not {keep}").format(
                played=played, keep=keep))

    return check


# --- the routes ------------------------------------------------------------------------------
async def assist_of(request: Request) -> Assist:
    return request.app.state.assist  # type: ignore[no-any-return]


AssistDep = Annotated[Assist, Depends(assist_of)]
GamesDep = Annotated[Games, Depends(games_of)]
router = APIRouter(prefix="/api")


@router.get("/games/{game_id}/chance", operation_id="chance", **api.route(200, api.Chance, (404, 503)))
async def chance(game_id: GameId, player: Player, assist: AssistDep, client: Client) -> JSONResponse:
    """The chance that the cards the player has not seen lie in a winnable way (``tableaux.advice.fair.win_chance``).

    Worked out from the game's observation only. It is an upper bound on what a player who does not peek
    can achieve from here, not a promise.
    """
    return ok(await assist.chance(game_id, player, client))


@router.post("/games/{game_id}/give-up", operation_id="giveUp", **api.route(200, api.View, GAME_ERRORS, links=""))
def give_up(game_id: GameId, body: api.ChangeRequest, player: Player, games: GamesDep, request: Request,
            key: KeyDep = None) -> JSONResponse:
    """End the game as lost (it counts as a loss); then /lost says where it could still have been won."""
    return ok(games.change(game_id, player, body.version, give_up_action, give_up=True,
                           request=asked(request, key, body), played=body.played))


@router.get("/games/{game_id}/lost", operation_id="lost", **api.route(200, api.Lost, (404, 422, 503)))
async def lost(game_id: GameId, player: Player, assist: AssistDep, client: Client) -> JSONResponse:
    """Where a game that is over was lost (``tableaux.advice.fair.where_lost``): only once it is over, or at any time
    when no card is left to guess (classic King Albert)."""
    return ok(await assist.lost(game_id, player, client))


@router.post("/games/{game_id}/rewind", operation_id="rewind", **api.route(200, api.View, GAME_ERRORS, links=""))
def rewind(game_id: GameId, body: api.RewindRequest, player: Player, games: GamesDep, request: Request,
           key: KeyDep = None) -> JSONResponse:
    """Take a lost or given-up game (or, where no card is hidden, one in play) back to the position after its first
    ``keep`` moves, to play on.

    The game is marked assisted (the solver said where it could still be won); the moves taken back stay
    on the redo list.
    """
    return ok(games.change(game_id, player, body.version, rewind_action(body.keep), assisted=True,
                           after_loss=True, check=rewind_check(body.keep), request=asked(request, key, body),
                           played=body.played))


@router.post("/games/{game_id}/solution", operation_id="solution",
             **api.route(200, api.Solution, (*GAME_ERRORS, 503), links="/view"))
async def solution(game_id: GameId, body: api.ChangeRequest, player: Player, assist: AssistDep, request: Request,
                   client: Client, key: KeyDep = None) -> JSONResponse:
    """The solver's winning line from the current position. It looks at the face-down cards (``peeks``), and
    when it shows a line the game is marked assisted in the statistics (``played``: the page's clock, stored with
    the mark)."""
    return ok(await assist.solution(game_id, player, body.version, asked(request, key, body), body.played, client))
