"""The browser game's HTTP API refuses bad requests precisely (4xx, saying what is wrong) and changes nothing;
and no input whatever gives a server error (5xx)."""

from __future__ import annotations

import json
import threading
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.web import new_game, play, view_of, without_clock
from tableaux.web.app import COOKIE, MAX_BODY, create_app
from tableaux.web.store import StoreError, StoreFull, StoreUnavailable

# --- errors: each one precise, 4xx, and changing nothing ---------------------------
BAD_NEW_GAME = [
    ({"game": "klondike", "deal": 1}, "unknown game 'klondike'"),
    ({"game": "King-Albert"}, "unknown game 'King-Albert'"),
    ({"game": 7}, "unknown game 7"),
    ({"deal": 1}, "field 'game' is missing"),
    ({"game": "king-albert", "deal": -1}, "deal number must be from 0 to 4294967295"),
    ({"game": "king-albert", "deal": 4294967296}, "deal number must be from 0 to 4294967295"),
    ({"game": "king-albert", "deal": 10**40}, "deal number must be from 0 to 4294967295"),
    ({"game": "king-albert", "deal": "17"}, "deal number must be a whole number"),
    ({"game": "king-albert", "deal": 1.5}, "deal number must be a whole number"),
    ({"game": "king-albert", "deal": True}, "or null for a random deal, not true"),  # JSON's spelling
    ({"game": "king-albert", "winnable": None}, "winnable must be true or false, not null"),
    ({"game": "king-albert", "seed": 3}, "unexpected field 'seed'"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("body", "message"), BAD_NEW_GAME)
def test_bad_new_game_requests(client: TestClient, body: dict[str, Any], message: str) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == 422
    assert message in r.json()["error"]
    assert client.get("/api/current").status_code == 404  # nothing was created


def test_new_game_with_huge_float_deal_is_rejected(client: TestClient) -> None:
    r = client.post("/api/games", content=b'{"game": "eagle-wing", "deal": 1e400}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and "deal" in r.json()["error"]


@pytest.mark.parametrize(
    ("content", "ctype", "status", "message"),
    [
        (b'{"game": "king-albert"', "application/json", 400, "not valid JSON"),
        (b"[" * 5000 + b"]" * 5000, "application/json", 400, "not valid JSON"),
        (b"\xff\xfe", "application/json", 400, "not valid JSON"),
        (b'{"game": "king-albert"}', "text/plain", 415, "application/json"),
        (b"game=king-albert", "application/x-www-form-urlencoded", 415, "application/json"),
        (b'{"game": "king-albert"}', "", 415, "application/json"),
        (b'["king-albert"]', "application/json", 422, "must be a JSON object"),
        (b"", "application/json", 422, "request body is missing"),
    ],
)
def test_malformed_bodies(client: TestClient, content: bytes, ctype: str, status: int, message: str) -> None:
    headers = {"content-type": ctype} if ctype else {}
    r = client.post("/api/games", content=content, headers=headers)
    assert r.status_code == status, r.text
    assert message in r.json()["error"]
    assert client.get("/api/current").status_code == 404


@pytest.mark.parametrize("blank", [b" ", b"\n", b" \t\r\n "])
def test_a_body_of_white_space_alone_is_not_json_even_where_the_body_is_optional(
        client: TestClient, blank: bytes) -> None:
    view = new_game(client)
    r = client.post(f"/api/games/{view['id']}/hint", content=blank, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "not valid JSON" in r.json()["error"]
    assert without_clock(view_of(client, view)) == without_clock(view)  # no hint given: not marked assisted
    assert client.post(f"/api/games/{view['id']}/hint").status_code == 200  # no body at all is no body


def test_json_content_type_with_charset_is_accepted(client: TestClient) -> None:
    r = client.post("/api/games", content=b'{"game": "king-albert", "deal": 1}',
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


@pytest.mark.parametrize("size", [MAX_BODY + 1, 10 * MAX_BODY])
def test_body_over_16_kib_is_413(client: TestClient, size: int) -> None:
    view = new_game(client)
    padding = "x" * size
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": padding, "version": 0})
    assert r.status_code == 413
    assert "16384" in r.json()["error"]
    assert without_clock(view_of(client, view)) == without_clock(view)


def test_body_over_16_kib_without_content_length_is_413(client: TestClient) -> None:
    def chunks():  # a streamed (chunked) body has no Content-Length
        for _ in range(20):
            yield b" " * 1024

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_body_just_under_the_limit_is_read(client: TestClient) -> None:
    body = json.dumps({"game": "eagle-wing", "deal": 3}).encode()
    body = body[:-1] + b" " * (MAX_BODY - len(body)) + b"}"
    assert len(body) == MAX_BODY
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 201


def bad_moves(view: dict[str, Any]) -> list[tuple[Any, str]]:
    """Moves that must be refused in ``view`` (King Albert deal 17), with a part of the expected message."""
    legal = {(m["source"], m["target"]) for m in view["legal_moves"]}
    illegal = next(
        (s, t)
        for s in ("tableau-1", "tableau-2", "tableau-3")
        for t in ("tableau-4", "tableau-5", "tableau-6", "tableau-7", "tableau-8")
        if (s, t) not in legal
    )
    return [
        (f"{illegal[0]} {illegal[1]}", "illegal move"),
        ({"source": illegal[0], "count": 1, "target": illegal[1]}, "illegal move"),
        ("T1:5>T2", "illegal move"),
        ({"source": "tableau-12", "count": 1, "target": "tableau-1"}, "unknown pile 'tableau-12'"),
        ({"source": "tableau-1", "count": 1, "target": "stock"}, "unknown pile 'stock'"),
        ({"source": 3, "count": 1, "target": "tableau-1"}, "unknown pile 3"),
        ("T12>T1", "King Albert has no pile T12; its piles are F1-F4, T1-T9, R1-R7."),  # named as typed
        ("S>W", "has no pile S;"),
        ("hello", "not a move"),
        ("", "not a move"),
        ("x" * 100, "too long"),
        ({"source": "tableau-1", "count": 0, "target": "tableau-2"}, "count must be a whole number from 1 to 52"),
        ({"source": "tableau-1", "count": -3, "target": "tableau-2"}, "count must be a whole number from 1 to 52"),
        ({"source": "tableau-1", "count": 10**30, "target": "tableau-2"}, "count must be"),
        ({"source": "tableau-1", "count": "2", "target": "tableau-2"}, "count must be"),
        ({"source": "tableau-1", "count": True, "target": "tableau-2"}, "count must be"),
        ({"source": "tableau-1", "count": 1.5, "target": "tableau-2"}, "count must be"),
        ({"source": "tableau-1", "count": 1}, "'target' is missing"),
        ({"source": "tableau-1", "count": 1, "target": "tableau-2", "cards": "AS"}, "unexpected move field"),
        (["tableau-1", 1, "tableau-2"], "move must be an object"),
        (None, "move must be an object"),
        (7, "move must be an object"),
    ]


def test_bad_moves_are_422_and_change_nothing(client: TestClient) -> None:
    view = new_game(client, "king-albert", 17)
    view = play(client, view, view["legal_moves"][0])
    for move, message in bad_moves(view):
        r = client.post(f"/api/games/{view['id']}/moves", json={"move": move, "version": view["version"]})
        assert r.status_code == 422, (move, r.text)
        assert message in r.json()["error"], (move, r.json())
        assert without_clock(view_of(client, view)) == without_clock(view)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"move": "T1>T2"}, "'version' is missing"),
        ({"move": "T1>T2", "version": -1}, "version must be a whole number"),
        ({"move": "T1>T2", "version": "0"}, "version must be a whole number"),
        ({"move": "T1>T2", "version": None}, "version must be a whole number"),
        ({"version": 0}, "'move' is missing"),
        ({"move": "T1>T2", "version": 0, "player": "x"}, "unexpected field 'player'"),
    ],
)
def test_bad_move_requests(client: TestClient, body: dict[str, Any], message: str) -> None:
    view = new_game(client)
    r = client.post(f"/api/games/{view['id']}/moves", json=body)
    assert r.status_code == 422
    assert message in r.json()["error"]
    assert without_clock(view_of(client, view)) == without_clock(view)


