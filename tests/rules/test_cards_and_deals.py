"""Cards, deal numbers and golden data recorded from AisleRiot itself.

The expected layouts and playthroughs in ``golden/`` come from the AisleRiot
oracle (GNOME AisleRiot's real rules code, run headless), never from this
engine; ``golden/make_golden.py`` says exactly how. So these tests prove that
deal N here is deal N in AisleRiot and that a game plays out the same way.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tableaux
from tableaux import CardError, DealError, Move, card_str, parse_card
from tableaux.rulebook import deal as deal_module
from tableaux.rulebook.cards import DOWN, card_name
from tableaux.rulebook.deal import MAX_DEAL, check_deal, python_deck, read_deal, shuffled_deck

GOLDEN = Path(__file__).parent / "golden"
DEALS = json.loads((GOLDEN / "deals.json").read_text())
PLAYTHROUGHS = json.loads((GOLDEN / "playthroughs.json").read_text())


def pile_text(pile: tuple[int, ...]) -> str:
    """A pile in the golden files' form: bottom to top, '*' after a face-down card."""
    return " ".join(card_str(c) + ("*" if c & DOWN else "") for c in pile)


def layout(game: tableaux.Game) -> dict[str, str]:
    return {name: pile_text(pile) for name, pile in zip(game.rules.pile_names, game.state.piles, strict=True)}


# --- cards -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("AS", "A", "S"), ("TD", "T", "D"), ("KH", "K", "H"), ("2C", "2", "C"), ("9D", "9", "D"), ("QS", "Q", "S")],
)
def test_card_notation_round_trips(text: str, rank: str, suit: str) -> None:
    card = parse_card(text)
    assert card_str(card) == text
    assert card_str(card)[0] == rank and card_str(card)[1] == suit


def test_every_card_has_a_unique_two_letter_name() -> None:
    names = [card_str(c) for c in range(52)]
    assert len(set(names)) == 52
    assert all(re.fullmatch(r"[A2-9TJQK][CDHS]", n) for n in names)
    assert [parse_card(n) for n in names] == list(range(52))
    # The unshuffled deck order AisleRiot uses: clubs, diamonds, hearts, spades, Ace to King.
    assert names[0] == "AC" and names[12] == "KC" and names[13] == "AD" and names[51] == "KS"


@pytest.mark.parametrize(
    ("text", "same_as"), [("10D", "TD"), ("10s", "TS"), ("ah", "AH"), ("kc", "KC"), (" qd ", "QD")]
)
def test_parse_card_accepts_ten_as_10_and_lower_case(text: str, same_as: str) -> None:
    assert parse_card(text) == parse_card(same_as)


