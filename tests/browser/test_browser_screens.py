"""Layouts that hold on every screen, in every language, in real headless Chromium: phones held upright (360 to
430 px wide) and sideways, and a desktop. On each, in each of the five languages: every covered card of a long
King Albert column still shows its corner, every pile and every control stays on the screen, the settings
dialog fits, the status line takes two rows at most, Eagle Wing's pile labels are never under a card, and what
floats over the table (a notice, the solution's controls, the win banner) never covers a card.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import tableaux
from helpers.browser import LiveServer, line_to_the_most, longest_column
from helpers.page import (
    KA1,
    SCREENSHOTS,
    Browser,
    Page,
    Player,
    expect,
    next_frames,
    open_menu,
    play_solution_out,
    retakes_screenshots,
    send_moves,
    set_setting,
    settled,
    show_solution,
    shrink_png,
    status_rows,
)
from tableaux import i18n

PORTRAIT_SMALL = {"width": 360, "height": 740}
PORTRAIT_LARGE = {"width": 430, "height": 932}
LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1280, "height": 800}
PHONES = {"360x740": PORTRAIT_SMALL, "430x932": PORTRAIT_LARGE, "844x390": LANDSCAPE}
SCREENS = {**PHONES, "1280x800": DESKTOP}
LONG_DEAL = 17  # King Albert deal 17: the solver's line goes through a column of 16 cards


def player(browser: Browser, server: LiveServer, viewport: dict[str, int], language: str = "en",
           **options: Any) -> Player:
    touch = {"has_touch": True, "is_mobile": True} if viewport["width"] < 900 else {}
    return Player(browser, server.url, viewport, extra_http_headers={"Accept-Language": language}, **touch, **options)


@pytest.fixture(scope="module")
def long_columns() -> list[tableaux.Move]:
    line = line_to_the_most("king-albert", LONG_DEAL, longest_column)
    game = tableaux.new_game("king-albert", LONG_DEAL)
    for move in line:
        game.play(move)
    assert longest_column(game) >= 15
    return line


# What each covered face-up card shows of itself: its rank down to the lowest point of its ink (the baseline,
# or below it a J's hook or a Q's tail: the text's box reaches down to the font's descent, which most letters
# leave empty, so the ink is measured) and the box of the suit beside it, on the face the table uses (the
# detailed one, or the large-print one of small cards and of the "Large index" face), against the top of the
# card that covers it. In a fan the next card covers it; in a column of overlapping piles, the next pile's.
COVERED_CORNERS_JS = """
() => {
  const board = document.getElementById("board");
  const compact = board.classList.contains("compact");
  const pen = document.createElement("canvas").getContext("2d");
  const corner = (card) => {
    const g = compact ? card.querySelector(".compact") : card.querySelector(".detail .corner:not([transform])");
    const face = card.querySelector("svg").getBoundingClientRect();
    const text = g.querySelector("text");
    const style = getComputedStyle(text);
    pen.font = `${style.fontWeight} ${text.getAttribute("font-size")}px ${style.fontFamily}`;
    const below = Math.max(0, pen.measureText(text.textContent).actualBoundingBoxDescent);
    const bottom = face.top + (Number(text.getAttribute("y")) + below) * face.height / 140;
    return [{ bottom }, g.querySelector("path").getBoundingClientRect()];
  };
  const runs = [...board.querySelectorAll(".pile.fan")].map((p) => [...p.querySelectorAll(".card")]);
  for (const column of board.querySelectorAll(".pile-column")) {
    runs.push([...column.querySelectorAll(".pile")].map((p) => p.querySelector(".card:last-of-type")).filter(Boolean));
  }
  const hidden = [];
  let covered = 0;
  for (const cards of runs) {
    cards.forEach((card, i) => {
      const next = cards[i + 1];
      if (!next || !card.classList.contains("up")) return;
      covered += 1;
      const top = next.getBoundingClientRect().top;
      const [rank, suit] = corner(card);
      const end = Math.max(rank.bottom, suit.bottom);
      const where = `corner to ${Math.round(end)}, covered at ${Math.round(top)}`;
      if (end > top + 0.5) hidden.push(`${card.dataset.card}: ${where}`);
    });
  }
  return { covered, hidden };
}
"""


def outside(page: Page, selector: str) -> list[str]:
    """What of ``selector`` (visible) reaches past the window's edges, described."""
    return page.eval_on_selector_all(
        selector,
        """(nodes) => nodes.filter((n) => n.checkVisibility()).flatMap((n) => {
            const r = n.getBoundingClientRect();
            const name = n.id || n.dataset.pile || n.dataset.card || n.className;
            const out = r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
            const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
            return out ? [`${name}: ${at}`] : [];
        })""",
    )


