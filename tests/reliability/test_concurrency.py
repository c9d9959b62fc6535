"""Many players at once, several tabs each on one game, against the real server over loopback.

Every tab of a player shares the player's cookie and plays the same game from
its own (often stale) view, as browser tabs do. Proved here:

- no cross-talk: every answer is about the asker's own game, ``/api/current``
  is always the asker's game, and other players' games answer 404 all along;
- stale requests are refused with 409 and the current view, and change nothing;
- no lost and no duplicated move: every acknowledged change has its own
  version, the versions of a game are exactly 1..N, and replaying the
  acknowledged changes in version order through the engine gives the stored
  game and, at each step, the position that change's answer showed.

A hypothesis state machine then explores the interleavings of three tabs one
request at a time, with server restarts in between, against an engine model that
decides each answer (200, 409 or 422) before the request is sent.

Short by default; ``TABLEAUX_CONCURRENCY_SECONDS``, ``TABLEAUX_CONCURRENCY_PLAYERS``
and ``TABLEAUX_TABS_EXAMPLES`` make a long run (benchmarks/reliability.py does).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import tableaux
from helpers.net import free_port
from helpers.report import report
from helpers.server import server, wait_until_answering
from helpers.store import check_integrity, query, stored_lines
from tableaux import Move
from tableaux.web.app import COOKIE, create_app

SECONDS = float(os.environ.get("TABLEAUX_CONCURRENCY_SECONDS", "3"))
PLAYERS = int(os.environ.get("TABLEAUX_CONCURRENCY_PLAYERS", "10"))
TABS = int(os.environ.get("TABLEAUX_CONCURRENCY_TABS", "3"))
MIN_CHANGES = 3
"""Changes each game gets at least, however slow the machine: a run always has something to check."""
RESULTS: dict[str, float] = {}
"""Figures of the last run, read by benchmarks/reliability.py."""


@dataclass
class Ack:
    """One acknowledged change: the version it produced, what it did, and the position it answered."""

    version: int
    action: str
    move: str | None
    position: dict[str, Any]


@dataclass
class PlayerGame:
    cookie: str
    game_id: str
    name: str
    deal: int
    acks: list[Ack] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Load:
    def __init__(self, urls: list[str], players: list[PlayerGame], stop_at: float) -> None:
        self.urls = urls
        self.players = players
        self.stop_at = stop_at
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []
        self.lock = threading.Lock()

    def request(self, c: httpx2.Client, method: str, path: str, body: Any = None) -> httpx2.Response:
        start = time.perf_counter()
        r = c.request(method, path, json=body)
        elapsed = time.perf_counter() - start
        with self.lock:
            self.latencies.append(elapsed)
            self.statuses[r.status_code] += 1
        return r

    def fail(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def tab(self, me: PlayerGame, other: PlayerGame, seed: int, url: str) -> None:
        rng = random.Random(seed)
        with httpx2.Client(base_url=url, cookies={COOKIE: me.cookie}, timeout=30.0) as c:
            view = self.request(c, "GET", f"api/games/{me.game_id}").json()
            # Until the time is up, and in any case until this tab's game has a few changes (a slow machine
            # must not leave the run with too little played to prove anything).
            while (time.monotonic() < self.stop_at or len(me.acks) < MIN_CHANGES) and not self.errors:
                roll = rng.random()
                if roll < 0.03:  # cross-talk probes
                    r = self.request(c, "GET", "api/current")
                    if r.status_code != 200 or r.json()["id"] != me.game_id:
                        self.fail(f"/api/current for {me.game_id} answered {r.status_code} {r.text[:100]}")
                    continue
                if roll < 0.05:
                    r = self.request(c, "POST", f"api/games/{other.game_id}/undo", {"version": 1})
                    if r.status_code != 404:
                        self.fail(f"another player's game answered {r.status_code}: {r.text[:100]}")
                    continue
                pos = view["position"]
                if pos["can_undo"] and (roll < 0.15 or not view["legal_moves"]):
                    action, move = "undo", None
                elif pos["can_redo"] and roll < 0.2:
                    action, move = "redo", None
                elif view["legal_moves"]:
                    action, move = "moves", rng.choice(view["legal_moves"])["text"]
                else:
                    break
                sent = view["version"]
                body: dict[str, Any] = {"version": sent}
                if move is not None:
                    body["move"] = move
                r = self.request(c, "POST", f"api/games/{me.game_id}/{action}", body)
                answer = r.json()
                if r.status_code == 200:
                    if answer["id"] != me.game_id or answer["version"] != sent + 1:
                        self.fail(f"answer about {answer['id']} v{answer['version']} to a change of "
                                  f"{me.game_id} v{sent}")
                    with me.lock:
                        me.acks.append(Ack(answer["version"], action, move, answer["position"]))
                    view = answer
                elif r.status_code == 409:
                    current = answer["view"]
                    if current["id"] != me.game_id or current["version"] <= sent:
                        self.fail(f"409 for v{sent} with view {current['id']} v{current['version']}")
                    view = current
                else:
                    self.fail(f"{action} {move} at v{sent} answered {r.status_code}: {r.text[:200]}")


def replay_acks(game: PlayerGame) -> tableaux.Game:
    """The acknowledged changes in version order, through the engine, checking each answered position."""
    mirror = tableaux.new_game(game.name, game.deal)
    for expected, ack in enumerate(sorted(game.acks, key=lambda a: a.version), 1):
        assert ack.version == expected, f"{game.game_id}: versions go {expected - 1} -> {ack.version}"
        if ack.action == "moves":
            assert ack.move is not None
            mirror.play(Move.from_str(ack.move))
        else:
            getattr(mirror, ack.action)()
        assert ack.position == mirror.public_position(), f"{game.game_id} v{ack.version}"
    return mirror


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def concurrency_run(db: str, players: int, tabs: int, seconds: float, servers: int = 1) -> dict[str, float]:
    """``players`` players with ``tabs`` tabs each, on database ``db``; with several ``servers`` (processes on
    one database) a player's tabs are spread over them."""
    with ExitStack() as stack:
        urls = []
        for _ in range(servers):
            # every player here comes from 127.0.0.1, each tab asking nonstop: one address's share of the
            # requests in hand (8 by default) must hold them all
            s = stack.enter_context(server(["serve", "--port", str(free_port()), "--no-browser", "--db", db,
                                            "--requests-per-address", str(players * tabs)]))
            urls.append(s.url())
            wait_until_answering(urls[-1])
        url = urls[0]
        games: list[PlayerGame] = []
        for i in range(players):
            name, deal = ("king-albert", "eagle-wing")[i % 2], 1000 + i
            with httpx2.Client(base_url=url) as c:
                c.post("api/games", json={"game": "eagle-wing", "deal": 7})  # an older game: current must skip it
                view = c.post("api/games", json={"game": name, "deal": deal}).json()
                games.append(PlayerGame(c.cookies[COOKIE], view["id"], name, deal))
        load = Load(urls, games, time.monotonic() + seconds)
        threads = [
            threading.Thread(target=load.tab, args=(g, games[(i + 1) % players], i * 100 + t, urls[t % servers]))
            for i, g in enumerate(games) for t in range(tabs)
        ]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - started
        assert not load.errors, load.errors[:5]
        finals = {}
        for g in games:
            with httpx2.Client(base_url=url, cookies={COOKIE: g.cookie}) as c:
                finals[g.game_id] = c.get(f"api/games/{g.game_id}").json()
    check_integrity(db)
    lines = stored_lines(db)
    versions = dict(query(db, "SELECT id, version FROM games"))
    for g in games:
        mirror = replay_acks(g)
        (moves, redo), version = lines[g.game_id], versions[g.game_id]
        assert version == len(g.acks) == finals[g.game_id]["version"], g.game_id
        assert moves == [str(m) for m in mirror.moves_played] and redo == [str(m) for m in mirror.redo_moves]
        assert finals[g.game_id]["position"] == mirror.public_position()
    changes = sum(len(g.acks) for g in games)
    assert changes > players, "too little was played to prove anything"
    assert load.statuses[409] > 0, "the tabs never raced: the 409 path was not exercised"
    return {
        "players": players, "tabs": tabs, "requests": sum(load.statuses.values()), "changes": changes,
        "conflicts": load.statuses[409], "requests_per_second": sum(load.statuses.values()) / wall,
        "p50_ms": 1000 * percentile(load.latencies, 50), "p99_ms": 1000 * percentile(load.latencies, 99),
    }


