"""The browser game's HTTP API (FastAPI), built on the engine and the SQLite store.

The engine is the authority: every answer is a *view* made from
``Game.public_position()`` plus the legal moves and the double-click (home)
moves, so the page never needs to know a rule and never learns a face-down
card. The database is the truth: each change is committed before the answer
goes out; live :class:`~tableaux.game.Game` objects are only a cache.

Errors are JSON ``{"error": "..."}`` with a 4xx status that says what was wrong
and what is accepted, and a rejected request changes nothing.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, get_args

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser

from .. import rules as rules_for
from ..deal import MAX_DEAL
from ..engine import IllegalMoveError, Move, NotationError, TableauxError
from ..game import Game
from ..hints import heuristic_hint
from . import openapi
from .store import GameRecord, StaleVersionError, Store, StoreError, hash_token

WebGame = Literal["king-albert", "eagle-wing"]
WEB_GAMES: tuple[str, ...] = get_args(WebGame)
"""The games the browser offers (the traditional King Albert is terminal-only)."""

STATIC_DIR = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
COOKIE = "tableaux_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
MAX_COUNT = 52
MAX_MOVE_TEXT = 64
CACHE_SIZE = 512
LOCK_STRIPES = 64
HINT_SLOTS = 2
"""Solver searches running at once; more hint requests get the heuristic, so hints cannot starve moves."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ApiError(Exception):
    """A client error: status, message, and optionally more fields (the 409 carries the current view)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def ok(data: object, status: int = 200) -> JSONResponse:
    """Answer with ``data`` as JSON directly: views are plain JSON already, so FastAPI's encoder is skipped."""
    return JSONResponse(data, status_code=status)


def error_body(message: str, **extra: Any) -> bytes:
    return json.dumps({"error": message, **extra}).encode()


