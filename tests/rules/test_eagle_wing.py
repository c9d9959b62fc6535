"""Eagle Wing as AisleRiot plays it: one or more tests per rule of the rules page.

Positions are built by hand (``*`` marks a face-down card) and checked through
the engine's only move generator (``Rules.moves``/``Rules.apply``) or the
``Game`` object on top of it.
"""

from __future__ import annotations

import pytest

import tableaux
from helpers.handmade import Hand
from tableaux import Game, Move
from tableaux.rulebook.cards import DOWN

RULES = tableaux.rules("eagle-wing")


H = Hand(RULES)
card, state, legal, play, pile, Fixed = H.card, H.state, H.legal, H.play, H.pile, H.fixed


# --- the deal --------------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 99, 4294967295])
def test_deal_layout(deal: int) -> None:
    s = RULES.deal(deal)
    reserve = s.piles[RULES.index["reserve"]]
    assert len(reserve) == 13 and not reserve[0] & DOWN and all(c & DOWN for c in reserve[1:])
    for i in range(1, 9):
        (only,) = s.piles[RULES.index[f"tableau-{i}"]]
        assert not only & DOWN
    stock = s.piles[RULES.index["stock"]]
    assert len(stock) == 30 and all(c & DOWN for c in stock)
    assert pile(s, "W") == "" and len(s.piles[RULES.index["foundation-1"]]) == 1
    assert all(pile(s, f"F{i}") == "" for i in (2, 3, 4))
    assert sorted(c & ~DOWN for p in s.piles for c in p) == list(range(52))
    assert RULES.score(s) == 1  # the base card counts
    assert s.redeals == 0


def test_status_line_wording_at_the_deal() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    assert game.position()["status"] == "Stock left: 30   Trunk left: 13   Base card: Jack   Redeals left: 2"
    assert game.score == 1


@pytest.mark.parametrize(
    ("base", "word"), [("AH", "Ace"), ("2C", "2"), ("TD", "10"), ("JS", "Jack"), ("QC", "Queen"), ("KH", "King")]
)
def test_status_line_names_the_base_rank(base: str, word: str) -> None:
    s = state(F1=base, S="4C* 5C*", R="9D QH* 3C*", W="6H", redeals=1)
    status = RULES.extra(s)["status"]
    assert status == f"Stock left: 2   Trunk left: 3   Base card: {word}   Redeals left: 1"


# --- stock and waste ---------------------------------------------------------


def test_stock_turns_one_card_then_redeals_in_the_same_order_twice() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    passes = []
    for redeals_left in (2, 1, 0):
        turned = []
        while game.position()["piles"]["stock"]:
            assert "S>W" in {str(m) for m in game.legal_moves()}
            game.play("S>W")
            waste = game.position()["piles"]["waste"]
            assert waste[-1]["up"] and len(waste) == len(turned) + 1
            turned.append(waste[-1]["card"])
        passes.append(turned)
        assert game.position()["redeals_left"] == redeals_left
        if redeals_left:
            assert {str(m) for m in game.legal_moves() if m.target == "stock"} == {"W:30>S"}
            game.play("W:30>S")  # the whole waste goes back, face down
            piles = game.position()["piles"]
            assert piles["waste"] == [] and len(piles["stock"]) == 30
            assert not any(c["up"] for c in piles["stock"])
    assert passes[0] == passes[1] == passes[2]  # the next card turned is the first one of the last pass
    assert passes[0][:3] == ["AS", "8H", "4H"]
    # Two redeals used: the stock action is gone and the status line says so.
    assert not any("stock" in (m.source, m.target) for m in game.legal_moves())
    assert game.position()["status"].endswith("Redeals left: 0")


def test_stock_action_needs_cards_somewhere() -> None:
    s = state(F1="JH", T1="5C")
    assert not any(m.startswith(("S", "W")) for m in legal(s))


