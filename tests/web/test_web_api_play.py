"""The browser game's HTTP API, playing one game: a new deal, moves as text and as objects, undo, redo and
restart, hints, the game to resume, whole numbers written with a point, and the clock.

Each test runs on each store (SQLite and PostgreSQL), through FastAPI's TestClient. Positions are checked
against the engine directly (a Game replaying the same moves), never against numbers typed into the test.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.web import engine_game, moves_of, new_game, play, view_of, without_clock
from tableaux import Move
from tableaux.web.app import WEB_GAMES


@pytest.fixture
def db(database: str) -> str:
    """Every test here runs once on SQLite and once on PostgreSQL."""
    return database


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


def test_a_refused_move_comes_with_the_rules_reason_in_the_players_language_and_changes_nothing(
        client: TestClient) -> None:
    """A page refuses a move from its view's legal moves and asks the engine why, never the rules of its own."""
    view = new_game(client, "king-albert", 1)  # T8 = the Jack of clubs, T9 = the 10 of diamonds on top
    game = tableaux.new_game("king-albert", 1)
    url = f"/api/games/{view['id']}/refusal"
    refused = {"source": "tableau-8", "count": 1, "target": "tableau-9"}
    answer = client.get(url, params=refused)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"move": "T8>T9", "reason": "The Jack of clubs cannot go onto the 10 of diamonds: a "
                             "tableau pile takes a card one rank lower and of the other colour."}
    why = game.rules.why_illegal(game.state, game.rules.to_raw(Move("tableau-8", 1, "tableau-9")))
    assert why is not None and answer.json()["reason"].lower() == why.lower() + "."
    french = client.get(url, params=refused, headers={"Accept-Language": "fr"}).json()["reason"]
    assert "valet de trèfle" in french.lower()
    legal = view["legal_moves"][0]
    allowed = client.get(url, params={k: legal[k] for k in ("source", "count", "target")})
    assert allowed.json()["reason"] is None
    assert client.get(url, params={**refused, "target": "tableau-99"}).status_code == 422
    assert client.get(f"/api/games/{view['id']}").json()["version"] == view["version"]  # nothing was played


def test_a_refusal_names_the_piles_in_words_and_leaves_out_the_notation_a_player_who_drags_has_no_key_to(
        client: TestClient) -> None:
    view = new_game(client, "king-albert", 1)
    url = f"/api/games/{view['id']}/refusal"
    home = client.get(url, params={"source": "tableau-8", "count": 1, "target": "foundation-2"}).json()["reason"]
    assert home == "An empty foundation takes only an Ace, not the Jack of clubs."
    tall = client.get(url, params={"source": "tableau-1", "count": 3, "target": "tableau-2"}).json()["reason"]
    assert tall.startswith("Tableau 1 does not have 3 face-up cards") and "T1" not in tall
    wing = new_game(client, "eagle-wing", 1)
    url = f"/api/games/{wing['id']}/refusal"
    stock = client.get(url, params={"source": "stock", "count": 1, "target": "tableau-1"}).json()["reason"]
    assert stock == "Stock cards are turned onto the waste first."
    german = client.get(url, params={"source": "stock", "count": 1, "target": "tableau-1"},
                        headers={"Accept-Language": "de"}).json()["reason"]
    assert ">" not in german and german.endswith(".")


def test_a_won_game_refuses_a_move_and_its_hint_says_it_is_won(client: TestClient) -> None:
    """King Albert's rules would let a card come back off a foundation; the game ends at the win all the same."""
    view = new_game(client, "king-albert", 17)
    for move in tableaux.solve(tableaux.new_game("king-albert", 17)).moves:
        view = play(client, view, str(move))
    assert view["won"] is True and view["legal_moves"] == []
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": "F1>T1", "version": view["version"]})
    assert r.status_code == 422 and r.json()["error"] == "this game is won and finished; start a new game"
    hint = client.post(f"/api/games/{view['id']}/hint").json()["hint"]
    assert hint["move"] is None and hint["message"] == hint["sentence"] == "The game is won."


def test_the_hint_of_a_deal_with_no_legal_move_says_it_cannot_be_won(client: TestClient) -> None:
    view = new_game(client, "king-albert", 1789)
    assert view["legal_moves"] == []
    hint = client.post(f"/api/games/{view['id']}/hint").json()["hint"]
    assert hint["move"] is None and hint["unwinnable"] is True and hint["peeks"] is False
    assert "cannot be won" in hint["sentence"] and hint["sentence"] == hint["message"]
def test_a_refusal_names_an_unknown_pile_by_its_parameter_with_the_games_own_piles_once(
        client: TestClient) -> None:
    view = new_game(client, "king-albert", 1)
    url = f"/api/games/{view['id']}/refusal"
    answer = client.get(url, params={"source": "X1", "count": 1, "target": "stock"})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error.startswith("unknown piles 'X1' as move source and 'stock' as move target; the piles of King Albert "
                            "are foundation-1, ")
    assert error.count("tableau-9") == 1 and "waste" not in error and "None" not in error
    assert client.get(f"/api/games/{view['id']}").json()["version"] == view["version"]


def test_a_move_names_its_piles_in_full_or_as_move_text_does(client: TestClient) -> None:
    view = new_game(client, "king-albert", 1)  # T8 = the Jack of clubs, T9 = the 10 of diamonds on top
    url = f"/api/games/{view['id']}/refusal"
    short = client.get(url, params={"source": "T8", "count": 1, "target": "T9"}).json()
    full = client.get(url, params={"source": "tableau-8", "count": 1, "target": "tableau-9"}).json()
    assert short == full and short["move"] == "T8>T9" and short["reason"].startswith("The Jack of clubs")
    moved = play(client, view, {"source": "R3", "count": 1, "target": "T8"})
    assert moved["position"]["piles"] == engine_game(view, ["R3>T8"]).public_position()["piles"]


def test_the_refusals_a_player_can_meet_in_play_are_in_the_requests_language(client: TestClient) -> None:
    """Another tab's move, a game gone or an undo with nothing to take back: the page shows these as they come."""
    view = new_game(client, "king-albert", 1)
    german = {"Accept-Language": "de"}
    nothing = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}, headers=german)
    assert nothing.status_code == 422
    assert nothing.json()["error"] == "nichts rückgängig zu machen: es wurde noch kein Zug gespielt"
    play(client, view, view["legal_moves"][0])
    stale = client.post(f"/api/games/{view['id']}/moves", headers=german,
                        json={"move": view["legal_moves"][0], "version": view["version"]})
    assert stale.status_code == 409
    assert stale.json()["error"] == ("das Spiel hat sich geändert (Version 1, die Anfrage stammt von Version 0); hier "
                                     "ist die aktuelle Stellung")
    gone = client.get("/api/games/no-such-game", headers={"Accept-Language": "fr"})
    assert gone.status_code == 404
    assert gone.json()["error"] == ("aucune partie 'no-such-game' ici : elle n’existe pas ou appartient à un autre "
                                    "joueur")
