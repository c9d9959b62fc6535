"""Installable, in real headless Chromium: the web-app manifest and its icons, the service worker that keeps the
page's own files (never an answer of the API, so no face-down card is stored in the browser), and the screen the
page shows while the server cannot be reached or answers that it is unavailable, which tries again by itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.browser import LiveServer
from helpers.page import Browser, Page, Player, axe_violations, current_view, expect, send_moves

pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")
KA3 = "?game=king-albert&deal=3"

KEPT_JS = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
  }
  return kept;
}"""


def controlled(page: Page) -> None:
    """Wait until the service worker is active and controls the page (after one reload at most)."""
    page.evaluate("navigator.serviceWorker.ready")
    if not page.evaluate("navigator.serviceWorker.controller !== null"):
        page.reload()
        page.wait_for_selector("[data-pile]")
    assert page.evaluate("navigator.serviceWorker.controller !== null")


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of this test's own, which the test stops and starts again."""
    live = LiveServer(tmp_path / "games.db")
    live.start()
    yield live
    live.stop()


def test_the_page_is_an_installable_app_that_keeps_its_files_and_never_an_api_answer(
    browser: Browser, server: LiveServer
) -> None:
    p = Player(browser, server.url)
    try:
        page = p.open(KA3)
        href = page.get_attribute("link[rel=manifest]", "href")
        manifest = page.evaluate("(href) => fetch(href).then((r) => r.json())", href)
        assert manifest["name"] and manifest["short_name"] == "Tableaux"
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert manifest["theme_color"] == page.get_attribute("meta[name=theme-color]", "content")
        sizes = {icon["sizes"]: icon["src"] for icon in manifest["icons"]}
        assert {"192x192", "512x512"} <= set(sizes)
        for size, src in sizes.items():
            drawn = page.evaluate(
                """(src) => new Promise((done) => { const img = new Image();
                    img.onload = () => done(`${img.naturalWidth}x${img.naturalHeight}`); img.onerror = () => done(null);
                    img.src = src; })""", src)
            assert drawn == size, (src, drawn)
        controlled(page)
        # A game played on, with a hint: the answers come from the server and only from it.
        send_moves(page, [current_view(page)["legal_moves"][0]["text"]])
        page.reload()
        page.wait_for_selector("[data-pile]")
        page.click("#hint")
        expect(page.locator("#notice")).to_contain_text("Hint", timeout=60_000)
        kept = page.evaluate(KEPT_JS)
        assert len(kept) == 1, kept  # one version of the files, under a name of its own
        (name, files), = kept.items()
        assert name.startswith("tableaux-")
        assert {"/", "/static/app.js", "/static/style.css", "/static/icon-512.png"} <= set(files)
        assert not [f for f in files if f.startswith("/api/")], files
    finally:
        p.close()


def test_when_the_server_is_gone_the_page_says_so_and_comes_back_by_itself(
    browser: Browser, own_server: LiveServer
) -> None:
    p = Player(browser, own_server.url, {"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = p.open(KA3)
        controlled(page)
        own_server.stop()
        page.reload()  # the kept page opens at once, and finds no server
        offline = page.get_by_role("dialog", name="The game server cannot be reached")
        expect(offline).to_be_visible()
        expect(page.locator("#offline-text")).to_contain_text("tries again by itself")
        expect(page.locator("#offline-wait")).to_contain_text("Trying again in")
        assert axe_violations(page) == []
        page.keyboard.press("Escape")  # nothing to go back to: the screen stays until the server answers
        expect(offline).to_be_visible()
        own_server.start()
        expect(page.locator("#deal-number")).to_have_text("3", timeout=60_000)  # reloaded by itself
        expect(page.locator("#offline-dialog")).to_be_hidden()
        p.settle()
    finally:
        p.close()


def test_a_server_that_is_unavailable_for_a_while_gets_the_same_screen_after_its_retry_after(
    browser: Browser, server: LiveServer
) -> None:
    """503 with Retry-After, as a server answers while its database is away (what needs the saved games, as
    /api/resume does; /api/games/info needs none and answers): the page waits as long as it asks, then loads the
    game once the server answers."""
    p = Player(browser, server.url, service_workers="block", extra_http_headers={"Accept-Language": "fr"})
    try:
        page = p.page
        refused: list[str] = []

        def unavailable(route: Any) -> None:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "90"}, content_type="application/json",
                          body=json.dumps({"error": "the saved games database is unavailable"}))

        page.route("**/api/resume*", unavailable)
        page.goto(server.url + "/" + KA3)
        expect(page.locator("#offline-dialog")).to_be_visible()
        expect(page.locator("#offline-title")).to_have_text("Le jeu est indisponible un instant")
        # The server's 90 s, counted down: longer than the page would wait of its own accord (30 s at most).
        expect(page.locator("#offline-wait")).to_have_text(re.compile(r"^Nouvel essai dans (9\d|8\d|7\d|6\d) s\.$"))
        assert axe_violations(page) == []
        page.unroute("**/api/resume*")
        page.click("#offline-retry")
        expect(page.locator("#deal-number")).to_have_text("3", timeout=60_000)
        expect(page.locator("#offline-dialog")).to_be_hidden()
        assert len(refused) >= 2  # the page's start, and the screen's first try
    finally:
        p.close()
