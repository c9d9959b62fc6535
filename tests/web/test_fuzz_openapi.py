"""Fuzzing every endpoint from the API's own OpenAPI description (schemathesis, in process, over ASGI).

Requests are generated from ``/openapi.json`` both valid (positive) and
invalid (negative, every documented constraint broken in turn). Every answer
must be below 500, have a documented status and match the documented schema
(which says, among other things, that a face-down card has no code), and
invalid requests must be refused with a 4xx. Beyond schemathesis's checks:
a refused request must leave the database exactly as it was, and an accepted
one must store exactly what it answered (the stored game, replayed through the
engine, shows the position the response showed).

Most generated game ids, cookies and versions are swapped for real ones so the
requests reach the game logic instead of stopping at "no such game".

Short by default; ``TABLEAUX_FUZZ_EXAMPLES=2000`` (or ``benchmarks/reliability.py``)
runs a long one.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.core.parameters import ParameterLocation  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

import tableaux  # noqa: E402
from helpers.report import report  # noqa: E402
from tableaux.web.app import COOKIE, create_app  # noqa: E402
from tableaux.web.models import View  # noqa: E402

EXAMPLES = int(os.environ.get("TABLEAUX_FUZZ_EXAMPLES", "25"))
"""Examples per operation and generation mode; 11 operations x 2 modes."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]
TALLY: Counter[str] = Counter()
"""Requests sent, by outcome; read by benchmarks/reliability.py."""


class World:
    """One server (app + database) with two players, each with games in play."""

    def __init__(self, db: Path, app: Any) -> None:
        self.db = db
        self.app = app
        self.alice = TestClient(self.app)
        self.bob = TestClient(self.app)
        self.games: dict[str, list[str]] = {"alice": [], "bob": []}
        for who, client in (("alice", self.alice), ("bob", self.bob)):
            for name, deal in (("king-albert", 17), ("eagle-wing", 5)):
                view = client.post("/api/games", json={"game": name, "deal": deal}).json()
                for _ in range(3):
                    body = {"move": view["legal_moves"][0], "version": view["version"]}
                    view = client.post(f"/api/games/{view['id']}/moves", json=body).json()
                self.games[who].append(view["id"])
        self.cookies = {"alice": self.alice.cookies[COOKIE], "bob": self.bob.cookies[COOKIE]}

    def snapshot(self) -> list[Any]:
        with sqlite3.connect(self.db) as conn:
            return [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                    for table in ("games", "game_moves", "game_positions")]

    def row(self, game_id: str) -> tuple[str, int, list[str], list[str], int] | None:
        with sqlite3.connect(self.db) as conn:
            row = conn.execute("SELECT game, deal, move_count, version FROM games WHERE id = ?",
                               (game_id,)).fetchone()
            line = [m for (m,) in conn.execute("SELECT move FROM game_moves WHERE game_id = ? ORDER BY ply",
                                               (game_id,))]
        if row is None:
            return None
        return row[0], row[1], line[:row[2]], line[row[2]:], row[3]

    def version(self, game_id: str) -> int:
        row = self.row(game_id)
        return 0 if row is None else row[4]


# The schema is loaded when the module is imported (schemathesis's lazy fixture loader does not work with
# pytest 9), so the app and its database exist from then on, in a folder removed when the tests end.
_FOLDER = tempfile.TemporaryDirectory(prefix="tableaux-openapi-fuzz-")
DB = Path(_FOLDER.name) / "games.sqlite3"
APP = create_app(DB, hint_time_limit=0.02)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES)
schema.config.phases.update(phases=["fuzzing"])  # the bodies' documented examples are plain cases: no steering


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    yield World(DB, APP)
    APP.state.store.close()
    _FOLDER.cleanup()
    report("fuzz", dict(TALLY))


def positive(case: Any, location: str) -> bool:
    """Whether this part of the request was generated valid (negative parts must stay invalid)."""
    info = case.meta.components.get(ParameterLocation(location)) if case.meta is not None else None
    return info is None or info.mode == GenerationMode.POSITIVE


def steer(case: Any, world: World, data: st.DataObject) -> str | None:
    """Point most requests at a real game of a real player; returns the game id the request is about.

    Only the parts generated valid are replaced, so an invalid request stays invalid.
    """
    who = data.draw(st.sampled_from(["alice", "alice", "alice", "bob", "nobody", "forged"]), label="player")
    if who in world.cookies:
        case.cookies = {**(case.cookies or {}), COOKIE: world.cookies[who]}
    elif who == "forged":
        case.cookies = {**(case.cookies or {}), COOKIE: "A" * 43}
    game_id = None
    if case.path_parameters and "game_id" in case.path_parameters:
        if positive(case, "path") and data.draw(st.integers(0, 4), label="real id") > 0:
            owner = data.draw(st.sampled_from(["alice", "alice", "bob"]), label="owner")
            game_id = data.draw(st.sampled_from(world.games[owner]), label="game")
            case.path_parameters["game_id"] = game_id
        else:
            game_id = case.path_parameters["game_id"]
    if game_id and positive(case, "body") and isinstance(case.body, dict) and isinstance(case.body.get("version"), int):
        if data.draw(st.booleans(), label="current version"):
            case.body["version"] = world.version(game_id)
        if "move" in case.body and data.draw(st.booleans(), label="legal move"):
            owner_client = world.alice if game_id in world.games["alice"] else world.bob
            view = owner_client.get(f"/api/games/{game_id}")
            if view.status_code == 200 and view.json()["legal_moves"]:
                case.body["move"] = data.draw(st.sampled_from(view.json()["legal_moves"]), label="move")
    return game_id