def test_many_players_with_several_tabs_lose_and_mix_up_nothing(tmp_path: Path) -> None:
    RESULTS.update(concurrency_run(str(tmp_path / "games.sqlite3"), PLAYERS, TABS, SECONDS))
    report("concurrency", RESULTS)


POOL_WORKERS, POOL_LIMIT = 1, 2
"""The hint flood's solver pool, set here: sized from the core count, it would never fill on a big machine."""
SIZED_SERVER = [sys.executable, str(Path(__file__).parents[1] / "helpers" / "sized_server.py"),
                str(POOL_WORKERS), str(POOL_LIMIT)]


def hint_flood_run(tmp_path: Path, askers: int, seconds: float) -> dict[str, float]:
    """One player plays while ``askers`` other players ask for hints nonstop (each a solver search of up to
    half a second, in the server's process pool of ``POOL_WORKERS`` workers taking ``POOL_LIMIT`` jobs). Hints
    must not starve moves: every move is answered and stored; the figure is the moves' latency (the target is
    measured by ``benchmarks/web.py --scenario hint-flood``)."""
    assert askers > POOL_LIMIT, "the flood must outnumber the pool's places"
    db = tmp_path / "games.sqlite3"
    with server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(db)], command=SIZED_SERVER) as s:
        url = s.url()
        wait_until_answering(url)
        stop_at = time.monotonic() + seconds
        hints: Counter[str] = Counter()
        errors: list[str] = []

        def ask(i: int) -> None:
            with httpx2.Client(base_url=url, timeout=60.0) as c:
                gid = c.post("api/games", json={"game": "king-albert", "deal": 500 + i}).json()["id"]
                first = True
                while first or time.monotonic() < stop_at:  # at least one hint each, however slow the start
                    first = False
                    r = c.post(f"api/games/{gid}/hint")
                    if r.status_code != 200:
                        errors.append(f"hint answered {r.status_code}")
                        return
                    hint = r.json()["hint"]
                    hints["busy" if "solver is busy" in hint["message"] else hint["source"]] += 1

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(askers)]
        for t in threads:
            t.start()
        latencies: list[float] = []
        with httpx2.Client(base_url=url, timeout=60.0) as c:
            view = c.post("api/games", json={"game": "eagle-wing", "deal": 99}).json()
            mirror = tableaux.new_game("eagle-wing", 99)
            while (time.monotonic() < stop_at or len(latencies) < 5) and view["legal_moves"]:
                move = view["legal_moves"][len(latencies) % len(view["legal_moves"])]
                started = time.perf_counter()
                r = c.post(f"api/games/{view['id']}/moves", json={"move": move, "version": view["version"]})
                latencies.append(time.perf_counter() - started)
                assert r.status_code == 200, r.text
                view = r.json()
                mirror.play(Move(move["source"], move["count"], move["target"]))
                time.sleep(0.02)  # a person's pace, more or less
            stored = c.get(f"api/games/{view['id']}").json()
        for t in threads:
            t.join()
    assert not errors, errors[:3]
    assert stored["position"] == mirror.public_position() and stored["moves"] == len(mirror.moves_played)
    assert sum(hints.values()) >= askers and len(latencies) >= 5
    # The solver pool took what it could and no more: with more askers than places, some were told it was busy.
    assert hints["busy"] > 0 and hints["solver"] + hints["heuristic"] > 0, hints
    return {"askers": askers, "hints": sum(hints.values()), "solver_hints": hints["solver"],
            "busy_hints": hints["busy"],
            "moves": len(latencies), "move_p50_ms": 1000 * percentile(latencies, 50),
            "move_p99_ms": 1000 * percentile(latencies, 99), "move_max_ms": 1000 * max(latencies)}


