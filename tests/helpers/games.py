"""Random play, the one way the tests reach positions other than a deal's start.

``play_randomly`` plays on a ``Game`` (so its history, undo and observation are real) or walks a bare
``(rules, state)`` position through the engine alone (the solver's tests, which need no history). Either
way each step plays the legal move its pick chooses: a ``random.Random`` picks uniformly, exactly as
``rng.choice(moves)`` would; a list of ints (hypothesis draws them) picks ``moves[pick % len(moves)]``.
It stops when the picks or the plies run out or no move is left, and returns every position passed,
the first included.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from tableaux import Game, new_game
from tableaux.rulebook.engine import Rules, State

Picks = random.Random | Iterable[int]


def _indices(picks: Picks) -> Iterator[int | random.Random]:
    if isinstance(picks, random.Random):
        while True:
            yield picks
    yield from picks


def _index(pick: int | random.Random, count: int) -> int:
    return pick.randrange(count) if isinstance(pick, random.Random) else pick % count


def play_randomly(where: Game | tuple[Rules, State], picks: Picks, plies: int | None = None) -> list[State]:
    """Play randomly from ``where``; the positions passed, first included (see the module's docstring)."""
    game = where if isinstance(where, Game) else None
    rules, state = (where.rules, where.state) if game is not None else where  # type: ignore[union-attr, misc]
    states = [state]
    for played, pick in enumerate(_indices(picks)):
        if plies is not None and played >= plies:
            break
        if game is not None:
            moves = game.legal_moves()
            if not moves:
                break
            game.play(moves[_index(pick, len(moves))])
            state = game.state
        else:
            raw = rules.moves(state)
            if not raw:
                break
            state = rules.apply(state, raw[_index(pick, len(raw))])
        states.append(state)
    return states


def random_game(name: str, deal: int, plies: int, seed: int | str = 0) -> Game:
    """A game of ``name`` deal ``deal`` after ``plies`` random moves (fewer at a dead end)."""
    game = new_game(name, deal)
    play_randomly(game, random.Random(seed), plies)
    return game


def random_position(rules: Rules, deal: int, seed: int | str, plies: int) -> State:
    """Where a random walk of ``plies`` moves from deal ``deal`` ends, by the engine alone."""
    return play_randomly((rules, rules.deal(deal)), random.Random(seed), plies)[-1]


def with_detour(rules: Rules, start: State, line: list[tuple[int, int, int]], rng: random.Random,
                tries: int = 200) -> list[tuple[int, int, int]] | None:
    """``line`` with a detour put in somewhere: a card moved to another tableau pile (onto a card or to an empty
    pile) and straight back, so the position after it is the one before; None when no place tried allows one."""
    for _ in range(tries):
        i = rng.randrange(len(line))
        state = start
        for move in line[:i]:
            state = rules.apply(state, move)
        there = [m for m in rules.moves(state) if m[2] in rules.tableau and m[0] in rules.tableau
                 and len(state.piles[m[0]]) > m[1]]
        if not there:
            continue
        out = rng.choice(there)
        moved = rules.apply(state, out)
        back = [m for m in rules.moves(moved) if m[0] == out[2] and m[1] == out[1] and m[2] == out[0]]
        if back and rules.apply(moved, back[0]) == state:
            return [*line[:i], out, back[0], *line[i:]]
    return None
