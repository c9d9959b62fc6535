"""Fair play, graded deals and the daily deal in the web API: chance, hint modes, give up, where lost,
rewind, solution, winnable-only deals, the daily deal and their statistics.

Expected answers come from the library the API stands on (tableaux.advice.fair, tableaux.catalogue,
tableaux.solve) or from the engine replaying the moves, never from numbers typed in here. Every answer
is also checked for face-down cards.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.browser import hidden_card_problems, visible_cards
from helpers.time_zones import FAR_ZONES, utc_date
from tableaux import catalogue, fair
from tableaux.web.app import create_app
from tableaux.web.models import Chance, Lost, Solution, View
from tableaux.web.player_stats import daily_streaks


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    application = create_app(tmp_path_factory.mktemp("fair") / "games.sqlite3", hint_time_limit=2.0,
                             chance_time_limit=60.0, solve_time_limit=60.0)
    with TestClient(application):  # runs the lifespan: the solver pool starts and stops with it
        yield application


@pytest.fixture
def client(app: Any) -> TestClient:
    """A new player (its own cookie jar) on the shared app."""
    return TestClient(app)


def checked(response: Any, status: int = 200, seen: set[str] | frozenset[str] = frozenset()) -> Any:
    assert response.status_code == status, response.text
    body = response.json()
    problems = hidden_card_problems(str(response.url), body, seen)
    assert not problems, problems
    return body


def start(client: TestClient, game: str = "king-albert", deal: int = 17) -> dict[str, Any]:
    return checked(client.post("/api/games", json={"game": game, "deal": deal}), 201)


def send(client: TestClient, view: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    for text in moves:
        view = checked(client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}))
    return view


def lost_line(name: str, deal: int, seed: int, limit: int = 300) -> tableaux.Game:
    """Random play: a game that is, by its end, no longer winnable (the engine and where_lost say so)."""
    game = tableaux.new_game(name, deal)
    chooser = random.Random(seed)
    while not game.is_over() and not game.is_won() and len(game.moves_played) < limit:
        game.play(chooser.choice(game.legal_moves()))
    return game


# --- chance ------------------------------------------------------------------------
@pytest.mark.slow
def test_chance_is_the_libraries_win_chance_of_the_observation_and_follows_the_version(client: TestClient) -> None:
    view = start(client)
    chance = checked(client.get(f"/api/games/{view['id']}/chance"))
    Chance.model_validate(chance)
    mirror = tableaux.new_game("king-albert", 17)
    expected = fair.win_chance(mirror.observation()).to_dict()
    assert chance == {"version": 0, **expected}
    assert chance["low"] <= chance["share"] <= chance["high"]
    view = send(client, view, ["R1>F1", "R6>F2"])
    for text in ("R1>F1", "R6>F2"):
        mirror.play(text)
    again = checked(client.get(f"/api/games/{view['id']}/chance"))
    assert again == {"version": 2, **fair.win_chance(mirror.observation()).to_dict()}


@pytest.mark.slow
def test_players_who_have_seen_the_same_share_one_search_for_the_chance(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every player at the start of one deal (the daily deal's) sees the same: the chance, worked out from that
    alone, is searched once, and each answer carries the player's own game version."""
    from tableaux.web import assist

    searched: list[dict[str, Any]] = []
    in_pool = assist.Assist._in_pool

    async def counted(self: Any, client: str | None, fn: Callable[..., Any], *args: Any) -> Any:
        if fn is assist.chance_job:
            searched.append(args[0])
        return await in_pool(self, client, fn, *args)

    monkeypatch.setattr(assist.Assist, "_in_pool", counted)
    first, second = TestClient(app), TestClient(app)
    views = [start(player, "eagle-wing", 4242) for player in (first, second)]
    answers = [checked(player.get(f"/api/games/{view['id']}/chance"))
               for player, view in zip((first, second), views, strict=True)]
    assert answers[0] == answers[1] and len(searched) == 1
    move = views[1]["legal_moves"][0]["text"]
    moved = send(second, views[1], [move])
    after = checked(second.get(f"/api/games/{moved['id']}/chance"))
    assert after["version"] == 1 and len(searched) == 2  # the second player has seen more: a search of its own
    assert searched[1]["moves"] == [move]


