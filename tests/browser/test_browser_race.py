"""The daily race in real headless Chromium: several players, each in a browser of their own, win the daily deal
and see each other on its leaderboard, choose the name it shows, and find none of it on a private install.

The winning lines are the solver's (tests/helpers/race.py), made longer by detours the engine checks, so the
players' places are known from their moves alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.browser import LiveServer
from helpers.page import Browser, Page, Player, axe_violations, expect, menu_click, send_moves, set_setting, shot
from helpers.race import daily_line

GAME = "king-albert"


def open_daily(player: Player) -> Page:
    page = player.page
    page.goto(player.base + f"/daily?game={GAME}")
    page.wait_for_selector("[data-pile]")
    expect(page.locator("#grade-stat")).to_be_visible()  # the daily deal's line, in any language
    return page


def win(player: Player, detours: int) -> int:
    """Win today's daily deal from the player's page with the solver's line and ``detours`` round trips."""
    page = open_daily(player)
    line = daily_line(GAME, detours, player.view(page)["daily"])
    send_moves(page, line)
    page.reload()
    expect(page.locator("#share-text")).to_be_visible()  # the result of a daily deal that is over
    return len(line)


def leaderboard(page: Page) -> list[list[str]]:
    """The leaderboard dialog's rows as the player reads them, after opening it from the status line."""
    page.click("#race-button")
    dialog = page.locator("#race-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#race-standing")).not_to_be_empty()
    return [[cell.strip() for cell in row.split("\t")] for row in dialog.locator("tbody tr").all_inner_texts()]


def name_myself(page: Page, name: str) -> None:
    page.fill("#race-name", name)
    page.click("#race-name-save")
    expect(page.locator("#race-name-said")).to_contain_text(f"shows you as “{name}”")


