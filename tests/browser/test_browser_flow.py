"""The flow from one game to the next, in real Chromium.

A game in progress is never lost by accident: every way to another deal asks first once the game has a move, and
the question is a proper dialog (named, described, the keyboard kept in it, Enter and Escape). The deal filter
holds: every new game the page starts deals from it and shows the grade."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

import tableaux
from helpers.page import (
    KA1,
    PHONE,
    Browser,
    Page,
    Player,
    card,
    expect,
    menu_click,
    next_frames,
    send_moves,
    shot,
)
from tableaux import catalogue

# King Albert deal 1: the Ace of hearts is on reserve 5, free to go home.


TABLE_HAS_KEYBOARD = "document.getElementById('board').contains(document.activeElement)"


def one_move_in(player: Player, query: str = KA1) -> Page:
    """The game of `query` with one move played on the page (the Ace of hearts sent home)."""
    page = player.open(query)
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator("#moves")).to_have_text("1")
    player.settle()
    return page


def games_started(player: Player) -> int:
    return sum(1 for r in player.requests if re.search(r"^POST .*/api/(games|daily)$", r))


def stats(page: Page, game: str = "king-albert") -> dict[str, Any]:
    return page.evaluate("fetch('/api/stats').then(r => r.json())")[game]


def test_n_one_move_in_asks_first_escape_or_enter_keeps_playing_and_only_the_new_game_button_starts_one(
        player: Player) -> None:
    page = one_move_in(player)
    first = player.view()
    started = games_started(player)
    page.keyboard.press("n")
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_accessible_name("Start a new game?")
    expect(dialog).to_have_accessible_description(re.compile(r"Deal 1 has 1 move played\. Leaving it counts as a loss"))
    # Enter also picks up and drops cards: a stray N and Enter keep the game.
    expect(page.locator("#confirm-no")).to_be_focused()
    for _ in range(5):  # the keyboard stays in the dialog, both ways round
        page.keyboard.press("Tab")
        assert page.evaluate("document.getElementById('confirm-dialog').contains(document.activeElement)")
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.getElementById('confirm-dialog').contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    player.settle()
    assert games_started(player) == started  # nothing asked of the server
    assert player.view()["id"] == first["id"] and player.view()["moves"] == 1
    expect(page.locator("#moves")).to_have_text("1")
    assert stats(page)["played"] == 1 and stats(page)["current_streak"] == 0

    page.keyboard.press("n")
    expect(page.locator("#confirm-no")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    player.settle()
    assert player.view()["id"] == first["id"] and player.view()["moves"] == 1

    page.keyboard.press("n")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#moves")).to_have_text("0")
    player.settle()
    assert player.view()["id"] != first["id"]
    after = stats(page)
    assert after["played"] == 1 and after["won"] == 0  # the game left counts as played and lost


def test_a_game_with_no_move_yet_is_left_without_a_question(player: Player) -> None:
    page = player.open(KA1)
    first = player.view()["id"]
    page.keyboard.press("n")
    expect(page.locator("#deal-number")).not_to_have_text("1")
    assert page.locator("#confirm-dialog").is_hidden()
    assert player.view()["id"] != first
    assert stats(page)["played"] == 0  # a game without a move never counts


@pytest.mark.parametrize("way", ["new-game button", "deal number", "daily deal", "deal filter"])
def test_every_way_to_another_deal_asks_while_a_game_has_moves(player: Player, way: str) -> None:
    page = one_move_in(player)
    first = player.view()["id"]
    titles = {"new-game button": "Start a new game?", "deal number": "Open deal 4242?",
              "daily deal": "Open today's daily deal?", "deal filter": "Start a new game?"}

    def ask() -> None:
        if way == "new-game button":
            page.click("#new-game")
        elif way == "deal number":
            menu_click(page, "#deal-input")
            page.fill("#deal-input", "4242")
            page.press("#deal-input", "Enter")
        elif way == "daily deal":
            menu_click(page, "#daily-button")
        else:
            menu_click(page, "#deal-kind")
            current = page.input_value("#deal-kind")
            page.select_option("#deal-kind", "easy" if current != "easy" else "medium")
        expect(page.get_by_role("alertdialog")).to_have_accessible_name(titles[way])

    ask()
    page.click("#confirm-no")  # "Keep playing"
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    player.settle()
    assert player.view()["id"] == first
    expect(page.locator("#moves")).to_have_text("1")
    ask()
    page.click("#confirm-yes")
    expect(page.locator("#moves")).to_have_text("0")
    player.settle()
    assert player.view()["id"] != first
    if way == "deal number":
        expect(page.locator("#deal-number")).to_have_text("4242")
    if way == "deal filter":  # the pick deals from the filter, and holds
        expect(page.locator("#grade")).to_contain_text(re.compile(r"Winnable · (Easy|Medium)"))


def test_a_link_or_the_back_button_to_another_deal_asks_while_a_game_has_moves(player: Player) -> None:
    page = one_move_in(player)
    first = player.view()["id"]
    player.open("?game=king-albert&deal=4242")  # a shared link or a bookmark, in the same tab
    expect(page.get_by_role("alertdialog")).to_have_accessible_name("Open deal 4242?")
    expect(page.locator("#confirm-dialog")).to_contain_text("Deal 1 has 1 move played.")
    page.click("#confirm-no")  # "Keep playing": the game in progress, and the address says so
    expect(page.locator("#moves")).to_have_text("1")
    expect(page).to_have_url(re.compile(r"\?game=king-albert&deal=1$"))
    player.settle()
    assert player.view()["id"] == first
    player.open("?game=king-albert&deal=4242")
    page.click("#confirm-yes")
    expect(page.locator("#deal-number")).to_have_text("4242")
    player.settle()
    assert player.view()["id"] != first
    player.open("?game=king-albert&deal=1")  # deal 4242 has no move: left without a question
    expect(page.locator("#deal-number")).to_have_text("1")
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator("#moves")).to_have_text("1")
    player.settle()
    page.go_back()  # the deal-4242 address of the history: it asks too
    expect(page.get_by_role("alertdialog")).to_have_accessible_name("Open deal 4242?")
    page.click("#confirm-no")
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#deal-number")).to_have_text("1")


def test_a_link_to_a_game_there_is_none_of_keeps_the_game_in_progress(player: Player) -> None:
    page = one_move_in(player)
    first = player.view()["id"]
    player.open("?game=spider&deal=3")
    expect(page.locator("#notice")).to_contain_text('There is no game called "spider"')
    expect(page.locator("#deal-number")).to_have_text("1")
    expect(page.locator("#moves")).to_have_text("1")
    player.settle()
    assert player.view()["id"] == first


def test_switching_the_game_keeps_the_game_in_progress_without_a_question(player: Player) -> None:
    """Each game keeps its own game in progress: switching to another game and back ends nothing."""
    page = one_move_in(player)
    first = player.view()["id"]
    menu_click(page, "#game-select")
    page.select_option("#game-select", "eagle-wing")
    expect(page.locator('[data-pile="stock"]')).to_be_visible()  # Eagle Wing's table is on the page
    assert page.locator("#confirm-dialog").is_hidden()
    menu_click(page, "#game-select")
    page.select_option("#game-select", "king-albert")
    expect(page.locator('[data-pile="reserve-1"]')).to_be_visible()  # and King Albert's again
    expect(page.locator("#moves")).to_have_text("1")
    player.settle()
    assert page.evaluate("fetch('/api/current?game=king-albert').then(r => r.json())")["id"] == first
    assert stats(page)["played"] == 1 and stats(page)["current_streak"] == 0
    player.open()  # the site opened again, with no game in the address: the game last on the table
    expect(page.locator("#game-select")).to_have_value("king-albert")
    expect(page.locator("#deal-number")).to_have_text("1")
    expect(page.locator("#moves")).to_have_text("1")


def test_opening_the_deal_already_in_play_keeps_it_and_points_to_restart(player: Player) -> None:
    page = one_move_in(player)
    first = player.view()["id"]
    started = games_started(player)
    menu_click(page, "#deal-input")
    page.fill("#deal-input", "1")
    page.press("#deal-input", "Enter")
    expect(page.locator("#notice")).to_contain_text("Deal 1 is on the table already. Restart plays it again")
    assert page.locator("#confirm-dialog").is_hidden()  # no question about leaving it, and no loss
    player.settle()
    assert games_started(player) == started and player.view()["id"] == first
    expect(page.locator("#moves")).to_have_text("1")


def test_the_deal_field_shows_the_deal_on_the_table_not_a_number_typed_before(player: Player) -> None:
    page = player.open(KA1)
    field = page.locator("#deal-input")
    expect(field).to_have_value("1")
    menu_click(page, "#deal-input")
    field.fill("4242")  # typed, never opened
    menu_click(page, "#daily-button")
    daily = str(catalogue.daily("king-albert").deal)
    expect(page.locator("#deal-number")).to_have_text(daily)
    expect(field).to_have_value(daily)
    for way in ("another game", "new game"):
        menu_click(page, "#deal-input")
        field.fill("4242")
        shown = page.locator("#deal-number").inner_text()
        if way == "another game":
            menu_click(page, "#game-select")
            page.select_option("#game-select", "eagle-wing")
            expect(page.locator("#game-name")).to_have_text("Eagle Wing")
        else:
            page.click("#new-game")  # no move made yet: no question
            expect(page.locator("#deal-number")).not_to_have_text(shown)
        expect(field).to_have_value(page.locator("#deal-number").inner_text())
    player.settle()
    assert field.input_value() == str(player.view()["deal"])


def test_the_statistics_say_when_a_game_counts_and_how_a_game_left_counts(player: Player) -> None:
    page = player.open(KA1)
    menu_click(page, "#stats-button")
    note = page.locator("#stats-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("counts as played from its first move")
    expect(note).to_contain_text("leave unfinished for another deal counts as lost")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_question_fits_the_screen(browser: Browser, server: Any, size: str) -> None:
    p = Player(browser, server.url, **(PHONE if size == "phone" else {}))
    try:
        page = one_move_in(p)
        page.keyboard.press("n") if size == "desktop" else page.click("#new-game")
        dialog = page.locator("#confirm-dialog")
        expect(dialog).to_be_visible()
        box = dialog.bounding_box()
        width, height = page.viewport_size["width"], page.viewport_size["height"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
        for button in ("#confirm-yes", "#confirm-no"):
            b = page.locator(button).bounding_box()
            assert b["x"] >= box["x"] and b["x"] + b["width"] <= box["x"] + box["width"], button
        shot(page, f"leave-question-{size}")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    finally:
        p.close()


def test_the_question_is_in_the_pages_language(browser: Browser, server: Any) -> None:
    p = Player(browser, server.url, extra_http_headers={"Accept-Language": "fr"})
    try:
        page = one_move_in(p)
        page.keyboard.press("n")
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_have_accessible_name("Commencer une nouvelle partie ?")
        expect(page.locator("#confirm-no")).to_have_text("Continuer à jouer")
        page.keyboard.press("Escape")
    finally:
        p.close()


def test_the_move_kept_is_the_one_played(player: Player) -> None:
    """After keeping a game, it goes on from where it was: the next move is played on it."""
    page = one_move_in(player)
    page.keyboard.press("n")
    page.keyboard.press("Escape")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    view = player.view()
    pile_name, move = next(iter(view["home_moves"].items()))
    top = view["position"]["piles"][pile_name][-1]["card"]
    card(page, top, pile_name).dblclick()
    expect(page.locator("#moves")).to_have_text("2")
    assert player.view()["legal_moves"] != view["legal_moves"] and move["target"].startswith("foundation")


# --------------------------------------------------------------------------- the deal filter holds
def pick_filter(page: Page, kind: str) -> None:
    """Choose `kind` in the deal filter; on a fresh game the pick deals from it at once."""
    menu_click(page, "#deal-kind")
    page.select_option("#deal-kind", kind)


def graded(page: Page, player: Player, grade: str | None) -> dict[str, Any]:
    """Wait for the page's new graded game and check it is one of `grade` (any grade for None)."""
    words = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}
    shown = words[grade] if grade else "(Easy|Medium|Hard)"
    expect(page.locator("#grade")).to_have_text(re.compile(rf"^Winnable · {shown}( · Par \d+)?$"))
    player.settle()
    view = player.view()
    par = f" · Par {view['par']}" if view["par"] else ""  # a graded deal's par, once the par build has reached it
    expect(page.locator("#grade")).to_have_text(re.compile(rf"^Winnable · {shown}{re.escape(par)}$"))
    entry = catalogue.lookup(view["game"], view["deal"])
    assert entry is not None and view["grade"] == entry.grade and (grade is None or entry.grade == grade)
    return view


