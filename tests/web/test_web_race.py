"""The daily race in the web API: today's leaderboard of the daily deal, and display names.

Every test runs on SQLite and on PostgreSQL. The deal is the catalogue's daily one, the winning lines the
solver's (tests/helpers/race.py); times are the server's, from a clock held still and moved on by hand, so a
page's forged time changes nothing and no test waits.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import threading
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.browser import hidden_card_problems
from helpers.race import daily_line
from helpers.store import HeldClock, hold_store_clock, rewrite
from tableaux import catalogue
from tableaux.cli import main, serve
from tableaux.web import names
from tableaux.web.app import create_app
from tableaux.web.database import Database, parse_database
from tableaux.web.migrations import SCHEMA_VERSION, migrate
from tableaux.web.player_stats import tenths
from tableaux.web.server import settings_of
from tableaux.web.standings import NAME_CHANGES, NAME_WINDOW, TOP, Win, rank
from tableaux.web.store import NameTaken, Store

GAME = "king-albert"
ENTRY_FIELDS = {"rank", "name", "moves", "seconds", "you"}


@pytest.fixture
def db(database: str) -> str:
    return database


@pytest.fixture
def one_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """Today, held for the whole test (a test running across midnight UTC would see the next day's deal)."""
    day = catalogue.today()
    monkeypatch.setattr(catalogue, "today", lambda: day)
    monkeypatch.setattr(sys.modules["tableaux.catalogue.day"], "today", lambda: day)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> HeldClock:
    return hold_store_clock(monkeypatch, 1_000_000.0)


@pytest.fixture
def app(make_app: Any, one_day: None, clock: HeldClock) -> Any:
    return make_app()


def board(client: TestClient, game: str = GAME) -> dict[str, Any]:
    r = client.get("/api/daily/leaderboard", params={"game": game})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert not hidden_card_problems(str(r.url), answer)
    for entry in [*answer["top"], *([answer["you"]] if answer["you"] else [])]:
        assert set(entry) == ENTRY_FIELDS  # names, moves, times and ranks: nothing about a card
    return answer


def daily(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/daily", json={"game": GAME})
    assert r.status_code in (200, 201), r.text
    return r.json()


def play(client: TestClient, view: dict[str, Any], line: list[str], clock: HeldClock, step: float,
         played: float | None = None) -> dict[str, Any]:
    """Play ``line`` from ``view``, ``step`` seconds of the server's clock apart; ``played``: the time the page
    claims with every move (a forged one)."""
    for text in line:
        clock.now += step
        body: dict[str, Any] = {"move": text, "version": view["version"]}
        if played is not None:
            body["played"] = played
        r = client.post(f"/api/games/{view['id']}/moves", json=body)
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def set_name(client: TestClient, name: Any) -> Any:
    return client.put("/api/name", json={"name": name})


# --- the day's deal ------------------------------------------------------------------------------
def test_a_catalogue_that_draws_another_deal_mid_day_leaves_the_days_race_on_its_deal(
        app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that takes a catalogue built by a later solver mid-day (which can draw another deal for a day)
    keeps the race that began on the day's first deal: a second player gets that deal, not the new draw."""
    first = daily(TestClient(app))
    drawn = catalogue.daily(GAME, first["daily"])
    assert first["deal"] == drawn.deal
    other = next(e for e in catalogue.load(GAME).winnable if e.deal != drawn.deal)
    monkeypatch.setattr(catalogue, "daily", lambda game, date=None: other)
    second = daily(TestClient(app))
    assert second["daily"] == first["daily"] and second["deal"] == first["deal"]
    assert second["id"] != first["id"]


# --- the ranking ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_wins_are_ranked_by_fewer_moves_then_less_server_time_whatever_the_page_claims(
    app: Any, clock: HeldClock
) -> None:
    short, long = daily_line(), daily_line(detours=1)
    assert len(long) == len(short) + 2
    players = {who: TestClient(app) for who in ("slow", "quick", "long", "forger")}
    for client in players.values():
        daily(client)
    # quick plays the short line a second a move, forger 1.5 s a move while its page claims a tenth of a second
    # in all; slow plays it five seconds a move; long is quickest but plays two moves more.
    play(players["quick"], daily(players["quick"]), short, clock, 1.0)
    forged = play(players["forger"], daily(players["forger"]), short, clock, 1.5, played=0.1)
    assert forged["elapsed_seconds"] == 0.1  # the page's claim, kept within the server's count
    play(players["slow"], daily(players["slow"]), short, clock, 5.0)
    won = play(players["long"], daily(players["long"]), long, clock, 0.5)
    assert won["won"] and not won["assisted"]
    seen = board(players["quick"])
    assert [(e["rank"], e["moves"], e["seconds"], e["you"]) for e in seen["top"]] == [
        (1, len(short), tenths((len(short) - 1) * 1.0), True),
        (2, len(short), tenths((len(short) - 1) * 1.5), False),  # the server's time, not the page's
        (3, len(short), tenths((len(short) - 1) * 5.0), False),
        (4, len(long), tenths((len(long) - 1) * 0.5), False),
    ]
    assert all(e["name"] is None for e in seen["top"]) and seen["ranked"] == 4 and seen["status"] == "ranked"
    assert seen["you"] == seen["top"][0]
    mine = board(players["long"])
    assert mine["you"] == {**mine["top"][3], "you": True}
    assert [e["you"] for e in mine["top"]] == [False, False, False, True]


@pytest.mark.slow
def test_assisted_given_up_and_unfinished_games_are_not_ranked(app: Any, clock: HeldClock) -> None:
    line = daily_line()
    winner, helped, quitter, playing, absent = (TestClient(app) for _ in range(5))
    play(winner, daily(winner), line, clock, 1.0)
    # going back after giving up (where the game was lost is shown then) marks the game assisted: its win is not
    # ranked
    view = play(helped, daily(helped), line[:3], clock, 1.0)
    view = helped.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}).json()
    view = helped.post(f"/api/games/{view['id']}/rewind", json={"version": view["version"], "keep": 3}).json()
    assert view["assisted"] and not view["given_up"]
    assert play(helped, view, line[3:], clock, 0.1)["won"]
    view = play(quitter, daily(quitter), line[:-1], clock, 0.1)
    assert quitter.post(f"/api/games/{view['id']}/give-up", json={"version": view["version"]}).json()["given_up"]
    play(playing, daily(playing), line[:-1], clock, 0.1)
    entries = board(winner)["top"]
    assert [(e["rank"], e["you"]) for e in entries] == [(1, True)]
    for client, status in ((helped, "assisted"), (quitter, "given-up"), (playing, "playing"),
                           (absent, "not-played")):
        seen = board(client)
        assert (seen["status"], seen["you"], seen["ranked"]) == (status, None, 1)
        assert seen["top"] == [{**entries[0], "you": False}]


