"""The crash tests' harness: players playing a real ``tableaux serve`` that the test kills with SIGKILL and
restarts at will, and the checks made after each kill.

Each :class:`Player` is a client with its own cookie and game, whose acknowledged changes are kept in an engine
game (its mirror); :class:`Harness` starts and kills the server, runs the players in threads (parking them
while the server is down), and checks the database (integrity, every line replays), each game (exactly what
was acknowledged, or that plus the one request in flight) and the statistics (recomputed by replay).
Used by ``tests/reliability/test_crash_moves.py``.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx2

import tableaux
from helpers.net import free_port
from helpers.server import Server, wait_until_answering
from helpers.store import check_integrity, query, row_order, stored_lines
from tableaux import Move
from tableaux.web.app import COOKIE, WEB_GAMES

HANG = 120.0
"""Seconds after which a wait for the players or the server is a hang: it only bounds a failure."""
WIN_DEAL = 1
"""The King Albert deal the winning player wins, again and again."""


@dataclass
class Player:
    """One client: its cookie, the game it plays, and what the server acknowledged, kept as an engine game."""

    name: str
    cookie: str
    game_id: str
    mirror: tableaux.Game
    version: int = 0
    pending: tuple[str, Any] | None = None
    acknowledged: int = 0
    line: list[str] = field(default_factory=list)  # the winning line, for the player who wins
    wins: int = 0
    finished: list[tuple[str, list[str]]] = field(default_factory=list)  # won games: id and moves

    def expected(self) -> tuple[list[str], list[str]]:
        return [str(m) for m in self.mirror.moves_played], [str(m) for m in self.mirror.redo_moves]


def apply(game: tableaux.Game, action: tuple[str, Any]) -> None:
    kind, move = action
    if kind == "moves":
        game.play(move)
    else:
        getattr(game, kind)()


class Harness:
    def __init__(self, db: str, seed: int) -> None:
        self.db = db
        self.rng = random.Random(seed)
        self.server: Server | None = None
        self.url = ""
        self.running = threading.Event()
        self.stop = threading.Event()
        self.parked = threading.Semaphore(0)
        self.errors: list[str] = []
        self.players: list[Player] = []
        self.moves_verified = 0
        self.in_flight_kept = self.in_flight_lost = 0

    # --- the server ------------------------------------------------------------------
    def start(self) -> None:
        self.server = Server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(self.db)])
        self.url = self.server.url()
        wait_until_answering(self.url)

    def kill(self) -> None:
        assert self.server is not None
        self.server.proc.kill()
        self.server.proc.wait()
        self.server.stop()

    # --- clients -------------------------------------------------------------------------
    def client(self, player: Player) -> httpx2.Client:
        # A request cut short by a client timeout would look like one cut by the kill: only a hang may time out.
        return httpx2.Client(base_url=self.url, cookies={COOKIE: player.cookie}, timeout=HANG)

    def acknowledged(self) -> int:
        return sum(p.acknowledged for p in self.players)

    def play_until(self, moves: int, done: Any = lambda: True) -> None:
        """Let the players play on until ``moves`` more changes are acknowledged and ``done()`` holds (or a
        player failed: ``stop`` is set)."""
        target = self.acknowledged() + moves
        deadline = time.monotonic() + HANG
        while not self.stop.is_set() and (self.acknowledged() < target or not done()):
            assert time.monotonic() < deadline, f"the players stalled at {self.acknowledged()} acknowledged changes"
            time.sleep(0.01)

    def join(self, name: str, deal: int, line: list[str] | None = None, head_start: int = 0) -> Player:
        """A new player with a new game; ``head_start`` moves of ``line`` are played before the crashes begin."""
        with httpx2.Client(base_url=self.url, timeout=HANG) as c:
            view = c.post("api/games", json={"game": name, "deal": deal}).json()
            cookie = c.cookies[COOKIE]
            player = Player(f"p{len(self.players)}", cookie, view["id"], tableaux.new_game(name, deal),
                            line=line or [])
            for text in (line or [])[:head_start]:
                view = c.post(f"api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}).json()
                player.mirror.play(Move.from_str(text))
            player.version = view["version"]
        self.players.append(player)
        return player

    def choose(self, player: Player, view: dict[str, Any], rng: random.Random) -> tuple[str, Any] | None:
        if player.line:
            if view["won"]:
                return None  # a new game is needed
            return ("moves", player.line[len(player.mirror.moves_played)])
        roll = rng.random()
        pos = view["position"]
        if pos["can_undo"] and (roll < 0.1 or not view["legal_moves"]):
            return ("undo", None)
        if pos["can_redo"] and roll < 0.15:
            return ("redo", None)
        if roll < 0.16 and pos["can_undo"]:
            return ("restart", None)
        if not view["legal_moves"]:
            return None
        return ("moves", rng.choice(view["legal_moves"])["text"])

    def play(self, player: Player, seed: int) -> None:
        rng = random.Random(seed)
        view: dict[str, Any] | None = None
        c = self.client(player)
        try:
            while not self.stop.is_set():
                if not self.running.is_set():
                    self.parked.release()
                    self.running.wait()
                    c.close()
                    c = self.client(player)  # the restarted server may listen elsewhere
                    view = None
                    continue
                try:
                    if view is None:
                        view = c.get(f"api/games/{player.game_id}").json()
                    action = self.choose(player, view, rng)
                    if action is None and player.line:  # won: start the same deal again
                        view = c.post("api/games", json={"game": "king-albert", "deal": WIN_DEAL}).json()
                        player.finished.append((player.game_id, player.expected()[0]))
                        player.game_id, player.version = view["id"], 0
                        player.mirror = tableaux.new_game("king-albert", WIN_DEAL)
                        player.wins += 1
                        continue
                    if action is None:
                        time.sleep(0.01)
                        continue
                    kind, text = action
                    player.pending = (kind, None if text is None else Move.from_str(text))
                    body: dict[str, Any] = {"version": player.version}
                    if kind == "moves":
                        body["move"] = text
                    r = c.post(f"api/games/{player.game_id}/{kind}", json=body)
                except httpx2.TransportError:
                    view = None  # in flight when the server died: the verifier decides what became of it
                    if self.running.is_set():
                        time.sleep(0.02)
                    continue
                if r.status_code != 200:
                    self.errors.append(f"{player.name}: {kind} {text} answered {r.status_code}: {r.text[:200]}")
                    self.stop.set()
                    return
                apply(player.mirror, player.pending)
                player.pending = None
                view = r.json()
                player.version = view["version"]
                player.acknowledged += 1
                expected = player.mirror.public_position()
                if view["won"]:  # a won game is final: no undo
                    expected["can_undo"] = expected["can_redo"] = False
                if view["position"] != expected:
                    self.errors.append(f"{player.name}: answer differs from the engine after {kind} {text}")
                    self.stop.set()
        finally:
            c.close()

    # --- checks ----------------------------------------------------------------------------
    def rows(self) -> list[tuple[Any, ...]]:
        """Every game's row, its line (moves played, redo line) in the place the JSON lists once had."""
        lines = stored_lines(self.db)
        return [
            (gid, player, name, deal, *lines[gid], *rest)
            for gid, player, name, deal, *rest in query(
                self.db,
                "SELECT id, player, game, deal, version, won, move_count, finished_at, elapsed, "
                f"started_at, counted FROM games ORDER BY started_at, {row_order(self.db)}",
            )
        ]

    def check_database(self) -> None:
        check_integrity(self.db)
        for gid, _, name, deal, moves, redo, version, won, count, finished, *_ in self.rows():
            game = tableaux.new_game(name, deal)
            for text in moves + redo:
                game.play(Move.from_str(text))
            for _ in redo:
                game.undo()
            assert game.is_won() == bool(won) == (finished is not None), gid
            assert count == len(moves) and version >= len(moves), gid

    def check_players(self) -> None:
        """Each game holds what was acknowledged, plus at most the one request in flight."""
        stored = {row[0]: (row[4], row[5], row[6]) for row in self.rows()}
        for p in self.players:
            moves, redo, version = stored[p.game_id]
            if (moves, redo) == p.expected() and version == p.version:
                if p.pending is not None:
                    self.in_flight_lost += 1
            else:
                assert p.pending is not None, f"{p.name}: stored game differs from what was acknowledged"
                apply(p.mirror, p.pending)
                assert (moves, redo) == p.expected(), f"{p.name}: stored game is neither acknowledged nor +1"
                assert version == p.version + 1
                p.version = version
                self.in_flight_kept += 1
            p.pending = None
            self.moves_verified += len(moves) + len(redo)
            for gid, won_moves in p.finished:
                assert stored[gid][0] == won_moves, f"{p.name}: won game {gid} changed"
                self.moves_verified += len(won_moves)

    def expected_stats(self, player_id: str) -> dict[str, dict[str, Any]]:
        """Statistics recomputed from the stored games: replay for won, version > 0 for "was played"."""
        out = {}
        for name in WEB_GAMES:
            games = [r for r in self.rows() if r[1] == player_id and r[2] == name and r[12]]
            played = won = run = best = 0
            times: list[float] = []
            fewest: int | None = None
            for i, (_, _, _, deal, moves, _redo, version, _won, _count, _finished, elapsed, *_) in enumerate(games):
                game = tableaux.new_game(name, deal)
                for text in moves:
                    game.play(Move.from_str(text))
                if version == 0:
                    continue
                played += 1
                if game.is_won():
                    won += 1
                    run += 1
                    best = max(best, run)
                    times.append(math.floor(elapsed * 10) / 10)  # cut to a tenth, as the game clock
                    fewest = len(moves) if fewest is None else min(fewest, len(moves))
                elif i != len(games) - 1:
                    run = 0
            out[name] = {"played": played, "won": won, "win_rate": round(won / played, 4) if played else 0.0,
                         "current_streak": run, "best_streak": best, "best_time": min(times, default=None),
                         "worst_time": max(times, default=None), "fewest_moves": fewest,
                         # The harness plays no daily deal and never asks the solver to play for it.
                         "assisted": 0, "daily_played": 0, "daily_won": 0, "daily_streak": 0,
                         "best_daily_streak": 0}
        return out
