"""The browser game's HTTP API, through FastAPI's TestClient, on each store (SQLite and PostgreSQL).

Positions are checked against the engine directly (a Game replaying the same
moves), never against numbers typed into the test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import tableaux
from helpers.store import query
from helpers.web import engine_game, find_win, moves_of, new_game, play, view_of, without_clock
from tableaux import GAMES, Move
from tableaux.advice.hints import heuristic_moves
from tableaux.i18n import _ as translated
from tableaux.i18n import speaking
from tableaux.rulebook.cards import RANKS
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


# --- basic endpoints -------------------------------------------------------------
def test_game_info_lists_the_browser_games_as_the_engine_describes_them(client: TestClient) -> None:
    r = client.get("/api/games/info")
    assert r.status_code == 200
    info = r.json()
    browser = [r for r in tableaux.GAMES.values() if r.in_browser]
    assert [g["name"] for g in info["games"]] == [r.name for r in browser] == list(WEB_GAMES)
    assert [{key: g[key] for key in ("name", "title", "piles", "labels", "has_stock")} for g in info["games"]] == [
        {"name": r.name, "title": r.title, "piles": list(r.pile_names),
         "labels": {p: str(tableaux.Move(p, 1, p)).split(">")[0] for p in r.pile_names},
         "has_stock": "stock" in r.pile_names}
        for r in browser
    ]


def test_game_info_places_every_pile_once_on_its_own_cell_of_each_grid(client: TestClient) -> None:
    """The page draws the table from the layout alone: a pile left out could not be played, two on one cell
    would cover each other. A group of piles (King Albert's reserve) takes one place, a row of its own on the
    wide grid; a spot may span rows on the side grid."""
    for entry in client.get("/api/games/info").json()["games"]:
        layout = entry["layout"]
        assert sorted(spot["pile"] for spot in layout["spots"]) == sorted(entry["piles"]), entry["name"]
        for shape in ("wide", "tall", "side"):
            grid = layout[shape]
            if grid is None:
                continue
            cells: list[tuple[int, int]] = []
            groups: set[str] = set()
            for spot in layout["spots"]:
                if spot["group"] is not None and (shape == "wide" or spot["group"] in groups):
                    continue  # drawn in a row of its own, or in its group's place already counted
                if spot["group"] is not None:
                    groups.add(spot["group"])
                place = spot[shape] if shape != "wide" else (spot["col"], spot["row"])
                assert place is not None, (entry["name"], shape, spot)
                col, row, rows = (*place, 1)[:3]
                assert 1 <= col <= grid["cols"], (entry["name"], shape, spot)
                cells += [(col, r) for r in range(row, row + rows)]
            assert len(cells) == len(set(cells)), (entry["name"], shape, cells)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_game_info_names_piles_and_gives_the_rules_in_the_pages_language(client: TestClient, language: str) -> None:
    """What a sentence calls each pile and the rules page come from the server, in the language the page asks
    for, so the page names no game and writes no rule; the rules' sentences carry no markup but bold and keys."""
    info = client.get("/api/games/info", headers={"Accept-Language": language}).json()
    with speaking(language):
        for entry in info["games"]:
            rules = tableaux.rules(entry["name"])
            assert entry["words"] == {pile: rules.pile_words(pile) for pile in rules.pile_names}
            assert entry["rules"]["title"] == translated(rules.rules_title).format(game=translated(rules.title))
            assert entry["rules"]["guide"] == rules.guide()
            sentences = [b["text"] for b in rules.guide() if b["kind"] == "paragraph"]
            sentences += [item for b in rules.guide() if b["kind"] == "list" for item in b["items"]]
            assert len(sentences) >= 5, entry["name"]
            assert {tag for text in sentences for tag in re.findall(r"</?([a-z]+)", text)} <= {"b", "kbd"}
    words = {entry["name"]: entry["words"] for entry in info["games"]}
    assert words["king-albert"]["tableau-3"] == {"en": "tableau 3", "fr": "colonne 3", "de": "Spalte 3"}[language]
    assert words["eagle-wing"]["reserve"] == {"en": "the trunk", "fr": "tronc", "de": "Stamm"}[language]


def test_game_info_gives_the_deal_limit_and_how_each_rank_reads_on_a_card(client: TestClient) -> None:
    """The page repeats neither: it asks for deals up to max_deal and labels card faces with rank_labels."""
    info = client.get("/api/games/info").json()
    assert info["max_deal"] == tableaux.MAX_DEAL
    tableaux.new_game("king-albert", info["max_deal"])  # the highest deal number is a deal
    with pytest.raises(tableaux.DealError):
        tableaux.new_game("king-albert", info["max_deal"] + 1)
    assert set(info["rank_labels"]) == set(RANKS)
    for rank, label in info["rank_labels"].items():  # a label reads back as the card it names
        assert tableaux.parse_card(label + "S") == tableaux.parse_card(rank + "S")
    assert info["rank_labels"]["T"] == "10"  # the notation's T is not what a card face shows


@pytest.mark.parametrize("name", WEB_GAMES)
def test_new_game_view_is_the_engines_public_position(client: TestClient, name: str) -> None:
    view = new_game(client, name, 4242)
    game = tableaux.new_game(name, 4242)
    assert view["game"] == name and view["deal"] == 4242 and view["title"] == game.rules.title
    assert view["version"] == 0 and view["moves"] == 0 and view["won"] is False
    assert view["position"] == game.public_position()
    assert view["legal_moves"] == moves_of(game)
    expected_home = {}
    for pile in game.rules.pile_names:
        move = game.home_move(pile)
        if move is not None:
            expected_home[pile] = {**move.to_dict(), "text": str(move)}
    assert view["home_moves"] == expected_home
    assert len(view["id"]) >= 22  # token_urlsafe(16): 128 random bits


def test_random_deal_when_deal_is_null_or_absent(client: TestClient) -> None:
    a = new_game(client, "eagle-wing", None)
    r = client.post("/api/games", json={"game": "eagle-wing"})
    assert r.status_code == 201
    b = r.json()
    for view in (a, b):
        assert 0 <= view["deal"] <= tableaux.MAX_DEAL
        assert view["position"] == tableaux.new_game("eagle-wing", view["deal"]).public_position()


def test_player_cookie_is_httponly_and_samesite_lax(make_app: MakeApp) -> None:
    client = TestClient(make_app())
    r = client.get("/api/stats")  # the catalog is the same for everybody: it needs no identity
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    # A known cookie is kept: no new identity on the next request.
    assert "set-cookie" not in client.get("/api/stats").headers


def test_moves_as_text_and_as_objects(client: TestClient) -> None:
    view = new_game(client, "king-albert", 17)
    game = tableaux.new_game("king-albert", 17)
    first, second = game.legal_moves()[0], None
    view = play(client, view, str(first))
    game.play(first)
    assert view["version"] == 1 and view["moves"] == 1
    assert view["position"] == game.public_position()
    second = game.legal_moves()[-1]
    view = play(client, view, second.to_dict())
    game.play(second)
    assert view["version"] == 2 and view["moves"] == 2
    assert view["position"] == game.public_position() and view["legal_moves"] == moves_of(game)
    # The legal_moves entries themselves (with "text") can be sent back as they are.
    third = view["legal_moves"][0]
    view = play(client, view, third)
    game.play(Move(third["source"], third["count"], third["target"]))
    assert view["position"] == game.public_position()


def test_move_without_count_is_filled_in_when_only_one_fits(client: TestClient) -> None:
    view = new_game(client, "king-albert", 17)
    move = view["legal_moves"][0]
    after = play(client, view, {"source": move["source"], "target": move["target"]})
    assert after["version"] == 1


def test_undo_redo_restart(client: TestClient) -> None:
    view = new_game(client, "eagle-wing", 5)
    start = view["position"]
    texts = []
    for _ in range(4):
        move = view["legal_moves"][0]
        texts.append(move["text"])
        view = play(client, view, move["text"])
    gid = view["id"]
    r = client.post(f"/api/games/{gid}/undo", json={"version": view["version"]})
    assert r.status_code == 200
    view = r.json()
    assert view["version"] == 5 and view["moves"] == 3
    mirror = engine_game(view, texts)
    mirror.undo()
    assert view["position"] == mirror.public_position()
    assert view["position"]["can_redo"] is True
    r = client.post(f"/api/games/{gid}/redo", json={"version": view["version"]})
    view = r.json()
    assert view["version"] == 6 and view["position"] == engine_game(view, texts).public_position()
    r = client.post(f"/api/games/{gid}/restart", json={"version": view["version"]})
    view = r.json()
    assert r.status_code == 200 and view["version"] == 7 and view["moves"] == 0
    assert view["position"]["piles"] == start["piles"]
    # Restart keeps the moves for redo.
    r = client.post(f"/api/games/{gid}/redo", json={"version": view["version"]})
    assert r.json()["position"]["piles"] == engine_game(view, texts[:1]).public_position()["piles"]
    assert r.json()["position"]["can_redo"] is True


@pytest.mark.parametrize(
    ("action", "message"),
    [("undo", "nothing to undo"), ("redo", "nothing to redo"), ("restart", "nothing to restart")],
)
def test_history_actions_with_nothing_to_do_are_422(client: TestClient, action: str, message: str) -> None:
    view = new_game(client)
    r = client.post(f"/api/games/{view['id']}/{action}", json={"version": 0})
    assert r.status_code == 422
    assert message in r.json()["error"]
    assert without_clock(view_of(client, view)) == without_clock(view)


@pytest.mark.slow
def test_hint_suggests_a_legal_move_and_changes_nothing(client: TestClient) -> None:
    view = new_game(client, "king-albert", 17)
    r = client.post(f"/api/games/{view['id']}/hint")
    assert r.status_code == 200
    body = r.json()
    hint = body["hint"]
    assert hint["source"] in ("solver", "heuristic")
    assert hint["move"] in view["legal_moves"]
    assert without_clock(body["view"]) == without_clock(view)
    # A JSON body (for example the view's version) is accepted and ignored.
    r = client.post(f"/api/games/{view['id']}/hint", json={"version": 0})
    assert r.status_code == 200


def test_current_resumes_the_latest_unfinished_game(client: TestClient) -> None:
    r = client.get("/api/current")
    assert r.status_code == 404 and "no unfinished" in r.json()["error"]
    ka = new_game(client, "king-albert", 3)
    ew = new_game(client, "eagle-wing", 4)
    assert client.get("/api/current").json()["id"] == ew["id"]
    ka = play(client, ka, ka["legal_moves"][0])  # now the most recently played
    assert client.get("/api/current").json()["id"] == ka["id"]
    assert client.get("/api/current?game=eagle-wing").json()["id"] == ew["id"]
    assert without_clock(client.get("/api/current?game=king-albert").json()) == without_clock(ka)


def test_current_with_unknown_game_is_a_readable_422(client: TestClient) -> None:
    r = client.get("/api/current?game=klondike")
    assert r.status_code == 422
    error = r.json()["error"]
    assert "game" in error and "king-albert" in error and "eagle-wing" in error


# --- persistence ------------------------------------------------------------------
def test_a_restarted_server_resumes_the_game(make_app: MakeApp) -> None:
    first = TestClient(make_app())
    view = new_game(first, "eagle-wing", 23)
    texts = []
    for _ in range(6):
        move = view["legal_moves"][0]
        texts.append(move["text"])
        view = play(first, view, move)
    undone = first.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}).json()
    cookie = first.cookies[COOKIE]
    del first  # the "server" goes away; only the database file remains

    second = TestClient(make_app(), cookies={COOKIE: cookie})
    resumed = second.get("/api/current")
    assert resumed.status_code == 200
    resumed_view = resumed.json()
    assert without_clock(resumed_view) == without_clock(undone)
    assert resumed_view["position"]["piles"] == engine_game(undone, texts[:5]).public_position()["piles"]
    # The redo list survived too, and play goes on.
    redone = second.post(f"/api/games/{view['id']}/redo", json={"version": resumed_view["version"]})
    assert redone.status_code == 200
    assert redone.json()["position"] == engine_game(undone, texts).public_position()


