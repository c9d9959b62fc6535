"""Looks a player can choose, and a first visit that teaches, in real headless Chromium: three card backs and two
card faces, remembered; a keyboard focus ring that is not the selection's glow; "Large" cards that are larger on
a desktop too; and the welcome card a new player sees once, with the keyboard's tips only where there is a mouse.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers.browser import LiveServer
from helpers.page import (
    KA1,
    PHONE,
    Browser,
    Page,
    Player,
    axe_violations,
    card,
    contrast,
    expect,
    open_menu,
    pile,
    set_setting,
    shot,
)

pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")


def back_of(page: Page) -> str:
    return page.eval_on_selector(".card.down", "n => getComputedStyle(n).backgroundImage")


def test_three_card_backs_look_different_and_the_choice_is_remembered(player: Player) -> None:
    page = player.open(KA1)  # King Albert's columns start with face-down cards
    looks = {}
    for back in ("blue", "red", "night"):
        set_setting(page, "back", back)
        expect(page.locator("html")).to_have_attribute("data-back", back)
        looks[back] = back_of(page)
    assert len(set(looks.values())) == 3, looks
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("html")).to_have_attribute("data-back", "night")
    assert back_of(page) == looks["night"]
    # The settings show the chosen back on a small card beside its menu.
    open_menu(page)
    page.click("#settings-button")
    assert page.eval_on_selector(".back-sample", "n => getComputedStyle(n).backgroundImage") == looks["night"]


def index_share(page: Page, code: str) -> float:
    """How tall the rank in the corner of a card on the table reads, as a share of the card's height."""
    return page.evaluate(
        """(code) => { const c = document.querySelector(`[data-card="${code}"]`);
            const heights = [...c.querySelectorAll("text")].map((t) => t.getBoundingClientRect().height);
            return Math.max(...heights) / c.getBoundingClientRect().height; }""",  # the face not shown measures 0
        code,
    )


def test_the_large_index_face_prints_a_bigger_rank_on_a_desktop_and_is_remembered(player: Player) -> None:
    page = player.open(KA1)
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bcompact\b"))  # 1280 px: the detailed face
    classic = index_share(page, "TD")
    set_setting(page, "face", "large")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bcompact\b"))
    assert index_share(page, "TD") >= 1.3 * classic
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bcompact\b"))
    assert all(m["ratio"] >= 4.5 for m in contrast(page) if m["where"].startswith("card "))


def test_the_keyboard_focus_ring_is_not_the_selection_outline(player: Player) -> None:
    page = player.open(KA1)
    card(page, "TH", "reserve-3").click()  # selected: the yellow glow
    selected = page.eval_on_selector(".card.selected", "n => getComputedStyle(n).boxShadow")
    accent = re.search(r"rgb\([^)]*\)", selected).group(0)
    page.keyboard.press("Escape")
    page.locator("#hint").focus()
    for _ in range(40):  # on into the table, as a keyboard player does
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('[data-pile]')"):
            break
    ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement);"
                         " return [s.outlineStyle, s.outlineWidth, s.outlineColor]; })()")
    assert ring[0] != "none" and float(ring[1].removesuffix("px")) >= 2, ring
    assert ring[2] != accent, f"the focus ring is {ring[2]}, the selection's colour"
    felt = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert luminance_ratio(ring[2], felt) >= 3, (ring, felt)  # WCAG 1.4.11: a ring that can be seen
    # In a dialog, on its light panel, the ring is dark enough to be seen there.
    open_menu(page)
    page.click("#settings-button")
    page.keyboard.press("Tab")
    panel = page.eval_on_selector("#settings-dialog", "n => getComputedStyle(n).backgroundColor")
    inside = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert luminance_ratio(inside, panel) >= 3, (inside, panel)


def luminance_ratio(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        channels = [int(v) / 255 for v in re.findall(r"\d+", colour)[:3]]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_large_cards_are_visibly_larger_on_a_desktop_and_the_table_scrolls_sideways(player: Player) -> None:
    page = player.open(KA1)
    fitted = pile(page, "tableau-1").bounding_box()["width"]
    set_setting(page, "cardSize", "large")
    large = pile(page, "tableau-1").bounding_box()["width"]
    assert large >= 1.2 * fitted, f"{large:.0f} px against {fitted:.0f} px"
    # The table, wider than the window, scrolls on its own; the toolbar and the page do not.
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.eval_on_selector("main", "m => m.scrollWidth > m.clientWidth")
    page.eval_on_selector("main", "m => { m.scrollLeft = m.scrollWidth; }")
    right = pile(page, "tableau-9").bounding_box()
    assert right["x"] + right["width"] <= page.viewport_size["width"] + 1


def first_visitor(browser: Browser, server: LiveServer, **options: Any) -> Player:
    return Player(browser, server.url, first_visit=True, **options)


def test_a_first_visit_shows_a_welcome_card_once_that_teaches_and_leads_to_the_rules(
    browser: Browser, server: LiveServer
) -> None:
    p = first_visitor(browser, server)
    try:
        page = p.open(KA1)
        welcome = page.get_by_role("dialog", name="Welcome to Tableaux")
        expect(welcome).to_be_visible()
        expect(page.locator("#welcome-close")).to_be_focused()
        goal = page.locator("#welcome-goal").inner_text()
        assert len(re.findall(r"[.!?](\s|$)", goal)) == 2, goal  # the goal in two sentences
        moves = page.locator(".welcome-moves").inner_text().lower()
        for how in ("drag", "tap", "double-click", "keyboard", "arrow"):
            assert how in moves, how
        assert axe_violations(page) == []
        page.click("#welcome-rules")
        expect(welcome).to_be_hidden()
        expect(page.locator("#rules-dialog")).to_be_visible()
        expect(page.locator("#rules-title")).to_have_text("Rules of King Albert")
        page.keyboard.press("Escape")
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
        expect(welcome).to_be_hidden()  # seen once: never again in this browser
    finally:
        p.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_welcome_card_gives_keyboard_tips_on_a_desktop_and_only_the_touch_tips_on_a_phone(
    browser: Browser, server: LiveServer, device: str
) -> None:
    """A phone has no arrow keys: its new player reads how to tap and double-tap, and nothing about U or H."""
    p = first_visitor(browser, server, **(PHONE if device == "phone" else {}))
    try:
        page = p.open(KA1)
        expect(page.locator("#welcome-dialog")).to_be_visible()
        tips = page.locator(".welcome-moves li")
        expect(tips.filter(has_text="tap a card and then the pile")).to_be_visible()
        expect(tips.filter(has_text="double-tap a card")).to_be_visible()
        keyboard = tips.filter(has_text="Keyboard: the arrow keys")
        if device == "phone":
            expect(keyboard).to_be_hidden()
            assert "Keyboard" not in page.locator(".welcome-moves").inner_text()
        else:
            expect(keyboard).to_be_visible()
        shot(page, f"welcome-tips-{device}")
    finally:
        p.close()


@pytest.mark.parametrize("language", ["fr", "de"])
def test_the_welcome_card_speaks_the_players_language_fits_a_phone_and_escape_dismisses_it(
    browser: Browser, server: LiveServer, language: str
) -> None:
    p = first_visitor(browser, server, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True,
                      extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(KA1)
        dialog = page.locator("#welcome-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#welcome-title")).not_to_have_text("Welcome to Tableaux")
        assert "Drag a card" not in dialog.inner_text()
        box = dialog.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["y"] >= 0 and box["y"] + box["height"] <= 740
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(dialog).to_be_hidden()
    finally:
        p.close()
