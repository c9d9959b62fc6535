"""The daily race's routes: today's leaderboard of a daily deal, and the player's display name.

Who is ranked and how is :mod:`tableaux.web.standings`; what a name may be is :mod:`tableaux.web.names`.
A leaderboard carries names, moves, times and ranks only: nothing about any card. A server started with
``tableaux serve --no-leaderboard`` (a private install) answers every route here 404, saying so, and tells
the page (``leaderboard`` in ``/api/games/info``) to offer none of it.
"""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from .. import catalogue
from ..i18n import _
from . import models as api
from .errors import ApiError
from .games import GamesDep, ok
from .identity import Player
from .player_stats import tenths
from .standings import TOP, NameChangesUsed, NameTaken, NoPlayer, Place, rank
from .store import GameRecord

router = APIRouter(prefix="/api")
OFF = {404: "the daily race is turned off on this server (tableaux serve --no-leaderboard)"}


def race_on(request: Request) -> None:
    if not request.app.state.leaderboard:
        raise ApiError(404, _("this server runs no daily race (it was started with --no-leaderboard): there is no "
                              "leaderboard and no display names"))


def entry(place: Place, player: str) -> dict[str, Any]:
    win = place.win
    return {"rank": place.rank, "name": win.name, "moves": win.moves, "seconds": tenths(win.seconds),
            "you": win.player == player}


def standing(record: GameRecord | None, ranked: bool) -> str:
    """Where the player's game of today's deal stands (the leaderboard's ``status``)."""
    if ranked:
        return "ranked"
    if record is None:
        return "not-played"
    if record.assisted:
        return "assisted"
    if record.given_up:
        return "given-up"
    return "played-before" if record.won else "playing"


@router.get("/daily/leaderboard", operation_id="leaderboard",
            **api.route(200, api.Leaderboard, (404, 422), why=OFF))
def leaderboard(game: api.Game, player: Player, games: GamesDep, request: Request) -> JSONResponse:
    """Today's daily race of ``game`` (UTC): the first ten places and the asking player's own, wherever it is."""
    race_on(request)
    date = catalogue.today().isoformat()
    places = rank(games.store.daily_wins(game, date))
    mine = next((p for p in places if p.win.player == player), None)
    name, left = games.store.name(player)
    return ok({"game": game, "date": date, "top": [entry(p, player) for p in places[:TOP]],
               "you": None if mine is None else entry(mine, player),
               "status": standing(games.store.daily_game(player, game, date), mine is not None),
               "ranked": len(places), "name": name, "changes_left": left})


@router.put("/name", operation_id="setName",
            **api.route(200, api.NameAnswer, (*api.BODY_ERRORS, 404, 429), why={
                **OFF, 429: "every change of name allowed in 24 hours is used: try again after Retry-After"}))
def set_name(body: api.NameRequest, player: Player, games: GamesDep, request: Request) -> JSONResponse:
    """Choose the name the leaderboard shows for the player (null: none, shown as anonymous). The same name
    again changes nothing; another player's name, whatever its case, is refused. The leaderboard's answer
    gives the name as it stands, and the changes of it left."""
    race_on(request)
    try:
        left = games.store.set_name(player, body.name)
    except NoPlayer:
        raise ApiError(422, _("a display name comes with a player's first game: start a game, then choose "
                              "it")) from None
    except NameTaken:
        raise ApiError(422, _("the display name {name} is taken (names differing only in case are the same "
                              "name); choose another").format(name=repr(body.name))) from None
    except NameChangesUsed as exc:
        hours = math.ceil(exc.retry_after / 3600)
        raise ApiError(429, _("a display name can be changed {limit} times in 24 hours, and those are used; try "
                              "again in {hours} h").format(limit=exc.limit, hours=hours),
                       headers={"Retry-After": str(exc.retry_after)}) from None
    return ok({"name": body.name, "changes_left": left})