def test_waste_redeal_counts_and_keeps_order() -> None:
    s = state(F1="JH", W="2C 7D 9S", T1="5C")
    after = play(s, "W:3>S")
    assert pile(after, "S") == "9S* 7D* 2C*" and pile(after, "W") == "" and after.redeals == 1
    after = play(after, "S>W")
    assert pile(after, "W") == "2C"  # the first card of the last pass comes first again
    spent = state(F1="JH", W="2C 7D 9S", T1="5C", redeals=2)
    assert "W:3>S" not in legal(spent)


def test_only_the_top_waste_card_plays() -> None:
    s = state(F1="JH", W="QH 5C", T1="6C", T2="KH")
    moves = legal(s)
    assert "W>T1" in moves  # 5C on 6C
    assert "W>F1" not in moves  # QH is under 5C
    assert not any(m.startswith("W:") and not m.endswith(">S") for m in moves)


# --- foundations -------------------------------------------------------------


def test_empty_foundation_takes_only_the_base_rank() -> None:
    s = state(F1="7H", T1="7S", T2="8H", W="7C")
    moves = legal(s)
    assert {"T1>F2", "T1>F3", "T1>F4", "W>F2", "W>F3", "W>F4", "T2>F1"} <= moves
    assert not any(m.startswith("T2>F") and m != "T2>F1" for m in moves)


def test_foundation_wraps_from_king_to_ace() -> None:
    s = state(F1="JD QD KD", T1="AD", T2="AS")
    moves = legal(s)
    assert "T1>F1" in moves and "T2>F1" not in moves
    assert pile(play(s, "T1>F1"), "F1") == "JD QD KD AD"


def test_foundation_cards_are_out_of_play() -> None:
    s = state(F1="JD QD", F2="", T1="", T2="KC")
    assert not any(m.startswith("F") for m in legal(s))


def test_score_counts_the_base_card_and_every_card_home() -> None:
    s = state(F1="5S 6S", F2="5H", T1="7S 6S", W="6H")
    assert RULES.score(s) == 3
    assert RULES.score(play(s, "W>F2")) == 4


# --- tableau ------------------------------------------------------------------


def test_tableau_builds_down_in_suit_with_wrapping() -> None:
    s = state(F1="5C", T1="AS", T2="KS", T3="KH", T4="9D", W="8D", R="TC QH*")
    moves = legal(s)
    assert "T2>T1" in moves  # K on A: wraps
    assert "T3>T1" not in moves  # other suit
    assert "W>T4" in moves  # 8D on 9D
    after = play(s, "T2>T1")
    assert pile(after, "T1") == "AS KS"


def test_tableau_piles_hold_at_most_three_cards() -> None:
    s = state(F1="5C", T1="9D 8D 7D", T2="6D", T3="QS JS", T4="TS", R="AC KH*")
    moves = legal(s)
    assert "T2>T1" not in moves  # 6D fits 7D but the pile is full
    assert "T4>T3" in moves
    assert pile(play(s, "T4>T3"), "T3") == "QS JS TS"


def test_only_single_cards_move_onto_tableau_piles() -> None:
    s = state(F1="5C", T1="9D 8D", T2="TD", T3="")
    moves = legal(s)
    assert "T1>T2" not in moves  # 8D does not go on TD
    assert not any(m.startswith("T1:") and ">T" in m for m in moves)
    assert "T1:2>T3" not in moves and "T1>T3" in moves


def test_empty_tableau_pile_takes_any_single_card_once_the_reserve_is_empty() -> None:
    s = state(F1="5C", T1="QH", T2="", W="3S")
    assert {"T1>T2", "W>T2"} <= legal(s)


def test_reserve_last_card_is_playable_to_tableau_and_foundation() -> None:
    s = state(F1="9C", R="9H", T1="TH", T2="2S")
    moves = legal(s)
    assert {"R>T1", "R>F2", "R>F3", "R>F4"} <= moves
    after = play(s, "R>T1")
    assert pile(after, "R") == "" and pile(after, "T1") == "TH 9H"