@pytest.mark.parametrize("screen", list(PHONES))
def test_long_king_albert_columns_show_every_covered_corner_and_stay_on_a_phone_screen(
    browser: Browser, server: LiveServer, long_columns: list[tableaux.Move], screen: str
) -> None:
    viewport = PHONES[screen]
    p = player(browser, server, viewport)
    try:
        page = p.open(f"?game=king-albert&deal={LONG_DEAL}")
        send_moves(page, long_columns)
        for language in i18n.languages():  # one game, shown in each language in turn
            in_language(page, language)
            expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
            corners = page.evaluate(COVERED_CORNERS_JS)
            assert corners["covered"] >= 14 and not corners["hidden"], (language, corners)
            beyond = outside(page, "[data-pile], #toolbar button, #status .stat")
            assert not beyond, (language, beyond)
            assert status_rows(page) <= 2, (language, page.locator("#status").inner_text())
            piles = page.eval_on_selector_all("[data-pile]", "ns => ns.map(n => n.getBoundingClientRect().toJSON())")
            width = max(b["right"] for b in piles) - min(b["left"] for b in piles)
            if viewport["width"] > viewport["height"]:
                # Held sideways: the foundations and the reserve stand beside the columns, so the table spans the
                # width instead of leaving a quarter of it empty on each side, and the cards are no narrower
                # than on the phone held upright.
                expect(page.locator("#board")).to_have_attribute("data-shape", "side")
                assert width >= 0.9 * viewport["width"], f"{language}: the table spans {width:.0f} px"
                assert piles[0]["width"] >= 50
            else:
                assert width >= 0.9 * viewport["width"], language
    finally:
        p.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_settings_dialog_and_eagle_wings_status_line_fit_every_screen(
    browser: Browser, server: LiveServer, screen: str
) -> None:
    """Eagle Wing's status line holds every item King Albert's does, and on a desktop the counts the table
    shows too, so it is the longer of the two; King Albert's is checked on the phones with its longest columns
    (above)."""
    p = player(browser, server, SCREENS[screen])
    try:
        page = p.open("?game=eagle-wing&deal=1")
        for language in i18n.languages():  # the game shown in each language in turn
            in_language(page, language)
            expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
            assert status_rows(page) <= 2, f"{language}: {page.locator('#status').inner_text()}"
            open_menu(page)
            page.click("#settings-button")
            dialog = page.locator("#settings-dialog")
            expect(dialog).to_be_visible()
            controls = "#settings-dialog select, #settings-dialog button, #settings-dialog label, #settings-dialog p"
            beyond = page.eval_on_selector_all(
                controls, """(nodes) => { const d = document.getElementById("settings-dialog").getBoundingClientRect();
                    return nodes.filter((n) => { const r = n.getBoundingClientRect();
                        return r.left < Math.max(0, d.left) - 0.5 || r.right > Math.min(innerWidth, d.right) + 0.5; })
                    .map((n) => n.id || n.textContent.trim().slice(0, 30)); }""")
            assert not beyond, f"{language}: past the dialog's or the screen's edge: {beyond}"
            assert page.evaluate("(() => { const d = document.getElementById('settings-dialog');"
                                 " return d.scrollWidth <= d.clientWidth; })()"), language
            assert page.locator("#settings-dialog select").count() >= 8
            page.keyboard.press("Escape")
            expect(dialog).to_be_hidden()
    finally:
        p.close()


