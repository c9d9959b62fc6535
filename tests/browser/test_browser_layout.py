"""Phones, tablets and comfort, in real headless Chromium: the table uses the screen in portrait and
landscape, the toolbar stays one row on a phone, a finger can scroll without moving cards, and the
settings (dark table, four-colour deck, card and text size) are remembered and keep text readable.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import tableaux
from helpers.browser import LiveServer, winning_line
from helpers.page import (
    SCREENSHOTS,
    Browser,
    Page,
    Player,
    card,
    contrast,
    expect,
    menu_click,
    next_frames,
    open_menu,
    pile,
    send_moves,
    set_setting,
    settled,
    shrink_png,
)
from tableaux import i18n

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
KA1 = "?game=king-albert&deal=1"
EW1 = "?game=eagle-wing&deal=1"
AA = 4.5  # WCAG AA contrast for normal-size text


def phone(browser: Browser, server: LiveServer, viewport: dict[str, int] = PHONE, **options: Any) -> Player:
    """A player on a touch screen of the given size."""
    return Player(browser, server.url, viewport, has_touch=True, is_mobile=True, **options)


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return page.eval_on_selector_all(
        selector, "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; })"
    )


def toolbar_rows(page: Page) -> int:
    """How many rows the toolbar's visible controls take (with the menu closed)."""
    tops = page.eval_on_selector_all(
        "#toolbar button, #toolbar select, #toolbar input, #toolbar label",
        "nodes => nodes.filter(n => n.checkVisibility()).map(n => Math.round(n.getBoundingClientRect().top))",
    )
    assert tops and page.get_attribute("#menu-button", "aria-expanded") == "false"
    rows: list[int] = []
    for top in sorted(tops):
        if not rows or top - rows[-1] > 8:
            rows.append(top)
    return len(rows)


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# ---------------------------------------------------------------- phones and tablets
def test_phone_portrait_king_albert_columns_span_the_width_and_the_toolbar_is_one_row(
    browser: Browser, server: LiveServer
) -> None:
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        columns = boxes(page, '[data-pile^="tableau-"]')
        span = columns[-1]["right"] - columns[0]["left"]
        assert span >= 0.9 * PHONE["width"], f"the nine columns span {span:.0f} px of {PHONE['width']}"
        width = columns[0]["width"]
        assert width >= 38, f"cards are {width:.1f} px wide"
        assert toolbar_rows(page) == 1
        assert page.locator("#toolbar").bounding_box()["height"] <= 52
        assert no_sideways_scroll(page)
        # What is not in the row is in the menu, and works from there.
        expect(page.locator("#restart")).to_be_hidden()
        open_menu(page)
        for control in ("#game-select", "#deal-input", "#restart", "#auto-home", "#rules-button", "#settings-button"):
            expect(page.locator(control)).to_be_visible()
        page.fill("#deal-input", "77")
        page.press("#deal-input", "Enter")
        expect(page.locator("#deal-number")).to_have_text("77")
        expect(page.locator("#menu-panel")).to_be_hidden()  # it closes once used
        open_menu(page)
        page.click("#rules-button")
        expect(page.locator("#rules-dialog")).to_be_visible()
    finally:
        p.close()


def fan_steps(page: Page) -> list[float]:
    """Every step from a face-up card to the next one in a tableau fan, as a share of the card's height."""
    return page.eval_on_selector_all(
        '[data-pile^="tableau-"]',
        """piles => piles.flatMap(pile => {
            const cards = [...pile.querySelectorAll('.card')].map(c => [c.classList.contains('down'),
                c.getBoundingClientRect()]);
            return cards.slice(1).flatMap(([, box], i) => cards[i][0] ? [] :
                [(box.top - cards[i][1].top) / cards[i][1].height]);
        })""",
    )


