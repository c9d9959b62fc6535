"""The page in other languages, in Debian's Chromium: Accept-Language chooses, the language menu switches."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from helpers.browser import LiveServer
from helpers.page import Browser, Player, expect, open_menu, pile
from tableaux import i18n
from tableaux.advice.hints import PEEKING


def speaking(browser: Browser, server: LiveServer, language: str, region: str) -> Iterator[Player]:
    """A player whose browser asks for ``language`` first, as a browser set up in that language does."""
    p = Player(browser, server.url, locale=f"{language}-{region}", extra_http_headers={"Accept-Language": language})
    yield p
    p.close()


@pytest.fixture
def french(browser: Browser, server: LiveServer) -> Iterator[Player]:
    yield from speaking(browser, server, "fr", "FR")


def test_accept_language_fr_gives_a_french_page(french: Player) -> None:
    page = french.open("?game=king-albert&deal=17")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")
    expect(page.locator("#undo")).to_have_text("Annuler")
    expect(page.locator("#hint")).to_have_attribute("title", re.compile(r"^Indice \(h\)"))
    expect(page.locator("#lang-select")).to_have_value("fr")
    toolbar = page.locator("#toolbar").inner_text()
    for english in ("New game", "Undo", "Statistics", "Rules"):
        assert english not in toolbar
    expect(page.locator('[data-pile="tableau-1"]')).to_have_attribute("aria-label", re.compile(r"^Colonne 1, 9 cartes"))
    page.keyboard.press("F1")
    expect(page.locator("#rules-title")).to_have_text("Règles de King Albert")  # "d'Eagle Wing": see below
    expect(page.locator("#rules-text")).to_contain_text("monter les 52 cartes sur les quatre fondations")
    expect(page.locator("#rules-text")).to_contain_text("Jouer ici")
    page.keyboard.press("Escape")
    page.click("#hint")
    # The pure-Python solver's no-peek hint may take seconds on a busy machine; the words are what is tested.
    expect(page.locator("#notice")).to_contain_text("Indice", timeout=60_000)
    # The menu and the settings dialog, built by the page's scripts, speak French too.
    open_menu(page)
    expect(page.locator("#give-up")).to_have_text("Abandonner")
    page.click("#settings-button")
    settings = page.locator("#settings-list")
    expect(settings).to_contain_text("Couleurs de la table")
    expect(page.locator("#setting-hintMode option[value=peek]")).to_have_text("En trichant")
    expect(page.locator("#setting-hintMode-note")).to_contain_text("le solveur regarde")
    for english in ("Table colours", "Card size", "Hints", "Pile labels"):
        assert english not in settings.inner_text()


def test_the_language_menu_switches_the_page_and_is_remembered(french: Player) -> None:
    page = french.open("?game=eagle-wing&deal=3")
    open_menu(page)
    page.select_option("#lang-select", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#new-game")).to_have_text("Neues Spiel")
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("html")).to_have_attribute("lang", "de")  # remembered over Accept-Language: fr
    expect(page.locator("#restart")).to_have_text("Neu beginnen")
    open_menu(page)
    page.select_option("#lang-select", "en")
    expect(page.locator("#new-game")).to_have_text("New game")
    expect(page.locator("html")).to_have_attribute("lang", "en")


@pytest.fixture
def german(browser: Browser, server: LiveServer) -> Iterator[Player]:
    yield from speaking(browser, server, "de", "DE")


def test_french_hints_keep_the_reason_without_the_move_and_say_peeking_once(french: Player) -> None:
    page = french.open("?game=king-albert&deal=1")
    notice = page.locator("#notice")
    # The wording is under test, not the load shedding: let the page's own chance finish, so the hint finds a
    # free solver rather than the rule of thumb's "the solver is busy".
    chance_done = page.locator("#chance")
    expect(chance_done).to_have_attribute("data-state", "done", timeout=60_000)
    page.click("#hint")  # fair: "Jouez R5>F1 : ensuite, ..." shows as the reason alone, behind "Pourquoi ?"
    expect(notice).to_contain_text("Selon le solveur : ensuite, un solveur qui voit toutes les cartes gagne",
                                   timeout=60_000)
    expect(notice).to_contain_text("Indice : Ranger As de cœur sur une fondation.")  # the move in plain words
    notice.locator("summary").click()
    assert "Jouez" not in notice.inner_text()
    page.evaluate("localStorage.setItem('tableaux.setting.hintMode', 'peek')")
    page.reload()
    expect(chance_done).to_have_attribute("data-state", "done", timeout=60_000)
    page.click("#hint")
    expect(notice).to_have_attribute("data-peeks", "true", timeout=60_000)
    expect(notice).to_contain_text("Selon le solveur : il commence une suite gagnante")
    with i18n.speaking("fr"):
        note = i18n._(PEEKING)
    notice.locator("summary").click()
    text = notice.inner_text()
    assert text.count(note) == 1 and "Jouez" not in text, text


def test_french_percentages_are_all_spaced_alike_and_the_rules_elide(french: Player) -> None:
    page = french.open("?game=eagle-wing&deal=1")
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
    page.click("#chance-stat")
    expect(page.locator("#chance-info")).to_be_visible()
    text = page.locator("#chance-info").inner_text() + " " + page.locator("#chance").inner_text()
    spacing = set(re.findall(r"\d(\s?)%", text))
    assert len(re.findall(r"%", text)) >= 5 and spacing and "" not in spacing, text  # "95 %", "62 %": never "62%"
    page.keyboard.press("Escape")
    page.keyboard.press("F1")
    expect(page.locator("#rules-title")).to_have_text("Règles d'Eagle Wing")


def test_german_court_cards_carry_german_letters(german: Player) -> None:
    page = german.open("?game=king-albert&deal=1")  # deal 1 shows the Queen of diamonds and the Jack of clubs
    for code, letter in (("QD", "D"), ("JC", "B")):
        letters = page.locator(f'[data-card="{code}"] svg .detail text').all_text_contents()
        assert letters and set(letters) == {letter}, (code, letters)
    page = german.open("?game=eagle-wing&deal=1")  # its base card is a Jack: the empty foundations wait for a "B"
    expect(pile(page, "foundation-2")).to_have_attribute("data-mark", "B")
