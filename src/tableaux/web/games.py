"""The game routes of the API, and the game operations behind them.

The engine is the authority: every answer is a view (:mod:`tableaux.web.views`).
The database is the truth: each change is committed before the answer goes
out; live :class:`~tableaux.play.game.Game` objects are only a cache. A rejected
request changes nothing.

Each route declares its body (a model of :mod:`tableaux.web.models`, which
FastAPI validates), its operation id and every answer it can give; that is
what ``/openapi.json`` says.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from .. import catalogue
from ..advice.effort import Action, Effort
from ..advice.hints import Hint, heuristic_hint
from ..i18n import _
from ..i18n import current as current_language
from ..play.game import Game
from ..play.game import new_game as start_game
from ..rulebook.engine import IllegalMoveError, Move, NotationError
from . import models as api
from .errors import ApiError
from .identity import Player
from .pool import SolverPool, hint_job
from .store import GameRecord, StaleVersionError, Store
from .views import extend_texts, game_info, make_view, move_text, rebuild

CACHE_SIZE = 512
LOCK_STRIPES = 64


class Games:
    """Game operations. One lock stripe per game id serialises changes to the same game in this process;
    the version compare-and-swap in the store protects against other processes."""

    def __init__(self, store: Store, spend: Mapping[Action, Effort], pool: SolverPool) -> None:
        self.store = store
        self.spend = spend
        """Each action's effort in this app (:data:`tableaux.advice.effort.EFFORT`'s web row, or a test's)."""
        self.pool = pool
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _stripe in range(LOCK_STRIPES)]

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

    def create(
        self, player: str, name: str, deal: int | None, winnable: bool = False, difficulty: str | None = None
    ) -> dict[str, Any]:
        """A new game: deal ``deal``, a random one, or (``winnable``/``difficulty``) one the catalogue grades.

        The catalogue is read, never computed, so a graded deal starts as fast as any other.
        """
        grade = None
        if winnable or difficulty is not None:
            entry = catalogue.pick(name, winnable=True, difficulty=difficulty)
            deal, grade = entry.deal, entry.grade
        game = start_game(name, deal)
        record = self.store.create_game(player, name, game.deal, grade=grade)
        self._remember(record, game)
        return make_view(record, game)

    def daily(self, player: str, name: str) -> tuple[dict[str, Any], bool]:
        """Today's daily deal (UTC) of ``name``: the player's game of it if there is one, else a new one.

        Returns the view and whether the game was created now. A daily deal is played once: a finished one
        is shown as it ended.
        """
        date = catalogue.today().isoformat()
        record = self.store.daily_game(player, name, date)
        if record is not None:
            return self.view(record.id, player), False
        entry = catalogue.daily(name, date)
        game = start_game(name, entry.deal)
        record = self.store.create_game(player, name, game.deal, daily=date, grade=entry.grade)
        self._remember(record, game)
        return make_view(record, game), True

    def resume(self, player: str, name: str | None) -> dict[str, Any] | None:
        """The player's unfinished game (of ``name``, if given), or None: a new player is not an error."""
        record = self.store.current_game(player, name)
        return None if record is None else self.view(record.id, player)

    def inspect(self, game_id: str, player: str, what: Callable[[GameRecord, Game], Any]) -> Any:
        """``what(record, game)`` for the player's game, read under its lock (the game is not changed)."""
        with self._open(game_id, player) as (record, game):
            self._remember(record, game)
            return what(record, game)

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

    def change(
        self, game_id: str, player: str, version: int | None, action: Callable[[Game], object], *,
        assisted: bool | None = None, give_up: bool = False, after_loss: bool = False,
        check: Callable[[GameRecord, Game], None] | None = None, leaving_the_end: bool = False,
        played: float | None = None,
    ) -> dict[str, Any]:
        """Apply ``action`` to the game made at ``version`` (None: as it is now) and store the result before answering.

        ``assisted`` marks the game as played with the solver's help, ``give_up`` ends it as lost, and
        ``after_loss`` is for the one change a given-up game takes (going back to where it could be won).
        ``check`` may refuse the change (with :class:`ApiError`) from the stored record, before ``action``.
        ``leaving_the_end``: the action takes moves back. From a game that is over (no move left, not won)
        that marks it assisted: an ended game may be asked where it was lost, which looks at every card
        (the page asks at once), so playing on from there is playing with the solver's help.
        ``played``: the game's time played as the page counts it (:mod:`tableaux.web.clock` bounds it).
        """
        with self._open(game_id, player) as (record, game):
            if version is not None:
                check_version(record, game, version)
            if leaving_the_end and not record.won and game.is_over():
                assisted = True
            if record.won:
                raise ApiError(422, "this game is won and finished; start a new game")
            if record.given_up and not after_loss:
                raise ApiError(422, "this game was given up; start a new game, or go back to where it could "
                                    "still be won (POST .../rewind)")
            if check is not None:
                check(record, game)
            action(game)  # raises ApiError and changes nothing when the request is not allowed
            moves = extend_texts(record.moves, game.moves_played)
            redo = [move_text(m) for m in game.redo_moves]
            try:
                new = self.store.save_change(record, moves, redo, game.is_won(), assisted=assisted,
                                             given_up=give_up, played=played)
            except StaleVersionError:
                self._forget(game_id)
                fresh = self.store.get_game(game_id, player)
                assert fresh is not None
                raise conflict(fresh, rebuild(fresh), "the game was changed elsewhere meanwhile") from None
            self._remember(new, game)
            return make_view(new, game)

    def look(
        self, game_id: str, player: str, heuristic: bool
    ) -> tuple[GameRecord, dict[str, Any], dict[str, Any] | None]:
        """The game's record and view, for a hint; with ``heuristic`` also the rule of thumb's hint."""
        with self._open(game_id, player) as (record, game):
            self._remember(record, game)
            hint = None
            if record.won:
                hint = dict(Hint(None, "none", _("The game is won.")).to_dict())
            elif record.given_up:
                hint = dict(Hint(None, "none", _("The game was given up.")).to_dict())
            elif heuristic:
                hint = dict(heuristic_hint(game).to_dict())
                if hint["source"] == "heuristic":
                    hint["message"] = _("The solver is busy with other hints; {hint}").format(hint=hint["message"])
            return record, make_view(record, game), hint

    async def hint(self, game_id: str, player: str, mode: str = "fair", played: float | None = None) -> dict[str, Any]:
        """The solver's hint, searched in the pool; the rule of thumb at once when the pool is full.

        A hint that looked at face-down cards (``peeks``) marks the game assisted, as a solution shown does: the
        answer's view is the game so marked (``played``: the page's clock, stored with the mark).
        """
        reserved = self.pool.reserve()
        try:
            record, view, hint = await run_in_threadpool(self.look, game_id, player, not reserved)
        except BaseException:
            if reserved:
                self.pool.release()
            raise
        if reserved:
            if hint is not None:  # nothing to search (a won game)
                self.pool.release()
            else:
                spend = self.spend["peek-hint" if mode == "peek" else "fair-hint"]
                hint = await self.pool.run(hint_job, record, spend, mode, current_language())
                if hint is None:  # the worker died: answer anyway
                    *_ignored, hint = await run_in_threadpool(self.look, game_id, player, True)
        assert hint is not None
        if hint["peeks"] and not view["assisted"] and not view["won"] and not view["given_up"]:
            view = await run_in_threadpool(self.change, game_id, player, None, lambda game: None, assisted=True,
                                           played=played)
        return {"hint": hint, "view": view}