def test_phone_portrait_king_albert_fans_open_into_the_spare_height_and_still_fit(
    browser: Browser, server: LiveServer
) -> None:
    """Nine columns make the cards narrow on a phone held upright, which leaves most of the height free:
    the fans open up into it, so each face-up card shows a strip a finger can press, and every fan still
    ends on the screen. Held sideways, the foundations and the reserve move beside the columns, which then
    have the whole height: the fans still end on the screen."""
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        send_moves(page, winning_line("king-albert", 1)[:40])  # long face-up fans
        page.reload()
        page.wait_for_selector("[data-pile]")
        steps = fan_steps(page)
        assert len(steps) >= 10
        assert min(steps) >= 0.4, f"face-up strips of {min(steps):.2f} card heights"
        strip = min(steps) * boxes(page, '[data-pile^="tableau-"] .card')[0]["width"] * 1.4
        assert strip >= 24, f"a face-up card shows a strip of {strip:.0f} px"
        assert max(b["bottom"] for b in boxes(page, '[data-pile^="tableau-"]')) <= PHONE["height"]
        page.set_viewport_size(LANDSCAPE)
        expect(page.locator("#board")).to_have_attribute("data-shape", "side")
        assert max(b["bottom"] for b in boxes(page, '[data-pile^="tableau-"]')) <= LANDSCAPE["height"]
        assert min(fan_steps(page)) >= 0.23  # each covered card's corner shows
    finally:
        p.close()


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_desktop_toolbar_is_one_row_with_no_text_cut_short_in_every_language(
    browser: Browser, server: LiveServer, language: str
) -> None:
    p = Player(browser, server.url, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        cut = page.eval_on_selector_all(
            "#toolbar button, #toolbar select, #toolbar label",
            "nodes => nodes.filter(n => n.checkVisibility() && n.scrollWidth > n.clientWidth + 1).map(n => n.id)",
        )
        assert not cut, f"text cut short in {cut}"
        # What does not fit in the row is in the menu, and works from there.
        if not page.locator("#game-select").is_visible():
            open_menu(page)
        expect(page.locator("#game-select")).to_be_visible()
        menu_click(page, "#settings-button")
        expect(page.locator("#settings-dialog")).to_be_visible()
    finally:
        p.close()


@pytest.mark.parametrize("language", i18n.languages())
def test_no_phone_toolbar_label_is_cut_short_in_any_language(
    browser: Browser, server: LiveServer, language: str
) -> None:
    p = phone(browser, server, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        labels = page.eval_on_selector_all(
            "#toolbar > button",
            "nodes => nodes.filter(n => n.checkVisibility()).map(n => ({id: n.id, text: n.textContent.trim(),"
            " cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1,"
            " size: parseFloat(getComputedStyle(n).fontSize), ellipsis: getComputedStyle(n).textOverflow}))",
        )
        assert [label["id"] for label in labels] == ["new-game", "undo", "redo", "hint", "menu-button"]
        for label in labels:
            assert label["text"], f"{label['id']} has no text"
            assert not label["cut"], f"{language}: {label['text']!r} is cut short"
            assert label["ellipsis"] != "ellipsis"
            if label["id"] != "menu-button":  # the menu button shows its icon; its text is its accessible name
                assert label["size"] >= 10, f"{language}: {label['text']!r} shrank to {label['size']} px"
        assert page.locator("#toolbar").bounding_box()["height"] <= 52
    finally:
        p.close()


def test_phone_portrait_eagle_wing_stands_upright_and_uses_the_height(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open(EW1)
        expect(page.locator("#board")).to_have_attribute("data-shape", "tall")
        piles = boxes(page, "[data-pile]")
        assert all(b["left"] >= 0 and b["right"] <= PHONE["width"] for b in piles)
        width = piles[0]["width"]
        # Four columns instead of nine: cards more than twice as wide as King Albert's, four rows of them
        # filling the height, and the whole table, full wings included, on the screen.
        assert width >= 85, f"cards are {width:.1f} px wide"
        height = 1.4 * width
        bottom = max(b["bottom"] for b in piles)
        assert bottom >= 4 * height, f"the table ends at {bottom:.0f} px: fewer than four rows of cards"
        assert bottom + 0.54 * height <= PHONE["height"], "a full wing of three cards would run off the screen"
        assert bottom + 0.54 * height >= 0.8 * PHONE["height"], "the table leaves a fifth of the height unused"
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        # Between the two rows of wings: the stock, the waste and the trunk, left to right, and no more room
        # above them than a full wing of three cards needs.
        trunk, waste, stock = (pile(page, n).bounding_box() for n in ("reserve", "waste", "stock"))
        assert abs(trunk["y"] - waste["y"]) < 1 and abs(waste["y"] - stock["y"]) < 1
        assert stock["x"] < waste["x"] < trunk["x"]
        wing = pile(page, "tableau-1").bounding_box()
        lower_wing = pile(page, "tableau-5").bounding_box()
        assert wing["y"] < stock["y"] < lower_wing["y"]
        assert stock["y"] - wing["y"] <= 1.54 * height + 20, "more room under the upper wings than a fan needs"
        # Turned to landscape, the same game goes back to one row of nine piles.
        page.set_viewport_size(LANDSCAPE)
        expect(page.locator("#board")).to_have_attribute("data-shape", "wide")
        wings = boxes(page, '[data-pile^="tableau-"], [data-pile="reserve"]')
        assert len({round(b["top"]) for b in wings}) == 1
    finally:
        p.close()


def test_desktop_eagle_wing_spreads_its_wings_into_the_height_of_the_window(player: Player) -> None:
    """Nine columns make the cards as wide as a desktop allows long before its height is used: the wings step
    down either side of the trunk, like an eagle's, so that the table, full wings included, fills the window."""
    page = player.open(EW1)
    expect(page.locator("#board")).to_have_attribute("data-shape", "wide")
    wings = [pile(page, f"tableau-{i}").bounding_box() for i in range(1, 9)]
    trunk = pile(page, "reserve").bounding_box()
    height = 1.4 * trunk["width"]
    tops = [round(w["y"]) for w in wings]
    assert tops[0] > tops[1] > tops[2] > tops[3] == round(trunk["y"]) == tops[4] < tops[5] < tops[6] < tops[7], tops
    bottom = max(w["y"] for w in wings) + height * (1 + 2 * 0.34)  # the lowest wing with three cards
    window = page.viewport_size["height"]
    assert bottom <= window, "a full outer wing would run off the window"
    assert bottom >= 0.9 * window, f"the table ends at {bottom:.0f} px of {window}"
    send_moves(page, fullest_wings("eagle-wing", 1))  # wings grow: each stays on the screen
    page.reload()
    page.wait_for_selector("[data-pile]")
    assert max(b["bottom"] for b in boxes(page, "[data-pile] .card")) <= window


def fullest_wings(name: str, deal: int) -> list[tableaux.Move]:
    """The moves of the solver's winning line up to the first position where the most wing cards lie out."""
    game = tableaux.new_game(name, deal)
    rules = game.rules
    line = tableaux.solve(name, deal).moves
    best, most = 0, 0
    for i, move in enumerate(line, 1):
        game.play(move)
        held = sum(len(game.state.piles[rules.index[f"tableau-{w}"]]) for w in range(1, 9))
        if held > most:
            best, most = i, held
    assert most > 8  # some wing holds more than its first card
    return line[:best]


BADGES = ".badge"
BADGES_JS = """badges => badges.map(b => {
    const r = b.getBoundingClientRect(), pile = b.closest('[data-pile]'), p = pile.getBoundingClientRect();
    const meets = (o) => r.left < o.right + 2 && r.right > o.left - 2 && r.top < o.bottom + 2 && r.bottom > o.top - 2;
    const others = [...document.querySelectorAll('[data-pile]')].filter(o => o !== pile)
        .map(o => o.getBoundingClientRect()).filter(meets);
    const inside = r.left >= p.left && r.right <= p.right && r.top >= p.top && r.bottom <= p.bottom;
    return {text: b.textContent, pile: pile.dataset.pile, inside, left: r.left, right: r.right, near: others.length};
})"""


def test_phone_eagle_wing_badges_sit_inside_their_own_card(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open(EW1)
        expect(page.locator("#board")).to_have_attribute("data-shape", "tall")
        found = page.eval_on_selector_all(BADGES, BADGES_JS)
        assert {(b["pile"], b["text"]) for b in found} == {("stock", "30"), ("stock", "↻2"), ("reserve", "13")}
        for b in found:
            assert b["inside"], f"the {b['text']} badge leaves the {b['pile']}"
            assert b["left"] >= 4 and b["right"] <= PHONE["width"] - 4, f"the {b['text']} badge touches the edge"
            assert b["near"] == 0, f"the {b['text']} badge touches another pile"
    finally:
        p.close()


def status_rows(page: Page) -> int:
    """How many lines the status line's visible items take."""
    tops = page.eval_on_selector_all(
        "#status .stat", "nodes => nodes.filter(n => n.checkVisibility() && n.getBoundingClientRect().width > 1)"
        ".map(n => Math.round(n.getBoundingClientRect().top))")
    return len(set(tops))


@pytest.mark.parametrize("language", i18n.languages())
def test_phone_eagle_wing_status_line_takes_two_lines_at_most(
    browser: Browser, server: LiveServer, language: str
) -> None:
    """What the table shows too (the stock's and the trunk's counts, the redeals, the base card) is left to the
    table on a phone; screen readers still hear it from the status line."""
    p = phone(browser, server, extra_http_headers={"Accept-Language": language})
    try:
        page = p.open(EW1)
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
        assert status_rows(page) <= 2, page.locator("#status").inner_text()
        expect(page.locator("#redeals-left")).to_have_text("2")  # still read out
        expect(pile(page, "stock").locator(".badge.redeals")).to_have_text("↻2")
    finally:
        p.close()


def test_desktop_eagle_wing_status_names_the_trunk_as_hints_and_rules_do(player: Player) -> None:
    page = player.open(EW1)
    trunk = page.locator(".stat", has=page.locator("#reserve-left"))
    expect(trunk).to_have_text("Trunk left 13")
    assert "Reserve" not in page.locator("#status").inner_text()
    expect(pile(page, "reserve")).to_have_attribute("aria-label", re.compile(r"^The trunk, 13 cards"))


def test_the_solutions_controls_stay_in_one_row_on_a_phone(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open("?game=king-albert&deal=17")
        menu_click(page, '[data-action="solution"]')
        expect(page.locator("#solution-bar")).to_be_visible(timeout=60_000)
        page.click("#solution-pause")
        controls = boxes(page, "#solution-pause, #solution-step, #solution-speed, #solution-stop")
        assert len({round(c["top"]) for c in controls}) == 1, controls
        bar = page.locator("#solution-bar").bounding_box()
        assert bar["x"] >= 0 and bar["x"] + bar["width"] <= PHONE["width"]
        note = page.locator("#notice").bounding_box()  # the notice below it: apart, not covered
        assert bar["y"] + bar["height"] + 4 <= note["y"], (bar, note)
    finally:
        p.close()


CORNERS_JS = """
async () => {
  const { cardFace } = await import('/static/cards.js');
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:0;top:0;width:200px;height:280px';
  document.body.append(box);
  const found = [];
  for (const suit of 'CDHS') for (const rank of 'A23456789TJQK') {
    const face = cardFace(rank + suit);
    face.style.cssText = 'width:200px;height:280px;display:block';
    box.replaceChildren(face);
    const rects = (selector) => [...face.querySelectorAll(selector)].map((n) => n.getBoundingClientRect());
    const corners = rects('.detail .corner path');
    const middle = rects('.detail .middle path, .detail .middle rect, .detail .middle text');
    for (const c of corners) for (const m of middle) {
      if (c.left < m.right && c.right > m.left && c.top < m.bottom && c.bottom > m.top) found.push(rank + suit);
    }
  }
  box.remove();
  return [...new Set(found)];
}
"""


def test_the_corner_suits_keep_clear_of_the_pips_and_the_court_frames(player: Player) -> None:
    """On every face, the box of each corner suit symbol meets no box of the middle: pips, frame, crown, letter."""
    page = player.open(KA1)
    assert page.evaluate(CORNERS_JS) == []


@pytest.mark.parametrize("query", [KA1, EW1])
def test_landscape_phone_fits_the_table_in_one_screen(browser: Browser, server: LiveServer, query: str) -> None:
    p = phone(browser, server, LANDSCAPE)
    try:
        page = p.open(query)
        # King Albert's foundations and reserve stand beside its columns; Eagle Wing keeps its wings.
        expect(page.locator("#board")).to_have_attribute("data-shape", "side" if "king" in query else "wide")
        assert toolbar_rows(page) == 1 and no_sideways_scroll(page)
        piles = boxes(page, "[data-pile]")
        assert all(b["left"] >= 0 and b["right"] <= LANDSCAPE["width"] for b in piles)
        assert max(b["bottom"] for b in piles) <= LANDSCAPE["height"], "the deal runs off the bottom"
        assert piles[0]["width"] >= 50, f"cards are only {piles[0]['width']:.1f} px wide"
        assert page.evaluate("document.documentElement.scrollHeight") <= LANDSCAPE["height"]
    finally:
        p.close()


def test_a_drop_anywhere_in_a_column_below_its_cards_lands_there(browser: Browser, server: LiveServer) -> None:
    p = phone(browser, server)
    try:
        page = p.open(KA1)
        target = pile(page, "tableau-8").bounding_box()
        x, y = target["x"] + target["width"] / 2, target["y"] + target["height"] + 150  # far below the jack
        finger_drag(page, card(page, "TD", "tableau-9"), x, y)
        expect(card(page, "TD", "tableau-8")).to_be_visible()
        expect(page.locator("#moves")).to_have_text("1")
    finally:
        p.close()


def finger_drag(page: Page, source: Any, x1: float, y1: float, steps: int = 8, y_in: float = 8) -> None:
    """A finger pressed `y_in` px into `source`, moved to (x1, y1) in `steps` steps a frame apart, lifted."""
    cdp = page.context.new_cdp_session(page)
    a = source.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + y_in
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        next_frames(page, 1)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_wobbling_finger_taps_and_a_swipe_on_the_table_scrolls_without_moving_cards(
    browser: Browser, server: LiveServer
) -> None:
    p = phone(browser, server, LANDSCAPE)
    try:
        page = p.open(KA1)
        # Large cards make the table taller than the screen, so there is something to scroll.
        set_setting(page, "cardSize", "large")
        assert page.evaluate("document.documentElement.scrollHeight") > LANDSCAPE["height"] + 30
        # A tap whose finger drifts a few pixels is still a tap: the ten is picked up, not dragged.
        ten = card(page, "TH", "reserve-3")
        box = ten.bounding_box()
        finger_drag(page, ten, box["x"] + box["width"] / 2 + 7, box["y"] + 14, steps=3)
        expect(card(page, "TH")).to_have_class(re.compile(r"\bselected\b"))
        expect(pile(page, "tableau-8")).to_have_class(re.compile(r"\btarget\b"))
        # A swipe up that starts on tableau 1's face-down cards scrolls the page. It is not a tap on
        # tableau 1 either, which would drop the ten the player holds ("that cannot go there").
        p.requests.clear()
        column = pile(page, "tableau-1")
        top = column.bounding_box()
        finger_drag(page, column, top["x"] + top["width"] / 2, top["y"] - 150, steps=15, y_in=30)
        page.wait_for_function("() => window.scrollY > 20")
        p.settle()
        assert not [r for r in p.requests if r.startswith("POST")], p.requests
        expect(card(page, "TH", "reserve-3")).to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator("#moves")).to_have_text("0")
    finally:
        p.close()


# ---------------------------------------------------------------- themes and comfort
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("query", [KA1, EW1])
def test_every_text_keeps_aa_contrast(browser: Browser, server: LiveServer, scheme: str, query: str) -> None:
    """Toolbar, status line, menu, dialogs, notices and card indices, in both themes, both decks."""
    p = Player(browser, server.url, color_scheme=scheme)
    try:
        page = p.open(query)
        expect(page.locator("html")).to_have_attribute("data-scheme", scheme)
        measured = contrast(page)
        page.click("#hint")
        expect(page.locator("#notice")).to_contain_text("Hint:", timeout=60_000)  # the hint itself, not the wait
        measured += contrast(page)
        open_menu(page)
        measured += contrast(page)
        page.click("#settings-button")
        measured += contrast(page)
        page.select_option("#setting-deck", "four")
        measured += contrast(page)
        page.click("#settings-close")
        page.keyboard.press("F1")
        measured += contrast(page)
        page.keyboard.press("Escape")
        open_menu(page)
        page.click("#stats-button")
        expect(page.locator("#stats-body table")).to_be_visible()
        measured += contrast(page)
        places = {m["where"] for m in measured}
        assert {"#notice", "#game-name", "#settings-title", "#stats-title"} <= places
        assert any(w.startswith("card ") for w in places) and any(w.endswith("::placeholder") for w in places)
        low = [m for m in measured if m["ratio"] < AA]
        assert not low, low[:10]
    finally:
        p.close()


def suit_colours(page: Page) -> dict[str, str]:
    """The rendered ink of each suit's card index, from the face-up cards on the table."""
    return page.evaluate(
        """() => { const out = {}; for (const t of document.querySelectorAll('[data-card] svg text')) {
            if (!t.checkVisibility()) continue;
            out[t.closest('[data-card]').dataset.card[1]] = getComputedStyle(t).fill; } return out; }"""
    )


def test_four_colour_deck_gives_each_suit_its_own_colour(player: Player) -> None:
    page = player.open(KA1)  # deal 1 shows all four suits face up
    two = suit_colours(page)
    assert set(two) == set("CDHS")
    assert two["H"] == two["D"] != two["S"] == two["C"]
    set_setting(page, "deck", "four")
    four = suit_colours(page)
    assert len(set(four.values())) == 4, four
    assert four["H"] == two["H"] and four["S"] == two["S"]  # hearts stay red, spades black


def test_settings_are_remembered_across_a_reload(player: Player) -> None:
    page = player.open(KA1)
    width = card(page, "TD").bounding_box()["width"]
    text = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    set_setting(page, "theme", "dark")
    set_setting(page, "deck", "four")
    set_setting(page, "cardSize", "small")
    set_setting(page, "text", "large")
    for _ in range(2):  # as chosen, and again after a reload
        root = page.locator("html")
        expect(root).to_have_attribute("data-scheme", "dark")
        expect(root).to_have_attribute("data-deck", "four")
        assert card(page, "TD").bounding_box()["width"] < 0.9 * width
        assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 1.15 * text
        assert dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.reload()
        page.wait_for_selector("[data-pile]")
    open_menu(page)
    page.click("#settings-button")
    expect(page.locator("#setting-theme")).to_have_value("dark")
    expect(page.locator("#setting-cardSize")).to_have_value("small")


def dark(colour: str) -> bool:
    r, g, b = (int(v) for v in re.findall(r"\d+", colour)[:3])
    return max(r, g, b) < 60 and abs(r - g) < 20  # near black, not the green cloth


def test_the_system_colour_scheme_is_followed_until_the_player_chooses(browser: Browser, server: LiveServer) -> None:
    p = Player(browser, server.url, color_scheme="dark")
    try:
        page = p.open(KA1)
        expect(page.locator("html")).to_have_attribute("data-scheme", "dark")
        assert dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.emulate_media(color_scheme="light")  # the system switches back: so does the page, at once
        expect(page.locator("html")).to_have_attribute("data-scheme", "light")
        assert not dark(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        set_setting(page, "theme", "light")  # an explicit choice wins over the system
        page.emulate_media(color_scheme="dark")
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(page.locator("html")).to_have_attribute("data-scheme", "light")
    finally:
        p.close()


# ---------------------------------------------------------------- screenshots for the docs
@pytest.mark.parametrize("game, deal", [("king-albert", 1), ("eagle-wing", 1)])
def test_screenshots(browser: Browser, server: LiveServer, game: str, deal: int) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = [
        ("desktop", {"width": 1280, "height": 800}, "light", {}),
        ("phone", PHONE, "light", {"has_touch": True, "is_mobile": True}),
        ("phone-landscape", LANDSCAPE, "light", {"has_touch": True, "is_mobile": True}),
        ("dark", {"width": 1280, "height": 800}, "dark", {}),
        ("dark-phone", PHONE, "dark", {"has_touch": True, "is_mobile": True}),
        ("phone-fr", PHONE, "light", {"has_touch": True, "is_mobile": True, "locale": "fr-FR",
                                      "extra_http_headers": {"Accept-Language": "fr"}}),
    ]
    for label, viewport, scheme, options in shots:
        p = Player(browser, server.url, viewport, color_scheme=scheme, **options)
        try:
            page = p.open(f"?game={game}&deal={deal}")
            expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
            page.evaluate("() => document.fonts.ready")
            settled(page)
            # Every card shown face up draws a face; face-down cards carry no code.
            assert page.locator("[data-card] svg").count() == page.locator("[data-card]").count() > 0
            path = SCREENSHOTS / f"{game}-{label}.png"
            page.screenshot(path=str(path))
            shrink_png(path)
        finally:
            p.close()