@pytest.mark.parametrize("ending", ["won", "given up", "no move left"])
def test_the_banners_new_game_deals_from_the_chosen_filter(player: Player, ending: str) -> None:
    page = player.open(KA1 if ending != "no move left" else "?game=eagle-wing&deal=1")
    kind = {"won": "easy", "given up": "medium", "no move left": "winnable"}[ending]
    pick_filter(page, kind)
    view = graded(page, player, kind if kind != "winnable" else None)
    if ending == "won":
        line = tableaux.solve(view["game"], view["deal"]).moves
        send_moves(page, line[:-1])
        page.reload()  # the game goes on in the page; its last move is the player's
        last = tableaux.Game.replay(tableaux.rules(view["game"]), view["deal"], line[:-1]).home_move(line[-1].source)
        assert last == line[-1]
        top = player.view()["position"]["piles"][last.source][-1]["card"]
        card(page, top, last.source).dblclick()
        expect(page.locator("#message")).to_contain_text("You won")
        expect(page.locator("#message-new")).to_have_text("Play another deal")
    elif ending == "given up":
        menu_click(page, "#give-up")
        page.click("#confirm-yes")
        expect(page.locator("#message")).to_contain_text("You gave this game up")
    else:
        for seed in range(100):  # random play until a game ends with no move left (most do at once)
            game = tableaux.new_game(view["game"], view["deal"])
            chooser = random.Random(seed)
            while not game.is_over() and not game.is_won():  # random play wins now and then: try the next seed
                game.play(chooser.choice(game.legal_moves()))
            if not game.is_won():
                break
        assert not game.is_won(), "random play won this deal a hundred times"
        send_moves(page, game.moves_played)
        page.reload()
        expect(page.locator("#message")).to_contain_text("No move is left")
    page.click("#message-new")
    expect(page.locator("#moves")).to_have_text("0")
    after = graded(page, player, kind if kind != "winnable" else None)
    assert after["id"] != view["id"]
    # The banner went with the game: the keyboard is on the table, not lost on the page.
    page.wait_for_function(TABLE_HAS_KEYBOARD)