def test_reserve_card_is_not_playable_while_others_lie_on_it() -> None:
    s = state(F1="9C", R="9H 4D*", T1="TH", T2="2S")
    assert not any(m.startswith("R") for m in legal(s))


def test_reserve_never_receives() -> None:
    s = state(F1="9C", R="", T1="TH", T2="2S", W="5D")
    assert not any(m.endswith(">R") for m in legal(s))
    s = state(F1="9C", R="3C 7D*", T1="TH", T2="2S", W="5D")
    assert not any(m.endswith(">R") for m in legal(s))


# --- group moves to a foundation ------------------------------------------


def test_two_or_three_cards_go_home_in_one_move_landing_ascending() -> None:
    s = state(F1="4H", F2="4S 5S", T1="8S 7S 6S", T2="QC JC", R="2D 5D*")
    moves = legal(s)
    assert {"T1>F2", "T1:2>F2", "T1:3>F2"} <= moves
    after = play(s, "T1:3>F2")
    assert pile(after, "F2") == "4S 5S 6S 7S 8S"
    assert RULES.score(after) == RULES.score(s) + 3
    two = play(s, "T1:2>F2")
    assert pile(two, "F2") == "4S 5S 6S 7S" and pile(two, "T1") == "8S"
    assert RULES.score(two) == RULES.score(s) + 2


def test_group_move_only_when_the_top_card_fits() -> None:
    s = state(F1="4H", F2="4S", T1="7S 6S", R="2D 5D*")
    assert not any(m.startswith("T1") and ">F" in m for m in legal(s))


def test_base_rank_group_goes_to_an_empty_foundation() -> None:
    s = state(F1="4H", T1="5C 4C", R="2D 5D*")
    moves = legal(s)
    assert {"T1:2>F2", "T1:2>F3", "T1:2>F4"} <= moves
    assert pile(play(s, "T1:2>F3"), "F3") == "4C 5C"


# --- refill from the reserve -------------------------------------------------


def test_emptied_tableau_pile_is_refilled_from_the_reserve_in_the_same_move() -> None:
    s = state(F1="4H", T1="5H", T2="9C", R="2D 6S* KD*")
    after = play(s, "T1>F1")
    assert pile(after, "T1") == "KD" and pile(after, "R") == "2D 6S*"
    game = Game(Fixed(s), 0)
    game.play("T1>F1")
    assert game.position()["status"].startswith("Stock left: 0   Trunk left: 2")
    game.undo()  # one undo step undoes the move and the refill
    assert game.state == s


def test_group_move_home_also_refills() -> None:
    s = state(F1="4H", T1="6H 5H", R="2D 6S*")
    after = play(s, "T1:2>F1")
    assert pile(after, "T1") == "6S" and pile(after, "R") == "2D"


def test_refill_can_take_the_reserves_last_card() -> None:
    s = state(F1="4H", T1="5H", T2="9C", R="2D")
    after = play(s, "T1>F1")
    assert pile(after, "T1") == "2D" and pile(after, "R") == ""
    assert not any(pile(after, f"T{i}") == "" for i in (1, 2))


def test_empty_pile_stays_empty_once_the_reserve_is_gone() -> None:
    s = state(F1="4H", T1="5H", T2="9C")
    after = play(s, "T1>F1")
    assert pile(after, "T1") == ""


# --- won, over -----------------------------------------------------------------


def test_won_when_every_card_is_home() -> None:
    ranks = "A23456789TJQK"
    foundations = {f"F{i + 1}": " ".join(r + s for r in ranks[2:] + ranks[:2]) for i, s in enumerate("CDHS")}
    game = Game(Fixed(state(**foundations)), 0)
    assert game.is_won() and game.score == 52 and not game.is_over()
    assert game.position()["won"] and not game.position()["over"]


def test_aisleriot_false_loss_is_not_over() -> None:
    """The rules page's example: base J, pile JC TC, another pile empty. AisleRiot wrongly says lost."""
    s = state(F1="JH", T1="JC TC", T2="")
    assert "T1>T2" in legal(s)
    game = Game(Fixed(s), 0)
    assert not game.is_over() and not game.position()["over"]
    game.play("T1>T2")
    assert "T1>F2" in {str(m) for m in game.legal_moves()}  # then JC home
    assert not game.is_over()