def assert_stored_as_answered(world: World, game_id: str, body: dict[str, Any]) -> None:
    """The stored game, replayed through the engine, is the position the answer showed."""
    view = body.get("view", body)
    View.model_validate(view)
    row = world.row(view["id"])
    assert row is not None
    name, deal, moves, redo, version = row
    assert version == view["version"]
    game = tableaux.new_game(name, deal)
    for text in moves + redo:
        game.play(tableaux.Move.from_str(text))
    for _ in redo:
        game.undo()
    expected = game.public_position()
    if view.get("given_up") or expected["won"]:  # a finished game is final: nothing to undo or redo
        expected["can_undo"] = expected["can_redo"] = False
    assert view["position"] == expected


@pytest.mark.slow
@schema.parametrize()
@schema.given(data=st.data())
# No shrinking and no replay from the example database: schemathesis's body strategies draw from a random
# source that hypothesis cannot always replay, which it reports as a flaky strategy, not as a failure of ours.
@settings(deadline=None, suppress_health_check=list(HealthCheck), database=None,
          phases=[Phase.explicit, Phase.generate])
def test_every_endpoint_holds_to_its_description(case: Any, data: st.DataObject, world: World) -> None:
    game_id = steer(case, world, data)
    before = world.snapshot()
    response = case.call()
    TALLY["requests"] += 1
    TALLY[f"{response.status_code // 100}xx"] += 1
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:
        assert response.json()["error"]
        assert world.snapshot() == before, f"refused ({response.status_code}) but the database changed"
    elif case.method.upper() == "POST" and game_id is not None:
        assert_stored_as_answered(world, game_id, response.json())
    elif case.path == "/api/games" and case.method.upper() == "POST":
        assert_stored_as_answered(world, response.json()["id"], response.json())


def test_the_description_covers_every_route_with_bodies_and_answers(world: World) -> None:
    """Every API route is in /openapi.json with its request body and its 2xx and 4xx answers."""
    described = world.alice.get("/openapi.json").json()
    from fastapi.routing import iter_route_contexts

    api_routes = {
        (method.lower(), route.path)
        for route in iter_route_contexts(world.app.routes)
        if route.path.startswith("/api/")
        for method in route.methods or ()
    }
    paths = described["paths"]
    assert {(m, p) for p, ms in paths.items() for m in ms} == api_routes and len(api_routes) == 24
    for path, methods in paths.items():
        for method, op in methods.items():
            codes = set(op["responses"])
            assert any(c.startswith("2") for c in codes), (method, path)
            assert all("$ref" in str(answer["content"]) for answer in op["responses"].values()), (method, path)
            if method in ("post", "put"):
                assert "requestBody" in op and {"413", "415", "400"} <= codes, (method, path)
            if "{game_id}" in path:
                assert "404" in codes
    # Links (id and version from one answer to the next request) name operations that exist.
    ids = [op["operationId"] for ms in paths.values() for op in ms.values()]
    assert len(ids) == len(set(ids))
    links = [link for ms in paths.values() for op in ms.values() for answer in op["responses"].values()
             for link in answer.get("links", {}).values()]
    assert links and {link["operationId"] for link in links} <= set(ids)
    # A face-down card is described as having no code, so a leak would fail the schema check.
    down = described["components"]["schemas"]["FaceDownCard"]["properties"]
    assert down["card"] == {"type": "null", "title": "Card"} and down["up"]["const"] is False


def resolve(expression: str, response: Any) -> Any:
    """An OpenAPI runtime expression (``$response.body#/a/0`` or ``$response.header.X``) against an answer."""
    if expression.startswith("$response.header."):
        return response.headers[expression.removeprefix("$response.header.")]
    value = response.json()
    for part in expression.removeprefix("$response.body#").strip("/").split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def follow(client: Any, described: dict[str, Any], link: dict[str, Any], answer: Any) -> Any:
    """Make the request a link describes, filled from ``answer`` alone, as a generic client would."""
    (path, method), = [(p, m) for p, ms in described["paths"].items() for m, op in ms.items()
                       if op["operationId"] == link["operationId"]]
    headers = {}
    for name, expression in link["parameters"].items():
        if name.startswith("header."):
            headers[name.removeprefix("header.")] = resolve(expression, answer)
        else:
            path = path.replace("{" + name + "}", str(resolve(expression, answer)))
    body = {k: resolve(v, answer) for k, v in link.get("requestBody", {}).items()}
    return client.request(method.upper(), path, headers=headers, json=body if method == "post" else None)


