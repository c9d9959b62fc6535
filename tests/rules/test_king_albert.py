"""King Albert as AisleRiot plays it: one or more tests per rule of the rules page.

Positions are built by hand (``State`` of card ints; ``*`` marks a face-down
card) so that each test shows one rule at work, through the engine's only move
generator (``Rules.moves``/``Rules.apply``) or the ``Game`` object on top of it.
"""

from __future__ import annotations

import pytest

import tableaux
from helpers.handmade import Hand
from tableaux import Game, Move, State
from tableaux.rulebook.cards import DOWN

RULES = tableaux.rules("king-albert")


H = Hand(RULES)
card, state, legal, play, pile, Fixed = H.card, H.state, H.legal, H.play, H.pile, H.fixed


# --- the deal --------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 7, 4294967295])
def test_deal_layout(deal: int) -> None:
    s = RULES.deal(deal)
    assert [len(s.piles[RULES.index[f"tableau-{i}"]]) for i in range(1, 10)] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    for i in range(1, 10):
        cards = s.piles[RULES.index[f"tableau-{i}"]]
        assert not cards[-1] & DOWN and all(c & DOWN for c in cards[:-1])  # only the top card face up
    for i in range(1, 8):
        (only,) = s.piles[RULES.index[f"reserve-{i}"]]
        assert not only & DOWN
    assert all(not s.piles[RULES.index[f"foundation-{i}"]] for i in range(1, 5))
    assert sorted(c & ~DOWN for p in s.piles for c in p) == list(range(52))
    assert RULES.score(s) == 0


# --- what can be picked up -------------------------------------------------


def test_whole_build_of_any_length_moves_at_once() -> None:
    s = state(T1="3C* KS QH JC TD 9S 8H", T2="9H* 5S", T3="AD* 9C KD", T4="")
    moves = legal(s)
    # Every face-up card of T1 with everything above it: no free-cell style limit.
    assert "T1:6>T4" in moves  # the whole face-up part onto an empty pile
    assert {f"T1:{n}>T4" for n in range(2, 7)} | {"T1>T4"} <= moves
    assert "T1:7>T4" not in moves  # never a face-down card
    assert "T1:2>T3" not in moves  # 9S onto KD does not fit
    assert "T1:5>T3" not in moves  # QH onto KD: red on red
    after = play(s, "T1:6>T4")
    assert pile(after, "T4") == "KS QH JC TD 9S 8H" and pile(after, "T1") == "3C"


def test_build_lands_on_opposite_colour_one_higher() -> None:
    s = state(T1="3C* QH JC TD 9S 8H", T2="AD* KS", T3="KC", T4="4D")
    moves = legal(s)
    assert "T1:5>T2" in moves  # QH on KS: red on black, one lower
    assert "T1:5>T3" in moves  # QH on KC
    assert not any(m.endswith(">T4") for m in moves)  # nothing of T1 fits on 4D
    after = play(s, "T1:5>T2")
    assert pile(after, "T2") == "AD* KS QH JC TD 9S 8H"
    assert pile(after, "T1") == "3C"  # turned up


def test_unchecked_run_moves_if_its_lowest_card_fits() -> None:
    # The face-up cards 5D 9S 2C are not a build; only the lowest moving card is checked.
    s = state(T1="KD* 5D 9S 2C", T2="6S", T3="TH", T4="3D")
    moves = legal(s)
    assert "T1:3>T2" in moves  # 5D on 6S
    assert "T1:2>T3" in moves  # 9S on TH
    assert "T1>T4" in moves  # 2C on 3D
    after = play(s, "T1:3>T2")
    assert pile(after, "T2") == "6S 5D 9S 2C" and pile(after, "T1") == "KD"


def test_same_colour_or_wrong_rank_is_refused() -> None:
    s = state(T1="8D", T2="9H", T3="TS", T4="9C")
    moves = legal(s)
    assert "T1>T2" not in moves  # red on red
    assert "T1>T3" not in moves  # two ranks apart
    assert "T1>T4" in moves


@pytest.mark.parametrize("text", ["KS", "2H", "AD", "7C"])
def test_any_card_onto_an_empty_tableau_pile(text: str) -> None:
    s = state(R1=text, T1="QH* 5C", T5="")
    moves = legal(s)
    assert "R1>T5" in moves and "T1>T5" in moves
    # Every empty tableau pile is a target; only the empty ones and fitting ones.
    assert {m for m in moves if m.startswith("R1>T")} >= {f"R1>T{i}" for i in range(2, 10)}


