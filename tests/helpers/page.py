"""The browser session every real-browser test module shares: Chromium, a live server, a player's page.

Importing this module skips the importing test module when Playwright for Python or Debian's ``chromium``
is missing, with a reason that names which, unless ``TABLEAUX_REQUIRE_BROWSER=1`` (set by CI) makes that a
failure. The fixtures live in conftest.py (``server``, ``browser``, ``player``) and import this module when
first used.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.browser import missing_for_the_browser_tests

HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
"""Debian's ``chromium-headless-shell``: the same Blink as ``chromium``, built without a browser window's interface
(tabs, address bar, their pages), as Playwright's own headless runs use it. Each of the suite's players opens a
window, and the full browser spends as much CPU on the window's interface as the page does on itself: the browser
tests take a sixth less time in the shell."""
FULL_CHROMIUM = Path("/usr/bin/chromium")
"""Debian's full browser, as players run it: the suite's tests use it where the shell is missing, and one test
(``test_the_full_browser_plays_a_deal_to_its_win_as_the_shell_does``) plays a game in it where both are there."""
CHROMIUM = HEADLESS_SHELL if HEADLESS_SHELL.exists() else FULL_CHROMIUM
REQUIRED = os.environ.get("TABLEAUX_REQUIRE_BROWSER") == "1"  # CI sets it: a missing browser is then a failure
MISSING = missing_for_the_browser_tests(CHROMIUM)
if MISSING:
    reason = "browser tests need " + " and ".join(MISSING)
    if REQUIRED:
        pytest.fail(f"{reason}, and TABLEAUX_REQUIRE_BROWSER=1 asks for them", pytrace=False)
    pytest.skip(reason, allow_module_level=True)
import playwright.sync_api as sync_api  # noqa: E402
from playwright.sync_api import Browser, Page, expect  # noqa: E402, F401 - re-exported for the test modules

from helpers.browser import ROOT, ResponseInspector  # noqa: E402

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Each new context opens a window, and a Chromium window preloads its address bar's suggestion popups (pages of
    # Chromium's own interface) in a renderer of its own: without them the browser tests take a quarter less time.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]
# Screenshots go to ./screenshots (git-ignored) so a test run leaves the work tree clean; refresh the committed
# ones with TABLEAUX_SCREENSHOTS=docs/screenshots python -m pytest tests/browser -k "screenshots or win_a_deal"
SCREENSHOTS = ROOT / os.environ.get("TABLEAUX_SCREENSHOTS", "screenshots")
HANG_MS = 120_000
"""How long a wait for the page may take before it counts as a hang: it bounds a failure, never paces a test."""
SLOW = 60_000
"""How long to wait, in ms, for an answer of the server's solver (the chance to win, a hint, a solution) on a busy
two-core machine; a passing wait ends at once."""
KA1 = "?game=king-albert&deal=1"
"""King Albert deal 1, the rule book's test vector: T9 = TD, T8 = JC on top, R5 = AH, R3 = TH, R4 = 7C, T7 = 8H."""
expect.set_options(timeout=30_000)  # Playwright's 5 s is too short for a busy machine; a passing wait ends at once


def launch_browser() -> Iterator[Browser]:
    """Headless Debian Chromium, for as long as the caller (the ``browser`` fixture) needs it."""
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
        yield chromium
        chromium.close()


def launch_full_browser(beside: Browser) -> Browser:
    """Debian's full Chromium (:data:`FULL_CHROMIUM`), headless, through the Playwright that runs ``beside``; the
    caller closes it."""
    return beside.browser_type.launch(executable_path=str(FULL_CHROMIUM), args=LAUNCH_ARGS, headless=True)


SEEN_WELCOME = "try { localStorage.setItem('tableaux.welcomed', '1'); } catch (e) {}"
"""Run before the page's own scripts: this browser has closed the first visit's welcome card already."""


