"""Themes and comfort, in real headless Chromium: every text keeps WCAG AA contrast in both themes and both
decks, the four-colour deck gives each suit its own colour, the settings (dark table, deck, card and text
size) are remembered across a reload, and the system's colour scheme is followed until the player chooses.
"""

from __future__ import annotations

import re

import pytest

from helpers.browser import LiveServer
from helpers.layout import EW1
from helpers.page import KA1, Browser, Page, Player, card, contrast, expect, open_menu, set_setting

AA = 4.5  # WCAG AA contrast for normal-size text


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("query", [KA1, EW1])
def test_every_text_keeps_aa_contrast(browser: Browser, server: LiveServer, scheme: str, query: str) -> None:
    """Toolbar, status line, menu, dialogs, notices and card indices, in both themes, both decks."""
    p = Player(browser, server.url, color_scheme=scheme)
    try:
        page = p.open(query)
        expect(page.locator("html")).to_have_attribute("data-scheme", scheme)
        page.fill("#deal-input", "")  # it shows the deal on the table; cleared to type another, its placeholder
        measured = contrast(page)
        page.click("#hint")
        expect(page.locator("#notice")).to_contain_text("Hint:", timeout=60_000)  # the hint itself, not the wait
        measured += contrast(page)
        open_menu(page)
        measured += contrast(page)
        page.click("#settings-button")
        measured += contrast(page)
        page.select_option("#setting-deck", "four")
        measured += contrast(page)
        page.click("#settings-close")
        page.keyboard.press("F1")
        measured += contrast(page)
        page.keyboard.press("Escape")
        open_menu(page)
        page.click("#stats-button")
        expect(page.locator("#stats-body table")).to_be_visible()
        measured += contrast(page)
        places = {m["where"] for m in measured}
        assert {"#notice", "#game-name", "#settings-title", "#stats-title"} <= places
        assert any(w.startswith("card ") for w in places) and any(w.endswith("::placeholder") for w in places)
        low = [m for m in measured if m["ratio"] < AA]
        assert not low, low[:10]
    finally:
        p.close()


def suit_colours(page: Page) -> dict[str, str]:
    """The rendered ink of each suit's card index, from the face-up cards on the table."""
    return page.evaluate(
        """() => { const out = {}; for (const t of document.querySelectorAll('[data-card] svg text')) {
            if (!t.checkVisibility()) continue;
            out[t.closest('[data-card]').dataset.card[1]] = getComputedStyle(t).fill; } return out; }"""
    )


def test_four_colour_deck_gives_each_suit_its_own_colour(player: Player) -> None:
    page = player.open(KA1)  # deal 1 shows all four suits face up
    two = suit_colours(page)
    assert set(two) == set("CDHS")
    assert two["H"] == two["D"] != two["S"] == two["C"]
    set_setting(page, "deck", "four")
    four = suit_colours(page)
    assert len(set(four.values())) == 4, four
    assert four["H"] == two["H"] and four["S"] == two["S"]  # hearts stay red, spades black


def test_settings_are_remembered_across_a_reload(player: Player) -> None:
    page = player.open(KA1)
    width = card(page, "TD").bounding_box()["width"]
    text = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    set_setting(page, "theme", "dark")
    set_setting(page, "deck", "four")
    set_setting(page, "cardSize", "small")
    set_setting(page, "text", "large")
    for _ in range(2):  # as chosen, and again after a reload
        root = page.locator("html")
        expect(root).to_have_attribute("data-scheme", "dark")
        expect(root).to_have_attribute("data-deck", "four")
        assert card(page, "TD").bounding_box()["width"] < 0.9 * width
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 1.15 * text
        assert dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.reload()
        page.wait_for_selector("[data-pile]")
    open_menu(page)
    page.click("#settings-button")
    expect(page.locator("#setting-theme")).to_have_value("dark")
    expect(page.locator("#setting-cardSize")).to_have_value("small")


def dark(colour: str) -> bool:
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    return max(r, g, b) < 60 and abs(r - g) < 20  # near black, not the green cloth


def test_the_system_colour_scheme_is_followed_until_the_player_chooses(browser: Browser, server: LiveServer) -> None:
    p = Player(browser, server.url, color_scheme="dark")
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
        assert dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.emulate_media(color_scheme="light")  # the system switches back: so does the page, at once
        expect(page.locator("html")).to_have_attribute("data-scheme", "light")
        assert not dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        set_setting(page, "theme", "light")  # an explicit choice wins over the system
        page.emulate_media(color_scheme="dark")
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    finally:
        p.close()
