"""Helpers for the real-browser tests: a live server process, a hidden-card leak check, a winning line.

Kept apart from the tests so that each test reads as what a player does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tableaux
from tableaux.rulebook.cards import DOWN

from .net import free_port

ROOT = Path(__file__).resolve().parents[2]
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][CDHS])(?![A-Za-z0-9])")


def missing_for_the_browser_tests(chromium: Path) -> list[str]:
    """What the real-browser tests need and this machine lacks, each with how to get it; empty when nothing.

    Both are looked for, so a skip names what is really missing (Playwright, the browser, or both).
    """
    missing = []
    try:
        playwright = importlib.util.find_spec("playwright")
    except (ImportError, ValueError):  # a broken or blocked installation is as good as none
        playwright = None
    if playwright is None:
        missing.append("Playwright for Python (pip install -e '.[test]', or pip install playwright)")
    if not chromium.exists():
        missing.append(f"Debian's chromium at {chromium} (apt-get install chromium-headless-shell, or chromium)")
    return missing





class LiveServer:
    """``python -m tableaux serve`` in a subprocess, as a player would start it."""

    def __init__(self, db: Path, port: int | None = None, options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.options = options
        """More ``tableaux serve`` options (``--no-leaderboard``)."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self, timeout: float = 120.0) -> None:
        cmd = [sys.executable, "-m", "tableaux", "serve", "--port", str(self.port), "--no-browser"]
        cmd += ["--db", str(self.db), *self.options]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/games/info", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not answer within {timeout} s: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None


# --------------------------------------------------------------------------- hidden cards
def _strings(value: Any) -> Iterator[str]:
    """Every key and string value, except game ids: random url-safe tokens can spell "_9C_" by chance."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            if key != "id":
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _piles_dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if isinstance(value.get("piles"), dict):
            yield value["piles"]
        for item in value.values():
            yield from _piles_dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _piles_dicts(item)


def visible_cards(body: Any) -> set[str]:
    """The codes of the cards a JSON response shows face up."""
    return {entry["card"] for piles in _piles_dicts(body) for cards in piles.values() for entry in cards
            if entry.get("up") and entry.get("card")}


def hidden_card_problems(url: str, body: Any, seen: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """What in one JSON response could tell a player a face-down card, described; empty when nothing.

    Three checks: a face-down entry carries no card code and no other fields; every card code
    anywhere in the response is one the same response shows face up; and a fresh deal's position
    is exactly the engine's own public position of that deal. One exception: where a finished game
    was lost (``/lost``) names the cards its losing move took, which must be cards the player was
    shown face up before (``seen``: every card earlier responses showed face up).
    """
    problems: list[str] = []
    visible = visible_cards(body)
    for piles in _piles_dicts(body):
        for name, cards in piles.items():
            for i, entry in enumerate(cards):
                if set(entry) != {"card", "up"}:
                    problems.append(f"{url}: {name}[{i}] has fields {sorted(entry)}")
                if not entry.get("up") and entry.get("card") is not None:
                    problems.append(f"{url}: face-down {name}[{i}] reveals {entry['card']}")
    if isinstance(body, dict) and url.split("?")[0].endswith("/lost"):
        named = body.get("cards") or []
        problems += [f"{url}: names {code}, a card the player was not shown" for code in named if code not in seen]
        body = {key: value for key, value in body.items() if key != "cards"}
    for text in _strings(body):
        for code in CARD_TOKEN.findall(text):
            if code not in visible:
                problems.append(f"{url}: hidden or unknown card {code} appears in {text[:80]!r}")
    views = [body] if isinstance(body, dict) and "position" in body else []
    if isinstance(body, dict) and isinstance(body.get("view"), dict):
        views.append(body["view"])
    for view in views:
        if view["position"].get("moves_played") == 0 and not view["position"].get("can_redo"):
            expected = tableaux.new_game(view["game"], view["deal"]).public_position()
            if view["position"]["piles"] != expected["piles"]:
                problems.append(f"{url}: deal {view['deal']} position differs from the engine's public position")
    return problems


class ResponseInspector:
    """Collects every JSON response a page receives and checks it for hidden cards."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.count = 0
        self.seen: set[str] = set()
        """Every card a response has shown face up so far."""

    def __call__(self, response: Any) -> None:
        if "application/json" not in (response.headers.get("content-type") or ""):
            return
        try:
            body = json.loads(response.body())
        except Exception:  # noqa: BLE001 - a body that vanished with a closing page has nothing to leak
            return
        self.count += 1
        self.problems.extend(hidden_card_problems(response.url, body, self.seen))
        self.seen |= visible_cards(body)


# --------------------------------------------------------------------------- a winning line
def _ordered_moves(rules: tableaux.Rules, state: tableaux.State, previous: Any) -> list[Any]:
    """Legal moves, promising ones first, without moves that only undo the last one or shuffle a pile."""
    piles = state.piles
    foundations = set(rules.foundations)

    def rank(move: Any) -> int:
        src, count, dst = move
        if previous is not None and previous[0] == dst and previous[2] == src:
            return 9
        if dst in rules.tableau and not piles[dst] and count == len(piles[src]):
            return 9
        if src in foundations:
            return 8
        if dst in foundations:
            return 0
        if len(piles[src]) > count and piles[src][-count - 1] & DOWN:
            return 1  # turns a card up
        return 3 if piles[dst] else 5

    return [m for m in sorted(rules.moves(state), key=rank) if rank(m) < 9]


def winning_line(name: str, deal: int, budget: int = 50_000) -> list[tableaux.Move]:
    """A winning line for a deal, found by a plain depth-first search over the engine's own moves.

    Independent of the project's solver and hints on purpose: the browser tests then check the
    page against the engine's rules alone.
    """
    game = tableaux.new_game(name, deal)
    rules = game.rules
    seen: set[tableaux.State] = set()
    stack = [(game.state, iter(_ordered_moves(rules, game.state, None)))]
    line: list[Any] = []
    while stack:
        state, options = stack[-1]
        if rules.won(state):
            return [rules.to_move(m) for m in line]
        if len(seen) > budget:
            break
        for move in options:
            nxt = rules.apply(state, move)
            if nxt not in seen:
                seen.add(nxt)
                line.append(move)
                stack.append((nxt, iter(_ordered_moves(rules, nxt, move))))
                break
        else:
            stack.pop()
            if line:
                line.pop()
    raise AssertionError(f"no winning line for {name} deal {deal} within {budget} positions")


def line_to_the_most(name: str, deal: int, measure: Any) -> list[tableaux.Move]:
    """The solver's winning line for a deal, up to the first position where ``measure(game)`` is highest: the
    way to a crowded table (the longest column, the fullest wings) that a real game goes through."""
    game = tableaux.new_game(name, deal)
    line = tableaux.solve(name, deal).moves
    best, most = 0, measure(game)
    for i, move in enumerate(line, 1):
        game.play(move)
        if measure(game) > most:
            best, most = i, measure(game)
    return line[:best]


def longest_column(game: tableaux.Game) -> int:
    return max(len(game.state.piles[game.rules.index[f"tableau-{i}"]]) for i in range(1, 10))
