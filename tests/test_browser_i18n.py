"""The page in other languages, in Debian's Chromium: Accept-Language chooses, the language menu switches."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from browser_helpers import LiveServer
from browser_page import Browser, Player, expect, open_menu


@pytest.fixture
def french(browser: Browser, server: LiveServer) -> Iterator[Player]:
    p = Player(browser, server.url, locale="fr-FR", extra_http_headers={"Accept-Language": "fr"})
    yield p
    p.close()


def test_accept_language_fr_gives_a_french_page(french: Player) -> None:
    page = french.open("?game=king-albert&deal=17")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#new-game")).to_have_text("Nouvelle partie")
    expect(page.locator("#undo")).to_have_text("Annuler")
    expect(page.locator("#hint")).to_have_attribute("title", re.compile(r"^Indice \(h\)"))
    expect(page.locator("#lang-select")).to_have_value("fr")
    toolbar = page.locator("header.toolbar").inner_text()
    for english in ("New game", "Undo", "Statistics", "Rules"):
        assert english not in toolbar
    expect(page.locator('[data-pile="tableau-1"]')).to_have_attribute("aria-label", re.compile(r"^Colonne 1, 9 cartes"))
    page.keyboard.press("F1")
    expect(page.locator("#rules-title")).to_have_text("Règles de King Albert")
    expect(page.locator("#rules-text")).to_contain_text("monter les 52 cartes sur les quatre fondations")
    expect(page.locator("#rules-text")).to_contain_text("Jouer ici")
    page.keyboard.press("Escape")
    page.click("#hint")
    # The pure-Python solver's no-peek hint may take seconds on a busy machine; the words are what is tested.
    expect(page.locator("#notice")).to_contain_text("Indice", timeout=20_000)
    # The menu and the settings dialog, built by the page's scripts, speak French too.
    open_menu(page)
    expect(page.locator("#give-up")).to_have_text("Abandonner")
    page.click("#settings-button")
    settings = page.locator("#settings-list")
    expect(settings).to_contain_text("Couleurs de la table")
    expect(page.locator("#setting-hintMode option[value=peek]")).to_contain_text("le solveur regarde")
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
