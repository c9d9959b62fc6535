"""Classic King Albert in real Chromium: a third game of the page, every card dealt face up, one card moved at a
time, with its own rules page, graded deals and daily deal. The page knows of it only through the server's game
info (tests/browser/test_static_imports.py holds that no script names a game)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

import tableaux
from helpers.page import PHONE, Browser, Player, card, drag, expect, menu_click, pile, shot
from tableaux import catalogue

CLASSIC = "king-albert-classic"


def test_the_game_menu_offers_classic_king_albert_with_every_card_face_up(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    menu_click(page, "#game-select")
    page.select_option("#game-select", CLASSIC)
    expect(page.locator("#game-name")).to_have_text("King Albert (classic)")
    expect(page).to_have_url(re.compile(rf"\?game={CLASSIC}&deal=\d+$"))
    player.settle()
    view = player.view()
    expected = tableaux.new_game(CLASSIC, view["deal"]).public_position()["piles"]
    assert expected == view["position"]["piles"]
    expect(page.locator("#board .card.down")).to_have_count(0)  # nothing is dealt face down
    expect(page.locator("#board .card.up")).to_have_count(52)
    for i in range(1, 10):
        for entry in expected[f"tableau-{i}"]:
            expect(card(page, entry["card"], f"tableau-{i}")).to_be_attached()


def test_one_card_moves_at_a_time(player: Player) -> None:
    """Under the classic rules a card with another on it has no move, whatever the server's King Albert allows."""
    page = player.open(f"?game={CLASSIC}&deal=1")
    view = player.view()
    assert view["legal_moves"] and all(m["count"] == 1 for m in view["legal_moves"])
    piles = view["position"]["piles"]
    column = next(f"tableau-{i}" for i in range(1, 10) if len(piles[f"tableau-{i}"]) > 1)
    deeper = piles[column][-2]["card"]
    card(page, deeper, column).click(position={"x": 12, "y": 6})  # its corner, which the card on it leaves free
    expect(page.locator("#announce")).to_contain_text("has no move now")
    expect(page.locator(".pile.target")).to_have_count(0)
    move = view["legal_moves"][0]
    top = piles[move["source"]][-1]["card"]
    drag(page, card(page, top, move["source"]), pile(page, move["target"]))
    expect(page.locator("#moves")).to_have_text("1")
    expect(card(page, top, move["target"])).to_be_visible()


def test_its_rules_page_says_every_card_is_face_up_and_one_moves_at_a_time(player: Player) -> None:
    page = player.open(f"?game={CLASSIC}&deal=3")
    page.keyboard.press("F1")
    expect(page.locator("#rules-title")).to_have_text("Rules of King Albert (classic)")
    text = page.locator("#rules-text")
    expect(text).to_contain_text("every card is dealt face up")
    expect(text).to_contain_text("Only one card moves at a time")
    expect(text.locator("b").first).to_have_text("Aim:")  # the markup is built, not shown as text
    assert "<b>" not in text.inner_text()


@pytest.mark.parametrize("grade", ["easy", "hard"])
def test_its_graded_deals_come_from_its_catalogue(player: Player, grade: str) -> None:
    page = player.open(f"?game={CLASSIC}&deal=3")
    menu_click(page, "#deal-kind")
    page.select_option("#deal-kind", grade)
    expect(page.locator("#grade")).to_have_text(re.compile(rf"^Winnable · {grade.capitalize()}( · Par \d+)?$"))
    player.settle()
    view = player.view()
    entry = catalogue.lookup(CLASSIC, view["deal"])
    assert view["game"] == CLASSIC and entry is not None and entry.grade == grade == view["grade"]


def test_its_daily_deal(browser: Browser, server: Any) -> None:
    p = Player(browser, server.url)
    try:
        before = datetime.now(UTC).date()
        p.page.goto(server.url + f"/daily?game={CLASSIC}")
        p.page.wait_for_selector("[data-pile]")
        expect(p.page.locator("#grade")).to_contain_text("Daily deal ")
        after = datetime.now(UTC).date()
        shown = p.page.locator("#grade").inner_text()
        day = next(d.isoformat() for d in (before, after) if f"Daily deal {d.isoformat()}" in shown)
        expect(p.page.locator("#deal-number")).to_have_text(str(catalogue.daily(CLASSIC, day).deal))
        expect(p.page.locator("#game-name")).to_have_text("King Albert (classic)")
    finally:
        p.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_its_longest_column_shows_every_card_on_the_screen(browser: Browser, server: Any, size: str) -> None:
    """Nine face-up cards in the first column: each one's corner shows, and the column ends on the screen."""
    p = Player(browser, server.url, **(PHONE if size == "phone" else {}))
    try:
        page = p.open(f"?game={CLASSIC}&deal=1")
        height = page.viewport_size["height"]
        cards = page.locator('[data-pile="tableau-1"] .card')
        expect(cards).to_have_count(9)
        boxes = [c.bounding_box() for c in cards.all()]
        assert boxes[-1]["y"] + boxes[-1]["height"] <= height + 1
        steps = [b["y"] - a["y"] for a, b in zip(boxes, boxes[1:], strict=False)]
        assert min(steps) >= boxes[0]["height"] * 0.15, steps  # a corner's rank and suit show on every card
        shot(page, f"king-albert-classic-{size}")
    finally:
        p.close()
