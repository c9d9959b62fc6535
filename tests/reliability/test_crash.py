"""SIGKILL the real server at random moments during bursts of moves; nothing acknowledged may be lost.

Each test runs on SQLite and on PostgreSQL.

Several clients (each its own player, with its own cookie and game) play as
fast as they can against ``python -m tableaux serve``; one of them plays a
known winning line over and over, so wins, streaks and best times are in the
statistics too. At random moments the server is killed with SIGKILL (no
shutdown of any kind) and restarted on the same database. After every kill:

- the database's own checks pass (SQLite's ``integrity_check`` and ``foreign_key_check``; every game's
  player row, on PostgreSQL);
- every game holds exactly the moves (and redo list) its client saw
  acknowledged, or those plus the one request that was in flight at the kill;
- every stored game replays through the engine, and its stored flags (won,
  move count) agree with the replay.

At the end, the statistics the server reports equal statistics recomputed here
from the stored games by replaying them.

Each kill comes after a random number of acknowledged moves, never after a fixed time, so a busy machine
plays as much between kills as an idle one. Short by default (three kills, about 12 s);
``TABLEAUX_CRASH_ROUNDS=30`` adds a long run with more players.
"""

from __future__ import annotations

import json
import math
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest

import tableaux
from helpers.net import free_port
from helpers.report import report
from helpers.server import Server, wait_until_answering
from helpers.store import check_integrity, columns, query, row_order, stored_lines
from helpers.web import find_win
from tableaux import Move
from tableaux.web.app import COOKIE, WEB_GAMES

ROUNDS = int(os.environ.get("TABLEAUX_CRASH_ROUNDS", "0"))
"""Kills in the long run (skipped unless set); the default run always makes three."""
RANDOM_PLAYERS = int(os.environ.get("TABLEAUX_CRASH_PLAYERS", "4"))
HANG = 120.0
"""Seconds after which a wait for the players or the server is a hang: it only bounds a failure."""
WIN_DEAL = 1
RESULTS: dict[str, float] = {}
"""Figures of the last run."""


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


def crash_run(db: str, rounds: int, players: int, seed: int = 5, most: int = 150) -> dict[str, float]:
    """``rounds`` kills, each after 25 to ``most`` acknowledged changes, on the database ``db``; then play on
    until the winning player has won at least once."""
    h = Harness(db, seed)
    line = find_win("king-albert", WIN_DEAL)
    assert line is not None
    h.start()
    try:
        for i in range(players):
            h.join(("king-albert", "eagle-wing")[i % 2], 100 + i)
        h.join("king-albert", WIN_DEAL, line, head_start=len(line) - 8)  # wins early, then plays it again
        cookies = {p.name: p.cookie for p in h.players}
        h.running.set()
        threads = [threading.Thread(target=h.play, args=(p, seed * 100 + i), daemon=True)
                   for i, p in enumerate(h.players)]
        for t in threads:
            t.start()
        winner = h.players[-1]
        for _ in range(rounds):
            h.play_until(h.rng.randint(25, most))
            assert not h.errors, h.errors
            h.running.clear()
            h.kill()  # requests in flight right now die with the server
            for _ in threads:
                assert h.parked.acquire(timeout=HANG), "a client did not notice the crash"
            h.check_database()
            h.start()
            h.check_players()
            h.running.set()
        h.play_until(10, lambda: winner.wins >= 1)
        assert not h.errors, h.errors
        h.running.clear()
        for _ in threads:
            assert h.parked.acquire(timeout=HANG)
        h.stop.set()
        h.running.set()
        for t in threads:
            t.join(timeout=HANG)
        assert not h.errors, h.errors
        h.check_players()
        h.check_database()
        player_ids = {r[1] for r in h.rows()}
        for p in h.players:
            from tableaux.web.tokens import hash_token

            assert hash_token(cookies[p.name]) in player_ids
            stats = httpx2.get(h.url + "api/stats", cookies={COOKIE: p.cookie}).json()
            assert stats == h.expected_stats(hash_token(p.cookie)), p.name
        # `tableaux stats` (every player together) adds up the same stored games.
        from helpers.cli import run_tableaux, stats_table

        shown = run_tableaux("stats", "--all", "--db", h.db).stdout
        each = [h.expected_stats(hash_token(p.cookie)) for p in h.players]
        for label, key in (("Games played", "played"), ("Games won", "won")):
            assert stats_table(shown, label) == [str(sum(e[name][key] for e in each))
                                                 for name in WEB_GAMES], label
        acknowledged = h.acknowledged()
        assert acknowledged > 20 * rounds, "too few moves were made to prove anything"
        assert winner.wins >= 1, "the winning player never won: the statistics were not put to the test"
        return {"crashes": rounds, "moves_verified": h.moves_verified, "acknowledged": acknowledged,
                "in_flight_kept": h.in_flight_kept, "in_flight_lost": h.in_flight_lost, "wins": winner.wins}
    finally:
        h.stop.set()
        h.running.set()
        if h.server is not None:
            h.server.stop()


