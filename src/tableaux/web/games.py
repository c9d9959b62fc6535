"""The game routes of the API.

The operations behind them are in :mod:`tableaux.web.operations`. Each route declares its body (a model
of :mod:`tableaux.web.models`, which FastAPI validates), its operation id and every answer it can give;
that is what ``/openapi.json`` says. A change (a new game, a move, undo, redo, restart) may carry an
``Idempotency-Key`` header, as the page sends one with each: the same request sent again with the same
key is answered with what the first one did, never done twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from ..play.game import Game
from . import models as api
from .errors import ApiError
from .fields import MAX_COUNT
from .identity import Client, Player, client_address
from .limits import Limits
from .operations import (
    Games,
    check_version,
    fingerprint,
    play_action,
    redo_action,
    restart_action,
    undo_action,
)
from .store import Request as Asked
from .store import Store, StoreFull
from .views import game_info

__all__ = ["GAME_ERRORS", "GameId", "Games", "GamesDep", "KeyDep", "asked", "check_version", "games_of", "ok",
           "router"]


# --- the routes ------------------------------------------------------------------------------
async def games_of(request: Request) -> Games:
    """The app's games (async: FastAPI runs a plain function dependency in its thread pool, a hop per request)."""
    return request.app.state.games  # type: ignore[no-any-return]


def ok(data: object, status: int = 200) -> JSONResponse:
    """Answer with ``data`` as JSON directly: the fast path. FastAPI would validate and re-encode it against the
    route's model; production skips that (docs/api.md gives what it saves), and the test suite checks every
    answer against its model as it goes out instead (:class:`tableaux.web.middleware.AnswerCheck`)."""
    return JSONResponse(data, status_code=status)


GamesDep = Annotated[Games, Depends(games_of)]
KeyDep = Annotated[str | None, Header(
    alias=api.KEY_HEADER, pattern=api.KEY_PATTERN,
    description=f"a request id the page makes for each change ({api.KEY_ACCEPTED}): the same "
                "request sent again with it, after an answer that was lost or said the outcome was unknown, is "
                "answered with what the first one did, never done twice. Keys are kept for a day.")]


def asked(request: Request, key: str | None, body: BaseModel | None) -> Asked | None:
    """The request id a change is kept under, with what it asked for; None without an Idempotency-Key."""
    if key is None:
        return None
    sent = body.model_dump_json() if body is not None else ""
    return Asked(key, fingerprint(request.method, request.url.path, sent))


GameId = Annotated[str, Path(description="a game id from an earlier answer",
                             json_schema_extra={"pattern": api.GAME_ID})]
NO_BODY_ERRORS = ()
GAME_ERRORS = (*api.BODY_ERRORS, 404, 409)
router = APIRouter(prefix="/api", default_response_class=JSONResponse)


def stats_of(store: Store, player: str) -> dict[str, Any]:
    return {name: s.to_dict() for name, s in store.stats(api.WEB_GAMES, player).items()}


@router.get("/games/info", operation_id="gameInfo", **api.route(200, api.GameInfo, NO_BODY_ERRORS))
def games_info(request: Request) -> JSONResponse:
    """The games the browser offers and the facts its page shows (deal numbers, how ranks read, whether this
    server runs the daily race)."""
    return ok({**game_info(), "leaderboard": request.app.state.leaderboard})


@router.get("/health", operation_id="health", **api.route(200, api.Health, NO_BODY_ERRORS, why=api.HEALTH_REFUSALS))
def health(request: Request) -> JSONResponse:
    """Whether this process and its database answer, for a load balancer or a monitor: 200, or 503 (cause
    ``database``) while the database is away, and 503 (cause ``disk``) once a write of this process found its
    disk full, until one stores something again (SQLite). A full disk is 503 here, not the 507 a change gets: the
    check stored nothing, and 503 is what a load balancer and a monitor read as a server to take out. No player
    is made, and nothing is written."""
    try:
        request.app.state.store.ping()
    except StoreFull as full:
        raise ApiError(503, full.for_players(), cause="disk", outcome="unchanged", retry_after=full.retry_after,
                       headers={"Retry-After": str(full.retry_after)}) from None
    return ok({"status": "ok"})


def quotas_of(request: Request, player: str) -> list[tuple[str, int]]:
    """What a new game from this request is counted against: its player, and its client's address (the socket's,
    or the one a trusted proxy forwarded)."""
    limits: Limits = request.app.state.limits
    return limits.quotas(player, client_address(request))


