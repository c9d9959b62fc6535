"""The page through an outage: a banner says what happened, the page sends the same change again by itself, and
the change is made once.

The outage is made on the wire (Playwright's routing): the server's answer to a move is replaced by what the
server answers when its database stopped answering after the commit (503, outcome unknown), or the request
never reaches the server at all. The server behind it is real: a move sent again under the same request id is
answered with what the first one stored.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.page import KA1, Player, card, expect

LOST = {"error": "The saved games database stopped answering while this change was being saved.", "cause": "database",
        "outcome": "unknown", "retry_after": 1}


def test_a_move_whose_answer_was_lost_is_sent_again_with_the_same_key_and_made_once(player: Player) -> None:
    page = player.open(KA1)
    keys: list[str | None] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server stores the move ...
            route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json",
                          body=json.dumps(LOST))  # ... and its answer is lost on the way
        else:
            route.continue_()

    page.route("**/api/games/*/moves", lose_the_first_answer)
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator(".outage")).to_be_visible()
    expect(page.locator(".outage")).to_contain_text("Your earlier moves are safe")
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator(".outage")).to_be_hidden()
    player.settle()
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    view = player.view()
    assert view["moves"] == 1 and view["version"] == 1  # stored once, never twice
    expect(page.locator("#notice")).to_be_hidden()  # nothing about "another tab": it was this one's own move


def test_a_server_out_of_reach_is_a_banner_and_the_move_goes_through_when_it_is_back(player: Player) -> None:
    page = player.open(KA1)
    tries: list[str | None] = []

    def unreachable_twice(route: Any) -> None:
        tries.append(route.request.headers.get("idempotency-key"))
        if len(tries) <= 2:
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route("**/api/games/*/moves", unreachable_twice)
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator(".outage")).to_be_visible()
    expect(page.locator(".outage")).to_contain_text("cannot be reached")
    expect(card(page, "AH", "foundation-1")).to_be_visible()
    expect(page.locator(".outage")).to_be_hidden()
    player.settle()
    assert len(tries) == 3 and len(set(tries)) == 1
    assert player.view()["moves"] == 1


def test_a_question_the_server_is_out_of_reach_for_says_so_in_the_pages_words(player: Player) -> None:
    """A hint is a question, not a change: it is not sent again, and the page says the server cannot be reached in
    its own sentence, without the browser's words for the failure ("Failed to fetch"), which are not the page's
    language and tell a player nothing more."""
    page = player.open(KA1)
    page.route("**/api/games/*/hint", lambda route: route.abort("connectionrefused"))
    page.click("#hint")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("The game server cannot be reached. Is it still running? Try again in a moment.")
    assert "fetch" not in notice.inner_text().lower()
