"""The table on each screen, in real headless Chromium: King Albert's fans open into a phone's spare height,
Eagle Wing stands upright on a phone held upright and spreads its wings into a desktop's height, badges sit
inside their own card, corner suits keep clear of the pips, a landscape phone fits the whole table; and the
screenshots of it for the docs.
"""

from __future__ import annotations

import pytest

import tableaux
from helpers.browser import LiveServer, winning_line
from helpers.layout import EW1, LANDSCAPE, PHONE, boxes, no_sideways_scroll, phone, toolbar_rows
from helpers.page import (
    KA1,
    SCREENSHOTS,
    Browser,
    Page,
    Player,
    card,
    drag,
    expect,
    pile,
    retakes_screenshots,
    send_moves,
    settled,
    shrink_png,
)


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


CARD_WIDTH_JS = "() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cw'))"


def test_cards_that_shrink_for_a_long_column_keep_their_size_and_each_drag_after_a_move_lands(
    player: Player,
) -> None:
    """King Albert deal 17 on a desktop: the solver's line builds a column of 16 cards, for which the cards must
    shrink to show every covered corner, and then takes it down again. The cards shrink only as far as needed and
    keep that size for the rest of the game: they never grow back and shrink again, so the piles stay where the
    player's hand expects them. Each move is dragged as soon as the cards of the one before it have come to rest
    (a drag read from the table while it still moves could aim at where a pile was): every drag lands."""
    page = player.open("?game=king-albert&deal=17")
    game = tableaux.new_game("king-albert", 17)
    widths = [page.evaluate(CARD_WIDTH_JS)]
    for done, move in enumerate(tableaux.solve("king-albert", 17).moves[:62], 1):
        moving = game.position()["piles"][move.source][-move.count]["card"]
        page.wait_for_function("() => !document.querySelector('#board .sliding')")
        drag(page, card(page, moving, move.source), pile(page, move.target))
        expect(page.locator("#moves")).to_have_text(str(done))
        game.play(move)
        widths.append(page.evaluate(CARD_WIDTH_JS))
    grew = [(i, widths[i - 1], widths[i]) for i in range(1, len(widths)) if widths[i] > widths[i - 1]]
    assert not grew, f"the cards grew again after moves {grew}"
    assert widths[0] > widths[-1], "the 16-card column made the cards shrink"


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


RESERVE_TITLE_JS = """() => {
  const column = document.querySelector(".pile-column");
  const title = getComputedStyle(column, "::before");
  return { title: title.content, height: parseFloat(title.height), tray: getComputedStyle(column).backgroundColor,
           top: column.getBoundingClientRect().top,
           piles: [...column.querySelectorAll("[data-pile]")].map((p) => p.getBoundingClientRect().top) };
}"""


def test_a_landscape_phone_names_the_reserve_beside_the_columns(browser: Browser, server: LiveServer) -> None:
    """Held sideways, King Albert's reserve stands in a column right of the tableau: its name heads it, above its
    cards, on a tray of its own, so it does not read as a tenth tableau column."""
    p = phone(browser, server, LANDSCAPE)
    try:
        page = p.open(KA1)
        expect(page.locator("#board")).to_have_attribute("data-shape", "side")
        reserve = page.evaluate(RESERVE_TITLE_JS)
        assert reserve["title"] == '"Reserve"', reserve
        assert reserve["tray"] not in ("rgba(0, 0, 0, 0)", "transparent"), reserve
        assert all(top >= reserve["top"] + reserve["height"] - 0.5 for top in reserve["piles"]), reserve
    finally:
        p.close()


@retakes_screenshots
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
