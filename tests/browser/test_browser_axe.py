"""Accessibility, in Debian's Chromium: axe-core finds no violation, of any impact, on the page.

Every game, on a desktop and a phone, light and dark, in English and French, and with each thing a player
opens over the table: the explanation of the figure on the status line, the menu, the rules, the statistics, the
settings and the question before leaving a game in progress. The welcome card and the offline screen are audited
where they are tested (test_browser_looks.py, test_browser_offline.py).

Each audit looks at the table of every game, and at what opens over it in one game (:data:`DIALOGS_OF`), a
different one from audit to audit so that every game's dialogs are audited: they are the same dialogs in every
game, whose rules text and statistics alone differ.

Four of the eight ways to combine a screen, a colour scheme and a language are audited, chosen so that every
pair of them meets once (each screen in each scheme and in each language, each scheme in each language): what
the audit finds comes from the layout, the colours or the words, and the ways two of them meet. A fault that
only one combination of all three brings out would go unseen; auditing all eight took twice as long.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Any

import pytest

from helpers.browser import LiveServer
from helpers.page import SLOW, Browser, Player, axe_violations, expect, open_menu, send_moves

pytest.importorskip("axe_playwright_python.sync_playwright", reason="the audit needs axe-playwright-python")

SIZES: dict[str, tuple[dict[str, int], dict[str, Any]]] = {
    "desktop": ({"width": 1280, "height": 800}, {}),
    "phone": ({"width": 390, "height": 844}, {"has_touch": True, "is_mobile": True}),
}


PAIRS = [("desktop", "light", "en"), ("desktop", "dark", "fr"), ("phone", "light", "fr"), ("phone", "dark", "en")]
"""Screen, scheme and language: every value of each meets every value of the others once."""

GAMES = ("king-albert", "eagle-wing", "king-albert-classic")

DIALOGS_OF = {combination: GAMES[i % len(GAMES)] for i, combination in enumerate(PAIRS)}
"""The game whose dialogs each audited combination opens."""


@pytest.mark.parametrize(("size", "scheme", "language"), PAIRS)
def test_axe_finds_no_violation_of_any_impact(
    browser: Browser, server: LiveServer, size: str, scheme: str, language: str
) -> None:
    viewport, options = SIZES[size]
    p = Player(browser, server.url, viewport, color_scheme=scheme, extra_http_headers={"Accept-Language": language},
               **options)
    try:
        found: dict[str, list[str]] = {}
        for game in GAMES:
            page = p.open(f"?game={game}&deal=1")
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("html")).to_have_attribute("data-scheme", scheme)
            expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
            found[game] = axe_violations(page)
            if game != DIALOGS_OF[size, scheme, language]:
                continue
            page.click("#chance-stat")
            expect(page.locator("#chance-info")).to_be_visible()
            found[f"{game}, the figure explained"] = axe_violations(page)
            page.keyboard.press("Escape")
            expect(page.locator("#chance-info")).to_be_hidden()
            open_menu(page)
            found[f"{game}, the menu"] = axe_violations(page)
            page.click("#rules-button")
            expect(page.locator("#rules-dialog")).to_be_visible()
            found[f"{game}, the rules"] = axe_violations(page)
            page.keyboard.press("Escape")
            open_menu(page)
            page.click("#stats-button")
            expect(page.locator("#stats-body table")).to_be_visible()
            found[f"{game}, the statistics"] = axe_violations(page)
            page.keyboard.press("Escape")
            open_menu(page)
            page.click("#settings-button")
            expect(page.locator("#settings-dialog")).to_be_visible()
            found[f"{game}, the settings"] = axe_violations(page)
            page.keyboard.press("Escape")
            home = next(iter(p.view(page)["home_moves"].values()))
            send_moves(page, [home["text"]])
            page.reload()
            page.wait_for_selector("[data-pile]")
            expect(page.locator("#moves")).to_have_text("1")
            page.keyboard.press("n")
            expect(page.get_by_role("alertdialog")).to_be_visible()
            found[f"{game}, the question before leaving a game"] = axe_violations(page)
            page.keyboard.press("Escape")
        broken = {where: rules for where, rules in found.items() if rules}
        assert not broken, broken
    finally:
        p.close()


def test_the_audited_combinations_pair_every_screen_scheme_and_language() -> None:
    values = (tuple(SIZES), ("light", "dark"), ("en", "fr"))
    for i, j in combinations(range(3), 2):
        met = {(combination[i], combination[j]) for combination in PAIRS}
        assert met == set(product(values[i], values[j]))


def test_every_games_dialogs_are_audited() -> None:
    assert set(DIALOGS_OF.values()) == set(GAMES)
