"""The library's conveniences: what a Python user of ``tableaux`` relies on beyond the rules."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

import tableaux
from tableaux import Game, Move, TableauxError

NAMES = list(tableaux.GAMES)
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
picks = st.lists(st.integers(min_value=0, max_value=2**16), max_size=60)


def playout(game: Game, choices: list[int]) -> Game:
    for pick in choices:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
    return game


def move_texts(game: Game) -> list[object]:
    """Every way of writing a move that players use, for the legal moves and some illegal ones."""
    out: list[object] = []
    names = game.rules.pile_names
    for m in game.legal_moves():
        out += [m, str(m), f"{m.source} {m.count} {m.target}", (m.source, m.count, m.target)]
        short = str(m).replace(f":{m.count}", "")
        out.append(short)  # the count left out: play() fills it in when only one fits
    out += [f"{a}>{b}" for a in names[:6] for b in names[-6:]]
    out += ["", "T1>>", "T1:99>T2", ("tableau-1", 1), 42, Move("nowhere", 1, "tableau-1")]
    return out


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks)
def test_is_legal_accepts_exactly_what_play_accepts(name: str, deal: int, choices: list[int]) -> None:
    game = playout(tableaux.new_game(name, deal), choices)
    for move in move_texts(game):
        try:
            game.play(move)  # type: ignore[arg-type]
            game.undo()
            playable = True
        except TableauxError:
            playable = False
        assert game.is_legal(move) is playable, move  # type: ignore[arg-type]


def test_is_legal_takes_the_readme_move_text() -> None:
    game = tableaux.new_game("king-albert", 1)
    assert game.is_legal("T3>T6") and game.is_legal("tableau-3 tableau-6")
    assert not game.is_legal("T1>T2") and not game.is_legal("not a move")
