"""The browser game's HTTP API (FastAPI): the app factory.

The routes are in :mod:`tableaux.web.games`, the contract (request and answer
models) in :mod:`tableaux.web.models`, what wraps every request in
:mod:`tableaux.web.middleware`, and who is asking in :mod:`tableaux.web.identity`.
Here they are put together, with the one place that turns every failure into
JSON ``{"error": "..."}`` with a 4xx status that says what was wrong and what
is accepted.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..advice.effort import EFFORT, Action, Effort
from . import assist, models, pwa, race
from .database import Database
from .errors import ApiError
from .fields import CONTRACT_ERROR, WEB_GAMES
from .games import Games, router
from .identity import COOKIE, Player
from .limits import Limits
from .logbook import log, report_pending
from .middleware import (
    CHECK_ANSWERS,
    CSP,
    MAX_BODY,
    AddressShare,
    AnswerCheck,
    HeadAsGet,
    IdentityHeaders,
    JsonBodies,
    RequestLanguage,
    SecurityHeaders,
)
from .pool import SolverPool
from .store import Store, StoreError, StoreFull, StoreUnavailable
from .translations import router as translations_router

__all__ = ["COOKIE", "CSP", "MAX_BODY", "WEB_GAMES", "create_app", "unavailable"]

STATIC_DIR = Path(__file__).parent / "static"


def validation_message(request: Request, exc: RequestValidationError) -> str:
    """One readable sentence per problem. The contract's own errors are finished sentences already."""
    parts = []
    for err in exc.errors():
        loc = [str(p) for p in err.get("loc", ())]
        if err.get("type") == CONTRACT_ERROR:
            parts.append(str(err.get("msg")))
        elif loc == ["body"] and err.get("type") == "missing":
            parts.append(f"request body is missing; send a JSON object like {body_example(request)}")
        elif loc == ["header", models.KEY_HEADER]:  # its pattern, in words
            parts.append(f"header '{models.KEY_HEADER}': {err.get('input')!r} is not accepted; a key is "
                         f"{models.KEY_ACCEPTED}")
        elif loc[:1] == ["query"] and len(loc) == 2 and err.get("type") == "missing":
            choices = query_choices(request, loc[1])
            parts.append(f"query '{loc[1]}' is missing" + (f"; choose one of {', '.join(choices)}" if choices else ""))
        else:
            where = " ".join(loc[:1] + [f"'{p}'" for p in loc[1:]])
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def query_choices(request: Request, name: str) -> tuple[str, ...]:
    """The values the route's query parameter ``name`` accepts, when its type lists them (a game's name)."""
    route = request.scope.get("route")
    for field in getattr(getattr(route, "dependant", None), "query_params", ()):
        annotation = field.field_info.annotation
        if field.alias == name and get_origin(annotation) is Literal:
            return tuple(str(value) for value in get_args(annotation))
    return ()