# --- a stale version ------------------------------------------------------------------------
def conflict(record: GameRecord, game: Game, why: str) -> ApiError:
    """The one 409: nothing was changed, and the answer carries the game as it is now to play on from."""
    return ApiError(409, f"{why}; here is the current position", view=make_view(record, game))


def check_version(record: GameRecord, game: Game, version: int) -> None:
    """Refuse a change chosen in a view older than the stored game (another tab moved meanwhile)."""
    if version != record.version:
        raise conflict(record, game, f"the game has changed (version {record.version}, the request was made at "
                                     f"version {version})")


# --- reading a move against the game --------------------------------------------------------
def read_move(game: Game, spec: api.MoveSpec | str) -> Move:
    """The move a request names, checked against this game (it may still be illegal).

    The contract has checked its shape; what is left depends on the game: its piles, and which count fits.
    """
    try:
        if isinstance(spec, str):
            return game.parse_move(spec)
        for key, pile in (("source", spec.source), ("target", spec.target)):
            if pile not in game.rules.index:
                raise ApiError(422, f"unknown pile {pile!r} as move {key}; piles of {game.rules.title} are "
                                    f"{', '.join(game.rules.pile_names)}")
        if spec.count is None:
            return game.parse_move(f"{spec.source}>{spec.target}")
        return Move(spec.source, spec.count, spec.target)
    except (NotationError, IllegalMoveError) as exc:
        raise ApiError(422, str(exc)) from None


