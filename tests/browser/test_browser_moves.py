"""Moving cards in real headless Chromium, as a person would: a mouse drag or a click and then the place, a
finger's tap or drag, the keyboard, a double click home; a drop or a press where the cards cannot go puts them
back and changes nothing. Every JSON response the page receives is checked for face-down card identities.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import tableaux
from helpers.browser import LiveServer, winning_line
from helpers.page import (
    KA1,
    SEEN_WELCOME,
    Browser,
    Page,
    Player,
    card,
    drag,
    expect,
    next_frames,
    pile,
    send_moves,
    settled,
    touch_drag,
)


def test_drag_a_card_onto_a_legal_pile_moves_it(player: Player) -> None:
    page = player.open(KA1)
    assert "T9>T8" in [str(m) for m in tableaux.new_game("king-albert", 1).legal_moves()]
    ten = card(page, "TD", "tableau-9")
    page.mouse.move(*_centre(ten))
    page.mouse.down()
    page.mouse.move(_centre(ten)[0] + 20, _centre(ten)[1] + 20, steps=3)
    # While dragging, the legal targets are highlighted and an illegal one is not.
    expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))
    expect(pile(page, "tableau-1")).not_to_have_class(re.compile(r"\btarget\b"))
    box = pile(page, "tableau-8").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 10, steps=6)
    page.mouse.up()
    expect(card(page, "TD", "tableau-8")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("1")
    expect(page.locator("#announce")).to_contain_text("10 of diamonds to tableau 8")
    # The face-down card under the ten was turned up: tableau 9 is now empty (it held one card).
    expect(pile(page, "tableau-9").locator(".card")).to_have_count(0)
    assert player.view()["position"]["piles"]["tableau-8"][-1]["card"] == "TD"


def test_a_drag_begun_before_the_last_move_is_answered_goes_on_with_the_redrawn_cards(player: Player) -> None:
    """The answer to a move redraws the table; a drag begun before it came keeps its cards under the pointer (the
    redrawn ones) and lands where it is dropped."""
    page = player.open(KA1)
    held: list[Any] = []
    page.route("**/api/games/*/moves", lambda route: route.continue_() if held else held.append(route))
    drag(page, card(page, "AH", "reserve-5"), pile(page, "foundation-1"))
    while not held:  # the first move waits for its answer
        next_frames(page)
    x, y = _centre(card(page, "TD", "tableau-9"))
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 30, y - 40, steps=4)
    expect(card(page, "TD", "tableau-9")).to_have_class(re.compile(r"\bdragging\b"))
    held[0].continue_()
    expect(page.locator("#moves")).to_have_text("1")
    page.mouse.move(x - 40, y - 50, steps=2)
    ten = card(page, "TD", "tableau-9")
    expect(ten).to_have_class(re.compile(r"\bdragging\b"))
    box = ten.bounding_box()
    assert abs(box["x"] + box["width"] / 2 - (x - 40)) < 2 and abs(box["y"] + 15 - (y - 50)) < 2, box
    target = pile(page, "tableau-8").bounding_box()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] - 10, steps=6)
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text("2")
    expect(card(page, "TD", "tableau-8")).to_be_visible()


def ten_is_back_and_nothing_was_sent(player: Player, page: Page, before: Any) -> None:
    """Deal 1's ten of diamonds lies where it was (``before``, its box), no move reached the server, none counts."""
    after = card(page, "TD", "tableau-9").bounding_box()
    assert abs(after["x"] - before["x"]) < 1 and abs(after["y"] - before["y"]) < 1
    player.settle()
    assert not [r for r in player.requests if r.startswith("POST")], player.requests
    expect(page.locator("#moves")).to_have_text("0")
    assert player.view()["moves"] == 0


