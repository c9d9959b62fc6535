"""A finger on a phone's table, in real headless Chromium: a drop anywhere below a column's cards lands there,
a tap on the bare table puts a picked-up card back, a tap on a pile it cannot go to puts it back and says why on
the screen, a tap whose finger wobbles is still a tap, and a swipe on the table scrolls the page without moving a
card.
"""

from __future__ import annotations

import re
from typing import Any

from helpers.browser import LiveServer
from helpers.layout import LANDSCAPE, PHONE, phone
from helpers.page import KA1, Browser, Page, Player, card, expect, next_frames, pile, set_setting, shot


def test_a_drop_anywhere_in_a_column_below_its_cards_lands_there(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        target = pile(page, "tableau-8").bounding_box()
        x, y = target["x"] + target["width"] / 2, target["y"] + target["height"] + 150  # far below the jack
        finger_drag(page, card(page, "TD", "tableau-9"), x, y)
        expect(card(page, "TD", "tableau-8")).to_be_visible()
        expect(page.locator("#moves")).to_have_text("1")
    finally:
        p.close()


def ten_picked_up(p: Player) -> tuple[Page, Any]:
    """Deal 1 on the phone with its reserve's ten of hearts picked up by a tap, and no request of the page's kept:
    the page and the ten."""
    page = p.open(KA1)
    ten = card(page, "TH", "reserve-3")
    ten.tap()
    expect(ten).to_have_class(re.compile(r"\bselected\b"))
    p.settle()
    p.requests.clear()
    return page, ten


def nothing_was_sent(p: Player, page: Page) -> None:
    """No move reached the server, and none counts."""
    p.settle()
    assert not [r for r in p.requests if r.startswith("POST")], p.requests
    expect(page.locator("#moves")).to_have_text("0")


def test_a_tap_on_the_bare_table_puts_a_picked_up_card_back_and_a_tap_just_below_a_column_still_means_it(
    browser: Browser, server: LiveServer
) -> None:
    p = phone(browser, server)
    try:
        page, ten = ten_picked_up(p)
        expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))  # it could go onto the jack
        jack = pile(page, "tableau-8").bounding_box()
        x, height = jack["x"] + jack["width"] / 2, ten.bounding_box()["height"]
        far = jack["y"] + jack["height"] + 3 * height  # the empty cloth, far below the jack's column
        assert far < PHONE["height"] - 10
        page.touchscreen.tap(x, far)
        expect(ten).not_to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator(".pile.target")).to_have_count(0)
        expect(page.locator("#announce")).to_have_text(re.compile(r"(^|\. )Put back\.$"))  # after the pick-up's words
        nothing_was_sent(p, page)
        ten.tap()  # picked up again: a tap just below the jack, where the ten would lie, puts it there
        expect(ten).to_have_class(re.compile(r"\bselected\b"))
        page.touchscreen.tap(x, jack["y"] + jack["height"] + height / 3)
        expect(card(page, "TH", "tableau-8")).to_be_visible()
        expect(page.locator("#moves")).to_have_text("1")
    finally:
        p.close()


def finger_drag(page: Page, source: Any, x1: float, y1: float, steps: int = 8, y_in: float = 8) -> None:
    """A finger pressed `y_in` px into `source`, moved to (x1, y1) in `steps` steps a frame apart, lifted."""
    cdp = page.context.new_cdp_session(page)
    a = source.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + y_in
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        next_frames(page, 1)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_wobbling_finger_taps_and_a_swipe_on_the_table_scrolls_without_moving_cards(
    browser: Browser, server: LiveServer
) -> None:
    p = phone(browser, server, LANDSCAPE)
    try:
        page = p.open(KA1)
        # Large cards make the table taller than the screen, so there is something to scroll.
        set_setting(page, "cardSize", "large")
        assert page.evaluate("document.documentElement.scrollHeight") > LANDSCAPE["height"] + 30
        # A tap whose finger drifts a few pixels is still a tap: the ten is picked up, not dragged.
        ten = card(page, "TH", "reserve-3")
        box = ten.bounding_box()
        finger_drag(page, ten, box["x"] + box["width"] / 2 + 7, box["y"] + 14, steps=3)
        expect(card(page, "TH")).to_have_class(re.compile(r"\bselected\b"))
        expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))
        # A swipe up that starts on tableau 1's face-down cards scrolls the page. It is not a tap on
        # tableau 1 either, which would drop the ten the player holds ("that cannot go there").
        p.requests.clear()
        column = pile(page, "tableau-1")
        top = column.bounding_box()
        finger_drag(page, column, top["x"] + top["width"] / 2, top["y"] - 150, steps=15, y_in=30)
        page.wait_for_function("() => window.scrollY > 20")
        p.settle()
        assert not [r for r in p.requests if r.startswith("POST")], p.requests
        expect(card(page, "TH", "reserve-3")).to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator("#moves")).to_have_text("0")
    finally:
        p.close()


def test_a_tap_on_a_pile_the_picked_up_card_cannot_go_to_says_why_on_the_screen_and_puts_it_back(
    browser: Browser, server: LiveServer
) -> None:
    """A phone's player hears no screen reader: the reason a tap did nothing is written under the table too."""
    p = phone(browser, server)
    try:
        page, ten = ten_picked_up(p)
        pile(page, "foundation-1").tap()  # empty: only an ace goes there
        notice = page.locator("#notice")
        expect(notice).to_be_visible()
        said = "That cannot go to foundation 1. An empty foundation takes only an Ace, not the 10 of hearts."
        expect(notice).to_have_text(said)
        expect(page.locator("#announce")).to_have_text(re.compile(r"(^|\. )" + re.escape(said) + "$"))
        expect(ten).not_to_have_class(re.compile(r"\bselected\b"))  # put back, as before
        expect(page.locator(".pile.target")).to_have_count(0)
        shot(page, "phone-tap-cannot-go")
        nothing_was_sent(p, page)
    finally:
        p.close()