def test_n_deals_from_the_chosen_filter_and_the_pick_is_remembered(player: Player) -> None:
    page = player.open(KA1)
    pick_filter(page, "hard")
    first = graded(page, player, "hard")
    page.evaluate("document.activeElement.blur()")  # keys typed in the filter's menu are the menu's
    page.keyboard.press("n")
    deadline = time.monotonic() + 30  # another game (its deal may be the same one: the filter draws at random)
    while player.view()["id"] == first["id"]:
        assert time.monotonic() < deadline, "n dealt no new game"
        next_frames(page)
    graded(page, player, "hard")
    page.reload()
    expect(page.locator("#deal-kind")).to_have_value("hard")
    page.keyboard.press("n")
    second = graded(page, player, "hard")
    assert second["id"] != first["id"]


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_dialog_from_the_menu_opens_at_its_top_and_gives_the_keyboard_back_to_the_menu_button(
        browser: Browser, server: Any, screen: str) -> None:
    """On a phone every dialog is in the menu, which has closed by the time the dialog does: focus goes back to the
    menu button, not to the page's body, where Tab would go nowhere. The statistics open at their top, with the
    names of the games' columns on view, not scrolled down to the reset button."""
    p = Player(browser, server.url, **(PHONE if screen == "phone" else {}))
    try:
        page = p.open(KA1)
        for item, dialog in (("#stats-button", "#stats-dialog"), ("#rules-button", "#rules-dialog"),
                             ("#settings-button", "#settings-dialog")):
            page.keyboard.press("Escape")
            page.locator("#menu-button").focus()
            page.keyboard.press("Enter")
            page.locator(item).focus()
            page.keyboard.press("Enter")
            expect(page.locator(dialog)).to_be_visible()
            assert page.eval_on_selector(dialog, "(d) => d.scrollTop") == 0, item
            heading = page.locator(f"{dialog} h2")
            box, view = heading.bounding_box(), page.viewport_size
            assert box is not None and view is not None and 0 <= box["y"] < view["height"], item
            page.keyboard.press("Escape")
            expect(page.locator(dialog)).to_be_hidden()
            expect(page.locator("#menu-button")).to_be_focused()
    finally:
        p.close()


