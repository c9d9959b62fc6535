"""The web API's OpenAPI description: every request body and every answer, 2xx and 4xx, exactly.

The handlers in :mod:`tableaux.web.app` read their JSON by hand (so each
refusal can say precisely what was wrong) and answer with ready-made JSON, so
FastAPI cannot infer the shapes. They are declared here instead, as pydantic
models, and written into ``/openapi.json``. The description is a contract that
tests hold the server to (tests/test_fuzz_openapi.py runs schemathesis against
it): a face-down card, for instance, is described as ``{"card": null, "up":
false}``, so a response that leaked one would not match.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from .. import GAMES
from ..deal import MAX_DEAL

GameName = Literal["king-albert", "eagle-wing"]
PileName = Literal[tuple(sorted({name for rules in GAMES.values() for name in rules.pile_names}))]  # type: ignore[valid-type]
CARD_CODE = r"^[A2-9TJQK][CDHS]$"
GAME_ID = r"^[A-Za-z0-9_-]{22}$"
"""Game ids are ``secrets.token_urlsafe(16)``: 22 URL-safe characters."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- requests ------------------------------------------------------------------------------
class MoveSpec(Strict):
    """A move as an object; without ``count`` the server fills it in when only one count fits."""

    source: PileName
    count: Annotated[int, Field(ge=1, le=52)] | None = None
    target: PileName
    text: str | None = Field(None, description="ignored: lets a legal_moves entry be sent back as it is")


class NewGameRequest(Strict):
    game: GameName
    deal: Annotated[int, Field(ge=0, le=MAX_DEAL)] | None = Field(None, description="null or absent: a random deal")


class MoveRequest(Strict):
    move: MoveSpec | Annotated[str, Field(max_length=64, description="move text such as 'T1>T3' or 'T1:2>T4'")]
    version: Annotated[int, Field(ge=0, description="the version of the view the move was chosen in")]


class VersionRequest(Strict):
    version: Annotated[int, Field(ge=0, description="the version of the view the request was made from")]


class HintRequest(BaseModel):
    """Any JSON object (or no body at all); its fields are ignored."""

    model_config = ConfigDict(extra="allow")


class ResetRequest(Strict):
    game: GameName | None = Field(None, description="null or absent: every game")
    confirm: Literal[True]


# --- responses ---------------------------------------------------------------------------
class FaceUpCard(Strict):
    card: Annotated[str, Field(pattern=CARD_CODE)]
    up: Literal[True]


class FaceDownCard(Strict):
    """A face-down card: its identity is never sent."""

    card: None
    up: Literal[False]


class Position(Strict):
    """``Game.public_position()``."""

    game: GameName
    title: str
    deal: Annotated[int, Field(ge=0, le=MAX_DEAL)]
    piles: dict[PileName, list[FaceUpCard | FaceDownCard]]
    score: Annotated[int, Field(ge=0, le=52)]
    won: bool
    over: bool
    moves_played: Annotated[int, Field(ge=0)]
    can_undo: bool
    can_redo: bool
    status: str
    # Eagle Wing only:
    stock_left: Annotated[int, Field(ge=0)] | None = None
    reserve_left: Annotated[int, Field(ge=0)] | None = None
    base_rank: Literal["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"] | None = None
    base_card: Annotated[str, Field(pattern=CARD_CODE)] | None = None
    redeals_left: Annotated[int, Field(ge=0)] | None = None


class LegalMove(Strict):
    source: PileName
    count: Annotated[int, Field(ge=1, le=52)]
    target: PileName
    text: str


class View(Strict):
    """Everything a player's page shows of one game."""

    id: Annotated[str, Field(pattern=GAME_ID)]
    version: Annotated[int, Field(ge=0)]
    game: GameName
    title: str
    deal: Annotated[int, Field(ge=0, le=MAX_DEAL)]
    position: Position
    legal_moves: list[LegalMove]
    home_moves: dict[PileName, LegalMove]
    elapsed_seconds: Annotated[float, Field(ge=0)]
    moves: Annotated[int, Field(ge=0)]
    won: bool
    over: bool


class Hint(Strict):
    move: LegalMove | None
    source: Literal["solver", "heuristic", "none"]
    message: str
    unwinnable: bool


class HintAnswer(Strict):
    hint: Hint
    view: View


class CatalogEntry(Strict):
    name: GameName
    title: str


class GameStats(Strict):
    played: Annotated[int, Field(ge=0)]
    won: Annotated[int, Field(ge=0)]
    win_rate: Annotated[float, Field(ge=0, le=1)]
    current_streak: Annotated[int, Field(ge=0)]
    best_streak: Annotated[int, Field(ge=0)]
    best_time: Annotated[float, Field(ge=0)] | None
    worst_time: Annotated[float, Field(ge=0)] | None
    fewest_moves: Annotated[int, Field(ge=1)] | None


class AllStats(Strict):
    king_albert: GameStats = Field(alias="king-albert")
    eagle_wing: GameStats = Field(alias="eagle-wing")


class Error(Strict):
    error: Annotated[str, Field(min_length=1, description="what was wrong and what is accepted")]


class Conflict(Strict):
    """A stale version: nothing was changed; here is the game as it is now."""

    error: Annotated[str, Field(min_length=1)]
    view: View


REQUEST_MODELS = (NewGameRequest, MoveRequest, VersionRequest, HintRequest, ResetRequest)
RESPONSE_MODELS = (View, HintAnswer, CatalogEntry, AllStats, Error, Conflict)


