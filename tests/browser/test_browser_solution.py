"""Show solution in real headless Chromium: it asks first, plays the solver's winning line on the table with pause,
step and speed, stops when the player changes the game, waits out a busy solver, and ends on a banner (and, of a
daily deal, a result to share) that says whose win it was.
"""

from __future__ import annotations

import re
from typing import Any

import tableaux
from helpers.browser import LiveServer
from helpers.page import (
    PHONE,
    SLOW,
    Browser,
    Player,
    expect,
    menu_click,
    play_solution_out,
    send_moves,
    shot,
    show_solution,
)


def test_show_solution_plays_the_winning_line_to_the_won_banner_on_king_albert_17(player: Player) -> None:
    page = player.page
    page.clock.install()  # the page's timers: running on by themselves, or moved on at once by the test
    player.open("?game=king-albert&deal=17")
    show_solution(page)
    expect(page.locator("#notice")).to_contain_text("looked at the face-down cards", timeout=SLOW)
    expect(page.locator("#solution-bar")).to_be_visible()
    page.select_option("#solution-speed", "200")
    expect(page.locator("#moves")).not_to_have_text("0")
    shot(page, "king-albert-solution-desktop")
    page.click("#solution-pause")
    player.settle()  # the move on its way when the pause came has arrived
    paused_at = int(page.locator("#moves").inner_text())
    page.clock.run_for(60_000)  # a minute of the page's time: a playing line would have moved on by now
    player.settle()
    expect(page.locator("#moves")).to_have_text(str(paused_at))  # paused: nothing moves
    assert player.view()["moves"] == paused_at
    page.click("#solution-step")
    expect(page.locator("#moves")).to_have_text(str(paused_at + 1))
    page.click("#solution-pause")  # play on
    play_solution_out(page)
    expect(page.locator("#message")).to_contain_text("The solver won")
    expect(page.locator("#solution-bar")).to_be_hidden()
    # The notice that the solver's line is being shown goes with the line: under the banner it no longer applies.
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator("#score")).to_have_text("52")
    menu_click(page, "#stats-button")
    expect(page.locator("#stats-body tr", has_text="solver's help")).to_contain_text("1")
    expect(page.locator("#stats-body tr", has_text=re.compile(r"^Games won"))).to_contain_text("0")


def test_in_classic_king_albert_where_no_card_is_hidden_the_solution_says_nothing_of_face_down_cards(
    player: Player,
) -> None:
    """Classic King Albert deals every card face up: the solver sees what the player sees, so neither its line nor
    its proof of a loss says it looked at face-down cards, nor that the chance counts layouts of unseen cards."""
    page = player.page
    player.open("?game=king-albert-classic&deal=3")  # lost from the deal
    show_solution(page)
    notice = page.locator("#notice")
    expect(notice).to_have_text("This position cannot be won: no card is hidden, and the solver searched every line.",
                                timeout=SLOW)
    player.open("?game=king-albert-classic&deal=1")  # winnable
    show_solution(page)
    expect(notice).to_contain_text(re.compile(r"^Showing the solver's winning line of \d+ moves\. This game now counts "
                                              r"as assisted in the statistics\.$"), timeout=SLOW)
    expect(page.locator("#solution-bar")).to_be_visible()
    expect(page.locator("#solution-text")).to_have_text(re.compile(r"^Solution: (\d+ moves|move \d+ of \d+)$"))


def solution_played_out(page: Any) -> None:
    """The page loaded again (the player's moves so far stored) and the solution shown and played to its end."""
    page.reload()
    page.wait_for_selector("[data-pile]")
    show_solution(page)
    expect(page.locator("#solution-bar")).to_be_visible(timeout=SLOW)
    play_solution_out(page)


