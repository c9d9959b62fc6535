"""Properties that hold in every position of every deal, checked on random deals and random playouts.

Hypothesis picks the deal number and the move choices, and shrinks any failure
to a short move list. Examples are kept few so the suite stays quick.
"""

from __future__ import annotations

import json

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from helpers.games import play_randomly
from tableaux import Game, State
from tableaux.rulebook.cards import DOWN, RANK, SUIT

NAMES = ["king-albert", "eagle-wing", "king-albert-classic"]
deals = st.integers(min_value=0, max_value=4294967295)
choices = st.lists(st.integers(min_value=0, max_value=2**16), min_size=20, max_size=120)
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def piles_named(game: Game, prefix: str) -> list[tuple[int, ...]]:
    return [p for n, p in zip(game.rules.pile_names, game.state.piles, strict=True) if n.startswith(prefix)]


def check_always(game: Game) -> None:
    state = game.state
    assert sorted(c & ~DOWN for p in state.piles for c in p) == list(range(52))  # every card exactly once
    home = sum(len(p) for p in piles_named(game, "foundation"))
    assert game.score == home == game.position()["score"]
    position = game.position()
    assert position["over"] == (not position["won"] and not game.legal_moves())
    assert position["won"] == (home == 52)
    for f in piles_named(game, "foundation"):
        assert not any(c & DOWN for c in f)
        assert len({SUIT[c] for c in f}) <= 1  # one suit per foundation
        assert all(RANK[b] % 13 == (RANK[a] + 1) % 13 for a, b in zip(f, f[1:], strict=False))  # up by one


def check_king_albert(game: Game) -> None:
    for pile in piles_named(game, "tableau"):
        down = [bool(c & DOWN) for c in pile]
        assert down == sorted(down, reverse=True), "face-down cards only below face-up ones"
        assert not pile or not down[-1], "a tableau pile's top card is face up"
    for pile in piles_named(game, "reserve"):
        assert len(pile) <= 1 and not any(c & DOWN for c in pile)
    if game.name == "king-albert-classic":
        assert not any(c & DOWN for p in game.state.piles for c in p)
        assert all(m.count == 1 for m in game.legal_moves())


def check_eagle_wing(game: Game) -> None:
    (stock,) = piles_named(game, "stock")
    (waste,) = piles_named(game, "waste")
    (reserve,) = piles_named(game, "reserve")
    assert all(c & DOWN for c in stock) and not any(c & DOWN for c in waste)
    assert not (reserve and reserve[0] & DOWN) and all(c & DOWN for c in reserve[1:])
    for pile in piles_named(game, "tableau"):
        assert len(pile) <= 3 and not any(c & DOWN for c in pile)
        assert all(SUIT[a] == SUIT[b] and RANK[b] % 13 == RANK[a] - 1 for a, b in zip(pile, pile[1:], strict=False))
        if reserve:
            assert pile, "empty tableau piles exist only once the reserve is empty"
    base = RANK[piles_named(game, "foundation")[0][0]]
    assert all(not f or RANK[f[0]] == base for f in piles_named(game, "foundation"))
    assert 0 <= game.state.redeals <= 2


CHECKS = {"king-albert": check_king_albert, "king-albert-classic": check_king_albert, "eagle-wing": check_eagle_wing}


@pytest.mark.parametrize("name", NAMES)
@quick
@given(deal=deals, picks=choices)
def test_invariants_hold_along_random_playouts(name: str, deal: int, picks: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    check_always(game)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[pick % len(moves)])
        check_always(game)
        CHECKS[name](game)


@pytest.mark.parametrize("name", NAMES)
@quick
@given(deal=deals, picks=choices, back=st.integers(min_value=0, max_value=200))
def test_undo_and_redo_are_exact(name: str, deal: int, picks: list[int], back: int) -> None:
    game = tableaux.new_game(name, deal)
    states = play_randomly(game, picks)
    back = min(back, len(states) - 1)
    for i in range(back):
        game.undo()
        assert game.state == states[-2 - i]
        assert game.legal_moves() == [game.rules.to_move(m) for m in game.rules.moves(game.state)]
    for i in range(back):
        game.redo()
        assert game.state == states[len(states) - back + i]
    assert game.state == states[-1]


@pytest.mark.parametrize("name", NAMES)
@quick
@given(deal=deals, picks=choices)
def test_every_position_packs_into_bytes_that_unpack_to_it(name: str, deal: int, picks: list[int]) -> None:
    """What the web store keeps beside each game, and every few hundred moves of it."""
    for state in play_randomly(tableaux.new_game(name, deal), picks):
        assert State.unpacked(state.packed()) == state
        assert len(state.packed()) == 2 + len(state.piles) + sum(len(p) for p in state.piles)


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x01\x05\x01", b"\x00\x01\x01\x07\x08", b"\x00\x02\x00"])
def test_bytes_no_position_packs_into_are_refused(data: bytes) -> None:
    with pytest.raises(ValueError, match="packed position"):
        State.unpacked(data)


@pytest.mark.parametrize("name", NAMES)
@quick
@given(deal=deals, picks=choices, back=st.integers(min_value=0, max_value=30))
def test_save_and_load_replay_to_the_identical_position(name: str, deal: int, picks: list[int], back: int) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, picks)
    for _ in range(min(back, len(game.moves_played))):
        game.undo()
    loaded = tableaux.loads(game.dumps())
    assert loaded.state == game.state
    assert loaded.moves_played == game.moves_played and loaded.redo_moves == game.redo_moves
    assert loaded.position() == game.position()
    assert json.loads(loaded.dumps()) == json.loads(game.dumps())


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(deal=deals, picks=st.lists(st.integers(min_value=0, max_value=2**16), min_size=300, max_size=300))
def test_long_random_playouts_never_crash(name: str, deal: int, picks: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, picks)
    assert game.is_won() or game.is_over() or len(game.moves_played) == 300
    game.public_position()
    for pile in ("waste", "tableau-1", "reserve", "reserve-1"):
        if pile in game.rules.index:
            move = game.home_move(pile)
            assert move is None or move in game.legal_moves()