def test_chance_of_another_players_game_is_not_found(client: TestClient, app: Any) -> None:
    view = start(client)
    r = TestClient(app).get(f"/api/games/{view['id']}/chance")
    assert r.status_code == 404 and "no game" in r.json()["error"]


# --- hints -------------------------------------------------------------------------
@pytest.mark.slow
def test_a_peeking_hint_says_so_and_a_fair_one_does_not_peek(client: TestClient) -> None:
    view = start(client, "eagle-wing", 3)
    peek = checked(client.post(f"/api/games/{view['id']}/hint", json={"mode": "peek"}))["hint"]
    assert peek["peeks"] is True and "Peeking" in peek["message"]
    assert peek["move"] in view["legal_moves"]
    fair_hint = checked(client.post(f"/api/games/{view['id']}/hint", json={"mode": "fair"}))["hint"]
    assert fair_hint["peeks"] is False and "Peeking" not in fair_hint["message"]
    assert fair_hint["move"] in view["legal_moves"]
    default = checked(client.post(f"/api/games/{view['id']}/hint"))["hint"]
    assert default["peeks"] is False
    bad = client.post(f"/api/games/{view['id']}/hint", json={"mode": "cheat"})
    assert bad.status_code == 422 and "fair" in bad.json()["error"] and "peek" in bad.json()["error"]


# --- giving up, where it was lost, going back ------------------------------------------
def test_give_up_ends_the_game_as_a_loss_and_refuses_further_moves(client: TestClient) -> None:
    view = send(client, start(client), ["R1>F1"])
    gave_up = checked(client.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}))
    View.model_validate(gave_up)
    assert gave_up["given_up"] and gave_up["legal_moves"] == [] and not gave_up["position"]["can_undo"]
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": "R6>F2", "version": gave_up["version"]})
    assert r.status_code == 422 and "given up" in r.json()["error"]
    assert checked(client.get("/api/resume"))["view"] is None  # a given-up game is not resumed
    stats = checked(client.get("/api/stats"))["king-albert"]
    assert (stats["played"], stats["won"], stats["assisted"]) == (1, 0, 0)


def test_where_lost_is_refused_while_the_game_is_on(client: TestClient) -> None:
    view = send(client, start(client), ["R1>F1"])
    r = client.get(f"/api/games/{view['id']}/lost")
    assert r.status_code == 422 and "over" in r.json()["error"]


def test_where_lost_answers_during_play_of_classic_king_albert_where_no_card_is_hidden(client: TestClient) -> None:
    """As the terminal's 'lost?' does: the answer tells nothing the chance, undo and a fair hint do not."""
    from helpers.lost import losing_game

    game, k = losing_game("king-albert-classic")
    view = send(client, start(client, "king-albert-classic", game.deal), [str(m) for m in game.moves_played])
    assert not view["over"] and not view["given_up"]
    lost = checked(client.get(f"/api/games/{view['id']}/lost"), seen=visible_cards(view))
    Lost.model_validate(lost)
    assert (lost["verdict"], lost["move_index"]) == ("lost", k)
    after = checked(client.get(f"/api/games/{view['id']}"))
    assert not after["assisted"] and after["version"] == view["version"]  # asking changed nothing


