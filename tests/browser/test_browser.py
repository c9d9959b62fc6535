"""The browser game played in real headless Chromium, as a person would: its buttons, dialogs, links, reloads and
wins (moving the cards themselves is test_browser_moves.py's).

Every JSON response the page receives is checked for face-down card identities. Needs Debian's
``chromium-headless-shell`` or ``chromium`` (``helpers.page.CHROMIUM``); without either the module is skipped, unless
``TABLEAUX_REQUIRE_BROWSER=1`` (set by CI) makes that a failure.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import tableaux
from helpers.browser import LiveServer, winning_line
from helpers.page import (
    CHROMIUM,
    FULL_CHROMIUM,
    KA1,
    REQUIRED,
    SCREENSHOTS,
    SLOW,
    Browser,
    Player,
    card,
    drag,
    expect,
    launch_full_browser,
    menu_click,
    open_menu,
    pile,
    send_moves,
    settled,
    shrink_png,
    win_by_hand,
)
from tableaux.solver.strategy import safe_moves


def test_undo_redo_and_restart_buttons(player: Player) -> None:
    page = player.open(KA1)
    expect(page.locator("#undo")).to_be_disabled()
    drag(page, card(page, "TD", "tableau-9"), pile(page, "tableau-8"))
    expect(card(page, "TD", "tableau-8")).to_be_visible()
    card(page, "AH").dblclick()
    expect(page.locator("#score")).to_have_text("1")
    page.click("#undo")
    expect(card(page, "AH", "reserve-5")).to_be_visible()
    page.click("#undo")
    expect(card(page, "TD", "tableau-9")).to_be_visible()
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#redo")
    page.click("#redo")
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("2")
    page.click("#restart")
    expect(card(page, "TD", "tableau-9")).to_be_visible()
    expect(page.locator("#redo")).to_be_enabled()
    assert player.view()["position"]["moves_played"] == 0
    # A restart takes nothing away for good: the notice offers every move back at once.
    expect(page.locator("#notice")).to_contain_text("Deal restarted: 2 moves taken back.")
    page.click("#restart-undo")
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("2")
    expect(page.locator("#notice")).to_be_hidden()
    assert player.view()["position"]["moves_played"] == 2


def test_eagle_wing_stock_click_and_status_line(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=1")
    expect(page.locator("#base-card")).to_have_text("Jack")
    expect(page.locator("#stock-left")).to_have_text("30")
    expect(page.locator("#reserve-left")).to_have_text("13")
    expect(page.locator("#redeals-left")).to_have_text("2")
    expect(card(page, "JH", "foundation-1")).to_be_visible()
    assert page.locator('[data-pile="stock"] [data-card]').count() == 0
    pile(page, "stock").click()  # the rule book: the first cards turned are AS, 8H, 4H
    expect(card(page, "AS", "waste")).to_be_visible()
    expect(page.locator("#stock-left")).to_have_text("29")
    page.keyboard.press("d")
    expect(card(page, "8H", "waste")).to_be_visible()
    expect(page.locator("#stock-left")).to_have_text("28")
    for left in range(27, -1, -1):
        page.keyboard.press("d")
        expect(page.locator("#stock-left")).to_have_text(str(left))
    expect(pile(page, "stock")).to_have_attribute("data-mark", "↻")  # empty, a redeal is left
    pile(page, "stock").click()  # turns the waste over
    expect(page.locator("#stock-left")).to_have_text("30")
    expect(page.locator("#redeals-left")).to_have_text("1")
    expect(pile(page, "waste").locator(".card")).to_have_count(0)
    expect(page.locator("#announce")).to_contain_text("Waste turned over")


def test_hint_highlights_a_move_and_says_where_it_came_from(player: Player) -> None:
    page = player.open(KA1)
    page.click("#hint")
    expect(page.locator(".pile.hint-target")).to_have_count(1, timeout=60_000)  # the solver on a busy machine
    expect(page.locator(".hint-source").first).to_be_visible()
    expect(page.locator("#notice")).to_contain_text(re.compile(r"solver|heuristic"))


def test_deal_link_opens_that_deal_and_the_url_follows_the_game(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=17")
    expect(page.locator("#deal-number")).to_have_text("17")
    expect(page.locator("#game-select")).to_have_value("eagle-wing")
    expected = tableaux.new_game("eagle-wing", 17).public_position()["piles"]
    for i in range(1, 9):
        code = expected[f"tableau-{i}"][-1]["card"]
        expect(card(page, code, f"tableau-{i}")).to_be_visible()
    page.fill("#deal-input", "4242")
    page.click("#deal-go")
    expect(page.locator("#deal-number")).to_have_text("4242")
    expect(page).to_have_url(re.compile(r"\?game=eagle-wing&deal=4242$"))
    player.open("?game=eagle-wing&deal=abc")  # a broken link says what is wrong and keeps the game
    expect(page.locator("#notice")).to_contain_text('"abc" is not a deal number')
    expect(page.locator("#deal-number")).to_have_text("4242")
    page.select_option("#game-select", "king-albert")
    expect(page.locator("#game-select")).to_have_value("king-albert")
    expect(page).to_have_url(re.compile(r"\?game=king-albert&deal=\d+$"))


def test_rules_and_statistics_dialogs(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=3")
    page.keyboard.press("F1")
    expect(page.locator("#rules-dialog")).to_be_visible()
    expect(page.locator("#rules-text")).to_contain_text("trunk")
    page.keyboard.press("Escape")
    expect(page.locator("#rules-dialog")).to_be_hidden()
    page.keyboard.press("?")
    expect(page.locator("#rules-dialog")).to_be_visible()
    page.click("#rules-close")
    menu_click(page, "#stats-button")
    expect(page.locator("#stats-body")).to_contain_text("Games played")
    page.click("#stats-reset")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    with page.expect_response(re.compile(r"/api/stats/reset")) as answer:
        page.click("#confirm-yes")
    assert answer.value.status == 200
    expect(page.locator("#stats-body")).to_contain_text("Games played")


def test_a_move_from_a_stale_tab_is_refused_and_that_tab_catches_up(player: Player) -> None:
    first = player.open(KA1)
    second = player.open(KA1, player.new_page())
    first.bring_to_front()  # a hidden tab gets few animation frames, which makes mouse moves slow
    drag(first, card(first, "TD", "tableau-9"), pile(first, "tableau-8"))
    expect(card(first, "TD", "tableau-8")).to_be_visible()
    second.bring_to_front()
    card(second, "AH", "reserve-5").dblclick()  # made against the old version
    expect(second.locator("#notice")).to_contain_text("another tab")
    expect(card(second, "TD", "tableau-8")).to_be_visible()
    expect(card(second, "AH", "reserve-5")).to_be_visible()
    assert player.view()["moves"] == 1


def test_reload_and_server_restart_keep_the_game(browser: Browser, tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "games.db")
    live.start()
    p = Player(browser, live.url)
    try:
        page = p.open(KA1)
        card(page, "AH", "reserve-5").dblclick()
        expect(card(page, "AH", "foundation-1")).to_be_visible()
        page.goto(live.url + "/")  # no query: resume the current game
        expect(card(page, "AH", "foundation-1")).to_be_visible()
        expect(page.locator("#deal-number")).to_have_text("1")
        expect(page.locator("#moves")).to_have_text("1")
        live.stop()
        live.start()
        page.reload()
        expect(card(page, "AH", "foundation-1")).to_be_visible()
        expect(page.locator("#moves")).to_have_text("1")
        page.click("#undo")
        expect(card(page, "AH", "reserve-5")).to_be_visible()
    finally:
        p.close()
        live.stop()


def test_win_a_deal(player: Player) -> None:
    line = winning_line("king-albert", 9)
    page = player.open("?game=king-albert&deal=9")
    win_by_hand(page, "king-albert", 9, line)  # all but the last move through the API, the last with the mouse
    expect(page.locator("#message")).to_contain_text("You won")
    expect(page.locator("#score")).to_have_text("52")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    settled(page)  # the last card has slid home
    page.evaluate("""Promise.all(document.getAnimations()  // and the cards' leap off the table is over
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null)))""")
    page.screenshot(path=str(SCREENSHOTS / "king-albert-won-desktop.png"))
    shrink_png(SCREENSHOTS / "king-albert-won-desktop.png")
    menu_click(page, "#stats-button")
    expect(page.locator("#stats-body tr", has_text="Games won")).to_contain_text("1")
    titles = [h.inner_text() for h in page.locator("#stats-body thead th").all()]
    rates = page.locator("#stats-body tr", has_text="Win rate").locator("td")
    expect(rates.nth(titles.index("King Albert"))).to_have_text("100%")
    expect(rates.nth(titles.index("Eagle Wing"))).to_have_text("–")  # never played: no rate, rather than 0%


def test_the_full_browser_plays_a_deal_to_its_win_as_the_shell_does(browser: Browser, server: Any) -> None:
    """The suite drives Chromium's headless shell; players run the full browser, the same engine with a window's
    interface around it. One game in it, to the win, with no error on its console."""
    if CHROMIUM == FULL_CHROMIUM:
        pytest.skip("the suite runs in the full browser already")
    if not FULL_CHROMIUM.exists():
        if REQUIRED:
            pytest.fail(f"TABLEAUX_REQUIRE_BROWSER=1 and no full browser at {FULL_CHROMIUM} (apt-get install chromium)")
        pytest.skip(f"no full browser at {FULL_CHROMIUM} (apt-get install chromium)")
    full = launch_full_browser(browser)
    try:
        player = Player(full, server.url)
        console: list[str] = []
        player.page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
        page = player.open("?game=king-albert&deal=9")
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
        win_by_hand(page, "king-albert", 9, winning_line("king-albert", 9))
        expect(page.locator("#message")).to_contain_text("You won")
        expect(page.locator("#score")).to_have_text("52")
        assert console == []
        player.close()
    finally:
        full.close()


def test_after_a_win_the_same_deal_can_be_played_again_from_its_start(player: Player) -> None:
    """To win it in fewer moves: the banner's second button deals the won deal again, as a new game."""
    line = winning_line("king-albert", 9)
    page = player.open("?game=king-albert&deal=9")
    won = player.view()  # the game about to be won
    win_by_hand(page, "king-albert", 9, line)
    expect(page.locator("#message")).to_contain_text("You won")
    page.click("#message-again")
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#moves")).to_have_text("0")
    expect(page.locator("#deal-number")).to_have_text("9")
    again = player.view()
    assert again["id"] != won["id"] and again["deal"] == 9 and not again["won"] and again["moves"] == 0
    assert again["position"]["piles"] == tableaux.new_game("king-albert", 9).public_position()["piles"]


