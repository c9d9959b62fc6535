"""The rules dialog in real headless Chromium: what it says for each game, and how it opens and closes, on a
desktop and on a phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from helpers.page import PHONE, Browser, Page, Player, expect, menu_click, pile


def test_the_rules_open_at_the_top(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=3")
    page.keyboard.press("F1")
    expect(page.locator("#rules-dialog")).to_be_visible()
    assert page.evaluate("document.getElementById('rules-dialog').scrollTop") == 0
    expect(page.locator("#rules-title")).to_be_in_viewport()


def test_the_rules_name_the_key_that_deals_from_the_stock_only_in_a_game_with_a_stock(player: Player) -> None:
    for game, has_stock in (("eagle-wing", True), ("king-albert", False)):
        page = player.open(f"?game={game}&deal=3")
        page.keyboard.press("F1")
        rules = page.locator("#rules-dialog")
        expect(rules).to_be_visible()
        expect(rules).to_contain_text("these rules")  # the keyboard's shortcuts are there in both
        assert ("from the stock" in rules.inner_text()) == has_stock
        page.keyboard.press("Escape")
        expect(rules).to_be_hidden()


def press_at(page: Page, x: float, y: float, touch: bool) -> None:
    """A tap of a finger or a click of the mouse at (x, y), as the screen has it."""
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_tap_or_click_outside_the_rules_closes_them_and_gives_the_keyboard_back(
        browser: Browser, server: Any, screen: str) -> None:
    p = Player(browser, server.url, **(PHONE if screen == "phone" else {}))
    try:
        page = p.open("?game=eagle-wing&deal=3")
        rules = page.locator("#rules-dialog")
        for _ in range(2):  # the backdrop closes them each time they open, not only the first
            pile(page, "tableau-3").focus()
            page.keyboard.press("?")
            expect(rules).to_be_visible()
            box = rules.bounding_box()
            assert box is not None and box["y"] > 10
            press_at(page, box["x"] + 4, box["y"] + box["height"] / 2, screen == "phone")  # on its own edge
            expect(rules).to_be_visible()
            press_at(page, box["x"] + box["width"] / 2, box["y"] / 2, screen == "phone")  # above it, on the backdrop
            expect(rules).to_be_hidden()
            expect(pile(page, "tableau-3")).to_be_focused()
    finally:
        p.close()


def test_a_click_outside_the_statistics_or_the_settings_closes_them_as_it_closes_the_rules(player: Player) -> None:
    page = player.open("?game=king-albert&deal=3")
    for button, dialog in (("#stats-button", "#stats-dialog"), ("#settings-button", "#settings-dialog")):
        menu_click(page, button)
        expect(page.locator(dialog)).to_be_visible()  # the statistics open once the server has sent them
        box = page.locator(dialog).bounding_box()
        assert box is not None and box["y"] > 10
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] / 2)  # above it, on the backdrop
        expect(page.locator(dialog)).to_be_hidden()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_a_close_button_stays_on_view_at_the_top_of_the_rules_as_they_scroll(
        browser: Browser, server: Any, scheme: str) -> None:
    p = Player(browser, server.url, color_scheme=scheme, **PHONE)
    try:
        page = p.open("?game=king-albert&deal=3")
        pile(page, "tableau-3").focus()
        page.keyboard.press("F1")
        rules = page.locator("#rules-dialog")
        expect(rules).to_be_visible()
        close = page.get_by_role("button", name="Close").first
        expect(close).to_have_id("rules-x")
        expect(close).to_be_in_viewport()
        assert rules.evaluate("(d) => d.scrollHeight > d.clientHeight + 200"), "the rules outrun a phone's screen"
        rules.evaluate("(d) => { d.scrollTop = (d.scrollHeight - d.clientHeight) / 2; }")  # halfway down
        expect(page.locator("#rules-close")).not_to_be_in_viewport()  # the one at the bottom is still far away
        expect(close).to_be_in_viewport()
        expect(page.locator("#rules-title")).to_be_in_viewport()
        dialog, button = rules.bounding_box(), close.bounding_box()
        assert dialog is not None and button is not None
        assert dialog["y"] <= button["y"] <= dialog["y"] + 30  # at the dialog's top, not scrolled away with the text
        assert button["width"] >= 44 and button["height"] >= 44  # a finger's size
        close.tap()
        expect(rules).to_be_hidden()
        expect(pile(page, "tableau-3")).to_be_focused()
    finally:
        p.close()


def arrows_walk_the_table(page: Page) -> None:
    """ArrowRight puts the keyboard on a pile, and Space then plays there rather than pressing a toolbar button.
    A closed dialog's "close" event, which hands the keyboard back, comes a moment after it hides: wait for it."""
    page.wait_for_function("() => !document.activeElement || !document.activeElement.closest('dialog')")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.getElementById('board').contains(document.activeElement)"), \
        page.evaluate("document.activeElement.id || document.activeElement.tagName")
    page.keyboard.press("Space")
    expect(page.locator("#menu-button")).to_have_attribute("aria-expanded", "false")


@contextmanager
def first_visit(browser: Browser, server: Any) -> Iterator[Page]:
    """King Albert deal 1 opened by a player who has never been here: the welcome card is up."""
    p = Player(browser, server.url, first_visit=True)
    try:
        page = p.open("?game=king-albert&deal=1")
        expect(page.locator("#welcome-dialog")).to_be_visible()
        yield page
    finally:
        p.close()


def test_after_the_welcome_card_the_arrow_keys_move_between_the_piles_as_it_says(
        browser: Browser, server: Any) -> None:
    with first_visit(browser, server) as page:
        page.click("#welcome-close")
        expect(page.locator("#welcome-dialog")).to_be_hidden()
        arrows_walk_the_table(page)


def test_closing_the_welcome_card_with_the_keyboard_shows_the_focus_on_the_table(
        browser: Browser, server: Any) -> None:
    with first_visit(browser, server) as page:
        expect(page.locator("#welcome-close")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#welcome-dialog")).to_be_hidden()
        page.wait_for_function("() => document.getElementById('board').contains(document.activeElement)")
        assert page.evaluate("document.activeElement.matches(':focus-visible')")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"


def test_keeping_the_game_after_n_gives_the_arrow_keys_back_to_the_table(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    page.locator('[data-pile="reserve-5"] [data-card="AH"]').dblclick()
    expect(page.locator("#moves")).to_have_text("1")
    player.settle()
    page.evaluate("document.activeElement.blur()")  # a player who clicked the table, not a control
    page.keyboard.press("n")
    expect(page.locator("#confirm-no")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    arrows_walk_the_table(page)
