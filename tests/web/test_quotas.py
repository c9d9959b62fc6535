"""What one greedy client may cost: new games a minute per player and per address, and nothing lasting for games
never moved. On SQLite and on PostgreSQL; the counts are in the database, so they hold across server processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.logbook import held_refusals
from helpers.store import HeldClock, hold_store_clock, query
from tableaux.web.limits import Limits, address_bucket
from tableaux.web.logbook import Throttle


@pytest.fixture
def db(database: str) -> str:
    """Every app of these tests on the test's database, once in each store."""
    return database


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> HeldClock:
    """The store's time, held still (a minute's count does not roll over in the middle of a test) and moved on."""
    return hold_store_clock(monkeypatch, 1_000_000 * 60.0 + 1.0)  # a second into a minute


def anonymous_new_game(app: Any, deal: int) -> Any:
    """A new game from a client that never sends a cookie back: a new player each time."""
    return TestClient(app).post("/api/games", json={"game": "king-albert", "deal": deal})


@pytest.mark.slow
def test_refusals_are_logged_the_first_at_once_then_a_line_a_minute_saying_how_many(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = Throttle(clock=lambda: now[0])
    with caplog.at_level("WARNING", logger="tableaux.web"):
        for moment in (0.0, 10.0, 20.0, 59.0, 61.0):
            now[0] = moment
            refusals.note("new games", lambda count: f"{count} refused")
        refusals.note("solver", lambda count: f"{count} without the solver")
    assert [r.getMessage() for r in caplog.records] == ["1 refused", "4 refused", "1 without the solver"]


def test_an_anonymous_flood_is_refused_beyond_the_address_quota_and_leaves_nothing_lasting(
    make_app: Callable[..., Any], database: str, clock: HeldClock, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scheduled = held_refusals(monkeypatch)
    limits = Limits(games_per_player=30, games_per_address=50)
    app = make_app(limits=limits)
    with caplog.at_level("WARNING", logger="tableaux.web"):
        answers = [anonymous_new_game(app, deal) for deal in range(600)]
        # The host reads of the flood in the log at once, and of its size within the minute: not 550 lines.
        assert [r.getMessage() for r in caplog.records if "refused" in r.getMessage()] == [
            "1 new game refused, over a player's or an address's limit a minute, since the last such line. Most "
            "came from testclient (1)."]
        [(_seconds, minute_over)] = scheduled
        minute_over()
    assert [r.getMessage() for r in caplog.records if "refused" in r.getMessage()][1:] == [
        "549 new games refused, over a player's or an address's limit a minute, since the last such line. Most "
        "came from testclient (549)."]
    assert [r.status_code for r in answers].count(201) == 50
    refused = answers[50:]
    assert {r.status_code for r in refused} == {429}
    assert all(r.headers["retry-after"] == "59" for r in refused)  # the minute ends in 59 s
    assert "at most 50 a minute from one address" in refused[0].json()["error"]
    assert query(database, "SELECT COUNT(*) FROM games") == [(50,)]
    assert query(database, "SELECT COUNT(*) FROM players") == [(50,)]
    store = app.state.store
    clock.now += 60
    assert anonymous_new_game(app, 1000).status_code == 201  # a new minute, a new count
    gone = store.tidy(clock.now + limits.unmoved_after + 1, limits.unmoved_after)
    assert gone["games"] == 51 and gone["players"] == 51
    assert query(database, "SELECT COUNT(*) FROM games") == [(0,)]
    assert query(database, "SELECT COUNT(*) FROM players") == [(0,)]
    store.tidy(clock.now + 2 * 24 * 3600, limits.unmoved_after)
    assert query(database, "SELECT COUNT(*) FROM quotas") == [(0,)]
    assert query(database, "SELECT COUNT(*) FROM changes") == [(0,)]


def test_one_player_s_new_games_are_counted_across_server_processes(
    make_app: Callable[..., Any], clock: HeldClock,
) -> None:
    limits = Limits(games_per_player=30, games_per_address=1000)
    first = TestClient(make_app(limits=limits))
    first.post("/api/games", json={"game": "king-albert", "deal": 0})
    second = TestClient(make_app(limits=limits), cookies=first.cookies)  # another process, the same player
    statuses = [client.post("/api/games", json={"game": "eagle-wing", "deal": deal}).status_code
                for deal in range(1, 30) for client in (first, second)]
    assert statuses.count(201) == 29 and statuses.count(429) == 29  # 30 with the first one, in both processes
    refused = second.post("/api/games", json={"game": "eagle-wing", "deal": 99})
    assert "at most 30 a minute for each player" in refused.json()["error"]
    assert TestClient(first.app).post("/api/games", json={"game": "eagle-wing", "deal": 5}).status_code == 201
    clock.now += 60
    assert second.post("/api/games", json={"game": "eagle-wing", "deal": 99}).status_code == 201


def test_a_new_game_sent_again_with_its_request_id_is_answered_and_not_counted_twice(
    make_app: Callable[..., Any], database: str, clock: HeldClock,
) -> None:
    client = TestClient(make_app(limits=Limits(games_per_player=2)))
    first = client.post("/api/games", json={"game": "king-albert", "deal": 3}, headers={"Idempotency-Key": "a"})
    again = client.post("/api/games", json={"game": "king-albert", "deal": 3}, headers={"Idempotency-Key": "a"})
    assert first.status_code == again.status_code == 201 and first.json()["id"] == again.json()["id"]
    other = client.post("/api/games", json={"game": "king-albert", "deal": 4}, headers={"Idempotency-Key": "a"})
    assert other.status_code == 422 and "already used for a different request" in other.json()["error"]
    assert client.post("/api/games", json={"game": "king-albert", "deal": 5}).status_code == 201  # the second
    assert client.post("/api/games", json={"game": "king-albert", "deal": 6}).status_code == 429
    assert query(database, "SELECT COUNT(*) FROM games") == [(2,)]


def test_forgetting_games_never_moved_keeps_every_played_game_the_newest_game_and_the_statistics(
    make_app: Callable[..., Any], database: str, clock: HeldClock,
) -> None:
    limits = Limits()
    app = make_app(limits=limits)
    player = TestClient(app)

    def new(deal: int) -> dict[str, Any]:
        clock.now += 1
        r = player.post("/api/games", json={"game": "king-albert", "deal": deal})
        assert r.status_code == 201, r.text
        return r.json()

    untouched_before = new(11)
    played = new(1)
    r = player.post(f"/api/games/{played['id']}/moves", json={"move": "R5>F1", "version": 0})
    assert r.status_code == 200
    untouched_between = new(12)
    newest = new(13)
    stats = player.get("/api/stats").json()
    gone = app.state.store.tidy(clock.now + limits.unmoved_after + 1, limits.unmoved_after)
    assert gone["games"] == 2 and gone["players"] == 0
    left = {gid for (gid,) in query(database, "SELECT id FROM games")}
    assert left == {played["id"], newest["id"]}
    assert untouched_before["id"] not in left and untouched_between["id"] not in left
    assert player.get("/api/stats").json() == stats  # a game never moved counts in no statistic
    assert player.get("/api/current").json()["id"] == newest["id"]


@pytest.mark.parametrize(("address", "bucket"), [
    ("203.0.113.7", "203.0.113.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff::9", "2001:db8:1:2::/64"),  # the same network: one machine's addresses count together
    ("::ffff:198.51.100.3", "198.51.100.3"),
    ("testclient", "testclient"),
    ("203.0.113.7:41234", "203.0.113.7"),  # a port a proxy gave with the address is not the client
    ("[2001:db8:1:2::9]:443", "2001:db8:1:2::/64"),
    ("[2001:db8:1:2::9]", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::443", "2001:db8:1:2::/64"),  # without brackets, the last group is the address's own
    ("203.0.113.7:http", "203.0.113.7:http"),  # no IP address with a port: counted by what it is
    ("[example.com]:443", "[example.com]:443"),
])
def test_an_address_is_counted_as_itself_or_by_its_ipv6_network(address: str, bucket: str) -> None:
    assert address_bucket(address) == bucket