def test_a_deal_the_solution_played_to_its_end_says_the_solver_won_it_not_the_player(player: Player) -> None:
    line = tableaux.solve("king-albert", 17).moves
    page = player.page
    page.clock.install()  # the solution's moves: their timers moved on at once (play_solution_out)
    player.open("?game=king-albert&deal=17")
    send_moves(page, line[:-4])  # the player's own moves, up to a few from the end
    solution_played_out(page)
    banner = page.locator("#message")
    moves = page.locator("#moves").inner_text()
    expect(banner).to_contain_text(f"The solver won deal 17 of King Albert in {moves} moves.")
    expect(banner).not_to_contain_text("You won")
    expect(banner).to_contain_text("it is counted separately")  # the summary under it, as for any assisted win


def test_a_daily_deal_the_solution_won_still_says_the_solver_won_it_when_the_page_is_loaded_again(
    player: Player,
) -> None:
    """A finished daily deal is what its page shows again (the player's game of the day, as it is): the banner
    comes from what the server stored of the win, not from what the page saw."""
    page = player.page
    page.clock.install()  # the solution's moves: their timers moved on at once (play_solution_out)
    player.open("daily?game=king-albert")
    deal = int(page.locator("#deal-number").inner_text())
    send_moves(page, tableaux.solve("king-albert", deal).moves[:-3])
    solution_played_out(page)
    banner = page.locator("#message")
    expect(banner).to_contain_text("The solver won")
    said = banner.inner_text()
    page.reload()
    expect(banner).to_contain_text("The solver won")
    expect(banner).not_to_contain_text("You won")
    assert banner.inner_text().split("\n")[0] == said.split("\n")[0]


def test_the_shared_result_of_a_daily_deal_the_solution_won_says_the_solver_won_it(
    browser: Browser, server: LiveServer
) -> None:
    """The result a player pastes elsewhere tells the truth the banner tells: the solver's win, not the player's."""
    p = Player(browser, server.url, **PHONE)
    try:
        page = p.open("daily?game=king-albert")
        deal = int(page.locator("#deal-number").inner_text())
        line = tableaux.solve("king-albert", deal).moves
        send_moves(page, line[:-1])
        sent = page.evaluate(
            """async (move) => {
                const view = await (await fetch('/api/current')).json();
                const r = await fetch(`/api/games/${view.id}/moves`, {
                    method: 'POST', headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({move, version: view.version, by: 'solution'})});
                return r.status;
            }""",
            str(line[-1]),
        )
        assert sent == 200
        page.reload()
        expect(page.locator("#message")).to_contain_text("The solver won")
        share = page.locator("#share-text")
        expect(share).to_contain_text(re.compile(rf"^Tableaux daily King Albert, [-0-9]+: the solver won it in "
                                                 rf"{len(line)} moves, "))
        expect(share).not_to_contain_text("with the solver's help")
        expect(share).not_to_contain_text(": won in")
        shot(page, "king-albert-daily-solver-won-phone")
    finally:
        p.close()


def test_show_solution_asks_first_and_enter_or_cancel_keep_the_game_unassisted(player: Player) -> None:
    """The solution plays the game for the player and makes it assisted for good: one click in the menu must not do
    that unasked, nor a stray Enter, which presses the question's Cancel."""
    page = player.open("?game=king-albert&deal=17")
    dialog = page.get_by_role("alertdialog")
    for answer in ("Enter", "cancel"):
        menu_click(page, '[data-action="solution"]')
        expect(dialog).to_have_accessible_name("Show the solution?")
        expect(dialog).to_have_accessible_description(re.compile("count as played with the solver's help"))
        if answer == "Enter":
            page.keyboard.press("Enter")
        else:
            page.click("#confirm-no")
        expect(dialog).to_be_hidden()
        expect(page.locator("#solution-bar")).to_be_hidden()
        assert not player.view()["assisted"]
    show_solution(page)  # yes: the line plays, and the game is assisted
    expect(page.locator("#solution-bar")).to_be_visible(timeout=SLOW)
    assert player.view()["assisted"]


