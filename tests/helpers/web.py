"""Shared by the web API tests: start games, play moves, and the engine's own view of the same game."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import tableaux
from tableaux import GAMES, Move
from tableaux.advice.hints import heuristic_moves


def new_game(client: TestClient, game: str = "king-albert", deal: int | None = 17) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": game, "deal": deal})
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, view: dict[str, Any], move: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": move, "version": view["version"]})
    assert r.status_code == 200, r.text
    return r.json()


def engine_game(view: dict[str, Any], moves: list[str]) -> tableaux.Game:
    game = tableaux.new_game(view["game"], view["deal"])
    for text in moves:
        game.play(Move.from_str(text))
    return game


def moves_of(game: tableaux.Game) -> list[dict[str, Any]]:
    return [{**m.to_dict(), "text": str(m)} for m in game.legal_moves()]


def find_win(name: str, deal: int, budget: int = 50_000) -> list[str] | None:
    """A winning line by depth-first search over the engine's own Rules.moves/apply (full knowledge)."""
    rules = GAMES[name]
    start = rules.deal(deal)
    seen = {start}
    stack = [iter(heuristic_moves(rules, start))]
    states = [start]
    path: list[tuple[int, int, int]] = []
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            states.pop()
            if path:
                path.pop()
            continue
        after = rules.apply(states[-1], move)
        if after in seen:
            continue
        seen.add(after)
        if len(seen) > budget:
            return None
        path.append(move)
        if rules.won(after):
            return [str(rules.to_move(m)) for m in path]
        states.append(after)
        stack.append(iter(heuristic_moves(rules, after, move)))
    return None


def view_of(client: TestClient, view: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"/api/games/{view['id']}")
    assert r.status_code == 200, r.text
    return r.json()


def without_clock(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "elapsed_seconds"}
