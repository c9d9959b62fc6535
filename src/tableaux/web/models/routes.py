"""What the routes declare beside their models: the refusals every route may give (and their models), the
headers, the OpenAPI links from one answer to the next request, and :func:`route`, which puts them together.

The routes (:mod:`tableaux.web.games`, :mod:`tableaux.web.assist`, :mod:`tableaux.web.race`...) declare what
they answer through this one place, so the description of every refusal is written once.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from .answer import Answer
from .play import View


class Error(Answer):
    error: Annotated[str, Field(min_length=1, description="what was wrong and what is accepted")]


class Conflict(Answer):
    """A stale version: nothing was changed; here is the game as it is now."""

    error: Annotated[str, Field(min_length=1)]
    view: View


class Unavailable(Answer):
    """Nothing could be done just now: the saved games database is away (503), its disk is full (507; the health
    check answers it 503), or the solver's workers are all busy (503). The Retry-After header says when to try
    again, as ``retry_after`` does."""

    error: Annotated[str, Field(min_length=1, description="what happened, and that earlier moves are safe")]
    cause: Literal["database", "disk", "solver"]
    outcome: Literal["unchanged", "unknown"] = Field(description=(
        "unchanged: this request changed nothing. unknown: a change was on its way to the database when it "
        "stopped answering, so it may have been stored; send the same request again with the same "
        "Idempotency-Key to find out (it is never applied twice)"))
    retry_after: Annotated[int, Field(ge=1, description="seconds to wait before trying again")]


class Health(Answer):
    """This server process answers, and so does its saved games database: what a load balancer or a monitor
    checks. While the database is away the check is answered 503 (:class:`Unavailable`, cause ``database``); once a
    write of this process found the disk full (SQLite), 503 too (cause ``disk``), until a write stores something
    again."""

    status: Literal["ok"]


HEALTH_REFUSALS: dict[int, str | None] = {
    503: "the saved games database cannot be reached (cause database), or (on SQLite) a write of this process "
         "found its disk full and none has stored anything since, so a change would be refused too (cause disk): "
         "take the server out until it answers 200; ask again after Retry-After",
    507: None,
}
"""What the health check's refusals mean, where they differ from every other route's (:data:`ERRORS`): a full
disk is 503 there, what a load balancer reads as a server to take out, and never 507."""


# --- what the routes declare ------------------------------------------------------------
ERRORS = {
    400: "the body is not valid JSON, or Content-Length is not a number",
    401: "an X-Player-Token this server did not issue",
    404: "no such game for this player (another player's game answers the same)",
    409: "the game changed since that version",
    413: "the body is over 16 KiB",
    415: "a body not sent as application/json",
    422: "the request is well-formed JSON but not acceptable; the error says why",
    429: "too many new games this minute, for this player or this client address: try again after Retry-After",
    503: "the saved games database cannot be reached (or, for the solver's answers, its workers are all busy): "
         "try again after Retry-After; the answer says whether this request changed anything",
    507: "the saved games database's disk is full: nothing was changed",
}
BODY_ERRORS = (400, 413, 415, 422)
UNAVAILABLE = (503, 507)
"""What every route that reads or writes the database may answer."""
TOKEN_HEADER = "X-Player-Token"
KEY_HEADER = "Idempotency-Key"
KEY_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
KEY_ACCEPTED = "1 to 64 letters, digits, - and _"
"""KEY_PATTERN in words, for a person."""
RETRY_ANSWER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
TOKEN_ANSWER = {
    TOKEN_HEADER: {
        "description": "the player's token, when the request sent it as X-Player-Token or the server made a new "
        "player: send it back as X-Player-Token to act as the same player",
        "schema": {"type": "string"},
    }
}


def game_links(view: str) -> dict[str, Any]:
    """OpenAPI links from an answer holding a view (at JSON pointer ``view``) to what can be done next.

    A generic client that follows links (schemathesis's stateful phase) then
    plays real games as the page does: the game id and the version come from
    the previous answer, and the player token from its X-Player-Token header.
    """
    common = {"game_id": f"$response.body#{view}/id", f"header.{TOKEN_HEADER}": f"$response.header.{TOKEN_HEADER}"}
    version = {"version": f"$response.body#{view}/version"}
    links: dict[str, Any] = {"getGame": {"operationId": "getGame", "parameters": common},
                             "hint": {"operationId": "hint", "parameters": common}}
    for op in ("undo", "redo", "restart"):
        links[op] = {"operationId": op, "parameters": common, "requestBody": version}
    links["move"] = {"operationId": "move", "parameters": common,
                     "requestBody": {**version, "move": f"$response.body#{view}/legal_moves/0"}}
    return links


def answers(success: int, errors: tuple[int, ...], links: str | None = None,
            also: dict[int, str] | None = None, why: dict[int, str | None] | None = None) -> dict[int | str, Any]:
    """A route's ``responses`` beside its model: headers and links of its success, and each error it can give.

    ``also``: other success statuses with the same model (and their descriptions); ``why``: what an error means
    on this route, where it is not what :data:`ERRORS` says (None: this route never gives that one, though every
    other route may).
    """
    done: dict[str, Any] = {"description": "done", "headers": TOKEN_ANSWER}
    if links is not None:
        done["links"] = game_links(links)
    out: dict[int | str, Any] = {success: done}
    for status, description in (also or {}).items():
        out[status] = {**done, "description": description}
    meant = why or {}
    never = {code for code, description in meant.items() if description is None}
    for code in sorted({*errors, 401, *UNAVAILABLE} - never):
        model = Conflict if code == 409 else Unavailable if code in UNAVAILABLE else Error
        headers = {**TOKEN_ANSWER, **RETRY_ANSWER} if code in (429, *UNAVAILABLE) else TOKEN_ANSWER
        out[code] = {"model": model, "description": meant.get(code) or ERRORS[code], "headers": headers}
        if code == 409:  # the current view comes with a conflict: play on from it
            out[code]["links"] = game_links("/view")
    return out


def route(success: int, model: Any, errors: tuple[int, ...], links: str | None = None,
          also: dict[int, str] | None = None, why: dict[int, str | None] | None = None) -> dict[str, Any]:
    """What a route declares: its success status and model, and every other answer (see :func:`answers`).

    The model is the contract: ``/openapi.json`` describes it, and with answer checking on (the test suite
    turns it on) every answer is validated against it (:class:`tableaux.web.middleware.AnswerCheck`).
    """
    responses = answers(success, errors, links, also, why)
    for status in also or {}:
        responses[status]["model"] = model
    return {"status_code": success, "response_model": model, "responses": responses}