def test_one_entry_per_player_per_day_their_first_game_of_the_deal(app: Any, clock: HeldClock) -> None:
    """A race of two daily requests may make two games; only the first, the one /api/daily gives back, counts."""
    client = TestClient(app)
    first = daily(client)
    store: Store = app.state.store
    player = store.player_for(client.cookies["tableaux_player"])
    assert player is not None
    second = store.create_game(player, GAME, first["deal"], daily=first["daily"])
    line = daily_line(detours=1)
    play(client, first, line, clock, 1.0)
    play(client, client.get(f"/api/games/{second.id}").json(), daily_line(), clock, 0.1)  # shorter and quicker
    seen = board(client)
    assert seen["ranked"] == 1 and seen["you"]["moves"] == len(line) and seen["you"] == seen["top"][0]


def test_a_win_after_playing_the_same_deal_in_another_game_is_not_ranked(app: Any, clock: HeldClock) -> None:
    """Another game of the deal could show its cards or its solution: the daily win after it is not on the board."""
    client = TestClient(app)
    view = daily(client)
    line = daily_line()
    practice = client.post("/api/games", json={"game": GAME, "deal": view["deal"]}).json()
    play(client, practice, line[:5], clock, 1.0)
    play(client, view, line, clock, 1.0)
    seen = board(client)
    assert (seen["ranked"], seen["you"], seen["status"]) == (0, None, "played-before")
    # a game of the deal begun after the win changes nothing
    other = TestClient(app)
    play(other, daily(other), line, clock, 1.0)
    play(other, other.post("/api/games", json={"game": GAME, "deal": view["deal"]}).json(), line[:5], clock, 1.0)
    assert board(other)["status"] == "ranked"