def _centre(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + 15


def test_drop_on_an_illegal_pile_snaps_back_changes_nothing_and_says_the_rule_that_refuses_it(player: Player) -> None:
    page = player.open(KA1)
    ten = card(page, "TD", "tableau-9")
    before = ten.bounding_box()
    player.requests.clear()
    drag(page, ten, pile(page, "tableau-1"))  # TD on TS: same rank, not allowed
    expect(card(page, "TD", "tableau-9")).to_be_visible()
    # Why, on the page as well as to a screen reader, in the engine's words: a player who sees no reason tries again.
    said = ("That cannot go to tableau 1. The 10 of diamonds cannot go onto the 10 of spades: a tableau pile takes a "
            "card one rank lower and of the other colour.")
    expect(page.locator("#notice")).to_have_text(said)
    expect(page.locator("#announce")).to_have_text(said)
    settled(page)  # the snap-back slide is over
    ten_is_back_and_nothing_was_sent(player, page, before)


def test_escape_during_a_drag_puts_the_cards_back_and_changes_nothing(player: Player) -> None:
    page = player.open(KA1)
    ten = card(page, "TD", "tableau-9")
    before = ten.bounding_box()
    player.settle()
    player.requests.clear()
    page.mouse.move(*_centre(ten))
    page.mouse.down()
    jack = pile(page, "tableau-8").bounding_box()
    page.mouse.move(jack["x"] + jack["width"] / 2, jack["y"] + jack["height"] - 10, steps=8)
    expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\bover\b"))  # let go here, and the ten goes there
    page.keyboard.press("Escape")
    expect(page.locator(".dragging, .selected, .pile.over, .pile.target")).to_have_count(0)
    expect(page.locator("#announce")).to_have_text("Put back.")
    page.mouse.up()  # over the jack still: the drag was cancelled, so this is no drop
    settled(page)  # the ten has slid home
    ten_is_back_and_nothing_was_sent(player, page, before)


def test_click_a_card_then_its_destination(player: Player) -> None:
    page = player.open(KA1)
    card(page, "TH", "reserve-3").click()
    expect(card(page, "TH")).to_have_class(re.compile(r"\bselected\b"))
    expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))
    pile(page, "tableau-8").click()
    expect(card(page, "TH", "tableau-8")).to_be_visible()
    expect(pile(page, "reserve-3").locator(".card")).to_have_count(0)
    expect(page.locator("#moves")).to_have_text("1")


def test_a_click_or_enter_on_an_empty_pile_with_nothing_picked_up_does_nothing(player: Player) -> None:
    page = player.open(KA1)
    pile(page, "foundation-4").click()  # empty at the start of every deal
    pile(page, "foundation-3").focus()
    page.keyboard.press("Enter")
    card(page, "7C", "reserve-4").click()  # the seven of clubs leaves its reserve cell empty
    pile(page, "tableau-7").click()
    expect(card(page, "7C", "tableau-7")).to_be_visible()
    pile(page, "reserve-4").click()
    player.settle(page)
    expect(page.locator("#notice")).not_to_contain_text("went wrong")
    expect(page.locator("#moves")).to_have_text("1")
    assert not page.locator(".selected").count()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_moves_slide_briefly_unless_reduced_motion_is_asked_for(
    browser: Browser, server: LiveServer, motion: str
) -> None:
    p = Player(browser, server.url, reduced_motion=motion)
    try:
        page = p.open(KA1)
        page.evaluate(
            """() => { window.slid = 0; new MutationObserver((changes) => {
                for (const c of changes) if (c.target.classList.contains('sliding')) window.slid++;
            }).observe(document.getElementById('board'), {subtree: true, attributeFilter: ['class']}); }"""
        )
        card(page, "TH", "reserve-3").click()
        pile(page, "tableau-8").click()
        expect(card(page, "TH", "tableau-8")).to_be_visible()
        next_frames(page)  # a slide starts in the frame after the redraw
        slid = page.evaluate("window.slid")
        assert (slid == 0) if motion == "reduce" else (slid > 0)
    finally:
        p.close()


FOCUSED_PILE = "document.activeElement.closest('[data-pile]')?.dataset.pile"


def test_the_first_arrow_comes_onto_the_first_pile_and_up_keeps_to_the_column(player: Player) -> None:
    """With nothing on the table focused, the first arrow puts the keyboard on the first pile (not the second);
    Up from a column goes to the pile above it in the same column, where there is one, rather than to a nearer
    pile aside (Eagle Wing's wings step down beside each other)."""
    page = player.open(KA1)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_PILE) == "foundation-1"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_PILE) == "foundation-2"
    page = player.open("?game=eagle-wing&deal=1")
    for wing, above in [("tableau-1", "stock"), ("tableau-2", "waste"), ("tableau-6", "foundation-2")]:
        pile(page, wing).focus()
        for _ in range(20):
            page.keyboard.press("ArrowUp")
            if page.evaluate(FOCUSED_PILE) != wing:
                break
        assert page.evaluate(FOCUSED_PILE) == above, wing
        page.keyboard.press("ArrowDown")
        assert page.evaluate(FOCUSED_PILE) == wing