@pytest.mark.parametrize("screen", ["390x844", "844x390"])
@pytest.mark.parametrize("name", ["settings", "stats", "rules"])
def test_every_dialog_closes_from_its_top_without_a_scroll(
    browser: Browser, server: LiveServer, screen: str, name: str
) -> None:
    """On a phone, held either way, a long dialog (the settings, the statistics, the rules) shows a close button at
    its top as it opens, and its whole box is on the screen: its text scrolls inside it."""
    width, height = map(int, screen.split("x"))
    p = player(browser, server, {"width": width, "height": height})
    try:
        page = p.open(KA1)
        open_menu(page)
        page.click(f"#{name}-button")
        dialog = page.locator(f"#{name}-dialog")
        expect(dialog).to_be_visible()
        box = dialog.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
        close = page.locator(f"#{name}-x")
        expect(close).to_be_in_viewport(ratio=1)
        page.eval_on_selector(f"#{name}-dialog", "(d) => { d.scrollTop = d.scrollHeight; }")
        expect(close).to_be_in_viewport(ratio=1)  # the head stays at the top as the text scrolls under it
        close.click()
        expect(dialog).to_be_hidden()
    finally:
        p.close()


def in_language(page: Page, language: str) -> None:
    """The page loaded again as a player whose browser asks for ``language`` sees it: the same game, in it."""
    page.set_extra_http_headers({"Accept-Language": language})
    page.reload()
    page.wait_for_selector("[data-pile]")
    expect(page.locator("html")).to_have_attribute("lang", language)


# Where each pile label is drawn (a ::after box, which the page cannot measure, at the pile's top left, one line
# above it) and what lies on top at a few points of it: nothing but the cloth, a pile's own empty place, or the
# label's own pile.
LABELS_JS = """
() => [...document.querySelectorAll("[data-pile]")].map((pile) => {
  const style = getComputedStyle(pile, "::after");
  const box = pile.getBoundingClientRect();
  const left = box.left + parseFloat(style.left), top = box.top + parseFloat(style.top);
  const width = parseFloat(style.width), height = parseFloat(style.height);
  const points = [[0.2, 0.5], [0.5, 0.5], [0.8, 0.5]].map(([x, y]) => [left + x * width, top + y * height]);
  const over = points.flatMap(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return [`off the screen at ${Math.round(x)},${Math.round(y)}`];
    const card = hit.closest(".card");
    const other = hit.closest("[data-pile]");
    return card || (other && other !== pile) ? [(card && card.dataset.card) || (other && other.dataset.pile)] : [];
  });
  return { pile: pile.dataset.pile, label: style.content, over };
})
"""


@pytest.mark.parametrize("screen", list(SCREENS))
def test_eagle_wing_pile_labels_are_never_under_a_card(browser: Browser, server: LiveServer, screen: str) -> None:
    """With the pile labels shown and the wings at their fullest, each label stands clear of every card."""
    wings = line_to_the_most("eagle-wing", 1, lambda g: sum(
        len(g.state.piles[g.rules.index[f"tableau-{w}"]]) for w in range(1, 9)))
    p = player(browser, server, SCREENS[screen])
    try:
        page = p.open("?game=eagle-wing&deal=1")
        page.evaluate("localStorage.setItem('tableaux.setting.pileLabels', 'on')")
        send_moves(page, wings)
        page.reload()
        page.wait_for_selector("[data-pile]")
        labels = page.evaluate(LABELS_JS)
        assert len(labels) == 15 and all(label["label"] != "none" for label in labels)
        covered = [label for label in labels if label["over"]]
        assert not covered, covered
        assert not outside(page, "[data-pile]")
    finally:
        p.close()