def body_example(request: Request) -> str:
    """The example the route's body model gives, written as JSON."""
    import json

    route = request.scope.get("route")
    field = getattr(route, "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    extra = getattr(model, "model_config", {}).get("json_schema_extra") or {}
    examples = extra.get("examples") if isinstance(extra, dict) else None
    return json.dumps(examples[0]) if examples else "{}"


def describe(app: FastAPI) -> dict[str, Any]:
    """FastAPI's description of the API routes: identity is optional (no credentials means a new player)."""
    schema = get_openapi(title="tableaux", version="1", routes=app.routes,
                         description=models.__doc__)
    for methods in schema["paths"].values():
        for op in methods.values():
            if "security" in op:
                op["security"].append({})
            # FastAPI's generic 422 for routes whose parameters cannot fail validation: not an answer they give.
            answer = op["responses"].get("422", {})
            if "HTTPValidationError" in str(answer.get("content")):
                del op["responses"]["422"]
    for unused in ("HTTPValidationError", "ValidationError"):
        schema["components"]["schemas"].pop(unused, None)
    return schema


def web_effort(hint_seconds: float | None, chance_seconds: float | None,
               solve_seconds: float | None) -> dict[Action, Effort]:
    """The web's efforts, with the time limits a caller chose instead of the table's."""
    spend = dict(EFFORT["web"])
    for actions, seconds in ((("fair-hint", "peek-hint"), hint_seconds), (("chance",), chance_seconds),
                             (("where-lost", "solution"), solve_seconds)):
        if seconds is not None:
            for action in actions:
                spend[action] = spend[action].within(seconds)
    return spend


ROUTERS = (router, translations_router, assist.router, race.router, pwa.router)
"""The API's routes (every path in them is whole: each router has its prefix)."""


def unavailable(exc: StoreUnavailable | StoreFull) -> JSONResponse:
    """503 (the database is away) or 507 (its disk is full), with Retry-After, saying whether anything changed, in
    the player's words: the driver's reason is for the server's log."""
    full = isinstance(exc, StoreFull)
    outcome = "unknown" if getattr(exc, "outcome_unknown", False) else "unchanged"
    return JSONResponse(
        {"error": exc.for_players(), "cause": "disk" if full else "database", "outcome": outcome,
         "retry_after": exc.retry_after},
        status_code=507 if full else 503, headers={"Retry-After": str(exc.retry_after)},
    )


class Tidying:
    """The app's round of forgetting (:meth:`Store.tidy`) every ``limits.tidy_every`` seconds, in a thread of its
    own; every server process on a database runs one (the deletes do not mind each other)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tableaux-tidy", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.limits.tidy_every):
            try:
                self.store.tidy(time.time(), self.limits.unmoved_after)
            except StoreError:
                pass  # the database is away or full: the next round will do it


def create_app(
    db_path: str | Path | Database,
    *,
    hint_time_limit: float | None = None,
    chance_time_limit: float | None = None,
    solve_time_limit: float | None = None,
    allowed_hosts: tuple[str, ...] | None = None,
    pool: SolverPool | None = None,
    check_answers: bool | None = None,
    limits: Limits | None = None,
    leaderboard: bool = True,
) -> FastAPI:
    """The web game on database ``db_path`` (a file, or what ``--db`` accepts).

    ``allowed_hosts`` limits the Host header (DNS rebinding).

    Every solver-backed answer works as hard as :data:`tableaux.advice.effort.EFFORT` says for the web;
    ``hint_time_limit`` (both kinds of hint), ``chance_time_limit`` and ``solve_time_limit`` (the solution
    and where a game was lost) change only their seconds, as the tests do.

    The solver pool starts with the app's lifespan (or at the first hint when
    the app runs without one) and stops with it; when it ends, the log gets the lines its throttles still held.

    ``check_answers`` validates every answer against its route's model before it goes out
    (:class:`~tableaux.web.middleware.AnswerCheck`); by default it is on when the environment variable
    ``TABLEAUX_CHECK_ANSWERS`` is 1, as the test suite sets it for every app and server it starts.

    ``limits``: new games a minute per player and per address, and how long games never moved are kept
    (:mod:`tableaux.web.limits`). A database that cannot be reached is waited for (every request is
    answered 503 until it answers); one that is refused (a wrong --db, a newer schema) raises here.

    ``leaderboard``: the daily race (:mod:`tableaux.web.race`); off, its routes answer 404 and the page offers
    none of it (``tableaux serve --no-leaderboard``).
    """
    store = Store(db_path, wait=True)
    solver_pool = pool or SolverPool()
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        solver_pool.start()
        tidying = Tidying(store, limits)
        tidying.start()
        try:
            yield
        finally:
            tidying.stop()
            solver_pool.shutdown()
            store.close()
            report_pending()  # counts held back for a line a minute, which would go with the process

    app = FastAPI(title="tableaux", docs_url=None, redoc_url=None, openapi_url="/openapi.json", lifespan=lifespan)
    app.state.store = store
    app.state.limits = limits
    app.state.leaderboard = leaderboard
    app.state.games = Games(store, web_effort(hint_time_limit, chance_time_limit, solve_time_limit), solver_pool)
    app.state.pool = solver_pool
    app.state.assist = assist.Assist(app.state.games)
    for api in ROUTERS:
        app.include_router(api)

    def cached_description() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe(app)
        return app.openapi_schema

    app.openapi = cached_description  # type: ignore[method-assign]

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": validation_message(request, exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The interactive API pages many FastAPI servers offer at /docs load their scripts from the web, which a
        # page's content security policy here refuses: a host who looks there is pointed to the description.
        where = "; the API is described at /openapi.json" if request.url.path.rstrip("/") in ("/docs", "/redoc") else ""
        messages = {
            404: f"nothing at {request.url.path}{where}",
            405: f"{request.method} is not allowed on {request.url.path}",
        }
        message = messages.get(exc.status_code, str(exc.detail))
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, exc: StoreError) -> JSONResponse:
        if isinstance(exc, StoreUnavailable | StoreFull):
            return unavailable(exc)
        # Its words may name a file or a saved game's contents: the server's log has them, the player does not.
        log.error("the saved games database failed on %s %s: %s", request.method, request.url.path, exc)
        return JSONResponse({"error": "the saved games database failed on this request, and nothing was changed; "
                                      "the server's log says why"}, status_code=500)

    @app.exception_handler(Exception)
    async def unexpected_error(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); nothing was changed"}, status_code=500)

    @app.get("/", include_in_schema=False)
    def index(_: Player) -> FileResponse:
        # The page gets the player cookie too, so its first API calls, even made in parallel, share one identity.
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            raise ApiError(404, "the front end is not installed (static/index.html is missing)")
        return FileResponse(page, headers={"cache-control": "no-cache"})

    @app.get("/daily", include_in_schema=False)
    def daily_page(player: Player) -> FileResponse:
        """The daily deal's address (``/daily?game=king-albert``): the page, which asks for today's deal."""
        return index(player)

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # Outermost last: security headers wrap everything, then the body checks, the identity headers, the language,
    # and innermost each address's share of the requests in hand (refused in the player's language).
    app.add_middleware(AddressShare, limit=limits.requests_per_address)
    app.add_middleware(RequestLanguage)
    app.add_middleware(IdentityHeaders)
    app.add_middleware(JsonBodies, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders, allowed_hosts=allowed_hosts)
    if check_answers if check_answers is not None else os.environ.get(CHECK_ANSWERS) == "1":
        app.add_middleware(AnswerCheck)  # it sees the answers of every other layer
    app.add_middleware(HeadAsGet)  # outermost: within it, a HEAD is a GET
    return app
