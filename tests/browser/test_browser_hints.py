"""Hints in plain words, in real Chromium: one short sentence first, with the cards named; where it comes from,
the reason and the figures behind a "Why?" disclosure; and at the start of a graded deal, one line that says why
"Winnable" and a chance below 100% are both true."""

from __future__ import annotations

import re
from typing import Any

import pytest

import tableaux
from helpers.page import PHONE, SLOW, Browser, Page, Player, axe_violations, expect, menu_click, set_setting
from tableaux import catalogue
from tableaux.advice.hints import heuristic_hint, move_sentence


def ask_for_a_hint(page: Page) -> dict[str, Any]:
    with page.expect_response(re.compile(r"/hint$"), timeout=SLOW) as answer:
        page.click("#hint")
    return answer.value.json()["hint"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_hint_says_what_to_do_in_one_sentence_and_why_on_request(browser: Browser, server: Any, size: str) -> None:
    p = Player(browser, server.url, **(PHONE if size == "phone" else {}))
    try:
        page = p.open("?game=king-albert&deal=1")
        hint = ask_for_a_hint(page)
        move = tableaux.Move(hint["move"]["source"], hint["move"]["count"], hint["move"]["target"])
        sentence = move_sentence(tableaux.new_game("king-albert", 1), move)
        notice = page.locator("#notice")
        expect(notice).to_contain_text(f"Hint: {sentence}")
        assert notice.inner_text().startswith(f"Hint: {sentence}")
        reason = notice.locator("details.why p")
        expect(reason).to_be_hidden()  # the reason waits behind "Why?"
        expect(notice.locator("summary")).to_have_text("Why?")
        notice.locator("summary").click()
        expect(reason).to_be_visible()
        expect(reason).to_contain_text(re.compile(r"^From the (solver|heuristic)"))
        assert not reason.inner_text().startswith(f"From the solver: Play {hint['move']['text']}")  # said once, above
        expect(notice).to_be_visible()  # opening "Why?" does not put the notice away
        box = notice.bounding_box()
        width = page.viewport_size["width"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert not axe_violations(page)
        notice.locator("summary").click()
        expect(reason).to_be_hidden()
        notice.click(position={"x": 4, "y": 4})  # a click elsewhere on it puts it away
        expect(notice).to_be_hidden()
    finally:
        p.close()


def test_why_opens_from_the_keyboard(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=3")
    ask_for_a_hint(page)
    summary = page.locator("#notice summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#notice details.why p")).to_be_visible()


def test_a_graded_deal_says_why_winnable_and_its_chance_are_both_true(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)  # the solver is free again
    menu_click(page, "#deal-kind")
    page.select_option("#deal-kind", "hard")
    expect(page.locator("#grade")).to_have_text(re.compile(r"^Winnable · Hard( · Par \d+)?$"))
    expect(page.locator("#grade-stat")).to_have_attribute("title", re.compile(r"^Winnable: the solver, seeing every"))
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    page.click("#chance-stat")
    info = page.locator("#chance-info")
    expect(info).to_be_visible()
    share = page.locator("#chance").inner_text()
    expect(info.locator("p").nth(1)).to_have_text(
        f"Winnable: the solver, seeing every card, has won this deal. {share} is the share of the ways the cards "
        "you have not seen could lie that can still be won.")
    page.keyboard.press("Escape")


def test_an_ungraded_deal_has_no_such_line(player: Player) -> None:
    outside = max(e.deal for e in catalogue.load("king-albert").entries) + 1  # a deal the catalogue has not graded
    page = player.open(f"?game=king-albert&deal={outside}")
    expect(page.locator("#grade-stat")).to_be_hidden()
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    page.click("#chance-stat")
    expect(page.locator("#chance-info")).to_be_visible()
    expect(page.locator("#chance-info")).not_to_contain_text("Winnable:")
    assert page.locator("#grade-stat").get_attribute("title") is None


def test_why_never_names_the_move_in_notation_which_the_hint_names_with_its_cards(player: Player) -> None:
    """The server's message names the move in notation (pile labels are hidden by default); the hint's own
    sentence names its cards, so "Why?" keeps only the reason: what follows "Play R5>T1:", and none of a sentence
    such as "You can still play R5>T1." or "Try R5>T1 (a rule of thumb, not a proof).\""""
    page = player.open("?game=king-albert&deal=1")
    game = tableaux.new_game("king-albert", 1)
    heuristic = heuristic_hint(game)
    assert heuristic.move is not None
    name = str(heuristic.move)  # the notation, as the API's move.text gives it
    lost = f"None of 32 possible layouts of the hidden cards can be won from here. You can still play {name}."
    cases = {
        heuristic.message: "",
        lost: "None of 32 possible layouts of the hidden cards can be won from here.",
        f"Play {name}: after it, a solver that sees every card wins 3 of 32 possible layouts of the hidden cards.":
            "after it, a solver that sees every card wins 3 of 32 possible layouts of the hidden cards.",
    }
    for message, reason in cases.items():
        got = page.evaluate("""([message, text]) => import('/static/actions.js')
            .then((m) => m.hintReason({ message, move: { text } }))""", [message, name])
        assert got == reason
        assert name not in got


NOTATION = re.compile(r"\b[A-Z]\d*(:\d+)?>[A-Z]\d*\b")
"""A move in notation (R5>F1, T3:2>T6, S>W), which a player who hides the pile labels has no key to."""


def why_text(page: Page) -> str:
    notice = page.locator("#notice")
    notice.locator("summary").click()
    reason = notice.locator("details.why p")
    expect(reason).to_be_visible()
    return reason.inner_text()


def test_with_the_pile_labels_hidden_why_names_the_moves_of_the_plan_by_their_cards(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    hint = ask_for_a_hint(page)
    assert "turns a hidden card: " in hint["message"]  # a plan of several moves, listed in notation
    why = why_text(page)
    assert not NOTATION.search(why), why
    first = tableaux.Move(hint["move"]["source"], hint["move"]["count"], hint["move"]["target"])
    assert move_sentence(tableaux.new_game("king-albert", 1), first) in why  # the plan starts with the hint's move
    assert why.startswith("From the solver: after it, a solver that sees every card wins ")

    set_setting(page, "pileLabels", "on")
    ask_for_a_hint(page)
    expect(page.locator("#notice")).to_contain_text(f"({hint['move']['text']})")
    assert NOTATION.search(why_text(page))  # beside the labels, the plan keeps its notation


def test_a_lost_deal_says_once_that_it_cannot_be_won_and_not_that_it_no_longer_can(player: Player) -> None:
    page = player.open("?game=king-albert&deal=4")  # lost from the deal (see the solver tests)
    set_setting(page, "hintMode", "peek")
    hint = ask_for_a_hint(page)
    assert hint["unwinnable"]
    why = why_text(page)
    assert why.startswith("This position cannot be won: the solver searched every line from here."), why
    assert why.count("be won") == 1 and "no longer" not in why and "From the solver" not in why