@pytest.mark.slow
def test_where_lost_matches_the_library_and_rewind_goes_back_there_as_assisted(client: TestClient) -> None:
    game = lost_line("king-albert", 17, seed=3)
    expected = fair.where_lost(game.to_dict())
    assert expected is not None and expected["move_index"] is not None
    view = send(client, start(client), [str(m) for m in game.moves_played])
    view = checked(client.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}))
    keep = expected["move_index"]
    before = tableaux.Game.replay(game.rules, 17, game.moves_played[:keep]).public_position()
    lost = checked(client.get(f"/api/games/{view['id']}/lost"), seen=visible_cards(before))
    Lost.model_validate(lost)
    assert lost["verdict"] == "lost"
    assert (lost["move_index"], lost["move"], lost["line"]) == (
        expected["move_index"], expected["move"], expected["line"])
    losing = game.moves_played[keep]
    assert lost["cards"] == [c["card"] for c in before["piles"][losing.source][-losing.count:]]
    back = checked(client.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": keep}))
    assert back["assisted"] and not back["given_up"] and back["moves"] == keep
    mirror = tableaux.new_game("king-albert", 17)
    for move in game.moves_played[:keep]:
        mirror.play(move)
    assert back["position"] == {**mirror.public_position(), "can_redo": True}
    for text in lost["line"]:  # the line really wins from there
        mirror.play(text)
    assert mirror.is_won()
    assert back["position"]["can_redo"]  # the moves taken back are not lost: they can be redone
    stats = checked(client.get("/api/stats"))["king-albert"]
    assert (stats["played"], stats["assisted"]) == (0, 1)  # the game is counted apart now


@pytest.mark.slow
@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_where_lost_names_the_last_move_when_the_game_ended_on_its_losing_move(client: TestClient, name: str) -> None:
    from helpers.lost import lost_by_its_last_move

    game = lost_by_its_last_move(name)
    moves = [str(m) for m in game.moves_played]
    view = start(client, name, game.deal)
    seen = visible_cards(view)  # what the player was shown face up: the only cards /lost may name
    for text in moves:
        view = send(client, view, [text])
        seen |= visible_cards(view)
    view = checked(client.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}))
    lost = checked(client.get(f"/api/games/{view['id']}/lost"), seen=seen)
    Lost.model_validate(lost)
    last = len(moves) - 1
    assert lost["verdict"] == "lost" and lost["certain"]
    assert (lost["move_index"], lost["move"], lost["last_possible"]) == (last, moves[last], last)
    back = checked(client.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": last}))
    assert back["moves"] == last and back["position"]["can_redo"]
    mirror = tableaux.new_game(name, game.deal)
    for move in moves[:last] + lost["line"]:
        mirror.play(move)
    assert mirror.is_won()


def test_rewind_goes_back_during_play_of_classic_king_albert_as_assisted_keeping_the_moves_to_redo(
        client: TestClient) -> None:
    """Where-lost answers during play where no card is hidden, and so does going back there."""
    from helpers.lost import losing_game

    game, k = losing_game("king-albert-classic")
    view = send(client, start(client, "king-albert-classic", game.deal), [str(m) for m in game.moves_played])
    back = checked(client.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": k}))
    assert back["assisted"] and back["moves"] == k and back["position"]["can_redo"]
    mirror = tableaux.new_game("king-albert-classic", game.deal)
    for move in game.moves_played[:k]:
        mirror.play(move)
    assert back["position"] == {**mirror.public_position(), "can_redo": True}


def test_rewind_is_refused_during_play_with_cards_hidden_and_beyond_the_moves_played(client: TestClient) -> None:
    view = send(client, start(client), ["R1>F1"])
    r = client.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": 0})
    assert r.status_code == 422 and "undo" in r.json()["error"]
    view = checked(client.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}))
    r = client.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": 5})
    assert r.status_code == 422 and "at most the 1 moves" in r.json()["error"]
    assert checked(client.get(f"/api/games/{view['id']}"))["given_up"]  # nothing changed


# --- the solution ------------------------------------------------------------------
@pytest.mark.slow
def test_solution_is_a_winning_line_from_the_current_position_and_marks_the_game_assisted(
    client: TestClient,
) -> None:
    view = send(client, start(client), ["R1>F1", "R6>F2"])
    answer = checked(client.post(f"/api/games/{view['id']}/solution", json={"version": view["version"]}))
    Solution.model_validate(answer)
    assert answer["verdict"] == "winnable" and answer["peeks"] is True
    assert answer["view"]["assisted"] and answer["view"]["version"] == view["version"] + 1
    assert answer["view"]["position"] == view["position"]  # marking it moved no card
    done = send(client, answer["view"], answer["moves"])
    assert done["won"]
    stats = checked(client.get("/api/stats"))["king-albert"]
    assert (stats["won"], stats["assisted"]) == (0, 1)