@pytest.mark.slow
def test_a_peeking_hint_or_a_solution_shown_keeps_the_win_off_the_board(
    database: str, one_day: None, clock: HeldClock
) -> None:
    from tableaux.web.pool import SolverPool

    application = create_app(database, hint_time_limit=120.0, solve_time_limit=120.0,
                             pool=SolverPool(workers=1, limit=4))
    with TestClient(application) as peeker:
        line = daily_line()
        view = daily(peeker)
        answer = peeker.post(f"/api/games/{view['id']}/hint", json={"mode": "peek"}).json()
        assert answer["hint"]["peeks"] and answer["view"]["assisted"]
        assert play(peeker, answer["view"], line, clock, 0.1)["won"]
        solver = TestClient(application)
        view = play(solver, daily(solver), line[:2], clock, 0.1)
        answer = solver.post(f"/api/games/{view['id']}/solution", json={"version": view["version"]}).json()
        assert answer["verdict"] == "winnable" and answer["view"]["assisted"]
        assert play(solver, answer["view"], answer["moves"], clock, 0.1)["won"]
        for client in (peeker, solver):
            seen = board(client)
            assert (seen["ranked"], seen["status"], seen["you"]) == (0, "assisted", None)
    application.state.store.close()


def test_the_players_own_rank_comes_with_the_board_beyond_the_top_ten(app: Any, clock: HeldClock) -> None:
    store: Store = app.state.store
    date = catalogue.today().isoformat()
    deal = catalogue.daily(GAME).deal
    players = [store.new_player() for _ in range(TOP + 3)]
    for i, (_token, player) in enumerate(players):  # each a second slower than the one before
        record = store.create_game(player, GAME, deal, daily=date)
        record = store.save_change(record, rewrite(["m"]))
        clock.now += 60 + i
        store.save_change(record, rewrite(["m"] * 80, won=True))
        clock.now -= 60 + i
    last = TestClient(app, headers={"X-Player-Token": players[-1][0]})
    seen = board(last)
    assert len(seen["top"]) == TOP and seen["ranked"] == TOP + 3
    assert [e["rank"] for e in seen["top"]] == list(range(1, TOP + 1)) and not any(e["you"] for e in seen["top"])
    assert seen["you"] == {"rank": TOP + 3, "name": None, "moves": 80, "seconds": 60.0 + TOP + 2, "you": True}


def test_wins_equal_in_moves_and_shown_time_share_a_rank() -> None:
    wins = [Win("a", 80, 61.04, 5.0), Win("b", 80, 61.0, 4.0), Win("c", 79, 90.0, 9.0), Win("d", 80, 61.2, 1.0)]
    assert [(p.rank, p.win.player) for p in rank(wins)] == [(1, "c"), (2, "b"), (2, "a"), (4, "d")]


wins = st.lists(st.builds(Win, st.text(min_size=1, max_size=4), st.integers(1, 300),
                          st.floats(0, 10_000, allow_nan=False), st.floats(0, 1e9, allow_nan=False)),
                max_size=30, unique_by=lambda w: w.player)


@given(wins)
def test_the_ranking_is_the_wins_sorted_by_moves_then_time_each_rank_one_more_than_the_wins_ahead(
    chosen: list[Win],
) -> None:
    places = rank(chosen)
    assert sorted(p.win.player for p in places) == sorted(w.player for w in chosen)
    key = [(p.win.moves, tenths(p.win.seconds)) for p in places]
    assert key == sorted(key)
    for place in places:
        ahead = sum(1 for w in chosen if (w.moves, tenths(w.seconds)) < (place.win.moves, tenths(place.win.seconds)))
        assert place.rank == ahead + 1


DAYS = itertools.count()
games = st.lists(st.tuples(st.integers(1, 120), st.integers(0, 5000), st.sampled_from(
    ["won", "won", "won", "assisted", "given-up", "playing", "assisted-loss"])), max_size=12)


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    opened = Store(database)
    yield opened
    opened.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games)
def test_the_stored_leaderboard_is_the_unassisted_wins_sorted_by_moves_then_server_time(
    store: Store, clock: HeldClock, chosen: list[tuple[int, int, str]]
) -> None:
    date = f"{2000 + next(DAYS)}-01-01"  # a day of its own for each example, on the one database
    expected = []
    for i, (moves, tenth_seconds, how) in enumerate(chosen):
        player = f"{date}-p{i}"
        record = store.create_game(player, GAME, 7, daily=date)
        record = store.save_change(record, rewrite(["m"], assisted=how.startswith("assisted") or None))
        start = clock.now
        clock.now = start + tenth_seconds / 10
        store.save_change(record, rewrite(["m"] * moves, won=how in ("won", "assisted"), given_up=how == "given-up"))
        if how == "won":
            expected.append((moves, tenths(clock.now - start), player))
        clock.now = start
    places = rank(store.daily_wins(GAME, date))
    assert [(p.win.moves, tenths(p.win.seconds), p.win.player) for p in places] == sorted(expected)


