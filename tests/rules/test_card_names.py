"""Card names are translated as a whole: each language says rank and suit in its own order and words.

The engine's reasons, its hints, the terminal and the page all name cards
through :func:`tableaux.rulebook.cards.card_name`, so a French player reads "Roi de
pique" everywhere and never "King of spades".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

import tableaux
from tableaux import i18n
from tableaux.rulebook.cards import CARD_NAME, RANK_WORDS, SUIT_WORDS, card_name, card_str, parse_card, rank_name
from tableaux.web.app import create_app

OTHER_LANGUAGES = [code for code in i18n.languages() if code != i18n.SOURCE_LANGUAGE]
ENGLISH_SUITS = re.compile(r"\bof (clubs|diamonds|hearts|spades)\b")


def english_name(card: int) -> str:
    with i18n.speaking("en"):
        return card_name(card)


def catalogue_translates(lang: str, msgid: str) -> bool:
    return i18n.translations(lang).gettext(msgid) != msgid


@pytest.mark.parametrize("lang", i18n.languages())
@given(card=st.integers(0, 51))
def test_every_card_has_a_name_in_every_language_never_blank_nor_a_bare_placeholder(lang: str, card: int) -> None:
    with i18n.speaking(lang):
        name = card_name(card)
    assert name.strip() and "{" not in name and "}" not in name
    if lang != "en" and any(catalogue_translates(lang, w) for w in (SUIT_WORDS[card // 13], CARD_NAME)):
        assert name != english_name(card), f"{lang}: {card_str(card)} is still called {name!r}"


@pytest.mark.parametrize("lang", i18n.languages())
def test_the_52_names_of_a_language_tell_every_card_apart(lang: str) -> None:
    with i18n.speaking(lang):
        names = {card_name(c) for c in range(52)}
    assert len(names) == 52


@pytest.mark.parametrize(
    ("lang", "card", "name"),
    [("en", "KS", "King of spades"), ("en", "TH", "10 of hearts"), ("fr", "KS", "Roi de pique"),
     ("fr", "QH", "Dame de cœur"), ("de", "KS", "Pik-König"), ("de", "AC", "Kreuz-Ass"), ("es", "KS", "Rey de picas"),
     ("es", "JD", "Jota de diamantes"), ("nl", "KS", "schoppen heer"), ("nl", "TH", "harten 10")],
)
def test_each_language_orders_rank_and_suit_its_own_way(lang: str, card: str, name: str) -> None:
    with i18n.speaking(lang):
        assert card_name(parse_card(card)) == name


@pytest.mark.parametrize("lang", i18n.languages())
def test_number_ranks_read_as_the_digits_the_cards_print_in_every_language(lang: str) -> None:
    """The base card on a status line reads "4" in every language, as on the card itself."""
    with i18n.speaking(lang):
        assert [rank_name(r) for r in range(2, 11)] == [str(r) for r in range(2, 11)]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_rank_and_suit_word_and_the_name_pattern_are_in_each_catalogue(lang: str) -> None:
    """The digits may stay digits; the words must be translated, or the name would mix two languages."""
    words = [w for w in (*RANK_WORDS, *SUIT_WORDS, CARD_NAME) if not w.isdigit()]
    missing = [w for w in words if not catalogue_translates(lang, w)]
    assert not missing, f"{lang} lacks {missing}"


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_reasons_for_illegal_moves_name_cards_in_the_players_language(lang: str) -> None:
    game = tableaux.new_game("king-albert", 1)
    rules, state = game.rules, game.state
    with i18n.speaking(lang):
        reasons = [rules.why_illegal(state, (src, 1, dst)) or "" for src in range(len(rules.pile_names))
                   for dst in range(len(rules.pile_names))]
        names = {card_name(c) for c in range(52)}
    naming = [r for r in reasons if any(n in r for n in names)]
    assert naming, "no reason named a card"
    assert not [r for r in reasons if ENGLISH_SUITS.search(r)]


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_eagle_wings_status_line_names_the_base_rank_in_the_players_language(lang: str) -> None:
    game = tableaux.new_game("eagle-wing", 1)  # base card: a Jack
    with i18n.speaking(lang):
        status = game.position()["status"]
        jack = rank_name(11)
    assert jack != "Jack" and status.count(jack) == 1 and "Base card" not in status


def test_english_status_line_calls_the_reserve_the_trunk_as_the_rules_and_hints_do() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    with i18n.speaking("en"):
        assert game.position()["status"] == "Stock left: 30   Trunk left: 13   Base card: Jack   Redeals left: 2"


@pytest.mark.parametrize("lang", i18n.languages())
def test_the_page_gets_the_engines_card_and_rank_names_so_both_say_the_same(lang: str, tmp_path: Path) -> None:
    data = TestClient(create_app(tmp_path / "games.db")).get(f"/api/i18n/{lang}").json()
    with i18n.speaking(lang):
        for c in range(52):
            code = card_str(c)
            page_name = data["card_name"].format(rank=data["ranks"][code[0]], suit=data["suits"][code[1]])
            assert page_name == card_name(c)