def test_sigkill_during_bursts_of_moves_loses_nothing_acknowledged(database: str) -> None:
    figures = crash_run(database, 3, RANDOM_PLAYERS, most=60)
    RESULTS.update(figures)
    report("crash", figures)  # one record per run and store: benchmarks/reliability.py adds them up


@pytest.mark.skipif(ROUNDS < 1, reason="long run: set TABLEAUX_CRASH_ROUNDS")
def test_long_crash_run_with_more_players(database: str) -> None:
    figures = crash_run(database, ROUNDS, RANDOM_PLAYERS * 2, seed=11)
    RESULTS.update(figures)
    report("crash", figures)  # one record per run and store: benchmarks/reliability.py adds them up


# --- a schema migration killed midway ------------------------------------------------------------
def old_database(db: str, games: int) -> list[tuple[str, str]]:
    """A schema-1 database (as the first release wrote it) holding ``games`` games; their ids and moves."""
    from tableaux.web.database import parse_database
    from tableaux.web.migrations import migrate

    conn = parse_database(db).engine().first()
    migrate(conn, target=1)
    conn.execute("INSERT INTO players (id, created_at) VALUES ('p1', 1.0)")
    game = tableaux.new_game("king-albert", 1)
    line = [str(game.play(game.legal_moves()[0])) for _ in range(6)]
    rows = [(f"g{i:06d}", json.dumps(line[:i % 7])) for i in range(games)]
    with conn.transaction():
        for chunk in range(0, games, 500):  # many rows a statement: the same SQL for both stores, and quick
            part = rows[chunk:chunk + 500]
            conn.execute(
                "INSERT INTO games (id, player, game, deal, moves, redo, version, started_at) VALUES "
                + ", ".join(["(?, 'p1', 'king-albert', 1, ?, '[]', 0, 1.0)"] * len(part)),
                [value for row in part for value in row],
            )
    conn.close()
    return rows


KILLED_AT_STEP = """
import os, signal, sqlite3, sys
from tableaux.web.store import Store

path, at = sys.argv[1], int(sys.argv[2])
connect, steps = sqlite3.connect, 0

def step():
    global steps
    steps += 1
    if steps == at:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0

def counting(*args, **kwargs):
    conn = connect(*args, **kwargs)
    conn.set_progress_handler(step, 1000)
    return conn

sqlite3.connect = counting
Store(path)
print(steps)
"""
"""Open a database with the store and SIGKILL the process at the ``at``-th step of SQLite's work (a step is
1,000 virtual machine instructions), in the middle of whatever statement runs then; ``at`` 0 never kills
and prints the steps the whole opening took."""


