"""The game's clock in real Chromium, honest about the time a player plays: it starts at the first move, stops a
minute after the last input and while the page is hidden or the window unfocused, and each change sends the server
the time counted, which the server keeps within its own wall time."""

from __future__ import annotations

import re

import pytest

from helpers.page import KA1, Page, Player, card, expect, menu_click, show_solution

# King Albert deal 1: the Ace of hearts is on reserve 5, free to go home.


def clock_page(player: Player, query: str = KA1) -> Page:
    """The page with a clock the test moves forward (Playwright's clock: Date, timers and performance.now)."""
    page = player.page
    page.clock.install()
    return player.open(query, page)


def pass_time(page: Page, ms: int = 0) -> None:
    """Move the page's clock on by ``ms`` at once, then let it run long enough for the status line's tick."""
    if ms:
        page.clock.fast_forward(ms)
    page.clock.run_for(1_500)


def shown_seconds(page: Page) -> int:
    minutes, seconds = page.locator("#time").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def first_move(page: Page) -> None:
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator("#moves")).to_have_text("1")


def thirty_seconds_after_the_first_move(page: Page) -> int:
    """Play the first move and let 30 s pass; the seconds the clock shows then."""
    first_move(page)
    pass_time(page, 30_000)
    shown = shown_seconds(page)
    assert shown >= 30
    return shown


def test_the_clock_never_ticks_before_the_first_move(player: Player) -> None:
    page = clock_page(player)
    pass_time(page, 45_000)
    expect(page.locator("#time")).to_have_text("0:00")
    first_move(page)
    pass_time(page, 20_000)
    assert 20 <= shown_seconds(page) <= 25


def test_the_clock_stops_a_minute_after_the_last_input_and_goes_on_at_the_next(player: Player) -> None:
    page = clock_page(player)
    first_move(page)
    pass_time(page, 10 * 60_000)  # the player walked away for ten minutes
    assert 57 <= shown_seconds(page) <= 63  # the minute after the last input counts, no more
    page.mouse.move(300, 400)  # back: the clock goes on from here, without the gap
    pass_time(page, 15_000)
    assert 72 <= shown_seconds(page) <= 80


def away_from(page: Page, how: str, gone: bool) -> None:
    """The page hidden (another tab in front) or the window unfocused, as the browser tells the page; and back."""
    if how == "hidden":
        page.evaluate("""(gone) => {
            const state = gone ? 'hidden' : 'visible';
            Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
            document.dispatchEvent(new Event('visibilitychange'));
        }""", gone)
    else:
        page.evaluate("(gone) => window.dispatchEvent(new Event(gone ? 'blur' : 'focus'))", gone)


@pytest.mark.parametrize("away", ["hidden", "blurred"])
def test_the_clock_stops_while_the_page_is_hidden_or_the_window_unfocused(player: Player, away: str) -> None:
    page = clock_page(player)
    first_move(page)
    pass_time(page, 10_000)
    before = shown_seconds(page)
    away_from(page, away, True)
    page.keyboard.press("Shift")  # input while away does not start it
    pass_time(page, 40_000)
    assert shown_seconds(page) <= before + 2
    away_from(page, away, False)
    pass_time(page, 5_000)
    assert before + 5 <= shown_seconds(page) <= before + 9


def test_each_change_sends_the_time_counted_and_the_server_keeps_it_within_its_wall_time(player: Player) -> None:
    page = clock_page(player)
    first_move(page)
    pass_time(page, 30_000)  # 30 s on the page's clock, a moment on the server's
    shown = shown_seconds(page)
    view = player.view()
    home = next(iter(view["home_moves"].items()))
    with page.expect_request(re.compile(r"/moves$")) as sent:
        card(page, view["position"]["piles"][home[0]][-1]["card"], home[0]).dblclick()
    played = sent.value.post_data_json["played"]
    assert shown <= played <= shown + 3
    expect(page.locator("#moves")).to_have_text("2")
    player.settle()
    stored = player.view()["elapsed_seconds"]
    assert stored < played  # a page cannot claim more than the server's own time between the moves
    expect(page.locator("#time")).to_have_text(re.compile(r"^0:0\d$"))  # the page counts on from what was kept


def test_a_hint_that_changes_nothing_leaves_the_clock_counting_on(player: Player) -> None:
    page = clock_page(player)
    first_move(page)
    pass_time(page, 20_000)
    before = shown_seconds(page)
    assert before >= 20
    page.click("#hint")
    expect(page.locator(".pile.hint-target")).to_have_count(1, timeout=60_000)  # the solver on a busy machine
    pass_time(page)
    assert shown_seconds(page) >= before


def test_a_reload_keeps_the_time_counted_since_the_last_move(player: Player) -> None:
    page = clock_page(player)
    before = thirty_seconds_after_the_first_move(page)
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("#moves")).to_have_text("1")
    pass_time(page)
    assert shown_seconds(page) >= before


def test_another_game_taken_up_and_this_one_again_keeps_the_time_counted_since_the_last_move(player: Player) -> None:
    page = clock_page(player)
    before = thirty_seconds_after_the_first_move(page)
    for game, pile in (("eagle-wing", "stock"), ("king-albert", "reserve-1")):  # over to Eagle Wing and back
        menu_click(page, "#game-select")
        page.select_option("#game-select", game)
        expect(page.locator(f'[data-pile="{pile}"]')).to_be_visible()
    expect(page.locator("#moves")).to_have_text("1")
    pass_time(page)
    assert shown_seconds(page) >= before
    page.reload()  # and what was counted before the switch is still there after a reload
    page.wait_for_selector("[data-pile]")
    pass_time(page)
    assert shown_seconds(page) >= before


def test_closing_the_tab_and_opening_the_game_again_keeps_the_time_counted_since_the_last_move(
    player: Player,
) -> None:
    page = clock_page(player)
    before = thirty_seconds_after_the_first_move(page)
    page.close()  # the tab closed (the browser keeps its storage, as it does when it is closed itself)
    again = player.new_page()
    again.clock.install()
    player.open(KA1, again)
    expect(again.locator("#moves")).to_have_text("1")
    pass_time(again)
    assert shown_seconds(again) >= before


def test_show_solution_sends_the_time_counted_not_the_idle_time(player: Player) -> None:
    page = clock_page(player)
    first_move(page)
    pass_time(page, 100_000)  # away for 100 s: the clock stopped a minute after the move
    with page.expect_request(re.compile(r"/solution$")) as sent:
        show_solution(page)
    played = sent.value.post_data_json["played"]
    assert 57 <= played <= 63

