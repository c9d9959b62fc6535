"""The page's scripts import no module that imports them back: each layer (translations, the game info, cards,
settings, layout, the board, then the page state, the actions, input, and app.js on top) can be loaded and
understood with only what lies below it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "web" / "static"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w.]+)"', re.M | re.S)
LOWER_LAYERS = ["i18n.js", "api.js", "games.js", "cards.js", "settings.js", "layout.js", "rules.js", "board.js"]


def imports() -> dict[str, set[str]]:
    return {path.name: set(IMPORT.findall(path.read_text(encoding="utf-8"))) for path in STATIC.glob("*.js")}


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for name in graph.get(todo.pop(), ()):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return seen


def test_the_import_reader_finds_the_imports_of_every_script() -> None:
    graph = imports()
    assert set(LOWER_LAYERS) <= set(graph)
    assert {"board.js", "state.js", "settings.js"} <= reachable(graph, "app.js")


SCRIPTS = sorted(path.name for path in STATIC.glob("*.js"))


@pytest.mark.parametrize("module", SCRIPTS)
def test_no_script_is_in_an_import_cycle(module: str) -> None:
    graph = imports()
    assert module not in reachable(graph, module), f"{module} imports a module that imports it back"


def test_the_page_state_does_not_reach_the_layers_above_it() -> None:
    """state.js calls actions and input through the hooks app.js fills in, never by importing them."""
    graph = imports()
    assert not {"actions.js", "input.js", "app.js"} & reachable(graph, "state.js")


def test_settings_and_the_board_do_not_reach_the_page_state() -> None:
    graph = imports()
    for module in ("settings.js", "board.js"):
        assert "state.js" not in reachable(graph, module)