@pytest.mark.parametrize("bad", ["", "A", "1S", "11D", "ZZ", "AX", "TDX", "10", "S A", "0S", "KK", "AS,"])
def test_parse_card_rejects_anything_else_clearly(bad: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    message = str(info.value)
    assert repr(bad) in message  # says what was wrong
    assert "TS" in message and "10D" in message  # and what is accepted


@pytest.mark.parametrize("bad", [None, 12, 3.5, b"AS"])
def test_parse_card_rejects_non_text(bad: object) -> None:
    with pytest.raises(CardError, match="text"):
        parse_card(bad)  # type: ignore[arg-type]


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("bad", [52, 63, -1, 116, 128, 64 + 64, True, 1.0, "3", None])
def test_a_number_that_is_no_card_is_a_card_error_that_gives_the_range(bad: object) -> None:
    for name in (card_str, card_name):
        with pytest.raises(CardError) as info:
            name(bad)  # type: ignore[arg-type]
        assert repr(bad) in str(info.value) and "from 0 to 51" in str(info.value) and "64 to 115" in str(info.value)


def test_face_down_card_keeps_its_name() -> None:
    assert card_str(parse_card("TS") | DOWN) == "TS"
    assert card_name(parse_card("10h")) == "10 of hearts"


# --- deal numbers ----------------------------------------------------------


@pytest.mark.parametrize("deal", [0, 1, 2**31, 4294967295])
def test_every_32_bit_deal_number_is_accepted(deal: int) -> None:
    assert check_deal(deal) == deal
    deck = shuffled_deck(deal)
    assert sorted(deck) == list(range(52))


@pytest.mark.parametrize("bad", [-1, 4294967296, 2**40, 1.0, 1.5, "x", None, True, "-3", "17", " 17 "])
def test_other_deal_numbers_are_rejected_clearly(bad: object) -> None:
    with pytest.raises(DealError) as info:
        check_deal(bad)
    assert "4294967295" in str(info.value)
    if bad is None:
        return  # new_game(deal=None) means "a random deal"
    for name in ("king-albert", "eagle-wing"):
        with pytest.raises(DealError):
            tableaux.new_game(name, deal=bad)  # type: ignore[arg-type]


def test_a_deal_number_a_player_types_is_read_from_its_digits_and_nothing_is_a_random_deal() -> None:
    assert read_deal(" 42 ") == 42 and read_deal("") is None and read_deal("  ") is None
    for bad in ("x", "-3", "4.5", "\u00b2", "\u0664\u0662", "4294967296"):  # superscript 2, Arabic-Indic 42
        with pytest.raises(DealError, match="4294967295"):
            read_deal(bad)


@settings(max_examples=500)
@given(st.one_of(st.integers(0, MAX_DEAL), st.sampled_from([0, 1, 2**31 - 1, 2**31, MAX_DEAL])))
def test_the_compiled_shuffle_deals_the_python_shuffles_deck_for_every_deal_number(deal: int) -> None:
    compiled = deal_module._compiled_deck
    if compiled is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled shuffle is not built where CI runs (a compiler is present there)")
        pytest.skip("the compiled shuffle is not built here")
    assert compiled(deal) == python_deck(deal)


def test_deals_differ_and_repeat() -> None:
    assert shuffled_deck(5) == shuffled_deck(5)
    assert len({tuple(shuffled_deck(d)) for d in range(20)}) == 20


def test_rules_page_vector_king_albert_deal_1() -> None:
    piles = layout(tableaux.new_game("king-albert", deal=1))
    assert piles["tableau-1"] == "9C* AD* 3S* 4H* 5C* TC* QC* 8S* TS"
    assert piles["tableau-2"] == "QH* 2S* 7H* KD* QS* 6H* 8C* 7D"
    assert piles["tableau-3"] == "8D* JS* 2D* 9H* KH* JD* 4S"
    assert piles["tableau-4"] == "3C* 3H* 6C* 9S* 6D* QD"
    assert piles["tableau-5"] == "6S* 9D* JH* 4C* KC"
    assert piles["tableau-6"] == "AC* 3D* AS* 5D"
    assert piles["tableau-7"] == "4D* 5S* 8H"
    assert piles["tableau-8"] == "KS* JC"
    assert piles["tableau-9"] == "TD"
    assert [piles[f"reserve-{i}"] for i in range(1, 8)] == "2C 5H TH 7C AH 2H 7S".split()
    assert all(piles[f"foundation-{i}"] == "" for i in range(1, 5))


def test_rules_page_vector_eagle_wing_deal_1() -> None:
    game = tableaux.new_game("eagle-wing", deal=1)
    piles = layout(game)
    assert piles["foundation-1"] == "JH"
    assert [piles[f"tableau-{i}"] for i in range(1, 9)] == "9D 3D 5S JC 3S 7H 2D 6C".split()
    assert piles["reserve"] == "9C QH* 8D* 3C* 6S* AC* 4D* KS* TD* AD* 2S* JS* 3H*"
    assert piles["waste"] == ""
    assert len(piles["stock"].split()) == 30
    turned = []
    for _ in range(3):
        game.play("S>W")
        turned.append(game.position()["piles"]["waste"][-1]["card"])
    assert turned == ["AS", "8H", "4H"]


@pytest.mark.parametrize("shuffle", ["as-built", "python"])
@pytest.mark.parametrize("game_name", ["king-albert", "eagle-wing"])
@pytest.mark.parametrize("deal", sorted(DEALS["king-albert"], key=int))
def test_deal_matches_aisleriot(game_name: str, deal: str, shuffle: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if shuffle == "python":  # the reference, which deals alone where the compiled shuffle is not built
        monkeypatch.setattr(deal_module, "_compiled_deck", None)
    assert layout(tableaux.new_game(game_name, deal=int(deal))) == DEALS[game_name][deal]


def test_golden_deals_cover_the_ends_of_the_range() -> None:
    assert {"0", "4294967295"} <= set(DEALS["king-albert"]) and len(DEALS["eagle-wing"]) >= 8


# --- golden playthroughs ---------------------------------------------------


def in_aisleriots_words(status: str) -> str:
    """Our status line in AisleRiot's words: it keeps AisleRiot's figures and layout, but calls the reserve the
    trunk (as the rules and hints do) and writes "Base card"."""
    return status.replace("Trunk left:", "Reserve left:").replace("Base card:", "Base Card:")


def _compare_ply(game: tableaux.Game, order: list[str], row: dict, where: str) -> None:
    position = game.position()
    piles = "|".join(pile_text(game.state.piles[game.rules.index[name]]) for name in order)
    assert piles == row["piles"], f"{where}: piles differ"
    assert position["score"] == row["score"], f"{where}: score"
    assert position["won"] == row["won"], f"{where}: won"
    assert position["over"] == row["over"], f"{where}: over"
    assert in_aisleriots_words(position["status"].strip()) == row["status"], f"{where}: status line"
    assert " ".join(sorted(str(m) for m in game.legal_moves())) == row["moves"], f"{where}: legal moves"


@pytest.mark.parametrize(
    "record", PLAYTHROUGHS["playthroughs"], ids=lambda r: f"{r['game']}-{r['deal']}-seed{r['playout_seed']}"
)
def test_playthrough_matches_aisleriot_at_every_ply(record: dict) -> None:
    game = tableaux.new_game(record["game"], deal=record["deal"])
    order = PLAYTHROUGHS["pile_order"][record["game"]]
    plies = record["plies"]
    assert len(plies) > 100
    for i, row in enumerate(plies):
        if row["move"] is not None:
            game.play(Move.from_str(row["move"]))
        _compare_ply(game, order, row, f"{record['game']} deal {record['deal']} ply {i}")
    # Unwinding the whole game with undo passes through the same positions backwards.
    for i in range(len(plies) - 2, -1, -1):
        game.undo()
        _compare_ply(game, order, plies[i], f"undo to ply {i}")