def test_players_in_their_own_browsers_win_the_daily_deal_and_see_each_other_ranked(
    browser: Browser, server: Any
) -> None:
    ada, bea, cy = (Player(browser, server.url) for _ in range(3))
    try:
        moves = {"ada": win(ada, 0), "bea": win(bea, 1), "cy": win(cy, 2)}
        assert moves["ada"] < moves["bea"] < moves["cy"]
        page = ada.page
        rows = leaderboard(page)
        assert [row[:3] for row in rows] == [["1", "Anonymous (you)", str(moves["ada"])],
                                             ["2", "Anonymous", str(moves["bea"])],
                                             ["3", "Anonymous", str(moves["cy"])]]
        assert all(re.fullmatch(r"\d+:\d\d\.\d", row[3]) for row in rows), rows  # minutes:seconds.tenth
        name_myself(page, "Ada L.")
        expect(page.locator("#race-board tbody tr").first).to_contain_text("Ada L. (you)")
        expect(page.locator("#race-standing")).to_have_text("You are ranked 1 of 3 today.")
        assert not axe_violations(page)
        shot(page, "king-albert-daily-race-desktop")
        page.keyboard.press("Escape")
        # Bea opens it from the win banner, and sees Ada by name
        bea.page.click("#share-race")
        expect(bea.page.locator("#race-dialog")).to_be_visible()
        rows = bea.page.locator("#race-board tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text("Ada L.")
        expect(rows.nth(1)).to_contain_text("Anonymous (you)")
        expect(rows.nth(2)).to_contain_text("Anonymous")
        name_myself(bea.page, "Bea")
        # the same name, in other letters' case, is someone else's
        cy_rows = leaderboard(cy.page)
        assert [row[:3] for row in cy_rows] == [["1", "Ada L.", str(moves["ada"])], ["2", "Bea", str(moves["bea"])],
                                                ["3", "Anonymous (you)", str(moves["cy"])]]
        cy.page.fill("#race-name", "ada l.")
        cy.page.click("#race-name-save")
        expect(cy.page.locator("#race-name-said")).to_contain_text("is taken")
        expect(cy.page.locator("#race-board tbody tr").nth(2)).to_contain_text("Anonymous (you)")
        expect(cy.page.locator("#race-name")).to_have_value("ada l.")  # what was typed stays, to be mended
    finally:
        for player in (ada, bea, cy):
            player.close()


def test_the_leaderboard_reads_well_on_a_phone_in_the_dark_in_french(browser: Browser, server: Any) -> None:
    """axe finds nothing on the open leaderboard, with the player's own place below the others' and a name refused."""
    phone = Player(browser, server.url, {"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                   color_scheme="dark", extra_http_headers={"Accept-Language": "fr"})
    try:
        win(phone, 3)
        page = phone.page
        expect(page.locator("#race-button")).to_be_hidden()  # the status line keeps to two rows on a phone
        menu_click(page, "#race-menu-button")
        expect(page.locator("#race-dialog")).to_be_visible()
        expect(page.locator("#race-title")).to_have_text("Course du jour")
        expect(page.locator("#race-board tr.you")).to_contain_text("(vous)")
        page.fill("#race-name", "x")
        page.click("#race-name-save")
        expect(page.locator("#race-name-said")).to_contain_text("nom affiché")  # the server's refusal, in French
        assert not axe_violations(page)
        shot(page, "king-albert-daily-race-phone-dark-fr")
    finally:
        phone.close()


def test_a_long_name_is_refused_whole_and_save_rests_once_the_days_changes_are_used(
        browser: Browser, server: Any) -> None:
    """The field cuts nothing short: the server says what length a name may have, and the text stays to be mended.
    Once the day's name changes are used, Save is not offered."""
    player = Player(browser, server.url)
    try:
        page = open_daily(player)
        menu_click(page, "#race-menu-button")
        expect(page.locator("#race-dialog")).to_be_visible()
        long = "Abcdefghij" * 3
        page.fill("#race-name", long)
        page.click("#race-name-save")
        expect(page.locator("#race-name-said")).to_contain_text("A display name of length 30 is not accepted")
        expect(page.locator("#race-name-said")).to_contain_text("2 to 24 characters")
        expect(page.locator("#race-name")).to_have_value(long)
        for name in ("Dee 1", "Dee 2", "Dee 3"):
            expect(page.locator("#race-name-save")).to_be_enabled()
            name_myself(page, name)
        expect(page.locator("#race-name-save")).to_be_disabled()
        expect(page.locator("#race-name-help")).to_contain_text("0 more times today")
    finally:
        player.close()


def test_the_solvers_help_on_the_daily_deal_asks_first_since_it_leaves_the_game_unranked(
        browser: Browser, server: Any) -> None:
    """Show solution and a peeking hint each take a daily deal off the day's leaderboard: the page asks first, Cancel
    (or Enter, which the dialog opens on) keeps the game in the race, and going ahead marks it assisted."""
    player = Player(browser, server.url)
    try:
        page = open_daily(player)
        dialog = page.get_by_role("alertdialog")
        menu_click(page, '[data-action="solution"]')
        expect(dialog).to_have_accessible_name("Show the solution of the daily deal?")
        expect(dialog).to_have_accessible_description(re.compile("will not be ranked on today's leaderboard"))
        page.keyboard.press("Enter")
        expect(dialog).to_be_hidden()
        set_setting(page, "hintMode", "peek")
        page.keyboard.press("h")
        expect(dialog).to_have_accessible_name("Take a peeking hint on the daily deal?")
        page.click("#confirm-no")
        expect(dialog).to_be_hidden()
        player.settle()
        view = player.view()
        assert not view["assisted"] and view["moves"] == 0
        asked = [r for r in player.requests if r.startswith("POST") and ("/hint" in r or "/solution" in r)]
        assert not asked, asked
        page.keyboard.press("h")
        page.click("#confirm-yes")
        expect(page.locator("#notice")).to_contain_text("Hint")
        player.settle()
        assert player.view()["assisted"]
        page.keyboard.press("h")  # help taken already: nothing left to ask
        expect(page.locator("#notice")).to_contain_text("Hint")
        expect(dialog).to_be_hidden()
    finally:
        player.close()


@pytest.fixture(scope="module")
def private_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(Path(tmp_path_factory.mktemp("private")) / "games.db", options=("--no-leaderboard",))
    live.start()
    yield live
    live.stop()


def test_a_server_without_the_leaderboard_offers_none(browser: Browser, private_server: LiveServer) -> None:
    player = Player(browser, private_server.url)
    try:
        page = open_daily(player)
        for offer in ("#race-button", "#race-menu-button"):  # hidden by the page, not only out of sight
            expect(page.locator(offer)).to_have_attribute("hidden", "")
        line = daily_line(GAME, 0, player.view(page)["daily"])
        send_moves(page, line)
        page.reload()
        expect(page.locator("#share-text")).to_be_visible()
        expect(page.locator("#share-race")).to_have_count(0)
        answer = page.evaluate("fetch('/api/daily/leaderboard?game=king-albert').then(r => r.status)")
        assert answer == 404
    finally:
        player.close()