def play_action(spec: api.MoveSpec | str) -> Callable[[Game], object]:
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


# --- the routes ------------------------------------------------------------------------------
def games_of(request: Request) -> Games:
    return request.app.state.games  # type: ignore[no-any-return]


def ok(data: object, status: int = 200) -> JSONResponse:
    """Answer with ``data`` as JSON directly: the fast path. FastAPI would validate and re-encode it against the
    route's model; production skips that (docs/api.md gives what it saves), and the test suite checks every
    answer against its model as it goes out instead (:class:`tableaux.web.middleware.AnswerCheck`)."""
    return JSONResponse(data, status_code=status)


GamesDep = Annotated[Games, Depends(games_of)]
GameId = Annotated[str, Path(description="a game id from an earlier answer",
                             json_schema_extra={"pattern": api.GAME_ID})]
NO_BODY_ERRORS = ()
GAME_ERRORS = (*api.BODY_ERRORS, 404, 409)
router = APIRouter(prefix="/api", default_response_class=JSONResponse)


def stats_of(store: Store, player: str) -> dict[str, Any]:
    return {name: s.to_dict() for name, s in store.stats(api.WEB_GAMES, player).items()}


@router.get("/games/info", operation_id="gameInfo", **api.route(200, api.GameInfo, NO_BODY_ERRORS))
def games_info() -> JSONResponse:
    """The games the browser offers and the facts its page shows (deal numbers, how ranks read)."""
    return ok(game_info())


@router.post("/games", operation_id="newGame", **api.route(201, api.View, api.BODY_ERRORS, links=""))
def new_game(body: api.NewGameRequest, player: Player, games: GamesDep) -> JSONResponse:
    return ok(games.create(player, body.game, body.deal, body.winnable, body.difficulty), 201)


@router.post("/daily", operation_id="daily",
             **api.route(201, api.View, api.BODY_ERRORS, links="",
                         also={200: "the player's game of today's deal, as it is"}))
def daily(body: api.DailyRequest, player: Player, games: GamesDep) -> JSONResponse:
    """Today's daily deal (UTC): one winnable deal per game per day, the same for everyone."""
    view, created = games.daily(player, body.game)
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
def move(game_id: GameId, body: api.MoveRequest, player: Player, games: GamesDep) -> JSONResponse:
    return ok(games.change(game_id, player, body.version, play_action(body.move), played=body.played))


def history_route(name: str, action: Callable[[Game], None], summary: str, takes_back: bool) -> None:
    def endpoint(game_id: GameId, body: api.ChangeRequest, player: Player, games: GamesDep) -> JSONResponse:
        return ok(games.change(game_id, player, body.version, action, leaving_the_end=takes_back,
                               played=body.played))

    router.post(f"/games/{{game_id}}/{name}", operation_id=name, name=name, summary=summary,
                **api.route(200, api.View, GAME_ERRORS, links=""))(endpoint)


history_route("undo", undo_action, "Undo the last move (from a game that is over, it counts as assisted)", True)
history_route("redo", redo_action, "Replay the last undone move", False)
history_route("restart", restart_action, "Back to the deal (the moves stay on the redo list; from a game that is "
              "over, it counts as assisted)", True)


@router.post("/games/{game_id}/hint", operation_id="hint",
             **api.route(200, api.HintAnswer, (*api.BODY_ERRORS, 404), links="/view"))
async def hint(game_id: GameId, player: Player, games: GamesDep,
               body: api.HintRequest | None = None) -> JSONResponse:
    return ok(await games.hint(game_id, player, body.mode if body is not None else "fair",
                               body.played if body is not None else None))


@router.get("/stats", operation_id="stats", **api.route(200, api.AllStats, NO_BODY_ERRORS))
def stats(player: Player, games: GamesDep) -> JSONResponse:
    return ok(stats_of(games.store, player))


@router.post("/stats/reset", operation_id="resetStats", **api.route(200, api.AllStats, api.BODY_ERRORS))
def reset_stats(body: api.ResetRequest, player: Player, games: GamesDep) -> JSONResponse:
    games.store.reset_stats(body.game, player)
    return ok(stats_of(games.store, player))