def test_dead_end_says_so_and_offers_undo(player: Player) -> None:
    game = tableaux.new_game("eagle-wing", 5)
    chooser = random.Random(1)
    while not game.is_over():  # random play; Eagle Wing soon runs out of moves
        assert not game.is_won()
        game.play(chooser.choice(game.legal_moves()))
    page = player.open("?game=eagle-wing&deal=5")
    send_moves(page, game.moves_played)
    page.reload()
    expect(page.locator("#message")).to_contain_text("No move is left")
    page.click("#message-undo")
    expect(page.locator("#message")).to_be_hidden()
    expect(page.locator("#moves")).to_have_text(str(len(game.moves_played) - 1))


def test_auto_home_setting_moves_safe_cards_and_is_remembered(player: Player) -> None:
    page = player.open(KA1)
    expect(page.locator("#auto-home")).not_to_be_checked()  # off by default
    # What the server's proofs call safe on deal 1, played out: the page must play exactly that, no more.
    game = tableaux.new_game("king-albert", 1)
    while safe := safe_moves(game.rules, game.state):
        game.play(game.rules.to_move(safe[0]))
    assert game.moves_played, "deal 1 starts with a safe move (the Ace of hearts in reserve 5)"
    open_menu(page)  # the switch lives in the toolbar's menu
    page.check("#auto-home")
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator("#score")).to_have_text(str(game.score))
    expect(page.locator("#moves")).to_have_text(str(len(game.moves_played)))
    # The page does one thing at a time: an undo clicked now runs after whatever auto-home still had to
    # play, so one move fewer than the safe ones means it played exactly those.
    page.click("#undo")
    expect(page.locator("#moves")).to_have_text(str(len(game.moves_played) - 1))
    player.settle()
    game.undo()
    assert player.view()["position"]["piles"] == game.public_position()["piles"]
    page.reload()
    expect(page.locator("#auto-home")).to_be_checked()
    expect(page.locator("#moves")).to_have_text(str(len(game.moves_played)))


