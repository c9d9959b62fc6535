"""Measuring the page's layout in real headless Chromium: the screens the layout tests use, a player on a
touch screen, where elements' boxes lie, how many rows the toolbar takes, and whether the page scrolls sideways.

Shared by the ``tests/browser/test_browser_layout_*.py`` modules. ``PHONE`` and ``LANDSCAPE`` here are bare
viewports (:data:`helpers.page.PHONE` is a whole phone context: viewport and touch).
"""

from __future__ import annotations

from typing import Any

from helpers.browser import LiveServer
from helpers.page import Browser, Page, Player

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
EW1 = "?game=eagle-wing&deal=1"


def phone(browser: Browser, server: LiveServer, viewport: dict[str, int] = PHONE, **options: Any) -> Player:
    """A player on a touch screen of the given size."""
    return Player(browser, server.url, viewport, has_touch=True, is_mobile=True, **options)


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    """Where each element ``selector`` matches lies on the page: its edges and width, in CSS pixels."""
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
    """Whether the page fits the window's width (nothing to scroll sideways to)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