def test_empty_pile_takes_a_whole_build() -> None:
    s = state(T1="KD* QS JH TC", T9="")
    assert {"T1>T9", "T1:2>T9", "T1:3>T9"} <= legal(s)
    after = play(s, "T1:3>T9")
    assert pile(after, "T9") == "QS JH TC" and pile(after, "T1") == "KD"


def test_reserve_gives_only_its_card_and_never_receives() -> None:
    s = state(R1="5H", R2="", T1="6S", T2="4C", F1="4H")
    moves = legal(s)
    assert "R1>T1" in moves and "R1>F1" in moves
    assert not any(">R" in m for m in moves)  # not even the empty reserve-2
    after = play(s, "R1>T1")
    assert pile(after, "R1") == ""  # an emptied reserve pile stays empty
    assert not any(">R" in m for m in legal(after))


# --- foundations -----------------------------------------------------------


def test_ace_goes_on_any_empty_foundation() -> None:
    s = state(R3="AS", F1="AH", F2="2C")
    s = State(tuple(() if i == RULES.index["foundation-2"] else p for i, p in enumerate(s.piles)))
    assert {m for m in legal(s) if m.startswith("R3>F")} == {"R3>F2", "R3>F3", "R3>F4"}


def test_foundation_builds_up_in_suit_one_card_at_a_time() -> None:
    s = state(F1="AH 2H", F2="AC", T1="3H", T2="5S* 3D", T3="8C* 3H*", R1="2C", T4="KD* 4H 3C")
    moves = legal(s)
    assert "T1>F1" in moves  # 3H on 2H
    assert "T2>F1" not in moves  # 3D: wrong suit
    assert "R1>F2" in moves  # 2C on AC
    assert "T4>F2" not in moves and "T4:2>F2" not in moves  # 3C is not next on AC; and never two cards
    assert not any(m.startswith("T4:") and ">F" in m for m in moves)
    after = play(s, "T1>F1")
    assert pile(after, "F1") == "AH 2H 3H" and RULES.score(after) == 4


def test_only_one_card_moves_to_a_foundation() -> None:
    s = state(F1="AS", T1="3H 2S", T2="")
    moves = legal(s)
    assert "T1>F1" in moves and "T1:2>F1" not in moves


def test_foundation_card_comes_back_to_the_tableau_and_score_drops() -> None:
    s = state(F1="AH 2H 3H", T1="4S", T2="", R1="KC")
    moves = legal(s)
    assert "F1>T2" in moves  # onto an empty pile
    assert "F1>T1" in moves  # 3H on 4S: red on black, one lower
    assert "R1>T2" in moves and "F1>F2" not in moves  # only Aces move between foundations
    before = RULES.score(s)
    after = play(s, "F1>T2")
    assert RULES.score(after) == before - 1
    assert pile(after, "F1") == "AH 2H"


def test_foundation_card_onto_a_fitting_tableau_card() -> None:
    s = state(F1="AH 2H 3H", T1="4C")
    after = play(s, "F1>T1")
    assert pile(after, "T1") == "4C 3H" and RULES.score(after) == 2


def test_ace_moves_between_empty_foundations_but_nothing_else_does() -> None:
    s = state(F1="AD", F2="AC 2C")
    moves = legal(s)
    assert {"F1>F3", "F1>F4"} <= moves
    assert "F2>F3" not in moves and "F2>F1" not in moves
    after = play(s, "F1>F3")
    assert pile(after, "F3") == "AD" and RULES.score(after) == RULES.score(s)


# --- automatic turn-up -----------------------------------------------------


def test_face_down_card_turns_up_as_part_of_the_same_move() -> None:
    game = tableaux.new_game("king-albert", deal=1)
    assert game.position()["piles"]["tableau-3"][-2] == {"card": "JD", "up": False}
    game.play("T3>T6")  # 4S onto 5D uncovers JD
    assert game.position()["piles"]["tableau-3"][-1] == {"card": "JD", "up": True}
    assert "T1>T3" in {str(m) for m in game.legal_moves()}  # TS on the new JD
    game.undo()  # one undo step takes back the move and the turn-up together
    assert game.state == RULES.deal(1)
    assert game.moves_played == []


def test_turn_up_only_of_the_pile_moved_from() -> None:
    s = state(T1="9C* 5H", T2="7D* 6S")
    after = play(s, "T1>T2")
    assert pile(after, "T1") == "9C" and pile(after, "T2") == "7D* 6S 5H"


