"""One tap, in real Chromium: with the setting on, a tap or click on a card moves it at once to its best legal
place by a simple rule (home first, then a build, then an empty pile), from the view's legal moves only; the
keyboard and dragging still choose any place; a double click sends a card home once; the setting is remembered."""

from __future__ import annotations

import re
from typing import Any

import pytest

from helpers.page import KA1, PHONE, Browser, Page, Player, card, drag, expect, menu_click, pile

# King Albert deal 1: R5 = AH, T9 = TD (its only card) onto T8 = JC, R4 = 7C onto T7 = 8H, R1 = 2C.


def one_tap_on(page: Page) -> None:
    menu_click(page, "#settings-button")
    page.select_option("#setting-oneTap", "on")
    page.keyboard.press("Escape")


def posts(player: Player) -> list[str]:
    return [r for r in player.requests if r.startswith("POST") and r.endswith("/moves")]


def test_a_tap_moves_a_card_home_first_then_onto_a_build_then_to_an_empty_pile(player: Player) -> None:
    page = player.open(KA1)
    one_tap_on(page)
    card(page, "AH", "reserve-5").click()  # could go to any empty foundation, and home comes first
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    card(page, "TD", "tableau-9").click()  # its one place: onto the Jack of clubs; tableau 9 is empty now
    expect(card(page, "TD", "tableau-8")).to_be_visible()
    expect(pile(page, "tableau-9").locator(".card")).to_have_count(0)
    card(page, "7C", "reserve-4").click()  # onto the 8 of hearts or into the empty pile: the build wins
    expect(card(page, "7C", "tableau-7")).to_be_visible()
    card(page, "2C", "reserve-1").click()  # no foundation, no build: the empty pile
    expect(card(page, "2C", "tableau-9")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("4")
    player.settle()
    assert [m for m in player.view()["position"]["piles"]["tableau-9"]] == [{"card": "2C", "up": True}]


def test_a_card_with_no_move_stays_and_says_so(player: Player) -> None:
    page = player.open(KA1)
    one_tap_on(page)
    player.settle()
    before = len(posts(player))
    card(page, "KC", "tableau-5").click()
    expect(page.locator("#announce")).to_contain_text("King of clubs has no move now")
    player.settle()
    assert len(posts(player)) == before


def test_a_double_click_sends_a_card_home_once(player: Player) -> None:
    page = player.open(KA1)
    one_tap_on(page)
    card(page, "AH", "reserve-5").dblclick()
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    player.settle()
    assert player.view()["moves"] == 1 and len(posts(player)) == 1


def test_the_keyboard_and_a_drag_still_choose_the_place(player: Player) -> None:
    page = player.open(KA1)
    one_tap_on(page)
    drag(page, card(page, "AH", "reserve-5"), pile(page, "foundation-3"))  # not the first foundation
    expect(card(page, "AH", "foundation-3")).to_be_visible()
    card(page, "TD", "tableau-9").click()
    expect(card(page, "TD", "tableau-8")).to_be_visible()
    pile(page, "reserve-4").focus()
    page.keyboard.press("Enter")  # picks the 7 of clubs up, as without one tap
    expect(card(page, "7C")).to_have_class(re.compile(r"\bselected\b"))
    pile(page, "tableau-9").focus()
    page.keyboard.press("Enter")  # the empty pile, which one tap would not have chosen
    expect(card(page, "7C", "tableau-9")).to_be_visible()


def test_without_the_setting_a_tap_picks_up_and_the_setting_is_remembered(player: Player) -> None:
    page = player.open(KA1)
    card(page, "AH", "reserve-5").click()
    expect(card(page, "AH", "reserve-5")).to_have_class(re.compile(r"\bselected\b"))
    page.keyboard.press("Escape")
    one_tap_on(page)
    page.reload()
    page.wait_for_selector("[data-pile]")
    menu_click(page, "#settings-button")
    expect(page.locator("#setting-oneTap")).to_have_value("on")
    page.keyboard.press("Escape")
    card(page, "AH", "reserve-5").click()
    expect(card(page, "AH", "foundation-1")).to_be_visible()


@pytest.mark.parametrize("game", ["eagle-wing", "king-albert-classic"])
def test_a_finger_tap_moves_a_card_on_a_phone(browser: Browser, server: Any, game: str) -> None:
    p = Player(browser, server.url, **PHONE)
    try:
        page = p.open(f"?game={game}&deal=1")
        one_tap_on(page)
        p.settle()
        view = p.view()
        move = next(m for m in view["legal_moves"] if m["source"] not in ("stock", "waste")
                    and m["source"] != "reserve" and not m["source"].startswith("foundation"))
        top = view["position"]["piles"][move["source"]][-1]["card"]
        card(page, top, move["source"]).tap()
        expect(page.locator("#moves")).to_have_text("1")
        p.settle()
        after = p.view()["position"]["piles"]
        assert top not in [e["card"] for e in after[move["source"]]]
    finally:
        p.close()