def cards_under(page: Page, selector: str) -> list[str]:
    """The cards that a visible box of ``selector`` covers, even in part."""
    return page.evaluate(
        """(selector) => {
            const boxes = [...document.querySelectorAll(selector)].filter((n) => n.checkVisibility())
                .map((n) => n.getBoundingClientRect());
            return [...document.querySelectorAll("#board .card")].filter((card) => {
                const c = card.getBoundingClientRect();
                return boxes.some((b) => c.left < b.right && c.right > b.left && c.top < b.bottom && c.bottom > b.top);
            }).map((card) => card.dataset.card || "face-down");
        }""",
        selector,
    )


def test_the_large_index_face_shows_every_covered_corner_on_a_desktop(
    browser: Browser, server: LiveServer, long_columns: list[tableaux.Move]
) -> None:
    """The "Large index" face on large cards: a long column closes up to its least steps, and every covered
    card still shows its whole rank (a J's hook, a Q's tail) and its suit."""
    p = player(browser, server, DESKTOP)
    try:
        page = p.open(f"?game=king-albert&deal={LONG_DEAL}")
        set_setting(page, "face", "large")
        send_moves(page, long_columns)
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(page.locator("#board")).to_have_class(re.compile(r"\bcompact\b"))
        corners = page.evaluate(COVERED_CORNERS_JS)
        assert corners["covered"] >= 14 and not corners["hidden"], corners
    finally:
        p.close()


@pytest.mark.parametrize("screen", ["844x390", "360x740", "1280x800"])
def test_the_solutions_controls_notices_and_the_win_banner_never_cover_a_card(
    browser: Browser, server: LiveServer, long_columns: list[tableaux.Move], screen: str
) -> None:
    """The table makes room for what floats over it; a notice that no longer applies goes (the solution's
    "Showing the solver's winning line" is gone once the line has won the game)."""
    p = player(browser, server, SCREENS[screen])
    try:
        p.page.clock.install()  # the solution's moves: their timers moved on at once (play_solution_out)
        page = p.open(f"?game=king-albert&deal={LONG_DEAL}")
        send_moves(page, long_columns)
        page.reload()
        page.wait_for_selector("[data-pile]")
        show_solution(page)
        expect(page.locator("#solution-bar")).to_be_visible(timeout=60_000)
        page.click("#solution-pause")
        expect(page.locator("#notice")).to_contain_text("Showing the solver's winning line")
        floating = "#solution-bar, #notice, #message"
        next_frames(page)  # the table has been fitted again around the bar and the notice
        assert not cards_under(page, floating), cards_under(page, floating)
        corners = page.evaluate(COVERED_CORNERS_JS)
        assert not corners["hidden"], corners
        page.select_option("#solution-speed", "200")
        page.click("#solution-pause")  # play on, fast, to the end
        play_solution_out(page)
        expect(page.locator("#message")).to_contain_text("The solver won")
        expect(page.locator("#solution-bar")).to_be_hidden()
        expect(page.locator("#notice")).to_be_hidden()
        assert not cards_under(page, floating), cards_under(page, floating)
    finally:
        p.close()


@retakes_screenshots
def test_screenshots_of_long_columns_held_sideways_and_of_the_first_visit(
    browser: Browser, server: LiveServer, long_columns: list[tableaux.Move]
) -> None:
    """For the docs (README): King Albert's 16-card column on a phone held sideways, and the welcome card."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    p = player(browser, server, LANDSCAPE)
    try:
        page = p.open(f"?game=king-albert&deal={LONG_DEAL}")
        send_moves(page, long_columns)
        page.reload()
        page.wait_for_selector("[data-pile]")
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=60_000)
        settled(page)
        shoot(page, "king-albert-phone-landscape-long")
    finally:
        p.close()
    p = player(browser, server, PORTRAIT_LARGE, first_visit=True)
    try:
        page = p.open("?game=eagle-wing&deal=1")
        expect(page.locator("#welcome-dialog")).to_be_visible()
        settled(page)
        shoot(page, "welcome-phone")
    finally:
        p.close()


def shoot(page: Page, name: str) -> None:
    page.evaluate("() => document.fonts.ready")
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    shrink_png(path)