def two_moves_of_the_solution(player: Player) -> Any:
    """King Albert 17 with its solution shown and played for two moves, the page's timers moved on by the test."""
    page = player.page
    page.clock.install()
    player.open("?game=king-albert&deal=17")
    show_solution(page)
    expect(page.locator("#solution-bar")).to_be_visible(timeout=SLOW)
    play_solution_out(page, until=2)
    player.settle()
    return page


def test_an_undo_while_the_solution_plays_stops_it_and_says_the_player_changed_the_game(player: Player) -> None:
    page = two_moves_of_the_solution(player)
    page.keyboard.press("u")
    player.settle()
    page.clock.run_for(int(page.input_value("#solution-speed")))  # the next move's turn comes, and sees the undo
    expect(page.locator("#notice")).to_contain_text("you changed the game yourself (a move, an undo or a redo)")
    expect(page.locator("#solution-bar")).to_be_hidden()


def test_a_game_given_up_after_its_solution_stopped_drops_the_stop_notice_and_warns_of_no_cost_it_has_paid(
        player: Player) -> None:
    """Stop leaves a notice for the game in play; giving the game up ends that game, so the notice goes. The game
    is assisted already, so going back from where it was lost costs it nothing more, and the page does not warn
    that it does."""
    page = two_moves_of_the_solution(player)
    page.click("#solution-stop")
    expect(page.locator("#notice")).to_contain_text("Solution stopped; play on from here.")
    menu_click(page, "#give-up")
    expect(page.locator("#confirm-dialog")).to_contain_text(
        "is counted separately, as a game played with the solver's help")
    page.click("#confirm-yes")
    expect(page.locator("#message")).to_contain_text("You gave this game up")
    expect(page.locator("#notice")).to_be_hidden()
    expect(page.locator("#where-lost")).to_contain_text("(To tell, the solver looked at every card.)", timeout=SLOW)
    expect(page.locator("#where-lost")).not_to_contain_text("Going back counts the game as assisted")


def test_a_playing_solution_asks_for_no_chance_to_win_until_it_pauses(player: Player) -> None:
    """At the speed the solver's line plays, the figure of each position it passes would hold a worker of the
    server's shared solver for nothing anyone reads: the page asks for it where the line pauses, and not before."""
    page = player.page
    page.clock.install()  # the page's timers run on by themselves, and the test moves them on too
    player.open("?game=king-albert&deal=17")
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/chance") else None)
    show_solution(page)
    expect(page.locator("#solution-bar")).to_be_visible(timeout=SLOW)
    assert page.input_value("#solution-speed") == "600"  # Normal: twice the figure's wait after a move
    play_solution_out(page, until=5)
    player.settle()
    expect(page.locator("#chance")).to_have_attribute("data-state", "waiting")
    assert asked == []
    page.click("#solution-pause")
    page.clock.run_for(1_000)
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    player.settle()
    assert len(asked) == 1
    expect(page.locator("#chance-stat")).not_to_have_class(re.compile(r"\bstale\b"))


def test_show_solution_waits_out_a_busy_solver_instead_of_asking_the_player_to_click_again(player: Player) -> None:
    # The server refuses rather than queue when every worker is busy (another game's search); the first answer
    # here is that refusal, the next the server's own.
    page = player.page
    refused: list[str] = []

    def busy_once(route: Any) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        route.fulfill(status=503, headers={"Retry-After": "1"},
                      json={"error": "the solver's workers are all busy; ask again in a moment", "cause": "solver",
                            "outcome": "unchanged", "retry_after": 1})

    page.route("**/solution", busy_once)
    player.open("?game=king-albert&deal=17")
    show_solution(page)
    expect(page.locator("#notice")).to_contain_text("looked at the face-down cards", timeout=SLOW)
    expect(page.locator("#solution-bar")).to_be_visible()
    assert len(refused) == 1
    expect(page.locator("#notice")).not_to_contain_text("busy")