def test_solution_of_a_lost_position_says_so_and_with_cards_hidden_marks_the_game_assisted(
    client: TestClient,
) -> None:
    """That a position cannot be won is what only a look at its hidden cards tells: asked of the daily deal, it
    would let a racer try moves against them for free, so the game counts as assisted, as after a peeking hint.
    With every card in view it tells nothing the player cannot see, and changes nothing."""
    game = lost_line("eagle-wing", 5, seed=1)
    assert game.is_over()
    before = tableaux.Game.replay(game.rules, 5, game.moves_played[:-1])
    assert before.observation()["unseen"] > 0 and tableaux.solve(before).verdict == "unwinnable"
    view = send(client, start(client, "eagle-wing", 5), [str(m) for m in game.moves_played[:-1]])
    answer = checked(client.post(f"/api/games/{view['id']}/solution", json={"version": view["version"]}))
    assert answer["verdict"] == "unwinnable" and answer["moves"] == []
    assert answer["view"]["assisted"] and answer["view"]["position"] == view["position"]
    classic = lost_line("king-albert-classic", 4, seed=1)
    assert classic.is_over() and not classic.is_won()  # no move left: lost, with every card in view
    view = send(client, start(client, "king-albert-classic", 4), [str(m) for m in classic.moves_played])
    answer = checked(client.post(f"/api/games/{view['id']}/solution", json={"version": view["version"]}))
    assert answer["verdict"] == "unwinnable"
    assert not answer["view"]["assisted"] and answer["view"]["version"] == view["version"]


# --- graded deals and the daily deal ---------------------------------------------------
@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", None])
def test_winnable_only_deals_come_from_the_catalogue_with_their_grade(client: TestClient, difficulty: Any) -> None:
    view = checked(client.post("/api/games", json={"game": "eagle-wing", "winnable": True,
                                                   "difficulty": difficulty}), 201)
    entry = catalogue.lookup("eagle-wing", view["deal"])
    assert entry is not None and entry.verdict == "winnable"
    assert view["grade"] == entry.grade and (difficulty is None or entry.grade == difficulty)


def test_a_view_carries_the_deals_par_when_the_catalogue_holds_it_and_only_then(client: TestClient) -> None:
    pars = [e for e in catalogue.load("eagle-wing").winnable if e.par is not None]
    assert pars, "the shipped catalogue has no par yet: run python -m tableaux.catalogue par"
    entry = random.Random("par view").choice(pars)
    view = checked(client.post("/api/games", json={"game": "eagle-wing", "deal": entry.deal}), 201)
    assert view["par"] == entry.par
    lost = next(e for e in catalogue.load("eagle-wing").entries if not e.winnable)
    assert checked(client.post("/api/games", json={"game": "eagle-wing", "deal": lost.deal}), 201)["par"] is None
    outside = max(e.deal for e in catalogue.load("eagle-wing").entries) + 1
    assert checked(client.post("/api/games", json={"game": "eagle-wing", "deal": outside}), 201)["par"] is None


def test_a_deal_number_and_winnable_only_cannot_be_asked_together(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "king-albert", "deal": 5, "winnable": True})
    assert r.status_code == 422 and "not both" in r.json()["error"]
    r = client.post("/api/games", json={"game": "king-albert", "winnable": "yes"})
    assert r.status_code == 422 and "true or false" in r.json()["error"]


@pytest.fixture
def one_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today, held for the whole test: a test running across midnight UTC would otherwise see the next
    day's deal (rightly) halfway through. The server runs in this process (TestClient), so it sees it too."""
    day = catalogue.today()
    monkeypatch.setattr(catalogue, "today", lambda: day)
    monkeypatch.setattr(sys.modules["tableaux.catalogue.day"], "today", lambda: day)


