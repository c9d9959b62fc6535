"""The rules dialog in real headless Chromium: what it says for each game, and how it opens and closes, on a
desktop and on a phone.
"""

from __future__ import annotations

from helpers.page import Player, expect


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

