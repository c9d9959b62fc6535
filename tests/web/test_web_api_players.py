"""The browser game's HTTP API, its players: who a request is (the cookie, the X-Player-Token header, nothing
stored for a visitor until they store a game) and each player's statistics (a win, a loss, a reset).

Each test runs on each store (SQLite and PostgreSQL), through FastAPI's TestClient.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from helpers.store import query
from helpers.web import find_win, new_game, play, view_of
from tableaux import Move
from tableaux.web.app import COOKIE, WEB_GAMES

MakeApp = Callable[..., FastAPI]


@pytest.fixture
def db(database: str) -> str:
    """Every test here runs once on SQLite and once on PostgreSQL."""
    return database


@pytest.fixture(scope="module")
def winning_line() -> tuple[str, int, list[str]]:
    for deal in range(1, 50):
        line = find_win("king-albert", deal)
        if line:
            return "king-albert", deal, line
    pytest.fail("no winnable King Albert deal found among deals 1..49 by the small search")


def test_player_cookie_is_httponly_and_samesite_lax(make_app: MakeApp) -> None:
    client = TestClient(make_app())
    r = client.get("/api/stats")  # the catalog is the same for everybody: it needs no identity
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP (a local game): a Secure cookie would never come back
    # A known cookie is kept: no new identity on the next request.
    assert "set-cookie" not in client.get("/api/stats").headers


def test_over_https_the_player_cookie_is_secure(make_app: MakeApp) -> None:
    """Behind a proxy that ends TLS, uvicorn makes the scheme https from its X-Forwarded-Proto; the token, the
    player's only credential, then never travels over plain HTTP."""
    cookie = TestClient(make_app(), base_url="https://testserver").get("/api/stats").headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and cookie.endswith("; Secure") and "HttpOnly" in cookie


@pytest.mark.slow
def test_winning_a_game_updates_the_statistics(client: TestClient, winning_line: tuple[str, int, list[str]]) -> None:
    name, deal, line = winning_line
    zero = client.get("/api/stats").json()
    assert set(zero) == set(WEB_GAMES)
    assert zero[name] == {"played": 0, "won": 0, "win_rate": 0.0, "current_streak": 0, "best_streak": 0,
                          "best_time": None, "worst_time": None, "fewest_moves": None, "assisted": 0,
                          "daily_played": 0, "daily_won": 0, "daily_streak": 0, "best_daily_streak": 0}
    view = new_game(client, name, deal)
    for text in line:
        view = play(client, view, Move.from_str(text).to_dict())
    assert view["won"] is True and view["position"]["won"] is True and view["over"] is False
    assert view["legal_moves"] == [] and view["position"]["can_undo"] is False
    stats = client.get("/api/stats").json()[name]
    assert stats["played"] == 1 and stats["won"] == 1 and stats["win_rate"] == 1.0
    assert stats["current_streak"] == 1 and stats["best_streak"] == 1
    assert stats["fewest_moves"] == len(line)
    assert stats["best_time"] == stats["worst_time"] == view["elapsed_seconds"]
    # A won game is final: no more changes, and it is not "current" any more.
    r = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]})
    assert r.status_code == 422 and "won" in r.json()["error"]
    assert client.get(f"/api/current?game={name}").status_code == 404
    later = view_of(client, view)
    assert later["elapsed_seconds"] == view["elapsed_seconds"]  # the clock stopped

    # A game that is started and abandoned counts as played and lost and breaks the streak ...
    lost = new_game(client, name, deal)
    play(client, lost, lost["legal_moves"][0])
    new_game(client, name, deal + 1)  # ... once another one is started; untouched games do not count
    stats = client.get("/api/stats").json()[name]
    assert stats["played"] == 2 and stats["won"] == 1 and stats["win_rate"] == 0.5
    assert stats["current_streak"] == 0 and stats["best_streak"] == 1

    # Reset needs confirmation, then clears this player's statistics but keeps the games.
    for body in ({"game": name}, {"game": name, "confirm": False}, {"game": name, "confirm": "yes"}):
        r = client.post("/api/stats/reset", json=body)
        assert r.status_code == 422 and "confirm" in r.json()["error"]
    assert client.post("/api/stats/reset", json={"game": "klondike", "confirm": True}).status_code == 422
    assert client.get("/api/stats").json()[name]["played"] == 2
    r = client.post("/api/stats/reset", json={"game": name, "confirm": True})
    assert r.status_code == 200
    assert r.json()[name] == zero[name] and r.json() == client.get("/api/stats").json()
    assert view_of(client, view)["won"] is True