def play_safe_moves(game: tableaux.Game) -> int:
    """Play what the server's proofs call safe, as auto-home does; how many moves that was."""
    played = 0
    while safe := safe_moves(game.rules, game.state):
        game.play(game.rules.to_move(safe[0]))
        played += 1
    return played


def test_one_undo_takes_back_a_move_with_the_cards_auto_home_sent_after_it(player: Player) -> None:
    game = tableaux.new_game("king-albert", 8)
    first = game.rules.to_move(safe_moves(game.rules, game.state)[0])  # auto-home's own, on switching it on
    first_card = game.public_position()["piles"][first.source][-1]["card"]
    made = play_safe_moves(game)
    piles = game.public_position()["piles"]
    move, after, sent = next(
        (m, after, sent) for m in game.legal_moves() if m.count == 1 and not m.target.startswith("foundation")
        for after in [game.copy()] if after.play(m) and (sent := play_safe_moves(after)) >= 2)
    page = player.open("?game=king-albert&deal=8")
    open_menu(page)
    page.check("#auto-home")
    expect(page.locator("#moves")).to_have_text(str(made))
    page.keyboard.press("Escape")
    drag(page, card(page, piles[move.source][-1]["card"], move.source), pile(page, move.target))
    expect(page.locator("#moves")).to_have_text(str(made + 1 + sent))
    page.click("#undo")
    expect(page.locator("#moves")).to_have_text(str(made))
    expect(page.locator("#announce")).to_contain_text(f"Took back your move and the {sent} cards sent home after it.")
    player.settle()
    assert player.view()["position"]["piles"] == piles
    page.click("#redo")
    expect(page.locator("#moves")).to_have_text(str(made + 1 + sent))
    expect(page.locator("#announce")).to_contain_text(
        f"Played your move again, and the {sent} cards sent home after it.")
    player.settle()
    assert player.view()["position"]["piles"] == after.public_position()["piles"]
    page.click("#undo")
    expect(page.locator("#moves")).to_have_text(str(made))
    # What auto-home played on being switched on, with no move of the player's before it, goes back a move at a
    # time, each named.
    page.click("#undo")
    expect(page.locator("#moves")).to_have_text(str(made - 1))
    words = f"{RANK_WORDS[first_card[0]]} of {SUIT_WORDS[first_card[1]]}"
    expect(page.locator("#announce")).to_contain_text(f"Took back {words} to {first.source.replace('-', ' ')}.")
    page.click("#redo")
    expect(page.locator("#announce")).to_contain_text(f"Played again: {words} to {first.target.replace('-', ' ')}.")


