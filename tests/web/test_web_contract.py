"""The web API's contract: its models are the library's shapes, and every answer the suite receives obeys them.

The position, the move, the hint, the chance to win and a game's statistics are
built by the library (``tableaux.play.game.Position``, ``engine.MoveDict``,
``hints.HintDict``, ``fair.Chance``, ``web.player_stats.GameStats``); the API's models
are derived from those shapes (:func:`tableaux.web.fields.derive`), so the two
cannot drift apart. Whatever the library builds for a player validates against
the API's model, and an answer that breaks its model fails the request.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, NotRequired, TypedDict

import pytest
from fastapi.routing import iter_route_contexts
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

import tableaux
from tableaux import fair
from tableaux.advice import hints
from tableaux.advice.hints import heuristic_hint
from tableaux.play import game as library_game
from tableaux.rulebook import engine
from tableaux.web import games as web_games
from tableaux.web import models as api
from tableaux.web import operations
from tableaux.web import player_stats as stats
from tableaux.web.app import create_app
from tableaux.web.errors import ApiError
from tableaux.web.fields import WEB_GAMES, derive, library_fields
from tableaux.web.middleware import BROKEN, ContractBroken

DERIVED: list[tuple[type[BaseModel], type, set[str]]] = [
    (api.Position, library_game.Position, set()),
    (api.FaceUpCard, engine.CardDict, set()),
    (api.FaceDownCard, engine.CardDict, set()),
    (api.LegalMove, engine.MoveDict, set()),
    (api.Hint, hints.HintDict, set()),
    (api.Chance, fair.Chance, {"version"}),
    (api.GameStats, stats.GameStats, {"win_rate"}),
]
"""Each API model, the library shape it is made from, and the fields the API adds to it."""


@pytest.mark.parametrize(("model", "shape", "added"), DERIVED, ids=lambda x: getattr(x, "__name__", ""))
def test_each_api_model_has_exactly_the_fields_of_its_library_shape(
    model: type[BaseModel], shape: type, added: set[str]
) -> None:
    library = library_fields(shape)
    fields = {name: info for name, info in model.model_fields.items() if name not in added}
    assert set(fields) == set(library)
    for name, (_kind, always) in library.items():
        assert fields[name].is_required() == always, name


def test_a_field_added_to_a_library_shape_is_in_the_derived_model_at_once() -> None:
    class Shape(TypedDict):
        kept: int
        added: NotRequired[str]

    model = derive("Shape", Shape, api.Answer, "a shape", kept=api.NonNegative)
    assert set(model.model_fields) == {"kept", "added"}
    model.model_validate({"kept": 1})
    model.model_validate({"kept": 1, "added": "x"})
    with pytest.raises(ValidationError):
        model.model_validate({"kept": -1})  # the tightening holds
    with pytest.raises(ValidationError):
        model.model_validate({"kept": 1, "added": None})  # a field the library may leave out is never null


def test_tightening_a_field_the_library_shape_does_not_have_is_refused_at_once() -> None:
    with pytest.raises(TypeError, match="no field score"):
        derive("Card", engine.CardDict, api.Answer, "a card", score=int)


@st.composite
def played_games(draw: st.DrawFn) -> tableaux.Game:
    """A browser game at a random deal after a random walk of legal moves and undos."""
    game = tableaux.new_game(draw(st.sampled_from(WEB_GAMES)), draw(st.integers(0, tableaux.MAX_DEAL)))
    for _ in range(draw(st.integers(0, 40))):
        moves = game.legal_moves()
        if game.moves_played and draw(st.integers(0, 9)) == 0:
            game.undo()
        elif moves:
            game.play(moves[draw(st.integers(0, len(moves) - 1))])
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=played_games())
def test_what_the_library_builds_for_a_player_validates_against_the_api_models(game: tableaux.Game) -> None:
    api.Position.model_validate(game.public_position(), strict=True)
    for move in game.legal_moves():
        api.LegalMove.model_validate(move.to_dict(), strict=True)
    api.Hint.model_validate(heuristic_hint(game).to_dict(), strict=True)


@settings(max_examples=30, deadline=None)
@given(game=played_games())
def test_a_position_showing_a_face_down_card_breaks_the_api_model(game: tableaux.Game) -> None:
    position = game.position()  # every card shown, for tools: never for a player
    hidden = position != game.public_position()
    if hidden:
        with pytest.raises(ValidationError):
            api.Position.model_validate(position, strict=True)
    else:
        api.Position.model_validate(position, strict=True)


@pytest.mark.parametrize("name", WEB_GAMES)
def test_the_chance_to_win_the_library_works_out_validates_against_the_api_model(name: str) -> None:
    game = tableaux.new_game(name, 17)
    chance = fair.win_chance(game.observation(), samples=4, max_nodes=2_000)
    api.Chance.model_validate({"version": 0, **chance.to_dict()}, strict=True)
    assert set(chance.to_dict()) == {f.name for f in dataclasses.fields(fair.Chance)}


# --- every answer is checked against its model ---------------------------------------------------
def api_routes(client: TestClient) -> list[Any]:
    """Every API route as the app serves it (with its router's prefix and declarations)."""
    routes = client.app.routes  # type: ignore[attr-defined]
    return [r for r in iter_route_contexts(routes) if r.path.startswith("/api/")]


def test_every_api_route_declares_the_model_of_each_answer_it_gives(client: TestClient) -> None:
    routes = api_routes(client)
    assert routes
    for route in routes:
        assert route.response_model is not None, route.path
        for status, answer in route.responses.items():
            assert answer.get("model") is not None or int(status) == route.status_code, (route.path, status)


def leaky_view(record: Any, game: tableaux.Game) -> dict[str, Any]:
    """A view made with every card shown: what a bug in views.make_view could send."""
    from tableaux.web.views import make_view

    view = make_view(record, game)
    return {**view, "position": {**view["position"], "piles": game.position()["piles"]}}


def test_an_answer_that_leaks_a_face_down_card_fails_the_request(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    client = TestClient(create_app(db))  # as every app the suite builds: conftest.py turns the check on
    monkeypatch.setattr(operations, "make_view", leaky_view)
    with pytest.raises(ContractBroken, match="breaks its model View"):
        client.post("/api/games", json={"game": "king-albert", "deal": 17})


def test_a_server_sends_a_clear_500_instead_of_an_answer_that_breaks_its_model(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a player of a checking server with such a bug gets: no card, and an error that says what happened."""
    monkeypatch.setattr(operations, "make_view", leaky_view)
    client = TestClient(create_app(db), raise_server_exceptions=False)
    r = client.post("/api/games", json={"game": "king-albert", "deal": 17})
    assert r.status_code == 500
    assert r.json() == {"error": BROKEN}


def test_the_check_is_what_stops_a_leak(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the check off (production's fast path), the routes send their JSON as it was made."""
    monkeypatch.setattr(operations, "make_view", leaky_view)
    r = TestClient(create_app(db, check_answers=False)).post("/api/games", json={"game": "king-albert", "deal": 17})
    assert r.status_code == 201
    assert r.json()["position"]["piles"]["tableau-1"][0]["card"] is not None  # the leak went out


def test_a_refusal_with_a_field_its_model_does_not_have_fails_the_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise ApiError(422, "refused", detail="not in the Error model")

    monkeypatch.setattr(web_games.Games, "create", refuse)
    with pytest.raises(ContractBroken, match="answered 422 with an answer that breaks its model Error"):
        client.post("/api/games", json={"game": "king-albert", "deal": 17})


def test_a_success_status_the_route_does_not_declare_fails_the_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_games, "ok", lambda data, status=200: web_games.JSONResponse(data, status_code=202))
    with pytest.raises(ContractBroken, match="answered 202, which its route does not declare"):
        client.get("/api/stats")