def test_over_when_no_move_and_no_stock_action() -> None:
    stuck = state(F1="JH", T1="5C 4C 3C", T2="9D 8D 7D", T3="2S AS KS", T4="7H 6H 5H",
                  T5="QD JD TD", T6="6C 5C 4C", T7="9S 8S 7S", T8="3D 2D AD", W="4S", redeals=2)
    assert legal(stuck) == set()
    game = Game(Fixed(stuck), 0)
    assert game.is_over() and game.position()["over"] and not game.is_won()
    # The same position with a redeal left is not over: the waste can go back to the stock.
    assert not Game(Fixed(stuck._replace(redeals=1)), 0).is_over()


# --- double-click ------------------------------------------------------------


def test_home_move_sends_a_single_card_even_when_a_group_could_go() -> None:
    game = Game(Fixed(state(F1="4S 5S", T1="7S 6S", W="AD", R="2D KC*")), 0)
    assert game.home_move("tableau-1") == Move("tableau-1", 1, "foundation-1")
    assert game.home_move("waste") is None  # AD is not the next card anywhere
    game.play(game.home_move("tableau-1"))
    assert game.position()["piles"]["tableau-1"][-1]["card"] == "7S"


def test_home_move_puts_a_base_card_on_the_first_empty_foundation() -> None:
    game = Game(Fixed(state(F1="4S", F2="4D", W="4C", T3="4H", R="2D KC*")), 0)
    assert game.home_move("waste") == Move("waste", 1, "foundation-3")


def test_home_move_never_from_reserve_stock_or_foundation() -> None:
    game = Game(Fixed(state(F1="4S", R="5S", S="6D*")), 0)
    assert Move("reserve", 1, "foundation-1") in game.legal_moves()  # a drag can do it...
    assert game.home_move("reserve") is None  # ...a double-click cannot
    assert game.home_move("stock") is None and game.home_move("foundation-1") is None


# --- what the player sees of the trunk -----------------------------------------


def test_trunk_bottom_card_is_face_up_in_the_engine_but_hidden_from_the_player_while_covered() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    assert not game.state.piles[RULES.index["reserve"]][0] & DOWN  # dealt face up: the engine stays exact
    assert game.position()["piles"]["reserve"][0] == {"card": "9C", "up": True}
    public = game.public_position()["piles"]["reserve"]
    assert len(public) == 13 and all(c == {"card": None, "up": False} for c in public)
    assert "9C" not in str(game.public_position())


@pytest.mark.parametrize(("trunk", "shown"), [("9C", True), ("9C QH*", False), ("9C QH* 3C*", False)])
def test_trunk_bottom_card_is_seen_only_when_it_is_the_last_card(trunk: str, shown: bool) -> None:
    s = state(F1="JH", T1="9D", T2="3D", S="AS*", R=trunk)
    assert RULES.visible(s)[RULES.index["reserve"]][0] is shown
    game = Game(Fixed(s), 1)
    bottom = game.public_position()["piles"]["reserve"][0]
    assert bottom == ({"card": "9C", "up": True} if shown else {"card": None, "up": False})


def test_trunk_bottom_card_comes_into_view_when_the_refills_have_taken_the_rest() -> None:
    # T1's only card goes home, the refill takes the trunk's top card and leaves the bottom one alone.
    s = state(F1="JH", T1="QH", T2="3D", S="AS*", R="9C 4S*")
    after = play(s, "T1>F1")
    assert pile(after, "T1") == "4S" and pile(after, "R") == "9C"
    game = Game(Fixed(s), 1)
    assert game.public_position()["piles"]["reserve"] == [{"card": None, "up": False}] * 2
    game.play("T1>F1")
    assert game.public_position()["piles"]["reserve"] == [{"card": "9C", "up": True}]
