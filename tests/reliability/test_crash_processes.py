"""Two server processes share one database; one is SIGKILLed mid-burst; nothing acknowledged is lost.

Run on PostgreSQL (what several processes on several machines share) and on
SQLite (several processes on one machine). Each player keeps one cookie and
sends its requests to the two servers in turn, as a load balancer would. At
random moments one server is killed with SIGKILL while the players go on:

- a request the dead server never answered is settled by reading the game from
  the other one: it holds exactly what was acknowledged, or that plus the
  request in flight (once the dead process's connections are gone, so nothing
  it sent can still land);
- the living server answers every request, never with a 5xx, and honours the
  cookie the other one issued (it never hands out a new identity);
- with the players paused, each game read from the living server is exactly
  what its player saw acknowledged, and so is each row of the database.

Then the dead server is started again and the other one is killed next.
``TABLEAUX_CRASH_ROUNDS`` makes it a long run.
"""

from __future__ import annotations

import os
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx2

import tableaux
from helpers.net import free_port
from helpers.report import report
from helpers.server import Server, wait_until_answering
from helpers.store import check_integrity, is_postgres, query, stored_lines
from tableaux import Move
from tableaux.web.app import COOKIE

ROUNDS = int(os.environ.get("TABLEAUX_CRASH_ROUNDS", "0")) or 2
PLAYERS = 4
BURST = 20
"""Changes acknowledged before each kill, and again after it, before the games are checked."""


@dataclass
class Player:
    cookie: str
    game_id: str
    mirror: tableaux.Game
    version: int = 0
    acknowledged: int = 0
    unanswered: int = 0
    """Requests the dead server never answered (sent to it as it died, or after)."""
    kept_in_flight: int = 0
    """Of those, the ones it had committed before it died."""