@pytest.mark.slow
def test_statistics_are_per_player(make_app: MakeApp, winning_line: tuple[str, int, list[str]]) -> None:
    name, deal, line = winning_line
    app = make_app()
    alice, bob = TestClient(app), TestClient(app)
    view = new_game(alice, name, deal)
    for text in line:
        view = play(alice, view, text if Move.from_str(text).count > 1 else Move.from_str(text).to_dict())
    assert alice.get("/api/stats").json()[name]["won"] == 1
    assert bob.get("/api/stats").json()[name]["played"] == 0
    bob.post("/api/stats/reset", json={"game": None, "confirm": True})
    assert alice.get("/api/stats").json()[name]["won"] == 1


def test_the_page_itself_sets_the_player_cookie(make_app: MakeApp) -> None:
    """Parallel first API calls from a freshly loaded page must all belong to one player."""
    client = TestClient(make_app())
    page = client.get("/")
    assert page.headers["set-cookie"].startswith(f"{COOKIE}=")
    game = new_game(client)
    assert "set-cookie" not in client.get("/api/current").headers
    assert client.get("/api/current").json()["id"] == game["id"]


def player_rows(db: str) -> int:
    return int(query(db, "SELECT COUNT(*) FROM players")[0][0])


@pytest.mark.slow
def test_requests_without_a_cookie_store_nothing_until_the_player_stores_something(make_app: MakeApp, db: str) -> None:
    app = make_app()
    for _ in range(20):  # an anonymous flood: each request is a new identity, none of them written down
        anonymous = TestClient(app)
        assert anonymous.get("/api/stats").status_code == 200
        assert anonymous.get("/api/current").status_code == 404
        assert anonymous.get("/").status_code == 200
        assert anonymous.post("/api/games/" + "A" * 22 + "/hint").status_code == 404
        assert anonymous.post("/api/stats/reset", json={"confirm": True}).status_code == 200
        assert anonymous.post("/api/games", json={"game": "klondike"}).status_code == 422
    assert player_rows(db) == 0
    # The identity a page got on its first visit is still its own when it first stores a game.
    browser = TestClient(app)
    browser.get("/")
    cookie = browser.cookies[COOKIE]
    view = new_game(browser)
    assert browser.cookies[COOKIE] == cookie and player_rows(db) == 1
    # ... and after a restart of the server (tokens are signed with a key kept in the database).
    again = TestClient(make_app(), cookies={COOKIE: cookie})
    r = again.get("/api/current")
    assert r.status_code == 200 and r.json()["id"] == view["id"] and "set-cookie" not in r.headers
    # A token that only looks like one is never adopted.
    forged = cookie[:-1] + ("A" if cookie[-1] != "A" else "B")
    r = TestClient(make_app(), cookies={COOKIE: forged}).get("/api/current")
    assert r.status_code == 404 and r.cookies[COOKIE] != forged


def test_scripts_can_be_a_player_with_the_x_player_token_header(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "eagle-wing", "deal": 5})
    token = r.headers["x-player-token"]
    assert token == client.cookies[COOKIE]  # the same identity as the cookie
    view = r.json()
    script = TestClient(client.app)  # no cookie jar in common
    r = script.get(f"/api/games/{view['id']}", headers={"X-Player-Token": token})
    assert r.status_code == 200 and r.headers["x-player-token"] == token and "set-cookie" not in r.headers
    r = script.post(f"/api/games/{view['id']}/moves", headers={"X-Player-Token": token},
                    json={"move": view["legal_moves"][0], "version": 0})
    assert r.status_code == 200
    # A wrong token is refused outright: a script that sends one expects to be that player.
    for wrong in ("A" * 43, token[:-1] + ("A" if token[-1] != "A" else "B"), "short", ""):
        r = script.get(f"/api/games/{view['id']}", headers={"X-Player-Token": wrong})
        assert r.status_code == 401 and "X-Player-Token" in r.json()["error"], wrong
    # The header wins over another player's cookie.
    other = TestClient(client.app)
    other.get("/api/stats")
    r = other.get(f"/api/games/{view['id']}", headers={"X-Player-Token": token})
    assert r.status_code == 200
    assert other.get(f"/api/games/{view['id']}").status_code == 404
