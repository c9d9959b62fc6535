"""The page's bars on phones and desktops, in real headless Chromium: the toolbar stays one row with no label
cut short in any language (what does not fit is in the menu, and works from there), Eagle Wing's status line
takes two lines at most on a phone and names the trunk as hints and rules do, and the solution's controls stay
in one row.
"""

from __future__ import annotations

import re

import pytest

from helpers.browser import LiveServer
from helpers.layout import EW1, LANDSCAPE, PHONE, boxes, no_sideways_scroll, phone, toolbar_rows
from helpers.page import KA1, Browser, Player, expect, menu_click, open_menu, pile, shot, show_solution, status_rows
from tableaux import i18n


def test_phone_portrait_king_albert_columns_span_the_width_and_the_toolbar_is_one_row(
    browser: Browser, server: LiveServer
) -> None:
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        columns = boxes(page, '[data-pile^="tableau-"]')
        span = columns[-1]["right"] - columns[0]["left"]
        assert span >= 0.9 * PHONE["width"], f"the nine columns span {span:.0f} px of {PHONE['width']}"
        width = columns[0]["width"]
        assert width >= 38, f"cards are {width:.1f} px wide"
        assert toolbar_rows(page) == 1
        assert page.locator("#toolbar").bounding_box()["height"] <= 52
        assert no_sideways_scroll(page)
        # What is not in the row is in the menu, and works from there.
        expect(page.locator("#restart")).to_be_hidden()
        open_menu(page)
        for control in ("#game-select", "#deal-input", "#restart", "#auto-home", "#rules-button", "#settings-button"):
            expect(page.locator(control)).to_be_visible()
        page.fill("#deal-input", "77")
        page.press("#deal-input", "Enter")
        expect(page.locator("#deal-number")).to_have_text("77")
        expect(page.locator("#menu-panel")).to_be_hidden()  # it closes once used
        open_menu(page)
        page.click("#rules-button")
        expect(page.locator("#rules-dialog")).to_be_visible()
    finally:
        p.close()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_desktop_toolbar_is_one_row_with_no_text_cut_short_in_every_language(
    browser: Browser, server: LiveServer, language: str
) -> None:
    p = Player(browser, server.url, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        cut = page.eval_on_selector_all(
            "#toolbar button, #toolbar select, #toolbar label",
            "nodes => nodes.filter(n => n.checkVisibility() && n.scrollWidth > n.clientWidth + 1).map(n => n.id)",
        )
        assert not cut, f"text cut short in {cut}"
        # What does not fit in the row is in the menu, and works from there.
        if not page.locator("#game-select").is_visible():
            open_menu(page)
        expect(page.locator("#game-select")).to_be_visible()
        menu_click(page, "#settings-button")
        expect(page.locator("#settings-dialog")).to_be_visible()
    finally:
        p.close()


@pytest.mark.parametrize("language", i18n.languages())
def test_no_phone_toolbar_label_is_cut_short_in_any_language(
    browser: Browser, server: LiveServer, language: str
) -> None:
    p = phone(browser, server, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        labels = page.eval_on_selector_all(
            "#toolbar > button",
            "nodes => nodes.filter(n => n.checkVisibility()).map(n => ({id: n.id, text: n.textContent.trim(),"
            " cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,"
            " size: parseFloat(getComputedStyle(n).fontSize), ellipsis: getComputedStyle(n).textOverflow}))",
        )
        assert [label["id"] for label in labels] == ["new-game", "undo", "redo", "hint", "menu-button"]
        for label in labels:
            assert label["text"], f"{label['id']} has no text"
            assert not label["cut"], f"{language}: {label['text']!r} is cut short"
            assert label["ellipsis"] != "ellipsis"
            if label["id"] != "menu-button":  # the menu button shows its icon; its text is its accessible name
                assert label["size"] >= 10, f"{language}: {label['text']!r} shrank to {label['size']} px"
        assert page.locator("#toolbar").bounding_box()["height"] <= 52
    finally:
        p.close()


@pytest.mark.parametrize("language", i18n.languages())
def test_phone_eagle_wing_status_line_takes_two_lines_at_most(
    browser: Browser, server: LiveServer, language: str
) -> None:
    """What the table shows too (the stock's and the trunk's counts, the redeals, the base card) is left to the
    table on a phone; screen readers still hear it from the status line."""
    p = phone(browser, server, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(EW1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
        assert status_rows(page) <= 2, page.locator("#status").inner_text()
        expect(page.locator("#redeals-left")).to_have_text("2")  # still read out
        expect(pile(page, "stock").locator(".badge.redeals")).to_have_text("↻2")
    finally:
        p.close()


def test_desktop_eagle_wing_status_names_the_trunk_as_hints_and_rules_do(player: Player) -> None:
    page = player.open(EW1)
    trunk = page.locator(".stat", has=page.locator("#reserve-left"))
    expect(trunk).to_have_text("Trunk left 13")
    assert "Reserve" not in page.locator("#status").inner_text()
    expect(pile(page, "reserve")).to_have_attribute("aria-label", re.compile(r"^The trunk, 13 cards"))


def test_the_solutions_controls_stay_in_one_row_on_a_phone(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open("?game=king-albert&deal=17")
        show_solution(page)
        expect(page.locator("#solution-bar")).to_be_visible(timeout=60_000)
        page.click("#solution-pause")
        controls = boxes(page, "#solution-pause, #solution-step, #solution-speed, #solution-stop")
        assert len({round(c["top"]) for c in controls}) == 1, controls
        bar = page.locator("#solution-bar").bounding_box()
        assert bar["x"] >= 0 and bar["x"] + bar["width"] <= PHONE["width"]
        note = page.locator("#notice").bounding_box()  # the notice below it: apart, not covered
        assert bar["y"] + bar["height"] + 4 <= note["y"], (bar, note)
    finally:
        p.close()


@pytest.mark.parametrize("screen", ["desktop", "portrait", "landscape"])
def test_the_deal_box_shows_every_digit_of_the_largest_deal_number(
        browser: Browser, server: LiveServer, screen: str) -> None:
    """Deal numbers run to ten digits: one typed or pasted in is read whole before it is opened, on every screen,
    and the wider box still leaves the toolbar one row and the page without sideways scroll."""
    p = (Player(browser, server.url) if screen == "desktop"
         else phone(browser, server, PHONE if screen == "portrait" else LANDSCAPE))
    try:
        page = p.open(KA1)
        if not page.locator("#deal-input").is_visible():
            open_menu(page)
        page.fill("#deal-input", "3528471198")
        page.locator("#deal-input").blur()
        # A text field scrolls when its text outruns it: a scroll width past its inner width is text cut off. The
        # box's width is fractional, and the one width rounds up where the other rounds down: a pixel is no cut.
        cut = page.eval_on_selector("#deal-input", "(box) => box.scrollWidth - box.clientWidth")
        shot(page, f"deal-box-{screen}")
        assert cut <= 1, f"the last {cut} px of the deal number are cut off"
        if page.get_attribute("#menu-button", "aria-expanded") == "true":
            page.keyboard.press("Escape")
        assert toolbar_rows(page) == 1
        assert no_sideways_scroll(page)
    finally:
        p.close()


@pytest.mark.parametrize("typed", ["-1", "99999999999", "1e3"])
def test_a_bad_deal_number_typed_in_the_phones_menu_is_refused_in_words(
        browser: Browser, server: LiveServer, typed: str) -> None:
    """On a phone the deal field lives in the menu, which closes when the number is opened: the browser's own
    bubble for a number out of range has nowhere to show, so the page says which numbers are deals."""
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        open_menu(page)
        page.fill("#deal-input", typed)
        page.click("#deal-go")
        expect(page.locator("#notice")).to_contain_text("Type a deal number from 0 to 4294967295.")
        expect(page.locator("#deal-number")).to_have_text("1")
    finally:
        p.close()