def ambiguous_line() -> tuple[int, list[Move]] | None:
    """A King Albert line ending in a one-card move whose piles would also allow a longer move."""
    rules = GAMES["king-albert"]
    for deal in range(1, 300):
        game = tableaux.new_game("king-albert", deal)
        line: list[Move] = []
        for _ in range(100):
            legal = game.legal_moves()
            for m in legal:
                if m.count == 1 and sum((o.source, o.target) == (m.source, m.target) for o in legal) > 1:
                    return deal, [*line, m]
            nxt = heuristic_moves(rules, game.state, rules.to_raw(line[-1]) if line else None)
            if not nxt:
                break
            line.append(game.play(rules.to_move(nxt[0])))
    return None


def test_one_card_move_that_could_be_longer_replays_exactly(make_app: MakeApp) -> None:
    """'T1>T5' stored for a one-card move must not be re-read as an ambiguous move after a restart."""
    found = ambiguous_line()
    assert found is not None, "no King Albert position with a choice of counts between two piles"
    deal, line = found
    client = TestClient(make_app())
    view = new_game(client, "king-albert", deal)
    for move in line:
        view = play(client, view, move.to_dict())
    assert view["position"] == engine_game(view, [str(m) if m.count > 1 else f"{m.source}>{m.target}"
                                                  for m in line]).public_position()
    again = TestClient(make_app(), cookies={COOKIE: client.cookies[COOKIE]}).get(f"/api/games/{view['id']}")
    assert again.status_code == 200, again.text
    assert without_clock(again.json()) == without_clock(view)