def test_keyboard_only_move_and_undo_redo_shortcuts(player: Player) -> None:
    page = player.open(KA1)
    pile(page, "reserve-4").focus()
    page.keyboard.press("Enter")  # pick up the seven of clubs
    expect(card(page, "7C")).to_have_class(re.compile(r"\bselected\b"))
    for _ in range(25):
        focused = page.evaluate("document.activeElement.closest('[data-pile]')?.dataset.pile")
        if focused == "tableau-7":
            break
        page.keyboard.press("ArrowRight")
    else:
        pytest.fail("ArrowRight never reached tableau 7")
    page.keyboard.press("Space")  # put it down on the eight of hearts
    expect(card(page, "7C", "tableau-7")).to_be_visible()
    expect(page.locator("#announce")).to_contain_text("7 of clubs to tableau 7")
    page.keyboard.press("u")
    expect(card(page, "7C", "reserve-4")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("0")
    page.keyboard.press("Control+y")
    expect(card(page, "7C", "tableau-7")).to_be_visible()
    page.keyboard.press("Control+z")
    expect(card(page, "7C", "reserve-4")).to_be_visible()
    page.keyboard.press("n")  # a new random deal of the same game, once the player says to leave this one
    expect(page.get_by_role("alertdialog")).to_have_accessible_name("Start a new game?")
    page.keyboard.press("Tab")  # from Keep playing, where the question opens, to New game
    page.keyboard.press("Enter")
    expect(page.locator("#deal-number")).not_to_have_text("1")
    expect(page).to_have_url(re.compile(r"\?game=king-albert&deal=\d+$"))
    expect(page.locator("#moves")).to_have_text("0")


def test_a_click_no_pointer_made_plays_as_enter_for_screen_readers_and_voice_control(player: Player) -> None:
    """A screen reader in browse mode, voice control and switch devices click an element without a pointer (the
    click's detail is 0): it picks up the card and puts it down as Enter does, once, and the keyboard follows it."""
    page = player.open(KA1)
    card(page, "7C", "reserve-4").evaluate("node => node.click()")
    expect(card(page, "7C")).to_have_class(re.compile(r"\bselected\b"))
    card(page, "8H", "tableau-7").evaluate("node => node.click()")
    expect(card(page, "7C", "tableau-7")).to_be_visible()
    expect(page.locator("#moves")).to_have_text("1")
    assert page.evaluate("document.activeElement.closest('[data-pile]')?.dataset.pile") == "tableau-7"
    assert player.view()["position"]["piles"]["tableau-7"][-1]["card"] == "7C"


def test_a_tap_on_a_card_that_cannot_take_the_picked_up_card_says_why_or_what_was_picked_up_instead(
    player: Player,
) -> None:
    """Deal 5: the eight of spades picked up, then a tap on the five of diamonds, which has no move of its own:
    the tap meant to put the eight there, and the page says why it cannot go (as a drop there would)."""
    page = player.open("?game=king-albert&deal=5")
    card(page, "8S", "reserve-2").click()
    expect(card(page, "8S")).to_have_class(re.compile(r"\bselected\b"))
    card(page, "5D", "tableau-3").click()
    expect(page.locator("#notice")).to_contain_text("That cannot go to tableau 3.")
    expect(page.locator("#notice")).to_contain_text("8 of spades")
    expect(page.locator(".card.selected")).to_have_count(0)
    # A card with a move of its own is picked up instead (the player changed their mind), and the page says so: a
    # tap meant to put the eight there must not seem to have done nothing.
    card(page, "8S", "reserve-2").click()
    card(page, "7S", "tableau-1").click()  # the seven of spades can go onto the eight of diamonds
    expect(card(page, "7S")).to_have_class(re.compile(r"\bselected\b"))
    expect(card(page, "8S")).not_to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#notice")).to_have_text("7 of spades picked up instead of 8 of spades.")


def test_a_tap_on_a_card_with_no_move_says_so_on_the_page(player: Player) -> None:
    page = player.open("?game=king-albert&deal=5")
    card(page, "TD", "tableau-5").click()  # deal 5's ten of diamonds has nowhere to go
    expect(page.locator("#notice")).to_contain_text("10 of diamonds has no move now.")
    expect(page.locator(".card.selected")).to_have_count(0)


def test_a_double_click_on_a_card_that_cannot_go_home_says_so_on_the_page(player: Player) -> None:
    page = player.open(KA1)
    card(page, "TD", "tableau-9").dblclick()  # deal 1's ten of diamonds: no foundation takes it
    expect(page.locator("#notice")).to_be_visible()
    expect(page.locator("#notice")).to_contain_text("can go to a foundation now")
    expect(page.locator("#moves")).to_have_text("0")


def test_undo_pressed_more_often_than_there_are_moves_takes_each_back_once_and_reports_no_error(player: Player) -> None:
    """Keys pressed faster than the server answers wait in line; an undo that comes to its turn with nothing left
    to take back is dropped, not sent to be refused (a raw refusal under the table, in English whatever the page's
    language)."""
    page = player.open(KA1)
    drag(page, card(page, "TD", "tableau-9"), pile(page, "tableau-8"))
    card(page, "AH").dblclick()
    expect(page.locator("#moves")).to_have_text("2")
    held: list[Any] = []
    released: list[bool] = []
    page.route("**/api/games/*/undo", lambda route: route.continue_() if released else held.append(route))
    for _ in range(5):
        page.keyboard.press("u")  # every press finds the view of two moves: each one queues an undo
    while not held:  # the first undo waits for its answer, the other four for it
        next_frames(page)
    released.append(True)
    held[0].continue_()
    expect(card(page, "TD", "tableau-9")).to_be_visible()
    expect(page.locator("#undo")).to_be_disabled()
    player.settle()
    assert len([r for r in player.requests if r.startswith("POST") and r.endswith("/undo")]) == 2, player.requests
    expect(page.locator("#notice")).to_be_hidden()
    assert player.view()["position"]["moves_played"] == 0


def test_double_click_sends_a_card_home(player: Player) -> None:
    page = player.open(KA1)
    card(page, "AH", "reserve-5").dblclick()
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator("#score")).to_have_text("1")