@router.post("/games", operation_id="newGame", **api.route(201, api.View, (*api.BODY_ERRORS, 429), links=""))
def new_game(body: api.NewGameRequest, player: Player, games: GamesDep, request: Request, key: KeyDep = None
             ) -> JSONResponse:
    """A new game. At most so many a minute for each player and each client address (429 beyond, with
    Retry-After); sent again with the same Idempotency-Key, the game the first request made."""
    return ok(games.create(player, body.game, body.deal, body.winnable, body.difficulty,
                           request=asked(request, key, body), quotas=quotas_of(request, player)), 201)


@router.post("/daily", operation_id="daily",
             **api.route(201, api.View, (*api.BODY_ERRORS, 429), links="",
                         also={200: "the player's game of today's deal, as it is"}))
def daily(body: api.DailyRequest, player: Player, games: GamesDep, request: Request, key: KeyDep = None
          ) -> JSONResponse:
    """Today's daily deal (UTC): one winnable deal per game per day, the same for everyone."""
    view, created = games.daily(player, body.game, request=asked(request, key, body),
                                quotas=quotas_of(request, player))
    return ok(view, 201 if created else 200)


@router.get("/resume", operation_id="resume", **api.route(200, api.Resume, (422,)))
def resume(player: Player, games: GamesDep, game: api.Game | None = None) -> JSONResponse:
    """Like /current, but a player with nothing to resume gets ``{"view": null}`` rather than 404."""
    return ok({"view": games.resume(player, game)})


@router.get("/current", operation_id="currentGame", **api.route(200, api.View, (404, 422), links=""))
def current(player: Player, games: GamesDep, game: api.Game | None = None) -> JSONResponse:
    return ok(games.current(player, game))


@router.get("/games/{game_id}", operation_id="getGame", **api.route(200, api.View, (404,), links=""))
def get_game(game_id: GameId, player: Player, games: GamesDep) -> JSONResponse:
    return ok(games.view(game_id, player))


@router.post("/games/{game_id}/moves", operation_id="move", **api.route(200, api.View, GAME_ERRORS, links=""))
def move(game_id: GameId, body: api.MoveRequest, player: Player, games: GamesDep, request: Request,
         key: KeyDep = None) -> JSONResponse:
    return ok(games.change(game_id, player, body.version, play_action(body.move), request=asked(request, key, body),
                           played=body.played, solution=body.by == "solution"))


def history_route(name: str, action: Callable[[Game], None], summary: str, takes_back: bool) -> None:
    def endpoint(game_id: GameId, body: api.ChangeRequest, player: Player, games: GamesDep, request: Request,
                 key: KeyDep = None) -> JSONResponse:
        return ok(games.change(game_id, player, body.version, action, leaving_the_end=takes_back,
                               request=asked(request, key, body), played=body.played))

    router.post(f"/games/{{game_id}}/{name}", operation_id=name, name=name, summary=summary,
                **api.route(200, api.View, GAME_ERRORS, links=""))(endpoint)


history_route("undo", undo_action, "Undo the last move (from a game that is over, it counts as assisted)", True)
history_route("redo", redo_action, "Replay the last undone move", False)
history_route("restart", restart_action, "Back to the deal (the moves stay on the redo list; from a game that is "
              "over, it counts as assisted)", True)


@router.get("/games/{game_id}/refusal", operation_id="refusal", **api.route(200, api.Refusal, (404, 422)))
def refusal(game_id: GameId, player: Player, games: GamesDep, source: api.SourcePile,
            count: Annotated[int, Query(ge=1, le=MAX_COUNT, description="how many cards move")],
            target: api.TargetPile) -> JSONResponse:
    """Why the rules refuse moving ``count`` cards from ``source`` to ``target`` now (null: they allow it).
    Changes nothing."""
    return ok(games.refusal(game_id, player, source, count, target))


@router.post("/games/{game_id}/hint", operation_id="hint",
             **api.route(200, api.HintAnswer, (*api.BODY_ERRORS, 404), links="/view"))
async def hint(game_id: GameId, player: Player, games: GamesDep, client: Client,
               body: api.HintRequest | None = None) -> JSONResponse:
    return ok(await games.hint(game_id, player, body.mode if body is not None else "fair",
                               body.played if body is not None else None, client))


@router.get("/stats", operation_id="stats", **api.route(200, api.AllStats, NO_BODY_ERRORS))
def stats(player: Player, games: GamesDep) -> JSONResponse:
    return ok(stats_of(games.store, player))


@router.post("/stats/reset", operation_id="resetStats", **api.route(200, api.AllStats, api.BODY_ERRORS))
def reset_stats(body: api.ResetRequest, player: Player, games: GamesDep) -> JSONResponse:
    games.store.reset_stats(body.game, player)
    return ok(stats_of(games.store, player))
