"""Perft: how many move sequences of exactly N plies each deal allows, as in chess engine testing.

A wrong or missing move anywhere in the first plies changes these counts, so
they check the move generator and ``apply`` together over thousands of
positions. The expected numbers in ``golden/perft.json`` were NOT computed with
this engine: ``golden/make_golden.py`` replayed every action sequence through
the AisleRiot oracle (GNOME AisleRiot's real rules code, run headless) and
counted its legal drags plus the effective stock click at every node.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tableaux
from tableaux.rulebook.engine import Rules, State

CASES = json.loads((Path(__file__).parent / "golden" / "perft.json").read_text())["cases"]


def perft(rules: Rules, state: State, depth: int, counts: list[int], level: int = 0) -> None:
    """Add the number of legal moves at each level below ``state`` to ``counts``."""
    moves = rules.moves(state)
    counts[level] += len(moves)
    if level + 1 < depth:
        for move in moves:
            perft(rules, rules.apply(state, move), depth, counts, level + 1)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['game']}-{c['deal']}")
def test_perft_matches_aisleriot(case: dict) -> None:
    rules = tableaux.rules(case["game"])
    counts = [0] * len(case["counts"])
    perft(rules, rules.deal(case["deal"]), len(counts), counts)
    assert counts == case["counts"]


def test_perft_through_game_api_agrees() -> None:
    """The Game object's legal moves are the rules' moves: depth 2 of deal 1 counted through play/undo."""
    case = next(c for c in CASES if c["game"] == "king-albert" and c["deal"] == 1)
    game = tableaux.new_game("king-albert", deal=1)
    total = 0
    for move in game.legal_moves():
        game.play(move)
        total += len(game.legal_moves())
        game.undo()
    assert total == case["counts"][1]
    assert game.moves_played == []