async def send_json(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


# --- ASGI middleware ---------------------------------------------------------
class SecurityHeaders:
    """Security headers on every response, and (optionally) a Host allow-list against DNS rebinding."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in dict(SECURITY_HEADERS)]
                headers += SECURITY_HEADERS
                if is_api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        if self.allowed_hosts is not None:
            host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in self.allowed_hosts:
                body = error_body(f"unexpected Host {host!r}; this server answers to {', '.join(self.allowed_hosts)}")
                await send_json(send_with_headers, 400, body)
                return
        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before any handler sees them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = error_body(f"request body too large: at most {self.limit} bytes are accepted")
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await send_json(send, 400, error_body("Content-Length must be a whole number of bytes"))
                return
            if int(length) > self.limit:
                await send_json(send, 413, too_big, [(b"connection", b"close")])
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app will see the disconnect
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await send_json(send, 413, too_big, [(b"connection", b"close")])
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class PlayerIdentity:
    """Who is asking: the ``tableaux_player`` cookie, or a fresh identity for a missing, forged or unknown one.

    A cookie we did not issue is never adopted (its holder just becomes a new
    player), so nobody can choose or fix another browser's identity.
    """

    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The page itself gets the cookie too, so the page's first API calls, even made in parallel,
        # all come from one identity.
        if scope["type"] != "http" or not (scope["path"].startswith("/api/") or scope["path"] == "/"):
            await self.app(scope, receive, send)
            return
        cookie_header = b"; ".join(v for k, v in scope.get("headers", []) if k == b"cookie").decode("latin-1")
        token = cookie_parser(cookie_header).get(COOKIE, "")
        player = None
        if _TOKEN.fullmatch(token):
            candidate = hash_token(token)
            if self.store.is_known_player(candidate) or await anyio.to_thread.run_sync(
                self.store.player_exists, candidate
            ):
                player = candidate
        new_cookie: bytes | None = None
        if player is None:
            token, player = await anyio.to_thread.run_sync(self.store.new_player)
            new_cookie = (
                f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax".encode()
            )
        scope["tableaux.player"] = player

        async def send_with_cookie(message: Message) -> None:
            if new_cookie is not None and message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", new_cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


# --- request parsing -------------------------------------------------------------
def current_player(request: Request) -> str:
    return str(request.scope["tableaux.player"])


async def json_body(request: Request) -> dict[str, Any] | None:
    """The request's JSON object; ``None`` for an empty body. Content type and syntax are checked here."""
    raw = await request.body()
    if not raw.strip():
        return None
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        shown = media or "none"
        raise ApiError(415, f"request body must be JSON sent as Content-Type: application/json, not {shown}")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(422, f"request body must be a JSON object, not {type(data).__name__}")
    return data


def require_fields(body: dict[str, Any] | None, allowed: tuple[str, ...], example: str) -> dict[str, Any]:
    if body is None:
        raise ApiError(422, f"request body is missing; send a JSON object like {example}")
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(422, f"unexpected field {unknown[0]!r}; accepted fields are {', '.join(allowed)}")
    return body


def check_game_name(name: object) -> str:
    if not isinstance(name, str) or name not in WEB_GAMES:
        raise ApiError(422, f"unknown game {name!r}; choose one of {', '.join(WEB_GAMES)}")
    return name


def check_deal(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(
            422, f"deal must be a whole number from 0 to {MAX_DEAL}, or null for a random deal, not {value!r}"
        )
    if not 0 <= value <= MAX_DEAL:
        raise ApiError(422, f"deal must be from 0 to {MAX_DEAL}, not {value}")
    return value


def check_version(body: dict[str, Any]) -> int:
    if "version" not in body:
        raise ApiError(422, "field 'version' is missing: send the version of the view the request was made from")
    version = body["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ApiError(422, f"version must be a whole number of at least 0 (from the last view), not {version!r}")
    return version


def read_move(game: Game, spec: object) -> Move:
    """The move a request names, checked against the current position (it may still be illegal)."""
    piles = game.rules.pile_names
    if isinstance(spec, str):
        if len(spec) > MAX_MOVE_TEXT:
            raise ApiError(422, f"move text is too long (at most {MAX_MOVE_TEXT} characters)")
        try:
            return game.parse_move(spec)
        except (NotationError, IllegalMoveError) as exc:
            raise ApiError(422, str(exc)) from None
    if not isinstance(spec, dict):
        raise ApiError(
            422,
            'move must be an object {"source": pile, "count": n, "target": pile} or move text such as "T1>T3", '
            f"not {type(spec).__name__}",
        )
    unknown = sorted(set(spec) - {"source", "count", "target", "text"})
    if unknown:
        raise ApiError(422, f"unexpected move field {unknown[0]!r}; a move has source, count and target")
    for key in ("source", "target"):
        if key not in spec:
            raise ApiError(422, f"move field {key!r} is missing; a move has source, count and target")
        if not isinstance(spec[key], str) or spec[key] not in game.rules.index:
            raise ApiError(422, f"unknown pile {spec[key]!r} as move {key}; piles of {game.rules.title} are "
                           f"{', '.join(piles)}")
    count = spec.get("count")
    if count is None:
        try:
            return game.parse_move(f"{spec['source']}>{spec['target']}")
        except (NotationError, IllegalMoveError) as exc:
            raise ApiError(422, str(exc)) from None
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise ApiError(422, f"move count must be a whole number from 1 to {MAX_COUNT}, not {count!r}")
    return Move(spec["source"], count, spec["target"])


# --- games: the store plus a cache of live Game objects ----------------------------
def rebuild(record: GameRecord) -> Game:
    """The game a record describes, replayed through the engine (exact move texts, counts included)."""
    rules = rules_for(record.game)
    try:
        return Game.replay(rules, record.deal, record.moves, record.redo)
    except TableauxError as exc:
        raise StoreError(f"saved game {record.id} cannot be replayed: {exc}") from None


move_text = functools.lru_cache(maxsize=16384)(Move.__str__)


def extend_texts(stored: list[str], played: list[Move]) -> list[str]:
    """The stored move list after one change: history only ever changes at its end, so reuse the rest."""
    if len(played) <= len(stored):
        return stored[: len(played)]
    return stored + [move_text(m) for m in played[len(stored):]]


def move_dict(move: Move) -> dict[str, Any]:
    return {**move.to_dict(), "text": str(move)}


def make_view(record: GameRecord, game: Game) -> dict[str, Any]:
    """What a player may see of a game: only public information, plus what each pile can do."""
    position = game.public_position()
    won = record.won
    if won:  # a won game is final: its result is in the statistics
        position["can_undo"] = position["can_redo"] = False
    legal = [] if won else [move_dict(m) for m in game.legal_moves()]
    home: dict[str, Any] = {}
    if not won:
        for pile in game.rules.pile_names:
            move = game.home_move(pile)
            if move is not None:
                home[pile] = move_dict(move)
    return {
        "id": record.id,
        "version": record.version,
        "game": record.game,
        "title": game.rules.title,
        "deal": record.deal,
        "position": position,
        "legal_moves": legal,
        "home_moves": home,
        "elapsed_seconds": round(record.elapsed_now(), 1),
        "moves": len(record.moves),
        "won": won,
        "over": bool(position["over"]) and not won,
    }


class Games:
    """Game operations. One lock stripe per game id serialises changes to the same game in this process;
    the version compare-and-swap in the store protects against other processes."""

    def __init__(self, store: Store, hint_time_limit: float) -> None:
        self.store = store
        self.hint_time_limit = hint_time_limit
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]
        self._hint_slots = threading.BoundedSemaphore(HINT_SLOTS)

    @contextmanager
    def _open(self, game_id: str, player: str) -> Iterator[tuple[GameRecord, Game]]:
        with self._locks[hash(game_id) % LOCK_STRIPES]:
            record = self.store.get_game(game_id, player)
            if record is None:
                shown = repr(game_id) if len(game_id) <= 40 else "with that id"
                raise ApiError(404, f"no game {shown} here: it does not exist or belongs to another player")
            with self._cache_lock:
                cached = self._cache.get(game_id)
            game = cached[1] if cached is not None and cached[0] == record.version else rebuild(record)
            try:
                yield record, game
            except ApiError:
                raise  # refused before anything changed: the cached game is still right
            except BaseException:
                self._forget(game_id)
                raise

    def _remember(self, record: GameRecord, game: Game) -> None:
        with self._cache_lock:
            self._cache[record.id] = (record.version, game)
            self._cache.move_to_end(record.id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    def create(self, player: str, name: str, deal: int | None) -> dict[str, Any]:
        from .. import new_game

        game = new_game(name, deal)
        record = self.store.create_game(player, name, game.deal)
        self._remember(record, game)
        return make_view(record, game)

    def view(self, game_id: str, player: str) -> dict[str, Any]:
        with self._open(game_id, player) as (record, game):
            self._remember(record, game)
            return make_view(record, game)

    def current(self, player: str, name: str | None) -> dict[str, Any]:
        record = self.store.current_game(player, name)
        if record is None:
            which = f"{name} game" if name else "game"
            raise ApiError(404, f"no unfinished {which} to resume; start one with POST /api/games")
        return self.view(record.id, player)

    def change(self, game_id: str, player: str, version: int, action: Callable[[Game], object]) -> dict[str, Any]:
        """Apply ``action`` to the game made at ``version`` and store the result before answering."""
        with self._open(game_id, player) as (record, game):
            if version != record.version:
                raise ApiError(
                    409,
                    f"the game has changed (version {record.version}, the request was made at version {version}); "
                    "here is the current position",
                    view=make_view(record, game),
                )
            if record.won:
                raise ApiError(422, "this game is won and finished; start a new game")
            action(game)  # raises ApiError and changes nothing when the request is not allowed
            moves = extend_texts(record.moves, game.moves_played)
            redo = [move_text(m) for m in game.redo_moves]
            try:
                new = self.store.save_change(record, moves, redo, game.is_won())
            except StaleVersionError:
                self._forget(game_id)
                fresh = self.store.get_game(game_id, player)
                assert fresh is not None
                raise ApiError(409, "the game was changed elsewhere meanwhile; here is the current position",
                               view=make_view(fresh, rebuild(fresh))) from None
            self._remember(new, game)
            return make_view(new, game)

    def hint(self, game_id: str, player: str) -> dict[str, Any]:
        with self._open(game_id, player) as (record, game):
            if record.won:
                result = {"move": None, "source": "none", "message": "The game is won.", "unwinnable": False}
            elif self._hint_slots.acquire(blocking=False):
                try:
                    result = game.hint(time_limit=self.hint_time_limit).to_dict()
                finally:
                    self._hint_slots.release()
            else:  # the solver is busy with other hints: answer now with the rule of thumb
                result = heuristic_hint(game).to_dict()
            self._remember(record, game)
            return {"hint": result, "view": make_view(record, game)}


def play_action(spec: object) -> Callable[[Game], object]:
    def act(game: Game) -> None:
        move = read_move(game, spec)
        try:
            game.play(move)
        except (NotationError, IllegalMoveError) as exc:
            raise ApiError(422, str(exc)) from None

    return act


def undo_action(game: Game) -> None:
    if not game.moves_played:
        raise ApiError(422, "nothing to undo: no move has been played")
    game.undo()


def redo_action(game: Game) -> None:
    if not game.redo_moves:
        raise ApiError(422, "nothing to redo: no undone move to replay")
    game.redo()


def restart_action(game: Game) -> None:
    if not game.moves_played:
        raise ApiError(422, "nothing to restart: the game is already at the start of the deal")
    game.restart()


# --- the application ---------------------------------------------------------------
def create_app(
    db_path: str | Path,
    *,
    hint_time_limit: float = 0.5,
    allowed_hosts: tuple[str, ...] | None = None,
) -> FastAPI:
    """The web game on database ``db_path``. ``allowed_hosts`` limits the Host header (DNS rebinding)."""
    store = Store(db_path)
    games = Games(store, hint_time_limit)
    app = FastAPI(title="tableaux", docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    openapi.install(app)  # the precise description of every body and answer (tableaux.web.openapi)
    app.state.store = store
    app.state.games = games

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid")))
        return JSONResponse({"error": "invalid request: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        messages = {
            404: f"nothing at {request.url.path}",
            405: f"{request.method} is not allowed on {request.url.path}",
        }
        message = messages.get(exc.status_code, str(exc.detail))
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(StoreError)
    async def store_error(_: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"error": f"the saved games database failed: {exc}"}, status_code=500)

    @app.exception_handler(Exception)
    async def unexpected_error(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); nothing was changed"}, status_code=500)

    Player = Depends(current_player)
    Body = Depends(json_body)

    @app.get("/api/games/catalog")
    def catalog() -> JSONResponse:
        return ok([{"name": name, "title": rules_for(name).title} for name in WEB_GAMES])

    @app.post("/api/games")
    def new_game(body: dict[str, Any] | None = Body, player: str = Player) -> JSONResponse:
        fields = require_fields(body, ("game", "deal"), '{"game": "king-albert", "deal": 17}')
        if "game" not in fields:
            raise ApiError(422, f"field 'game' is missing; choose one of {', '.join(WEB_GAMES)}")
        name = check_game_name(fields["game"])
        return ok(games.create(player, name, check_deal(fields.get("deal"))), 201)

    @app.get("/api/current")
    def current(game: WebGame | None = None, player: str = Player) -> JSONResponse:
        return ok(games.current(player, game))

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, player: str = Player) -> JSONResponse:
        return ok(games.view(game_id, player))

    @app.post("/api/games/{game_id}/moves")
    def move(game_id: str, body: dict[str, Any] | None = Body, player: str = Player) -> JSONResponse:
        fields = require_fields(body, ("move", "version"), '{"move": "T1>T3", "version": 4}')
        version = check_version(fields)
        if "move" not in fields:
            raise ApiError(422, 'field \'move\' is missing; send {"source", "count", "target"} or text like "T1>T3"')
        return ok(games.change(game_id, player, version, play_action(fields["move"])))

    def history_endpoint(action: Callable[[Game], None]) -> Callable[..., JSONResponse]:
        def endpoint(game_id: str, body: dict[str, Any] | None = Body, player: str = Player) -> JSONResponse:
            fields = require_fields(body, ("version",), '{"version": 4}')
            return ok(games.change(game_id, player, check_version(fields), action))

        return endpoint

    for path, action in (("undo", undo_action), ("redo", redo_action), ("restart", restart_action)):
        app.post(f"/api/games/{{game_id}}/{path}", name=path)(history_endpoint(action))

    @app.post("/api/games/{game_id}/hint")
    def hint(game_id: str, body: dict[str, Any] | None = Body, player: str = Player) -> JSONResponse:
        return ok(games.hint(game_id, player))

    @app.get("/api/stats")
    def stats(player: str = Player) -> JSONResponse:
        return ok({name: s.to_dict() for name, s in store.stats(WEB_GAMES, player).items()})

    @app.post("/api/stats/reset")
    def reset_stats(body: dict[str, Any] | None = Body, player: str = Player) -> JSONResponse:
        fields = require_fields(body, ("game", "confirm"), '{"game": null, "confirm": true}')
        if fields.get("confirm") is not True:
            raise ApiError(422, 'resetting statistics needs "confirm": true')
        name = fields.get("game")
        store.reset_stats(None if name is None else check_game_name(name), player)
        return ok({name: s.to_dict() for name, s in store.stats(WEB_GAMES, player).items()})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            raise ApiError(404, "the front end is not installed (static/index.html is missing)")
        return FileResponse(page, headers={"cache-control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    # Outermost last: security headers wrap everything, then the body limit, then the player identity.
    app.add_middleware(PlayerIdentity, store=store)
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(SecurityHeaders, allowed_hosts=allowed_hosts)
    return app