# --- score, won, over, status ----------------------------------------------


def test_score_is_cards_on_foundations() -> None:
    s = state(F1="AH 2H 3H", F2="AS", T1="9C* 5D")
    assert RULES.score(s) == 4


def full_foundations() -> State:
    suits = "CDHS"
    ranks = "A23456789TJQK"
    return state(**{f"F{i + 1}": " ".join(r + s for r in ranks) for i, s in enumerate(suits)})


def test_won_with_52_cards_home() -> None:
    won = full_foundations()
    game = Game(Fixed(won), 0)
    assert game.is_won() and game.position()["won"] and game.score == 52
    assert not game.is_over() and not game.position()["over"]  # won is not "over"


def test_not_won_with_a_card_out() -> None:
    won = full_foundations()
    piles = list(won.piles)
    piles[0], piles[4] = piles[0][:-1], (piles[0][-1],)
    s = State(tuple(piles))
    assert not RULES.won(s) and RULES.score(s) == 51
    assert play(s, "T1>F1") == won


def test_over_only_when_no_move_is_left() -> None:
    # Every tableau pile full of cards that fit nowhere and no empty pile: stuck.
    stuck = state(T1="2C", T2="2D", T3="2H", T4="2S", T5="4C", T6="4D", T7="4H", T8="4S", T9="6C", R1="8S")
    assert legal(stuck) == set()
    game = Game(Fixed(stuck), 0)
    assert game.is_over() and game.position()["over"] and not game.position()["won"]
    # One possible move (3D onto 4C) and it is not over.
    loose = state(T1="2C", T2="2D", T3="2H", T4="2S", T5="4C", T6="4D", T7="4H", T8="4S", T9="6C", R1="3D")
    assert legal(loose) == {"R1>T5", "R1>T8"}
    assert not Game(Fixed(loose), 0).is_over()


def test_king_albert_has_no_status_line() -> None:
    assert tableaux.new_game("king-albert", 3).position()["status"] == ""


# --- double-click ------------------------------------------------------------


def test_home_move_sends_top_card_to_its_foundation() -> None:
    game = Game(Fixed(state(F1="AC", F2="AS 2S", T1="9D* 3S", R1="2C", T2="5H")), 0)
    assert game.home_move("tableau-1") == Move("tableau-1", 1, "foundation-2")
    assert game.home_move("reserve-1") == Move("reserve-1", 1, "foundation-1")
    assert game.home_move("tableau-2") is None  # 5H has nowhere to go
    assert game.home_move("tableau-3") is None  # empty pile
    assert game.home_move("foundation-2") is None  # foundations are not double-clicked home
    game.play(game.home_move("tableau-1"))
    assert game.position()["piles"]["foundation-2"][-1]["card"] == "3S"
    assert game.position()["piles"]["tableau-1"][-1] == {"card": "9D", "up": True}


def test_home_move_puts_an_ace_on_the_first_empty_foundation() -> None:
    game = Game(Fixed(state(F1="AH", R5="AD", T4="AC")), 0)
    assert game.home_move("reserve-5") == Move("reserve-5", 1, "foundation-2")
    game.play(game.home_move("reserve-5"))
    assert game.home_move("tableau-4") == Move("tableau-4", 1, "foundation-3")


def test_home_move_rejects_unknown_pile() -> None:
    game = tableaux.new_game("king-albert", 1)
    with pytest.raises(tableaux.IllegalMoveError, match="no pile"):
        game.home_move("stock")


def test_deal_1_double_click_matches_aisleriot() -> None:
    # The oracle's deal-1 sample lists one double-click: reserve-5 (AH) to foundation-1.
    game = tableaux.new_game("king-albert", 1)
    homes = {p: game.home_move(p) for p in game.rules.pile_names if not p.startswith("foundation")}
    assert {p: m for p, m in homes.items() if m} == {"reserve-5": Move("reserve-5", 1, "foundation-1")}


# --- the traditional variant -----------------------------------------------


def test_classic_variant_deals_face_up_and_moves_single_cards() -> None:
    classic = tableaux.rules("king-albert-classic")
    s = classic.deal(1)
    assert not any(c & DOWN for p in s.piles for c in p)
    assert all(count == 1 for _, count, _ in classic.moves(s))
    built = state(T1="QH JC TD", T2="KS", T3="")
    assert all(count == 1 for _, count, _ in classic.moves(built))
    assert any(count == 3 for _, count, _ in RULES.moves(built))