def test_a_client_without_cookies_plays_a_game_by_following_the_links_alone(tmp_path: Path) -> None:
    """The links carry the game, its version, a legal move and the player's token from answer to request.

    Schemathesis's stateful phase walks these links at random; this walks them on purpose, so a broken
    link fails here every time rather than on an unlucky draw there.
    """
    client = TestClient(create_app(tmp_path / "games.sqlite3"))
    described = client.get("/openapi.json").json()
    client.cookies.clear()
    created = client.post("/api/games", json={"game": "king-albert", "deal": 1})
    client.cookies.clear()  # from here on only what the links carry identifies the player
    assert created.status_code == 201
    links = described["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    moved = follow(client, described, links["move"], created)
    assert moved.status_code == 200, moved.text
    assert moved.json()["version"] == 1 and moved.json()["id"] == created.json()["id"]
    client.cookies.clear()
    links = described["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]["200"]["links"]
    undone = follow(client, described, links["undo"], moved)
    assert undone.status_code == 200, undone.text
    assert undone.json()["position"]["piles"] == created.json()["position"]["piles"]
    client.cookies.clear()
    assert follow(client, described, links["getGame"], undone).json()["version"] == undone.json()["version"]


def test_a_leaked_card_would_fail_the_description(tmp_path: Path) -> None:
    """The schema check is not vacuous: the same view with one hidden card revealed does not validate."""
    from pydantic import ValidationError

    client = TestClient(create_app(tmp_path / "games.sqlite3"))
    view = client.post("/api/games", json={"game": "eagle-wing", "deal": 3}).json()
    View.model_validate(view)
    leaked = {**view, "position": {**view["position"], "piles": dict(view["position"]["piles"])}}
    leaked["position"]["piles"]["reserve"] = [{"card": "AS", "up": False}] + view["position"]["piles"]["reserve"][1:]
    with pytest.raises(ValidationError):
        View.model_validate(leaked)



# --- from outside: the schemathesis command against a running server ---------------------------
LIVE_EXAMPLES = int(os.environ.get("TABLEAUX_LIVE_FUZZ_EXAMPLES", "30"))
LIVE_SEED = int(os.environ.get("TABLEAUX_LIVE_FUZZ_SEED", "1"))
"""The stateful phase is random: with an unlucky draw it only ever creates games and never plays
one, so the check that games were played would fail on luck. A fixed seed makes the run repeatable;
set another to explore."""


@pytest.mark.server
@pytest.mark.slow
def test_schemathesis_from_outside_with_every_check_and_the_stateful_phase_finds_nothing(tmp_path: Path) -> None:
    """``schemathesis run URL --checks all`` against ``tableaux serve``, as anyone could run it.

    The stateful phase plays games through the API by following the description's links alone: the
    game id and version from one answer, the player token from its X-Player-Token header. Without
    the token in the links, a game just created would be "not found" by the next call (ST302).
    """
    import shutil
    import subprocess

    from helpers.net import free_port
    from helpers.server import server, wait_until_answering

    # The test extra installs the command beside this interpreter, which need not be on PATH.
    beside = str(Path(sys.executable).parent)
    command = shutil.which("schemathesis", path=beside) or shutil.which("schemathesis") or shutil.which("st")
    assert command, "the schemathesis command is part of the test extra"
    root = Path(__file__).resolve().parents[2]  # schemathesis.toml there says what 422 may answer
    db = tmp_path / "games.sqlite3"
    with server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(db)]) as s:
        url = s.url()
        wait_until_answering(url)
        result = subprocess.run(
            [command, "run", f"{url}openapi.json", "--checks", "all", "--workers", "1",
             "--max-examples", str(LIVE_EXAMPLES), "--seed", str(LIVE_SEED), "--no-color"],
            cwd=root, capture_output=True, text=True, timeout=600,
        )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-6000:]
    assert re.search(r"✅\s+Stateful", out) and re.search(r"Scenarios:\s+[1-9]", out), out[-3000:]
    generated, passed = map(int, re.search(r"(\d+) generated, (\d+) passed", out).groups())
    assert generated == passed > 0, out[-3000:]
    with sqlite3.connect(db) as conn:
        games = conn.execute("SELECT COUNT(*), COUNT(DISTINCT player), SUM(version > 0) FROM games").fetchone()
    # Whether a random walk happens to play a move is luck (one game in fifty, with these settings);
    # test_a_client_without_cookies_plays_a_game_by_following_the_links_alone makes sure it can.
    assert games[0] > 0, f"the stateful phase created no game: {games}"
    report("live fuzz", {"cases": generated, "games": games[0], "games played": games[2]})