# --- display names ---------------------------------------------------------------------------------
@pytest.fixture
def named(app: Any) -> TestClient:
    """A player with a game (a name comes with a player's first game)."""
    client = TestClient(app)
    daily(client)
    return client


def test_a_name_is_shown_on_the_board_and_anonymous_players_by_no_name_at_all(
    app: Any, named: TestClient, clock: HeldClock
) -> None:
    r = set_name(named, "  Ada   Lovelace ")
    assert r.status_code == 200 and r.json() == {"name": "Ada Lovelace", "changes_left": NAME_CHANGES - 1}
    other = TestClient(app)
    line = daily_line()
    play(named, daily(named), line, clock, 1.0)
    play(other, daily(other), line, clock, 2.0)
    seen = board(other)
    assert [e["name"] for e in seen["top"]] == ["Ada Lovelace", None] and seen["name"] is None
    token = other.cookies["tableaux_player"]
    assert token not in str(seen) and (app.state.store.player_for(token) or "?") not in str(seen)
    assert (board(named)["name"], board(named)["changes_left"]) == ("Ada Lovelace", NAME_CHANGES - 1)
    assert set_name(named, None).json()["name"] is None and board(other)["top"][0]["name"] is None


@pytest.mark.parametrize(("name", "says"), [
    ("A", "of length 1 is"), ("x" * 25, "of length 25 is"), ("   ", "of length 0 is"),
    ("Ada\nLovelace", "U+000A"), ("Ada\u202eecalevol", "U+202E"), ("Ada\u200b", "U+200B"), ("<script>", "'<'"),
    ("Ada@home", "'@'"), ("<script>alert(1)</script>", "'<'"),
    ("---", "at least one letter or digit"), (5, "must be text"), (["Ada"], "must be text"),
    ("Anonymous", "without a name"), ("ANONYMOUS", "without a name"), ("anonyme", "without a name"),
    ("Anónimo", "without a name"), ("Anoniem", "without a name"),
])
def test_a_name_that_is_not_accepted_is_a_422_saying_what_is_and_changes_nothing(
    named: TestClient, name: Any, says: str
) -> None:
    r = set_name(named, name)
    assert r.status_code == 422 and says in r.json()["error"], r.text
    assert "letters, digits, spaces" in r.json()["error"] or "without a name" in r.json()["error"]
    assert (board(named)["name"], board(named)["changes_left"]) == (None, NAME_CHANGES)


@pytest.mark.parametrize(("params", "says"), [
    ({}, "query 'game' is missing; choose one of king-albert, eagle-wing, king-albert-classic"),
    ({"game": "klondike"}, "unknown game 'klondike'; choose one of king-albert, eagle-wing, king-albert-classic"),
])
def test_a_board_asked_for_no_game_or_an_unknown_one_is_a_422_naming_the_games(
    app: Any, params: dict[str, str], says: str
) -> None:
    r = TestClient(app).get("/api/daily/leaderboard", params=params)
    assert r.status_code == 422 and r.json() == {"error": says}, r.text


def test_names_are_unique_whatever_their_case_and_a_player_may_recase_their_own(app: Any, named: TestClient) -> None:
    assert set_name(named, "Straße 9").status_code == 200
    other = TestClient(app)
    daily(other)
    for taken in ("straße 9", "STRASSE 9", "Strasse  9"):
        r = set_name(other, taken)
        assert r.status_code == 422 and "taken" in r.json()["error"], r.text
    assert board(other)["name"] is None
    assert set_name(named, "STRASSE 9").json()["name"] == "STRASSE 9"
    assert set_name(other, "Strasse 10").status_code == 200


def test_name_changes_are_limited_to_a_few_a_day_and_the_error_says_the_limit(
    named: TestClient, clock: HeldClock
) -> None:
    for i in range(NAME_CHANGES):
        assert set_name(named, f"Name {i}").json()["changes_left"] == NAME_CHANGES - 1 - i
    assert set_name(named, f"Name {NAME_CHANGES - 1}").status_code == 200  # the same name again costs nothing
    r = set_name(named, "One more")
    assert r.status_code == 429 and f"{NAME_CHANGES} times in 24 hours" in r.json()["error"]
    assert 0 < int(r.headers["retry-after"]) <= NAME_WINDOW
    assert (board(named)["name"], board(named)["changes_left"]) == (f"Name {NAME_CHANGES - 1}", 0)
    clock.now += NAME_WINDOW + 1
    assert set_name(named, "One more").json() == {"name": "One more", "changes_left": NAME_CHANGES - 1}


