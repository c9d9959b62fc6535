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
``TABLEAUX_CRASH_ROUNDS=30`` adds a long run with more players. The players and the checks are the harness in
``tests/helpers/crash.py``.
"""

from __future__ import annotations

import os
import threading

import httpx2
import pytest

from helpers.crash import HANG, WIN_DEAL, Harness
from helpers.report import report
from helpers.web import find_win
from tableaux.web.app import COOKIE, WEB_GAMES

ROUNDS = int(os.environ.get("TABLEAUX_CRASH_ROUNDS", "0"))
"""Kills in the long run (skipped unless set); the default run always makes three."""
RANDOM_PLAYERS = int(os.environ.get("TABLEAUX_CRASH_PLAYERS", "4"))
RESULTS: dict[str, float] = {}
"""Figures of the last run."""


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