class Player:
    """One browser (one anonymous player) with a page on the game, and what it saw on the wire.

    A player has seen the first visit's welcome card already, unless ``first_visit``: the tests of other
    things play at once, as a returning player does."""

    def __init__(self, browser: Browser, base: str, viewport: dict[str, int] | None = None, *,
                 first_visit: bool = False, **options: Any) -> None:
        self.base = base
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 800}, **options)
        self.context.set_default_timeout(HANG_MS)
        if not first_visit:
            self.context.add_init_script(SEEN_WELCOME)
        self.inspector = ResponseInspector()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.in_flight = 0
        self.page = self.new_page()

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("response", self.inspector)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.errors.append(msg.text) if "Content Security Policy" in msg.text else None)
        page.on("request", self._sent)
        page.on("requestfinished", self._answered)
        page.on("requestfailed", self._answered)
        return page

    def _sent(self, request: Any) -> None:
        self.requests.append(f"{request.method} {request.url}")
        self.in_flight += 1

    def _answered(self, _request: Any) -> None:
        self.in_flight -= 1

    def settle(self, page: Page | None = None) -> None:
        """Wait until every request the player's pages sent has its answer, and the page has drawn it.

        A request the page starts in answer to something is sent before the next animation frame, so once
        two frames have passed with nothing on its way, the page has nothing left to say to the server.
        """
        page = page or self.page
        deadline = time.monotonic() + HANG_MS / 1000
        while True:
            next_frames(page)  # also lets Playwright deliver the request events of the meantime
            if not self.in_flight:
                return
            assert time.monotonic() < deadline, f"{self.in_flight} requests never answered: {self.requests[-5:]}"

    def open(self, query: str = "", page: Page | None = None) -> Page:
        page = page or self.page
        page.goto(self.base + "/" + query)
        page.wait_for_selector("[data-pile]")
        return page

    def view(self, page: Page | None = None) -> dict[str, Any]:
        """The game as the server has it now (the same call the page makes on load)."""
        return current_view(page or self.page)

    def close(self) -> None:
        self.context.close()
        assert self.inspector.count > 0, "no JSON response was inspected"
        assert not self.inspector.problems, "\n".join(self.inspector.problems[:10])
        assert not self.errors, "\n".join(self.errors)


def current_view(page: Page) -> dict[str, Any]:
    """The game of the page's player as the server has it now (the same call the page makes on load)."""
    return page.evaluate("fetch('/api/current').then((r) => r.json())")


def next_frames(page: Page, count: int = 2) -> None:
    """Return after ``count`` animation frames: what the page set up for its next frame (a slide) has run."""
    page.evaluate(
        """(n) => new Promise((done) => {
            const tick = () => (--n > 0 ? requestAnimationFrame(tick) : done());
            requestAnimationFrame(tick);
        })""",
        count,
    )


def settled(page: Page) -> None:
    """Wait until no card slides: a slide starts in the frame after a redraw and is a CSS transition."""
    next_frames(page)
    page.wait_for_function("() => !document.getAnimations().some((a) => a instanceof CSSTransition)",
                           timeout=HANG_MS)


def status_rows(page: Page) -> int:
    """How many rows the status line's visible items take, as the player sees it: the page keeps the line to
    two rows by shrinking its text when it resizes (fitStatus, in a ResizeObserver that runs before the next
    paint), so the count waits for the next frames rather than reading a layout no one sees."""
    next_frames(page)
    tops = page.eval_on_selector_all(
        "#status .stat", "nodes => nodes.filter(n => n.checkVisibility() && n.getBoundingClientRect().width > 1)"
        ".map(n => Math.round(n.getBoundingClientRect().top))")
    rows: list[int] = []
    for top in sorted(tops):
        if not rows or top - rows[-1] > 4:
            rows.append(top)
    return len(rows)


RETAKING = "TABLEAUX_SCREENSHOTS" in os.environ
"""Whether this run retakes the committed screenshots: the tests that only take pictures for the docs run then
alone, and the pictures are made small."""

retakes_screenshots = pytest.mark.skipif(not RETAKING, reason="retakes docs/screenshots when asked")
"""For a test that only takes the docs' pictures (the page it shows is checked by the layout tests)."""