def test_a_name_waits_for_the_players_first_game(app: Any) -> None:
    newcomer = TestClient(app)
    r = set_name(newcomer, "Early Bird")
    assert r.status_code == 422 and "first game" in r.json()["error"]
    assert set_name(newcomer, None).json() == {"name": None, "changes_left": NAME_CHANGES}  # nothing to undo


def test_a_forgotten_player_takes_their_name_along(app: Any, clock: HeldClock) -> None:
    """A player whose only game was never moved is forgotten after a while, and their name is free again."""
    client = TestClient(app)
    daily(client)
    assert set_name(client, "Passer By").status_code == 200
    store: Store = app.state.store
    store.tidy(clock.now + 2 * NAME_WINDOW, 3600.0)
    other = TestClient(app)
    daily(other)
    assert set_name(other, "Passer By").status_code == 200


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_an_accepted_name_is_trimmed_printable_and_reads_the_same_again(text: str) -> None:
    try:
        name = names.read_name(text)
    except names.NameRefused as refused:
        assert "letter" in str(refused) or "without a name" in str(refused)
        return
    assert names.NAME_MIN <= len(name) <= names.NAME_MAX and name == name.strip() and "  " not in name
    assert not any(unicodedata.category(c)[0] == "C" for c in name)
    assert names.read_name(name) == name


# --- a private install ---------------------------------------------------------------------------------
def test_without_the_leaderboard_its_routes_answer_404_saying_so_and_the_page_is_told(make_app: Any) -> None:
    client = TestClient(make_app(leaderboard=False))
    daily(client)
    for r in (client.get("/api/daily/leaderboard", params={"game": GAME}), set_name(client, "Ada")):
        assert r.status_code == 404 and "--no-leaderboard" in r.json()["error"], r.text
    assert client.get("/api/games/info").json()["leaderboard"] is False


def test_with_the_leaderboard_the_page_is_told_so(app: Any) -> None:
    assert TestClient(app).get("/api/games/info").json()["leaderboard"] is True


def test_two_players_claiming_one_name_at_once_get_it_once(store: Store) -> None:
    """The unique key decides, in either store: one player has the name, the other is told it is taken."""
    players = [store.create_game(f"p{i}", GAME, 7).player for i in range(2)]
    barrier = threading.Barrier(len(players))
    outcomes: list[str] = []

    def claim(player: str) -> None:
        barrier.wait()
        try:
            store.set_name(player, "Same Name" if player == "p0" else "same name")
            outcomes.append("named")
        except NameTaken:
            outcomes.append("taken")

    threads = [threading.Thread(target=claim, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["named", "taken"]
    assert sum(store.name(player)[0] is not None for player in players) == 1


def test_serve_says_how_to_turn_the_race_off_and_does_so(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--no-leaderboard" in capsys.readouterr().out
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    database = Database(path=None, url="postgresql://nobody@127.0.0.1/none")
    assert settings_of(parser.parse_args([]), database, None).leaderboard is True
    assert settings_of(parser.parse_args(["--no-leaderboard"]), database, None).leaderboard is False


def test_a_daily_win_stored_before_the_race_is_timed_from_its_deal(database: str) -> None:
    """A database of schema version 6 keeps its games; a win stored then has no first change on record, so the
    leaderboard counts its time from the deal, still a time only the server stamped. Games changed after the
    step are timed from their first change."""
    conn = parse_database(database).engine().first()
    assert migrate(conn, target=6) == 6
    conn.execute("INSERT INTO players (id, created_at) VALUES ('p1', 1000.0)")
    conn.execute("INSERT INTO games (id, player, game, deal, version, started_at, updated_at, finished_at, won, "
                 "move_count, line_length, ever_moved, daily, elapsed) "
                 "VALUES ('g-old', 'p1', ?, 7, 80, 1000.0, 1400.0, 1400.0, 1, 80, 80, 1, '2001-01-01', 12.5)",
                 (GAME,))
    conn.close()
    store = Store(database)
    try:
        assert store.schema_version() == SCHEMA_VERSION
        assert store.daily_wins(GAME, "2001-01-01") == [Win("p1", 80, 400.0, 1400.0)]
        assert store.name("p1") == (None, NAME_CHANGES)
    finally:
        store.close()
