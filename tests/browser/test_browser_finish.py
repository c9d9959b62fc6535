"""A finish that feels like a win, in real Chromium: Finish for me plays the rest home when no choice is left, a
win leaps off the table (not under reduced motion) and its banner sums it up, and a hint that peeks marks the
game assisted and says so."""

from __future__ import annotations

import re
from typing import Any

import pytest

import tableaux
from helpers.page import PHONE, Browser, Page, Player, axe_violations, expect, menu_click, send_moves, shot

KA17 = ("king-albert", 17)


def near_the_end(player: Player, page: Page | None = None) -> tuple[Page, list[tableaux.Move]]:
    """King Albert 17 played by the solver's line up to where Finish is offered; the page reloaded there."""
    name, deal = KA17
    line = tableaux.solve(name, deal).moves
    page = player.open(f"?game={name}&deal={deal}", page)
    game = tableaux.new_game(name, deal)
    played = 0
    for played, m in enumerate(line):  # noqa: B007 - the index is what is kept
        if not any(e["card"] is None for pile in game.public_position()["piles"].values() for e in pile):
            break
        game.play(m)
    send_moves(page, line[:played])
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("#moves")).to_have_text(str(played))
    return page, line


def to_the_finish(player: Player, page: Page, line: list[tableaux.Move]) -> list[dict[str, Any]]:
    """Play on along the line until the server offers Finish (every card is on view already); reload there."""
    while not player.view()["finish"]:
        send_moves(page, line[player.view()["moves"]:][:1])
    page.reload()
    page.wait_for_selector("[data-pile]")
    return player.view()["finish"]


def test_finish_plays_the_rest_home_when_no_choice_is_left(player: Player) -> None:
    page, line = near_the_end(player)
    offer = page.locator("#finish-offer")
    if not player.view()["finish"]:  # every card is on view, but a choice is still left
        expect(offer).to_be_hidden()
    finish = to_the_finish(player, page, line)
    expect(offer).to_be_visible()
    expect(page.locator("#finish-button")).to_have_text(f"Finish ({len(finish)} moves)")
    expect(page.locator("#announce")).to_contain_text("No choice is left")
    page.click("#finish-button")
    expect(page.locator("#message")).to_contain_text("You won deal 17", timeout=60_000)
    expect(offer).to_be_hidden()
    player.settle()
    stats = page.evaluate("fetch('/api/stats').then(r => r.json())")["king-albert"]
    assert stats["won"] == 1 and stats["assisted"] == 0  # no choice was left: the win is the player's


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_win_leaps_off_the_table_unless_reduced_motion_and_the_banner_sums_it_up(
    browser: Browser, server: Any, motion: str
) -> None:
    p = Player(browser, server.url, reduced_motion=motion)
    try:
        page, line = near_the_end(p)
        rest = line[int(page.locator("#moves").inner_text()):]
        send_moves(page, rest[:-1])
        page.reload()
        page.wait_for_selector("[data-pile]")
        page.evaluate("""() => {
            window.leaps = 0;
            const z = (el) => Number(getComputedStyle(el).zIndex);
            new MutationObserver(() => {
                window.leaps = Math.max(window.leaps, document.querySelectorAll('.celebration .leap').length);
                const layer = document.querySelector('.celebration');
                if (layer) window.beneath = z(layer) < z(document.querySelector('.floating'))
                    && z(layer) < z(document.querySelector('.top'));
            }).observe(document.body, { childList: true, subtree: true });
        }""")
        last = rest[-1]
        top = p.view()["position"]["piles"][last.source][-1]["card"]
        page.locator(f'[data-pile="{last.source}"] [data-card="{top}"]').dblclick()
        message = page.locator("#message")
        won = r"You won deal 17 of King Albert in \d+ moves( \(par \d+\))? and \d+:\d\d!"  # the par once it has one
        expect(message).to_contain_text(re.compile(won))
        summary = page.locator("#win-summary")
        expect(summary).to_contain_text("Winning streak: 1")
        expect(summary).to_contain_text("Fastest win: ")
        expect(summary).to_contain_text(f"Fewest moves: {len(line)}")
        leaps = page.evaluate("window.leaps")
        assert (leaps == 0) if motion == "reduce" else (leaps > 0), leaps
        if leaps:  # the cards fly over the table, beneath the banner and the toolbar: neither is ever covered
            assert page.evaluate("window.beneath") is True
        if motion == "no-preference":
            shot(page, "king-albert-won-leaping-desktop")
        else:
            pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")
            pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")
        assert not axe_violations(page)  # the banner and its summary
        expect(page.locator(".celebration")).to_have_count(0, timeout=30_000)  # the cascade goes away
    finally:
        p.close()


def test_the_finish_offer_fits_a_phone(browser: Browser, server: Any) -> None:
    p = Player(browser, server.url, **PHONE)
    try:
        page, line = near_the_end(p)
        to_the_finish(p, page, line)
        offer = page.locator("#finish-offer")
        expect(offer).to_be_visible()
        box = offer.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["y"] + box["height"] <= 844
        shot(page, "king-albert-finish-phone")
        pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")
        assert not axe_violations(page)
    finally:
        p.close()


def test_a_peeking_hint_marks_the_game_assisted_and_says_so(player: Player) -> None:
    page = player.open("?game=king-albert&deal=17")
    menu_click(page, "#settings-button")
    page.select_option("#setting-hintMode", "peek")
    page.keyboard.press("Escape")
    page.click("#hint")
    notice = page.locator("#notice")
    expect(notice).to_have_attribute("data-peeks", "true", timeout=60_000)
    expect(notice).to_contain_text("this game now counts as assisted")
    player.settle()
    assert player.view()["assisted"] is True