def test_a_flood_of_hint_requests_does_not_starve_moves(tmp_path: Path) -> None:
    figures = hint_flood_run(tmp_path, int(os.environ.get("TABLEAUX_HINT_ASKERS", "6")),
                             float(os.environ.get("TABLEAUX_HINT_SECONDS", "2")))
    report("hints", figures)


def test_two_server_processes_on_one_database_lose_and_mix_up_nothing(database: str) -> None:
    """The store's compare-and-swap holds across processes: each player's tabs alternate between two servers, and
    two tabs on two servers never both play the same version (one of them gets 409), on either store."""
    concurrency_run(database, players=4, tabs=2, seconds=2, servers=2)


def test_acknowledged_changes_replay_is_strict() -> None:
    """The replay check is not vacuous: a missing version or a wrong answered position is caught."""
    game = PlayerGame("c", "g", "king-albert", 5)
    mirror = tableaux.new_game("king-albert", 5)
    first = mirror.legal_moves()[0]
    mirror.play(first)
    game.acks.append(Ack(1, "moves", str(first), mirror.public_position()))
    replay_acks(game)
    game.acks.append(Ack(3, "undo", None, mirror.public_position()))
    with pytest.raises(AssertionError, match="versions go 1 -> 3"):
        replay_acks(game)
    game.acks[-1] = Ack(2, "undo", None, mirror.public_position())  # an undo that answered the old position
    with pytest.raises(AssertionError, match="v2"):
        replay_acks(game)


