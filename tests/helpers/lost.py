"""Games lost on purpose, found by search over small deals, for the where-lost tests of every front end."""

from __future__ import annotations

import tableaux
from helpers.positions import brute_force
from tableaux import Game
from tableaux.solver import solve

NODES = 30_000
PROBE = 4_000


def losing_game(name: str) -> tuple[Game, int]:
    """A game lost on purpose: a few moves of a winning line, then a move after which the solver proves no line
    wins, then some more moves. Found by search over small deals; returns the game and the losing move's index."""
    for deal in range(1, 60):
        line = solve(tableaux.new_game(name, deal), max_nodes=NODES)
        if not line.winnable:
            continue
        for k in range(1, min(9, len(line.moves))):
            game = tableaux.new_game(name, deal)
            for move in line.moves[:k]:
                game.play(move)
            for move in game.legal_moves():
                game.play(move)
                if solve(game, max_nodes=PROBE).verdict == "unwinnable":
                    for _ in range(6):  # play on a little: the search must look past the end
                        if game.legal_moves():
                            game.play(game.legal_moves()[0])
                    return game, k
                game.undo()
    raise AssertionError(f"no deliberately lost {name} game found")


def lost_by_its_last_move(name: str) -> Game:
    """A game whose last move lost it, found over small deals: a few moves of the solver's winning line (so a
    line still wins before the last move), then a move after which a plain exhaustive search over the engine's
    own moves finds no win. King Albert deal 2 after T7>T8 is one."""
    for deal in range(1, 60):
        line = solve(tableaux.new_game(name, deal), max_nodes=NODES)
        if not line.winnable:
            continue
        for k in range(min(9, len(line.moves))):
            game = tableaux.new_game(name, deal)
            for move in line.moves[:k]:
                game.play(move)
            for move in game.legal_moves():
                game.play(move)
                if solve(game, max_nodes=PROBE).verdict == "unwinnable" and brute_force(
                        game.rules, game.state, cap=20_000) is False:
                    return game
                game.undo()
    raise AssertionError(f"no {name} game lost by its last move found")