@pytest.mark.parametrize("key", ["bad key!", "x" * 65, "a.b"])
def test_an_idempotency_key_that_is_not_accepted_is_a_422_saying_in_words_what_is(client: TestClient, key: str) -> None:
    view = new_game(client)
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": view["legal_moves"][0], "version": 0},
                    headers={"Idempotency-Key": key})
    assert r.status_code == 422
    said = r.json()["error"]
    assert said == f"header 'Idempotency-Key': {key!r} is not accepted; a key is 1 to 64 letters, digits, - and _"
    assert without_clock(view_of(client, view)) == without_clock(view)


@pytest.mark.parametrize("action", ["undo", "redo", "restart"])
def test_history_actions_need_a_version(client: TestClient, action: str) -> None:
    view = new_game(client)
    view = play(client, view, view["legal_moves"][0])
    for body, message in (({}, "'version' is missing"), ({"version": 1.5}, "version must be")):
        r = client.post(f"/api/games/{view['id']}/{action}", json=body)
        assert r.status_code == 422 and message in r.json()["error"]
    r = client.post(f"/api/games/{view['id']}/{action}")
    assert r.status_code == 422 and "body is missing" in r.json()["error"]
    assert without_clock(view_of(client, view)) == without_clock(view)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/{id}"),
        ("POST", "/api/games/{id}/moves"),
        ("POST", "/api/games/{id}/undo"),
        ("POST", "/api/games/{id}/redo"),
        ("POST", "/api/games/{id}/restart"),
        ("POST", "/api/games/{id}/hint"),
    ],
)
def test_unknown_game_id_is_404(client: TestClient, method: str, path: str) -> None:
    new_game(client)
    for gid in ("nope", "A" * 22, "../../etc/passwd", "x" * 1000):
        body = {"move": "T1>T2", "version": 0} if path.endswith("moves") else {"version": 0}
        r = client.request(method, path.format(id=gid), json=body if method == "POST" else None)
        assert r.status_code == 404, (gid, r.text)
        assert "error" in r.json()


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/docs/"])
def test_the_interactive_api_pages_other_servers_offer_point_to_the_description(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404 and "/openapi.json" in r.json()["error"]
    assert client.get("/openapi.json").status_code == 200


def test_unknown_endpoint_and_wrong_method_are_json_errors(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()
    r = client.delete("/api/games/info")
    assert r.status_code == 405 and "DELETE" in r.json()["error"]
    r = client.get("/api/games/x/moves")
    assert r.status_code == 405 and "error" in r.json()


def test_stale_version_is_409_with_the_current_view(client: TestClient) -> None:
    tab1 = new_game(client, "eagle-wing", 11)
    tab2 = dict(tab1)  # a second tab showing the same game
    tab1 = play(client, tab1, tab1["legal_moves"][0])
    for path, body in (
        ("moves", {"move": tab2["legal_moves"][-1], "version": tab2["version"]}),
        ("undo", {"version": tab2["version"]}),
        ("restart", {"version": tab2["version"]}),
    ):
        r = client.post(f"/api/games/{tab2['id']}/{path}", json=body)
        assert r.status_code == 409, r.text
        body = r.json()
        assert "changed" in body["error"]
        assert without_clock(body["view"]) == without_clock(tab1)
    # The second tab, now up to date, can play.
    assert play(client, body["view"], body["view"]["legal_moves"][0])["version"] == 2


def test_a_version_the_game_never_reached_is_409_saying_it_is_ahead_not_that_the_game_changed(
    client: TestClient,
) -> None:
    start = new_game(client, "king-albert", 4)
    view = play(client, start, start["legal_moves"][0])
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": view["legal_moves"][0], "version": 99})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert "version 99 is ahead of the game, which is at version 1" in error and "changed" not in error
    assert without_clock(r.json()["view"]) == without_clock(view)


def test_a_hint_request_with_an_unknown_field_is_refused_naming_the_accepted_ones(client: TestClient) -> None:
    view = new_game(client, "king-albert", 4)
    for body in ({"peek": True}, {"kind": "peek"}, {"mode": "fair", "extra": 1}):
        r = client.post(f"/api/games/{view['id']}/hint", json=body)
        assert r.status_code == 422, r.text
        assert "unexpected field" in r.json()["error"] and "mode, played, version" in r.json()["error"]
    assert not client.get(f"/api/games/{view['id']}").json()["assisted"]


def test_two_tabs_racing_with_the_same_version_store_exactly_one_move(db: Path) -> None:
    app = create_app(db, hint_time_limit=0.05)
    first = TestClient(app)
    view = new_game(first, "king-albert", 17)
    cookie = first.cookies[COOKIE]
    tabs = [TestClient(app, cookies={COOKIE: cookie}) for _ in range(8)]
    statuses: list[int] = []
    barrier = threading.Barrier(len(tabs))

    def tab_plays(tab: TestClient, i: int) -> None:
        move = view["legal_moves"][i % len(view["legal_moves"])]
        barrier.wait()
        r = tab.post(f"/api/games/{view['id']}/moves", json={"move": move, "version": 0})
        statuses.append(r.status_code)

    threads = [threading.Thread(target=tab_plays, args=(tab, i)) for i, tab in enumerate(tabs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 7
    final = view_of(first, view)
    assert final["version"] == 1 and final["moves"] == 1


def test_players_cannot_see_or_change_each_others_games(db: Path) -> None:
    app = create_app(db)
    alice, bob = TestClient(app), TestClient(app)
    game = new_game(alice, "eagle-wing", 8)
    new_game(bob, "king-albert", 9)
    assert alice.cookies[COOKIE] != bob.cookies[COOKIE]
    assert bob.get(f"/api/games/{game['id']}").status_code == 404
    r = bob.post(f"/api/games/{game['id']}/moves", json={"move": game["legal_moves"][0], "version": 0})
    assert r.status_code == 404
    assert bob.post(f"/api/games/{game['id']}/hint").status_code == 404
    assert bob.get("/api/current?game=eagle-wing").status_code == 404
    assert bob.get("/api/current").json()["game"] == "king-albert"
    assert without_clock(view_of(alice, game)) == without_clock(game)


@pytest.mark.slow
@pytest.mark.parametrize("forged", ["forged", "A" * 43, "", "x;y", "%F0%9F%82%A1"])
def test_forged_or_unknown_cookie_gets_a_fresh_identity(db: Path, forged: str) -> None:
    app = create_app(db)
    alice = TestClient(app)
    game = new_game(alice)
    mallory = TestClient(app)
    mallory.cookies.set(COOKIE, forged)
    r = mallory.get(f"/api/games/{game['id']}")
    assert r.status_code == 404
    issued = r.headers.get("set-cookie", "")
    assert issued.startswith(f"{COOKIE}=") and f"{COOKIE}={forged};" not in issued
    assert mallory.get("/api/current").status_code == 404


# --- the database away: the player's words, not the driver's ---------------------------
DRIVER_WORDS = 'connection to server at "10.1.2.3", port 5432 failed: Connection refused'


@pytest.mark.parametrize(("failure", "status", "english"), [
    (StoreUnavailable(DRIVER_WORDS), 503, "cannot be reached just now, so nothing was changed"),
    (StoreUnavailable(DRIVER_WORDS, outcome_unknown=True), 503, "may or may not have been stored. Your earlier"),
    (StoreFull("could not extend file base/16384/2619: No space left on device"), 507, "disk is full, so nothing"),
])
def test_a_database_failure_tells_players_what_happened_in_their_language_and_never_the_drivers_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, failure: StoreError, status: int, english: str,
) -> None:
    """The driver's text names the database's host and port and how it failed: that is for the server's log
    (the outage's line), while a player reads what happened to their change and what to do."""
    def fail(*_args: Any, **_kwargs: Any) -> None:
        raise failure

    for name in ("create_game", "find_change"):  # (whether an unknown outcome was stored cannot be asked either)
        monkeypatch.setattr(client.app.state.store, name, fail)  # type: ignore[attr-defined]
    answers = {language: client.post("/api/games", json={"game": "king-albert", "deal": 1},
                                     headers={"Accept-Language": language}) for language in ("en", "fr")}
    for answer in answers.values():
        assert answer.status_code == status and answer.headers["retry-after"].isdigit()
        error = answer.json()["error"]
        assert not [word for word in ("10.1.2.3", "5432", "refused", "No space", "2619") if word in error], error
    assert english in answers["en"].json()["error"]
    assert "Vos coups précédents sont en sécurité" in answers["fr"].json()["error"]


def test_the_health_check_answers_503_disk_full_from_a_write_that_found_no_room_until_a_write_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An SQLite file that may not grow (SQLite then fails a write as on a full disk, and reads go on): the health
    check answers what the next change would meet, 503 with cause disk, though its own statement reads; neither a
    read nor a commit that changed nothing (the tidying round's, with nothing to forget) tells that there is room
    again, and a write that stores something does. The check itself writes nothing."""
    from tableaux.web import sqlite_engine
    from tableaux.web.limits import Limits

    db = tmp_path / "games.sqlite3"
    app = create_app(db, limits=Limits(games_per_player=10_000, games_per_address=10_000))
    store = app.state.store
    client = TestClient(app)
    first = new_game(client)
    opened = sqlite_engine.SqliteEngine._open
    with closing(opened(store._engine)) as probe:
        pages = [int(probe.execute("PRAGMA page_count").fetchone()[0]) + 2]

    def small(engine: sqlite_engine.SqliteEngine) -> Any:
        conn = opened(engine)
        conn.execute(f"PRAGMA max_page_count = {pages[0]}")
        return conn

    monkeypatch.setattr(sqlite_engine.SqliteEngine, "_open", small)
    store.close()  # its connections open again, no larger than that
    assert client.get("/api/health").status_code == 200
    for deal in range(2, 2000):
        r = client.post("/api/games", json={"game": "king-albert", "deal": deal})
        if r.status_code != 201:
            break
    assert r.status_code == 507, r.text

    def rows_changed() -> int:
        return sum(conn.raw.total_changes for conn in store._engine._connections)

    before = rows_changed()
    health = client.get("/api/health", headers={"Accept-Language": "fr"})
    assert health.status_code == 503 and health.headers["retry-after"].isdigit(), health.text
    said = health.json()
    assert said["cause"] == "disk" and said["outcome"] == "unchanged" and said["retry_after"] >= 1
    assert "disque" in said["error"]  # the player's words, in the asker's language, as a change's 507 gives them
    assert client.get(f"/api/games/{first['id']}").status_code == 200  # reads go on
    assert client.head("/api/health").status_code == 503
    assert store.tidy(0.0, 1e12) == dict.fromkeys(("changes", "quotas", "name_changes", "games", "players"), 0)
    assert client.get("/api/health").status_code == 503  # a commit that changed nothing found no room
    assert rows_changed() == before  # the checks wrote nothing

    pages[0] *= 4  # room again, which only a write can tell
    store.close()
    assert client.get("/api/health").status_code == 503
    assert client.post("/api/games", json={"game": "king-albert", "deal": 1}).status_code == 201
    assert client.get("/api/health").status_code == 200
    store.close()


def test_the_health_check_declares_a_full_disk_as_503_and_never_507(client: TestClient) -> None:
    answers = client.get("/openapi.json").json()["paths"]["/api/health"]["get"]["responses"]
    assert "507" not in answers and "cause disk" in answers["503"]["description"]
    assert answers["503"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Unavailable"}


def test_any_other_database_failure_keeps_its_words_for_the_servers_log(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A saved game that cannot be replayed, a file that cannot be opened: the reason names a file or what a saved
    game holds, which is the host's to read, not every player's."""
    game = new_game(client)

    def fail(*_args: Any, **_kwargs: Any) -> None:
        raise StoreError("cannot open the database /srv/private/games.sqlite3: disk I/O error")

    monkeypatch.setattr(client.app.state.store, "get_game", fail)  # type: ignore[attr-defined]
    with caplog.at_level("ERROR", logger="tableaux.web"):
        answer = client.get(f"/api/games/{game['id']}")
    assert answer.status_code == 500
    error = answer.json()["error"]
    assert "/srv/private" not in error and "I/O" not in error
    assert "nothing was changed" in error and "log" in error
    assert "/srv/private/games.sqlite3: disk I/O error" in caplog.text


# --- fuzzing: no client input gives a 5xx -----------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=30)
    | st.sampled_from(["king-albert", "eagle-wing", "tableau-1", "reserve-2", "stock", "waste", "T1>T2", "S>W"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(
        st.sampled_from(["game", "deal", "move", "version", "source", "count", "target", "confirm", "x"]),
        children, max_size=5,
    ),
    max_leaves=12,
)
ENDPOINTS = ["/api/games", "/api/games/{id}/moves", "/api/games/{id}/undo", "/api/games/{id}/redo",
             "/api/games/{id}/restart", "/api/games/{id}/hint", "/api/stats/reset", "/api/games/{id}"]


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, dict[str, Any]]:
    client = TestClient(create_app(tmp_path_factory.mktemp("fuzz") / "f.sqlite3", hint_time_limit=0.02))
    return client, new_game(client, "eagle-wing", 99)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(ENDPOINTS),
    body=json_values,
    raw=st.none() | st.binary(max_size=40),
    ctype=st.sampled_from(["application/json", "text/plain", "", "application/json; charset=latin-1"]),
    version=st.booleans(),
)
def test_no_input_gives_a_server_error(
    fuzz_client: tuple[TestClient, dict[str, Any]], path: str, body: Any, raw: bytes | None, ctype: str,
    version: bool,
) -> None:
    client, game = fuzz_client
    current = client.get(f"/api/games/{game['id']}").json()
    if version and isinstance(body, dict) and "version" not in body:
        body["version"] = current["version"]
    content = raw if raw is not None else json.dumps(body).encode()
    headers = {"content-type": ctype} if ctype else {}
    method = "GET" if path == "/api/games/{id}" and raw is None else "POST"
    r = client.request(method, path.format(id=game["id"]), content=content, headers=headers)
    assert r.status_code < 500, r.text
    data = r.json()
    if r.status_code >= 400:
        assert isinstance(data.get("error"), str) and data["error"]
    if r.status_code >= 400 and r.status_code != 405:
        after = client.get(f"/api/games/{game['id']}").json()
        assert without_clock(after) == without_clock(current)  # a refused request changed nothing