def table_has_keyboard(page: Page) -> bool:
    return bool(page.evaluate(TABLE_HAS_KEYBOARD))


def test_stepping_through_a_picker_with_the_arrow_keys_acts_only_on_enter_and_escape_puts_it_back(
        player: Player) -> None:
    """Chromium changes a closed select's value at each arrow press: the game picker used to start the next game at
    the first press, and the deal filter to ask about leaving the game at each. A choice now counts on Enter (or
    on leaving the picker), and Escape goes back to where the steps began."""
    page = one_move_in(player)
    assert page.locator("#game-select").is_visible()  # in the toolbar's row at this width: no click opens its list
    started = games_started(player)
    page.focus("#game-select")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#game-select") != "king-albert"
    page.keyboard.press("Escape")
    assert page.input_value("#game-select") == "king-albert"
    page.focus("#game-select")
    page.keyboard.press("ArrowDown")
    next_frames(page)
    player.settle()
    assert games_started(player) == started and player.view()["game"] == "king-albert"
    assert not page.get_by_role("alertdialog").is_visible()
    chosen = page.input_value("#game-select")
    page.keyboard.press("Enter")  # the game in progress waits, unfinished, for the player to come back to it
    expect(page.locator("#moves")).to_have_text("0")
    player.settle()
    assert player.view()["game"] == chosen and games_started(player) == started + 1