def first_group_move(name: str, deal: int) -> tuple[tableaux.Game, tableaux.Move]:
    """Along a winning line, the first position where a move of several cards is legal, and that move.

    King Albert: a build between columns; Eagle Wing: several wing cards to a foundation at once.
    """
    game = tableaux.new_game(name, deal)
    for move in winning_line(name, deal):
        group = [m for m in game.legal_moves() if m.count >= 2 and not m.source.startswith(("waste", "stock"))]
        if group:
            return game, max(group, key=lambda m: m.count)
        game.play(move)
    raise AssertionError(f"no move of several cards on the winning line of {name} deal {deal}")


@pytest.mark.parametrize("name, deal", [("king-albert", 9), ("eagle-wing", 5)])
def test_grabbing_a_deeper_card_moves_it_with_the_cards_on_top(player: Player, name: str, deal: int) -> None:
    game, big = first_group_move(name, deal)
    cards = [c["card"] for c in game.position()["piles"][big.source]]
    moving = cards[-big.count :]
    page = player.open(f"?game={name}&deal={deal}")
    send_moves(page, game.moves_played)
    page.reload()
    grabbed = card(page, moving[0], big.source)
    page.mouse.move(*_centre(grabbed))
    page.mouse.down()
    page.mouse.move(_centre(grabbed)[0] + 15, _centre(grabbed)[1] + 15, steps=3)
    expect(pile(page, big.target)).to_have_class(re.compile(r"\btarget\b"))
    if name == "eagle-wing":  # a group can only go home: no wing pile lights up
        expect(page.locator('.pile.target[data-pile^="tableau"]')).to_have_count(0)
    box = pile(page, big.target).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=6)
    page.mouse.up()
    expect(page.locator("#moves")).to_have_text(str(len(game.moves_played) + 1))
    game.play(big)  # the engine says where everything is now (Eagle Wing refills an emptied wing pile)
    expected = game.public_position()["piles"]
    for pile_name in (big.source, big.target):
        shown = [c["card"] for c in player.view()["position"]["piles"][pile_name]]
        assert shown == [c["card"] for c in expected[pile_name]]
    expect(pile(page, big.source).locator(".card")).to_have_count(len(expected[big.source]))  # a fanned pile
    if name == "eagle-wing":
        expect(page.locator("#score")).to_have_text(str(game.score))


def test_touch_taps_and_finger_drags_move_cards(browser: Browser, server: LiveServer) -> None:
    p = Player(browser, server.url, {"width": 390, "height": 844})
    p.context.close()
    p.context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    p.context.add_init_script(SEEN_WELCOME)
    try:
        page = p.open(KA1, p.new_page())
        card(page, "TH", "reserve-3").tap()
        expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))
        pile(page, "tableau-8").tap()
        expect(card(page, "TH", "tableau-8")).to_be_visible()
        # Finger drags: the ten of diamonds does not fit on the ten of hearts and comes back; the ace goes home.
        touch_drag(page, card(page, "TD", "tableau-9"), pile(page, "tableau-8"))
        expect(card(page, "TD", "tableau-9")).to_be_visible()  # TD does not fit on TH: it snaps back
        touch_drag(page, card(page, "AH", "reserve-5"), pile(page, "foundation-1"))
        expect(card(page, "AH", "foundation-1")).to_be_visible()
        expect(page.locator("#time")).not_to_have_text("0:00")  # the clock ticks
    finally:
        p.close()