# --- statistics -------------------------------------------------------------------
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


def test_a_write_lost_to_another_server_process_is_a_409(
    client: TestClient, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between reading a game and storing the move, another process may store one first: 409, nothing kept."""
    view = new_game(client, "eagle-wing", 12)
    other = TestClient(make_app(), cookies=client.cookies)  # another server process on the same database
    store = client.app.state.store  # type: ignore[attr-defined]
    real_save = store.save_change

    def other_process_wins(*args, **kwargs):  # type: ignore[no-untyped-def]
        monkeypatch.setattr(store, "save_change", real_save)
        play(other, view, view["legal_moves"][0])  # the other process's move
        return real_save(*args, **kwargs)  # ours, against the old version: refused

    monkeypatch.setattr(store, "save_change", other_process_wins)
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": view["legal_moves"][-1], "version": 0})
    assert r.status_code == 409 and "changed elsewhere" in r.json()["error"]
    current = view_of(client, view)
    assert current["version"] == 1 and current["moves"] == 1
    assert without_clock(r.json()["view"]) == without_clock(current)
    mirror = tableaux.new_game("eagle-wing", 12)
    mirror.play(Move.from_str(view["legal_moves"][0]["text"]))
    assert current["position"] == mirror.public_position()


def test_elapsed_time_runs_from_the_first_move(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from tableaux.web import store as store_module

    now = [1_000_000.0]
    monkeypatch.setattr(store_module.time, "time", lambda: now[0])
    view = new_game(client, "king-albert", 8)
    now[0] += 100
    assert view_of(client, view)["elapsed_seconds"] == 0.0  # the clock starts with the first move
    view = play(client, view, view["legal_moves"][0])
    now[0] += 42.0
    assert view_of(client, view)["elapsed_seconds"] == 0.0  # the time of the last change (the page counts on)
    view = play(client, view, view["legal_moves"][0])
    assert view["elapsed_seconds"] == 42.0  # a client that reports no time gets the time between its changes


# --- whole numbers, identities -------------------------------------------------------------------
def test_whole_numbers_written_with_a_point_are_whole_numbers(client: TestClient) -> None:
    """JSON Schema's integer includes 2.0, and so does the server: deal, version and count alike."""
    r = client.post("/api/games", content=b'{"game": "king-albert", "deal": 17.0}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 201 and r.json()["deal"] == 17
    view = r.json()
    move = view["legal_moves"][0]
    body = b'{"move": {"source": "%s", "count": 1.0, "target": "%s"}, "version": -0.0}' % (
        move["source"].encode(), move["target"].encode())
    r = client.post(f"/api/games/{view['id']}/moves", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text
    assert r.json()["position"] == engine_game(view, [move["text"]]).public_position()
    r = client.post(f"/api/games/{view['id']}/undo", content=b'{"version": 1.0}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 200 and r.json()["version"] == 2
    for bad in (b"1.5", b"NaN", b"1e400", b"true", b'"2"'):
        r = client.post(f"/api/games/{view['id']}/undo", content=b'{"version": %s}' % bad,
                        headers={"content-type": "application/json"})
        assert r.status_code == 422 and "version must be a whole number" in r.json()["error"], bad


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


def test_the_page_scripts_apply_no_rule_and_name_no_game() -> None:
    """Rules live in the engine and game names in tableaux.GAMES: the page's scripts only draw what the server
    sends, the table's layout and the rules in words included (the game info)."""
    static = Path(tableaux.__file__).parent / "web" / "static"
    for script in sorted(static.glob("*.js")):
        text = script.read_text()
        for name in (*GAMES, *(r.title for r in GAMES.values())):
            assert name not in text, f"{script.name} names {name!r}"
        shown = text.replace('"base_rank"', "").replace("position.base_rank", "")  # the view's field, shown as it is
        assert "safeHomeMove" not in text and "base_rank" not in shown, script.name
    page = (static / "index.html").read_text()
    assert not any(name in page for name in GAMES)


@pytest.mark.parametrize("seed", range(3))
def test_each_process_answers_from_the_stored_game_whatever_it_cached(
    client: TestClient, make_app: MakeApp, seed: int
) -> None:
    """Two server processes on one database, each with its own cache of rebuilt games: every view either one
    answers is the stored game (version, moves, position), however the other changed it meanwhile (moves,
    undo, redo, restart). A cache that ignored the stored version would answer the game as it last saw it."""
    import random

    rng = random.Random(seed)
    view = new_game(client, ("king-albert", "eagle-wing")[seed % 2], 40 + seed)
    other = TestClient(make_app(hint_time_limit=0.05), cookies=client.cookies)  # another process, same player
    mirror = tableaux.new_game(view["game"], view["deal"])
    view_of(other, view)  # both processes have the game cached now
    for step in range(40):
        proc = (client, other)[rng.randrange(2)]
        seen = view_of(proc, view)
        assert (seen["version"], seen["moves"]) == (step, len(mirror.moves_played)), step
        assert seen["position"] == mirror.public_position(), step
        actions = ["move"] * 4 + ["undo"] * bool(mirror.moves_played) + ["redo"] * bool(mirror.redo_moves)
        action = rng.choice(actions + ["restart"] * (step % 13 == 12 and bool(mirror.moves_played)))
        if action == "move":
            if not seen["legal_moves"]:
                action = "undo"
            else:
                move = rng.choice(seen["legal_moves"])
                play(proc, seen, move)
                mirror.play(Move.from_str(move["text"]))
                continue
        r = proc.post(f"/api/games/{view['id']}/{action}", json={"version": seen["version"]})
        assert r.status_code == 200, r.text
        getattr(mirror, action)()