class Pair:
    """Two servers on one database, players alternating between them, and the checks."""

    def __init__(self, db: str, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.servers: list[Server | None] = [None, None]
        self.urls = ["", ""]
        self.running = threading.Event()
        self.stop = threading.Event()
        self.settled = threading.Event()
        self.settled.set()
        self.parked = threading.Semaphore(0)
        self.errors: list[str] = []
        self.players: list[Player] = []

    def start(self, i: int) -> None:
        server = Server(["serve", "--port", str(free_port()), "--no-browser", "--db", self.db])
        self.urls[i] = server.url()
        wait_until_answering(self.urls[i])
        self.servers[i] = server

    def kill(self, i: int) -> None:
        """SIGKILL server ``i``; players who meet the dead server wait until nothing it sent can still land."""
        server = self.servers[i]
        assert server is not None
        self.settled.clear()
        server.proc.kill()
        server.proc.wait()
        if is_postgres(self.db):  # a COMMIT already on its way is still carried out: wait for its connections
            deadline = time.monotonic() + 60
            name = f"tableaux {server.proc.pid}"
            while query(self.db, "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = ?", (name,))[0][0]:
                assert time.monotonic() < deadline, "the killed server's connections never went away"
                time.sleep(0.05)
        self.settled.set()

    def fail(self, message: str) -> None:
        self.errors.append(message)
        self.stop.set()

    def join(self, deal: int) -> None:
        with httpx2.Client(base_url=self.urls[0], timeout=30.0) as c:
            view = c.post("api/games", json={"game": "eagle-wing", "deal": deal}).json()
            self.players.append(Player(c.cookies[COOKIE], view["id"], tableaux.new_game("eagle-wing", deal)))

    def settle(self, p: Player, pending: tuple[str, Move | None], asked: int) -> None:
        """The request sent to server ``asked`` got no answer: read the game from the other server."""
        p.unanswered += 1
        self.settled.wait(timeout=90)
        r = httpx2.get(f"{self.urls[1 - asked]}api/games/{p.game_id}", cookies={COOKIE: p.cookie}, timeout=30.0)
        if r.status_code != 200:
            self.fail(f"reading the game after a crash answered {r.status_code}: {r.text[:200]}")
            return
        view = r.json()
        if view["version"] == p.version + 1:
            apply(p.mirror, pending)
            p.version += 1
            p.kept_in_flight += 1
        elif view["version"] != p.version:
            self.fail(f"stored version {view['version']} is neither {p.version} (acknowledged) nor one more")
            return
        if view["position"] != p.mirror.public_position():
            self.fail(f"game {p.game_id} after a crash differs from what was acknowledged")

    def play(self, p: Player, seed: int) -> None:
        clients: dict[str, httpx2.Client] = {}  # one per server address (a restarted server has a new port)
        try:
            self._play(p, seed, clients)
        finally:
            for c in clients.values():
                c.close()

    def _play(self, p: Player, seed: int, clients: dict[str, httpx2.Client]) -> None:
        rng = random.Random(seed)
        turn = seed
        while not self.stop.is_set():
            if not self.running.is_set():
                self.parked.release()
                self.running.wait()
                continue
            turn += 1
            asked = turn % 2
            pending = choose(p.mirror, rng)
            if pending is None:
                self.fail(f"{p.game_id}: nothing left to play")
                return
            kind, move = pending
            body: dict[str, Any] = {"version": p.version}
            if move is not None:
                body["move"] = str(move)
            url = self.urls[asked]
            if url not in clients:
                clients[url] = httpx2.Client(base_url=url, cookies={COOKIE: p.cookie}, timeout=30.0)
            try:
                r = clients[url].post(f"api/games/{p.game_id}/{kind}", json=body)
            except httpx2.TransportError:
                self.settle(p, pending, asked)
                continue
            if r.status_code != 200 or "set-cookie" in r.headers:
                self.fail(f"{kind} at v{p.version} on server {asked} answered {r.status_code} "
                          f"(set-cookie: {'set-cookie' in r.headers}): {r.text[:200]}")
                return
            apply(p.mirror, pending)
            p.version += 1
            p.acknowledged += 1
            if r.json()["position"] != p.mirror.public_position():
                self.fail(f"the answer to {kind} differs from the engine")
                return

    def wait_for_moves(self, count: int) -> None:
        """Until the players have had ``count`` more changes acknowledged (however slow the machine is)."""
        target = sum(p.acknowledged for p in self.players) + count
        deadline = time.monotonic() + 300
        while sum(p.acknowledged for p in self.players) < target and not self.stop.is_set():
            assert time.monotonic() < deadline, f"the players made no progress: {self.errors}"
            time.sleep(0.02)

    def pause(self) -> None:
        self.running.clear()
        for _ in self.players:
            assert self.parked.acquire(timeout=90), "a player did not pause"

    def check(self, living: int) -> int:
        """Every game, read from the living server and from the database, is what its player saw."""
        check_integrity(self.db)
        lines = stored_lines(self.db)
        rows = {gid: (*lines[gid], version) for gid, version in query(self.db, "SELECT id, version FROM games")}
        for p in self.players:
            r = httpx2.get(f"{self.urls[living]}api/games/{p.game_id}", cookies={COOKIE: p.cookie}, timeout=30.0)
            assert r.status_code == 200 and "set-cookie" not in r.headers, r.text
            view = r.json()
            assert view["version"] == p.version and view["position"] == p.mirror.public_position(), p.game_id
            expected = ([str(m) for m in p.mirror.moves_played], [str(m) for m in p.mirror.redo_moves], p.version)
            assert rows[p.game_id] == expected, p.game_id
        return sum(len(rows[p.game_id][0]) for p in self.players)


def choose(game: tableaux.Game, rng: random.Random) -> tuple[str, Move | None] | None:
    """Mostly moves, sometimes undo or redo."""
    roll = rng.random()
    if game.moves_played and (roll < 0.12 or not game.legal_moves()):
        return ("undo", None)
    if game.redo_moves and roll < 0.2:
        return ("redo", None)
    legal = game.legal_moves()
    return ("moves", rng.choice(legal)) if legal else None


def apply(game: tableaux.Game, action: tuple[str, Move | None]) -> None:
    kind, move = action
    if kind == "moves":
        assert move is not None
        game.play(move)
    else:
        getattr(game, kind)()


def test_a_server_killed_mid_burst_loses_nothing_the_other_server_cannot_show(database: str) -> None:
    pair = Pair(database, seed=7)
    try:
        pair.start(0)
        pair.start(1)
        for i in range(PLAYERS):
            pair.join(300 + i)
        threads = [threading.Thread(target=pair.play, args=(p, i), daemon=True) for i, p in enumerate(pair.players)]
        pair.running.set()
        for t in threads:
            t.start()
        verified = 0
        for round_ in range(ROUNDS):
            victim = round_ % 2
            pair.wait_for_moves(BURST)  # a burst on both servers ...
            time.sleep(pair.rng.uniform(0.0, 0.2))  # ... and a moment in it
            pair.kill(victim)
            pair.wait_for_moves(BURST)  # the players go on, the living server takes it all
            pair.pause()
            assert not pair.errors, pair.errors
            verified = pair.check(1 - victim)
            pair.start(victim)
            pair.running.set()
        pair.pause()
        pair.stop.set()
        pair.running.set()
        for t in threads:
            t.join(timeout=60)
        assert not pair.errors, pair.errors
        verified = pair.check(0)
        acknowledged = sum(p.acknowledged for p in pair.players)
        assert sum(p.unanswered for p in pair.players) >= ROUNDS, "no request ever met a dead server"
        assert verified > 0
        unanswered = sum(p.unanswered for p in pair.players)
        kept = sum(p.kept_in_flight for p in pair.players)
        report("crash", {"crashes": ROUNDS, "moves_verified": verified, "acknowledged": acknowledged,
                         "in_flight_kept": kept, "in_flight_lost": unanswered - kept, "wins": 0})
    finally:
        pair.stop.set()
        pair.running.set()
        for server in pair.servers:
            if server is not None:
                server.stop()