# --- every interleaving of tabs, explored by hypothesis -----------------------------------------------
class TabsOnOneGame(RuleBasedStateMachine):
    """Three tabs of one player on one game, in any order, with server restarts and a nosy second player.

    The model is an engine game: each request's expected answer (200 with the
    model's next position, 409 with the current view, or 422) is decided from it
    before the request is sent.
    """

    @initialize(name=st.sampled_from(["king-albert", "eagle-wing"]), deal=st.integers(0, 2000))
    def start(self, name: str, deal: int) -> None:
        self.folder = tempfile.TemporaryDirectory()
        self.db = Path(self.folder.name) / "games.sqlite3"
        self.app = create_app(self.db, hint_time_limit=0.01)
        first = TestClient(self.app)
        view = first.post("/api/games", json={"game": name, "deal": deal}).json()
        self.cookie = first.cookies[COOKIE]
        self.tabs = [TestClient(self.app, cookies={COOKIE: self.cookie}) for _ in range(3)]
        self.views = [view, view, view]
        self.model = tableaux.new_game(name, deal)
        self.version = 0
        self.game_id = view["id"]

    def teardown(self) -> None:
        if hasattr(self, "app"):
            self.app.state.store.close()
            self.folder.cleanup()

    def expected_position(self) -> dict[str, Any]:
        position = self.model.public_position()
        if self.model.is_won():
            position["can_undo"] = position["can_redo"] = False
        return position

    def send(self, tab: int, action: str, body: dict[str, Any], allowed: bool, change: Any) -> None:
        view = self.views[tab]
        r = self.tabs[tab].post(f"/api/games/{self.game_id}/{action}", json=body)
        if view["version"] != self.version:
            assert r.status_code == 409, r.text
            current = r.json()["view"]
        elif not allowed or self.model.is_won():
            assert r.status_code == 422, r.text
            assert self.tabs[tab].get(f"/api/games/{self.game_id}").json()["version"] == self.version
            return
        else:
            assert r.status_code == 200, r.text
            change()
            self.version += 1
            current = r.json()
        assert current["version"] == self.version and current["position"] == self.expected_position()
        self.views[tab] = current

    @rule(tab=st.integers(0, 2), choice=st.integers(0, 1000))
    def move(self, tab: int, choice: int) -> None:
        legal = self.views[tab]["legal_moves"]
        if not legal:
            return
        move = legal[choice % len(legal)]
        self.send(tab, "moves", {"move": move, "version": self.views[tab]["version"]}, True,
                  lambda: self.model.play(Move(move["source"], move["count"], move["target"])))

    @rule(tab=st.integers(0, 2), action=st.sampled_from(["undo", "redo", "restart"]))
    def history(self, tab: int, action: str) -> None:
        allowed = bool(self.model.redo_moves if action == "redo" else self.model.moves_played)
        self.send(tab, action, {"version": self.views[tab]["version"]}, allowed, getattr(self.model, action))

    @rule(tab=st.integers(0, 2))
    def refresh(self, tab: int) -> None:
        view = self.tabs[tab].get(f"/api/games/{self.game_id}").json()
        assert view["version"] == self.version and view["position"] == self.expected_position()
        self.views[tab] = view

    @rule(tab=st.integers(0, 2))
    def hint(self, tab: int) -> None:
        r = self.tabs[tab].post(f"/api/games/{self.game_id}/hint")
        assert r.status_code == 200 and r.json()["view"]["version"] == self.version

    @rule()
    def restart_the_server(self) -> None:
        self.app.state.store.close()
        self.app = create_app(self.db, hint_time_limit=0.01)
        self.tabs = [TestClient(self.app, cookies={COOKIE: self.cookie}) for _ in range(3)]
        current = self.tabs[0].get("/api/current")
        if self.model.is_won():
            assert current.status_code == 404
        else:
            assert current.json()["id"] == self.game_id and current.json()["version"] == self.version

    @rule()
    def another_player_pokes(self) -> None:
        mallory = TestClient(self.app)
        assert mallory.get(f"/api/games/{self.game_id}").status_code == 404
        r = mallory.post(f"/api/games/{self.game_id}/undo", json={"version": self.version})
        assert r.status_code == 404

    @invariant()
    def stored_game_is_the_model(self) -> None:
        if not hasattr(self, "db"):
            return
        moves, redo = stored_lines(self.db)[self.game_id]
        assert query(self.db, "SELECT version FROM games WHERE id = ?", (self.game_id,)) == [(self.version,)]
        assert moves == [str(m) for m in self.model.moves_played]
        assert redo == [str(m) for m in self.model.redo_moves]


TabsOnOneGame.TestCase.settings = settings(
    max_examples=int(os.environ.get("TABLEAUX_TABS_EXAMPLES", "12")), stateful_step_count=30, deadline=None,
    suppress_health_check=list(HealthCheck),
)
TestTabsOnOneGame = TabsOnOneGame.TestCase