def test_a_migration_killed_midway_leaves_a_consistent_database_that_finishes_later(tmp_path: Path) -> None:
    """Each migration step is one transaction: a kill at any moment leaves a whole schema version, never half.

    The kills land at chosen points of SQLite's own work, not after a time, so a busy machine kills
    at the same places as an idle one.
    """
    import signal
    import subprocess
    import sys

    from tableaux.web.migrations import SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    rows = old_database(str(path), 40_000)
    original = path.read_bytes()

    def open_killed_at(at: int) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", KILLED_AT_STEP, str(path), str(at)],
                              capture_output=True, text=True, timeout=HANG)

    whole = open_killed_at(0)
    assert whole.returncode == 0, whole.stderr
    steps = int(whole.stdout)
    assert steps > 20, "the migration is too short to be killed midway"
    rng = random.Random(3)
    seen_versions: set[int] = set()
    for at in sorted(rng.sample(range(1, steps), 12)):
        for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        path.write_bytes(original)
        killed = open_killed_at(at)
        assert killed.returncode == -signal.SIGKILL, (at, killed.returncode, killed.stderr)
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            version = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
            assert ("move_count" in columns) == (version >= 2) and ("counted" in columns) == (version >= 3)
        assert stored_moves(str(path), version) == rows
        seen_versions.add(version)
    assert len(seen_versions - {SCHEMA_VERSION}) >= 2, f"the kills left only versions {seen_versions}"
    db = str(path)
    assert_a_later_opening_finishes(db, rows)


def stored_moves(db: str, version: int) -> list[tuple[str, str]]:
    """Every game's id and moves played (as JSON), wherever the schema at ``version`` keeps them: in the games
    row's JSON list before version 6, in rows of their own from then on."""
    if version < 6:
        return sorted(query(db, "SELECT id, moves FROM games"))
    return sorted((gid, json.dumps(moves)) for gid, (moves, _redo) in stored_lines(db).items())


def assert_a_later_opening_finishes(db: str, rows: list) -> None:
    """Opening the store after the kills finishes the migration, and every game keeps its moves and counts."""
    from tableaux.web.migrations import SCHEMA_VERSION
    from tableaux.web.store import Store

    store = Store(db)  # finishes whatever is left
    assert store.schema_version() == SCHEMA_VERSION
    store.close()
    assert stored_moves(db, SCHEMA_VERSION) == rows
    check_integrity(db)  # every line replays; the old JSON lists are emptied
    counts = query(db, "SELECT move_count, line_length, ever_moved, moves, redo FROM games")
    assert all(count == length and ever == (count > 0) and (moves, redo) == ("[]", "[]")
               for count, length, ever, moves, redo in counts)


@pytest.mark.parametrize("new_database", ["postgresql"], indirect=True)
def test_a_migration_killed_midway_on_postgresql_leaves_a_consistent_database_that_finishes_later(
    new_database: Callable[[], str],
) -> None:
    """Each migration step is one transaction on PostgreSQL too: a kill leaves a whole schema version, never half.

    PostgreSQL's work cannot be counted in steps from the client, so the kills land at shares of the measured
    opening time, halved whenever the migration was already done: a slow or fast machine only moves them.
    """
    import subprocess
    import sys

    from tableaux.web.migrations import SCHEMA_VERSION

    command = [sys.executable, "-c", "import sys; from tableaux.web.store import Store; Store(sys.argv[1])"]
    probe = new_database()
    old_database(probe, 40_000)
    started = time.monotonic()
    subprocess.run([*command, probe], check=True)
    full = time.monotonic() - started  # how long opening (and migrating) takes, start to end
    db = new_database()
    rows = old_database(db, 40_000)
    rng = random.Random(3)
    seen_versions: set[int] = set()
    fraction = 0.5  # of the measured opening time; halved whenever a kill comes too late to test anything
    for _ in range(12):
        proc = subprocess.Popen([*command, db])
        time.sleep(rng.uniform(0.6, 1.0) * fraction * full)
        proc.kill()
        proc.wait()
        check_integrity(db)
        version = query(db, "SELECT MAX(version) FROM schema_version")[0][0]
        names = columns(db, "games")
        assert ("move_count" in names) == (version >= 2) and ("counted" in names) == (version >= 3)
        assert stored_moves(db, version) == rows
        seen_versions.add(version)
        if version == SCHEMA_VERSION:
            # The migration finished before the kill (a loaded machine starts Python slowly or quickly):
            # start again from the old schema and kill sooner, so some kill surely lands midway.
            db = new_database()
            old_database(db, 40_000)
            fraction /= 2
        elif len(seen_versions - {SCHEMA_VERSION}) >= 2:
            break
    assert seen_versions - {SCHEMA_VERSION}, "no kill landed before the migration was done"
    assert_a_later_opening_finishes(db, rows)