# --- the operations ---------------------------------------------------------------------
def ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


ERRORS = {
    400: "the body is not valid JSON, or Content-Length is not a number",
    404: "no such game for this player (another player's game answers the same)",
    409: "the game changed since that version",
    413: "the body is over 16 KiB",
    415: "a body not sent as application/json",
    422: "the request is well-formed JSON but not acceptable; the error says why",
}
BODY_ERRORS = (400, 413, 415, 422)

# (method, path) -> (request model or None, whether the body is required, success status, success schema, errors)
OPERATIONS: dict[tuple[str, str], tuple[type[BaseModel] | None, bool, int, dict[str, Any], tuple[int, ...]]] = {
    ("get", "/api/games/catalog"): (None, False, 200, {"type": "array", "items": ref(CatalogEntry)}, ()),
    ("post", "/api/games"): (NewGameRequest, True, 201, ref(View), BODY_ERRORS),
    ("get", "/api/current"): (None, False, 200, ref(View), (404, 422)),
    ("get", "/api/games/{game_id}"): (None, False, 200, ref(View), (404,)),
    ("post", "/api/games/{game_id}/moves"): (MoveRequest, True, 200, ref(View), (*BODY_ERRORS, 404, 409)),
    ("post", "/api/games/{game_id}/undo"): (VersionRequest, True, 200, ref(View), (*BODY_ERRORS, 404, 409)),
    ("post", "/api/games/{game_id}/redo"): (VersionRequest, True, 200, ref(View), (*BODY_ERRORS, 404, 409)),
    ("post", "/api/games/{game_id}/restart"): (VersionRequest, True, 200, ref(View), (*BODY_ERRORS, 404, 409)),
    ("post", "/api/games/{game_id}/hint"): (HintRequest, False, 200, ref(HintAnswer), (*BODY_ERRORS, 404)),
    ("get", "/api/stats"): (None, False, 200, ref(AllStats), ()),
    ("post", "/api/stats/reset"): (ResetRequest, True, 200, ref(AllStats), BODY_ERRORS),
}


OPERATION_IDS = {
    ("get", "/api/games/catalog"): "catalog",
    ("post", "/api/games"): "newGame",
    ("get", "/api/current"): "currentGame",
    ("get", "/api/games/{game_id}"): "getGame",
    ("post", "/api/games/{game_id}/moves"): "move",
    ("post", "/api/games/{game_id}/undo"): "undo",
    ("post", "/api/games/{game_id}/redo"): "redo",
    ("post", "/api/games/{game_id}/restart"): "restart",
    ("post", "/api/games/{game_id}/hint"): "hint",
    ("get", "/api/stats"): "stats",
    ("post", "/api/stats/reset"): "resetStats",
}


def game_links(view: str) -> dict[str, Any]:
    """OpenAPI links from an answer holding a view (at JSON pointer ``view``) to what can be done next.

    Tools that follow links (schemathesis's stateful phase) then play real games: the id
    and version come from the previous answer, as the page does it.
    """
    game_id = {"game_id": f"$response.body#{view}/id"}
    version = {"version": f"$response.body#{view}/version"}
    links: dict[str, Any] = {"getGame": {"operationId": "getGame", "parameters": game_id},
                             "hint": {"operationId": "hint", "parameters": game_id}}
    for op in ("undo", "redo", "restart"):
        links[op] = {"operationId": op, "parameters": game_id, "requestBody": version}
    links["move"] = {"operationId": "move", "parameters": game_id,
                     "requestBody": {**version, "move": f"$response.body#{view}/legal_moves/0"}}
    return links


def json_content(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's description of the routes, with the bodies and answers above written in."""
    schema = get_openapi(title="tableaux", version="1", routes=app.routes, description=__doc__)
    _, top = models_json_schema(
        [(m, "validation") for m in (*REQUEST_MODELS, *RESPONSE_MODELS)],
        ref_template="#/components/schemas/{model}",
    )
    schema["components"] = {"schemas": top["$defs"]}
    # Pages and files are not the API: only /api/ routes are described (and each one must be).
    schema["paths"] = {path: methods for path, methods in schema["paths"].items() if path.startswith("/api/")}
    documented = set()
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            if (method, path) not in OPERATIONS:
                raise RuntimeError(f"{method.upper()} {path} has no documented request and answers")
            documented.add((method, path))
            request, required, status, success, errors = OPERATIONS[(method, path)]
            if request is not None:
                op["requestBody"] = {"required": required, "content": json_content(ref(request))}
            op["operationId"] = OPERATION_IDS[(method, path)]
            op["responses"] = {str(status): {"description": "done", "content": json_content(success)}}
            if success == ref(View):
                op["responses"][str(status)]["links"] = game_links("")
            elif success == ref(HintAnswer):
                op["responses"][str(status)]["links"] = game_links("/view")
            for code in sorted(errors):
                model = Conflict if code == 409 else Error
                op["responses"][str(code)] = {"description": ERRORS[code], "content": json_content(ref(model))}
            if 409 in errors:  # the current view comes with a conflict: play on from it
                op["responses"]["409"]["links"] = game_links("/view")
            for param in op.get("parameters", []):
                if param["name"] == "game_id":
                    param["schema"] = {"type": "string", "pattern": GAME_ID}
    missing = set(OPERATIONS) - documented
    if missing:
        raise RuntimeError(f"documented operations with no route: {sorted(missing)}")
    return schema


def install(app: FastAPI) -> None:
    """Serve :func:`build_openapi` at the app's ``openapi_url`` (built once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