RANK_WORDS = dict(zip("A23456789TJQK", ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"],
                      strict=True))
SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def test_the_page_reads_the_deal_limit_and_the_ten_s_label_from_the_game_info(player: Player) -> None:
    """The highest deal number and how a ten reads on a card come from the server: the page repeats neither."""
    deal = next(d for d in range(200) if tableaux.new_game("eagle-wing", d).position()["base_rank"] == "T")
    game = tableaux.new_game("eagle-wing", deal)
    tens = [c["card"] for cards in game.public_position()["piles"].values() for c in cards
            if c["up"] and c["card"] and c["card"][0] == "T"]
    page = player.open(f"?game=eagle-wing&deal={deal}")
    expect(page.locator("#deal-input")).to_have_attribute("max", str(tableaux.MAX_DEAL))
    for name in game.rules.pile_names:  # an empty foundation shows the base rank it waits for
        if name.startswith("foundation") and not game.position()["piles"][name]:
            expect(pile(page, name)).to_have_attribute("data-mark", "10")
    assert tens, "the deal shows a ten"
    for code in tens:
        expect(card(page, code).locator("text").first).to_have_text("10")


def test_the_page_takes_the_games_from_the_game_info(player: Player) -> None:
    """Game names, titles and which status fields a game has come from the server, not from the page."""
    page = player.open("?game=eagle-wing&deal=5")
    assert any(r.endswith("/api/games/info") for r in player.requests)
    catalog = [(g.name, g.title) for g in tableaux.GAMES.values() if g.in_browser]
    options = page.locator("#game-select option")
    expect(options).to_have_count(len(catalog))
    assert [(o.get_attribute("value"), o.inner_text()) for o in options.all()] == catalog
    expect(page.locator("#stock-left")).to_be_visible()
    expect(page.locator("#base-card")).to_be_visible()
    page.select_option("#game-select", "king-albert")
    expect(page.locator("#game-name")).to_have_text("King Albert")
    expect(page.locator("#stock-left")).to_be_hidden()  # King Albert's position has no stock
    menu_click(page, "#stats-button")
    headers = page.locator("#stats-body thead th")  # one per game; the corner above the row names is no header
    expect(headers).to_have_count(len(catalog))
    assert [h.inner_text() for h in headers.all()] == [title for _, title in catalog]