def test_the_menu_closes_when_the_keyboard_leaves_it_and_a_choice_in_it_leaves_the_keyboard_on_its_button(
        player: Player) -> None:
    """Left open after Tab, the menu covered part of the table and took the next Escape; a choice made in it hid
    the control the keyboard was on, and the keyboard was lost on the page."""
    page = player.open(KA1)
    page.click("#menu-button")
    expect(page.locator("#menu-button")).to_have_attribute("aria-expanded", "true")
    page.locator("#board [data-pile]").first.focus()
    expect(page.locator("#menu-button")).to_have_attribute("aria-expanded", "false")
    assert table_has_keyboard(page)
    page.click("#menu-button")
    page.locator("#daily-button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#menu-button")).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#menu-button")).to_be_focused()


def test_what_is_said_in_a_moment_is_said_at_once_rather_than_one_text_cutting_off_the_last(player: Player) -> None:
    """A move and the cards that then go home by themselves, a win and its streak: each text used to replace the
    one before within milliseconds, so a screen reader spoke only the last."""
    page = player.open(KA1)
    expect(page.locator("#announce")).to_contain_text("deal 1")  # the page's own first words, said
    page.evaluate("import('/static/dom.js').then((m) => { m.announce('One.'); m.announce('Two.'); })")
    expect(page.locator("#announce")).to_have_text("One. Two.")


def test_a_language_chosen_by_keyboard_reloads_the_page_with_the_keyboard_back_on_the_menu_button(
        player: Player) -> None:
    """The page reloads in the new language; the keyboard used to land on the page, where a screen reader loses its
    place."""
    page = player.open(KA1)
    page.click("#menu-button")
    page.focus("#lang-select")
    before = page.input_value("#lang-select")
    page.keyboard.press("ArrowDown")
    chosen = page.input_value("#lang-select")
    assert chosen != before  # a step, not yet a choice: no reload
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector("[data-pile]")
    expect(page.locator("#menu-button")).to_be_focused()
    assert page.input_value("#lang-select") == chosen