def shrink_png(path: Path) -> None:
    """Palette PNGs are a fraction of the size; committed screenshots should stay small. A run that does not
    retake them leaves them as taken, in the git-ignored ./screenshots."""
    if not RETAKING:
        return
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
"""A phone held upright, as Player's options: Player(browser, url, **PHONE)."""


def shot(page: Page, name: str) -> None:
    """A screenshot of the page as it is, SCREENSHOTS/name.png, kept small."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
    shrink_png(SCREENSHOTS / f"{name}.png")


def card(page: Page, code: str, pile: str | None = None) -> Any:
    scope = f'[data-pile="{pile}"] ' if pile else ""
    return page.locator(f'{scope}[data-card="{code}"]')


def pile(page: Page, name: str) -> Any:
    return page.locator(f'[data-pile="{name}"]')


def drag(page: Page, source: Any, target: Any) -> None:
    """Press on the card, move in small steps like a hand, release over the target."""
    a = source.bounding_box()
    b = target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + 12
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] - 20
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0 + 8, steps=2)
    page.mouse.move(x1, y1, steps=8)
    page.mouse.up()


def touch_drag(page: Page, source: Any, target: Any) -> None:
    """A finger drag, sent as raw touch events (Playwright's touchscreen API only taps)."""
    cdp = page.context.new_cdp_session(page)
    a = source.bounding_box()
    b = target.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + 8
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def send_moves(page: Page, moves: list[Any]) -> None:
    """Play moves on the page's current game, from where it is, through the API, as the page itself sends them."""
    sent = page.evaluate(
        """async (moves) => {
            let view = await (await fetch('/api/current')).json();
            const before = view.moves;
            for (const move of moves) {
                const r = await fetch(`/api/games/${view.id}/moves`, {
                    method: 'POST', headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({move, version: view.version})});
                if (!r.ok) return [r.status, await r.text()];
                view = await r.json();
            }
            return [200, view.moves - before];
        }""",
        [str(m) for m in moves],
    )
    assert sent == [200, len(moves)]


def win_by_hand(page: Page, name: str, deal: int, line: list[Any]) -> None:
    """Play ``line`` (a winning line of deal ``deal`` of ``name``) on the page's game: every move but the last
    through the API, then the page loaded again and the last card dragged home as a player does."""
    import tableaux

    send_moves(page, line[:-1])
    page.reload()
    last = line[-1]
    before = tableaux.Game.replay(tableaux.rules(name), deal, line[:-1])
    moving = before.position()["piles"][last.source][-1]["card"]
    drag(page, card(page, moving, last.source), pile(page, last.target))


def play_solution_out(page: Page, until: int | None = None) -> None:
    """Let the solution the page is showing play on to its win (or until the move counter reads ``until``), one
    move at a time, the page's clock moved on by a move's delay at the speed chosen instead of waited out. The
    page must have installed ``page.clock`` before it loaded. Each move's timer is set once the move before it
    has come back from the server, so the clock moves on only after the move counter has changed; a line that
    stops short of the win never changes it again, and the wait for it fails."""
    delay = int(page.input_value("#solution-speed"))
    won = page.locator("#message.won")
    while not won.is_visible() and (until is None or int(page.locator("#moves").inner_text()) < until):
        moves = page.locator("#moves").inner_text()
        page.clock.run_for(delay)
        page.wait_for_function("(before) => document.getElementById('moves').textContent !== before", arg=moves,
                               timeout=HANG_MS)


def set_setting(page: Page, key: str, value: str) -> None:
    """Choose a setting the way a player does: menu, Settings, pick from its list, close."""
    open_menu(page)
    page.click("#settings-button")
    expect(page.locator("#settings-dialog")).to_be_visible()
    page.select_option(f"#setting-{key}", value)
    page.click("#settings-close")
    expect(page.locator("#settings-dialog")).to_be_hidden()


def axe_violations(page: Page) -> list[str]:
    """Every rule axe-core finds broken on the page as it is now, whatever its impact, with where.

    Needs axe-playwright-python: a test module that calls this skips itself first when it is missing
    (``pytest.importorskip``)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options={"resultTypes": ["violations"]}).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[node['target'] for node in v['nodes']][:5]}" for v in found]


def open_menu(page: Page) -> None:
    """Open the toolbar menu (rules, statistics, settings; on a phone also the pickers and restart)."""
    if page.get_attribute("#menu-button", "aria-expanded") != "true":
        page.click("#menu-button")


def menu_click(page: Page, selector: str) -> None:
    """Click an item that may live in the toolbar menu, opening the menu first when it is hidden."""
    if not page.locator(selector).is_visible():
        open_menu(page)
    page.click(selector)


def show_solution(page: Page) -> None:
    """Menu, Show solution, and yes to the question that it makes the game assisted (asked while it is not; of a
    daily deal, that it keeps the game off the day's leaderboard)."""
    assisted = current_view(page)["assisted"]
    menu_click(page, '[data-action="solution"]')
    if not assisted:
        dialog = page.get_by_role("alertdialog")
        expect(dialog).to_have_accessible_name(re.compile(r"^Show the solution( of the daily deal)?\?$"))
        page.click("#confirm-yes")


# The contrast of every visible piece of text on the page, from the colours the browser computed: the
# text colour (its alpha times every ancestor's opacity) over the background colours behind it, composited
# up to the first opaque one. Text sitting on a background image (the cloth's gradient) is reported as
# such, since one colour cannot stand for it. SVG text (card indices) is measured against its card face.
CONTRAST_JS = """
() => {
  const parse = (c) => {
    const p = c.match(/rgba?\\(([^)]+)\\)/)[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const name = (n) => n.id ? `#${n.id}` : `${n.tagName.toLowerCase()}.${[...n.classList].join(".")}`;
  function behind(el) {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      const c = parse(cs.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
      if (cs.backgroundImage !== "none" || n === document.body) return { error: `on the background of ${name(n)}` };
    }
    let colour = layers.pop();
    while (layers.length) colour = over(layers.pop(), colour);
    return { colour };
  }
  function textColour(el, pseudo) {
    const c = parse(getComputedStyle(el, pseudo).color);
    for (let n = el; n; n = n.parentElement) c[3] *= Number(getComputedStyle(n).opacity);
    return c;
  }
  const results = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    let el = node.parentElement;
    if (el.closest("option")) el = el.closest("select");
    if (seen.has(el) || el.closest(".visually-hidden, :disabled, script, style")) continue;
    seen.add(el);
    if (!el.checkVisibility({ visibilityProperty: true }) || !el.getClientRects().length) continue;
    const text = (el.tagName === "SELECT" ? el.selectedOptions[0]?.text : node.textContent).trim().slice(0, 30);
    if (el instanceof SVGElement) {
      const face = el.closest("svg").querySelector(".card-bg");
      const fg = parse(getComputedStyle(el).fill);
      const bg = parse(getComputedStyle(face).fill);
      const card = el.closest("[data-card]")?.dataset.card ?? "sample"; // the settings draw a sample card
      results.push({ text, where: "card " + card, ratio: ratio(fg, bg) });
      continue;
    }
    const bg = behind(el);
    if (bg.error) { results.push({ text, where: name(el), error: bg.error, ratio: 0 }); continue; }
    results.push({ text, where: name(el), ratio: ratio(over(textColour(el), bg.colour), bg.colour) });
  }
  for (const input of document.querySelectorAll("input[placeholder]")) {
    if (!input.checkVisibility() || input.value) continue;
    const bg = behind(input);
    const fg = over(textColour(input, "::placeholder"), bg.colour);
    results.push({ text: input.placeholder, where: name(input) + "::placeholder", ratio: ratio(fg, bg.colour) });
  }
  return results;
}
"""


def contrast(page: Page) -> list[dict[str, Any]]:
    """Every visible text's contrast ratio as rendered now: [{text, where, ratio}], lowest first."""
    return sorted(page.evaluate(CONTRAST_JS), key=lambda r: r["ratio"])