@pytest.mark.slow
@pytest.mark.usefixtures("one_day")
def test_the_daily_deal_is_the_catalogues_for_today_and_is_played_once(client: TestClient, app: Any) -> None:
    entry = catalogue.daily("king-albert")
    first = checked(client.post("/api/daily", json={"game": "king-albert"}), 201)
    assert (first["deal"], first["daily"], first["grade"]) == (entry.deal, catalogue.today().isoformat(), entry.grade)
    again = checked(client.post("/api/daily", json={"game": "king-albert"}), 200)
    assert again["id"] == first["id"]
    other = checked(TestClient(app).post("/api/daily", json={"game": "king-albert"}), 201)
    assert other["deal"] == first["deal"] and other["id"] != first["id"]
    line = [str(m) for m in tableaux.solve("king-albert", entry.deal).moves]
    won = send(client, first, line)
    assert won["won"]
    stats = checked(client.get("/api/stats"))["king-albert"]
    assert (stats["daily_played"], stats["daily_won"], stats["daily_streak"], stats["won"]) == (1, 1, 1, 1)
    assert checked(client.post("/api/daily", json={"game": "king-albert"}), 200)["won"]  # shown as it ended


def test_the_daily_deal_is_one_game_all_utc_day_whatever_the_servers_time_zone(
    client: TestClient, time_zone: Callable[[str], None]
) -> None:
    """The two zones' local dates are always a day or two apart, their UTC date never."""
    ahead, behind = FAR_ZONES
    time_zone(ahead)
    before = utc_date()
    first = checked(client.post("/api/daily", json={"game": "eagle-wing"}), 201)
    time_zone(behind)
    again = client.post("/api/daily", json={"game": "eagle-wing"})
    after = utc_date()
    assert first["daily"] in (before.isoformat(), after.isoformat()), (first["daily"], before)
    assert first["deal"] == catalogue.daily("eagle-wing", first["daily"]).deal
    if before == after:  # (across midnight UTC the second request is rightly the next day's deal)
        assert again.status_code == 200 and again.json()["id"] == first["id"], again.json().get("daily")


def test_daily_streaks_count_consecutive_days_up_to_today_or_yesterday() -> None:
    days = ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-05", "2025-03-06"]
    assert daily_streaks(days, "2025-03-06") == (2, 3)
    assert daily_streaks(days, "2025-03-07") == (2, 3)  # today's deal may still be won
    assert daily_streaks(days, "2025-03-08") == (0, 3)  # a day was missed
    assert daily_streaks([], "2025-03-08") == (0, 0)


def test_resume_answers_null_for_a_new_player_and_creates_nothing(client: TestClient) -> None:
    assert checked(client.get("/api/resume")) == {"view": None}
    assert client.get("/api/current").status_code == 404
    view = start(client, "eagle-wing", 4)
    assert checked(client.get("/api/resume"))["view"]["id"] == view["id"]
    assert checked(client.get("/api/resume?game=king-albert"))["view"] is None


def test_the_game_info_gives_each_piles_notation_label(client: TestClient) -> None:
    for entry in checked(client.get("/api/games/info"))["games"]:
        assert set(entry["labels"]) == set(entry["piles"])
        for pile, label in entry["labels"].items():
            assert tableaux.Move.from_str(f"{label}>{label}").source == pile


@pytest.mark.slow
@pytest.mark.parametrize("how", ["undo", "restart"])
def test_taking_moves_back_from_a_game_that_is_over_counts_it_as_assisted(client: TestClient, how: str) -> None:
    """An ended game may be asked where it was lost, which looks at every card (the page asks at once): playing
    on from there is playing with the solver's help, as going back after giving up is."""
    game = tableaux.new_game("eagle-wing", 5)
    chooser = random.Random(1)
    while not game.is_over():  # random play; Eagle Wing soon runs out of moves
        assert not game.is_won()
        game.play(chooser.choice(game.legal_moves()))
    view = send(client, start(client, "eagle-wing", game.deal), [str(m) for m in game.moves_played])
    assert view["over"] and not view["assisted"]
    back = checked(client.post(f"/api/games/{view['id']}/{how}", json={"version": view["version"]}))
    assert back["assisted"] and not back["over"]


def test_undo_during_play_leaves_the_game_unassisted(client: TestClient) -> None:
    view = send(client, start(client), ["R1>F1", "R6>F2"])
    back = checked(client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}))
    assert not back["assisted"] and back["moves"] == 1
