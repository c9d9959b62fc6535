"""The page's scripts, read as source: no module imports one that imports it back, only the store writes the page's
state, and no script names a game.

Each layer (translations, the game info, cards, settings, layout, the board, the store, then drawing, the
actions, input, and app.js on top) can be loaded and understood with only what lies below it. The page's state
has one writer, store.js, so what changed the selection or the view is found there. What the page knows about a
game (its piles, where they sit, what they are called, its rules) comes from the server's registry through
``/api/games/info``, so a game added there needs no change here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tableaux.rulebook.registry import GAMES

STATIC = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "web" / "static"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w.]+)"', re.M | re.S)
LOWER_LAYERS = ["i18n.js", "api.js", "games.js", "cards.js", "settings.js", "layout.js", "rules.js", "board.js",
                "store.js", "dom.js"]
STATE = "store.js"
# A write to the page's state: `S.x = ...`, `S.x.y += ...`, `S.x++`, `delete S.x`, `S[...] = ...`,
# `Object.assign(S, ...)`. A comparison (`S.x === y`) is a read.
WRITE = re.compile(
    r"(?<![\w$.])S(?:\.[\w$]+|\[[^\]]*\])+\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)"
    r"|(?<![\w$.])S(?:\.[\w$]+|\[[^\]]*\])+\s*(?:\+\+|--)"
    r"|(?:\+\+|--)\s*S(?:\.[\w$]+|\[[^\]]*\])+"
    r"|\bdelete\s+S\b"
    r"|Object\.(?:assign|defineProperty|defineProperties|setPrototypeOf)\(\s*S\b"
)


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


def source(module: str) -> str:
    """A script without its comments, so that a comment quoting code is not read as code."""
    text = (STATIC / module).read_text(encoding="utf-8")
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def test_the_import_reader_finds_the_imports_of_every_script() -> None:
    graph = imports()
    assert set(LOWER_LAYERS) <= set(graph)
    assert {"board.js", "render.js", "store.js", "settings.js"} <= reachable(graph, "app.js")


SCRIPTS = sorted(path.name for path in STATIC.glob("*.js"))


@pytest.mark.parametrize("module", SCRIPTS)
def test_no_script_is_in_an_import_cycle(module: str) -> None:
    graph = imports()
    assert module not in reachable(graph, module), f"{module} imports a module that imports it back"


def test_the_store_and_the_page_parts_are_leaves() -> None:
    graph = imports()
    assert not graph["store.js"], "store.js imports nothing: every module may import it"
    assert not graph["dom.js"]


def test_drawing_the_page_does_not_reach_the_layers_above_it() -> None:
    """render.js draws a view; the actions and input reach it, never the other way round."""
    graph = imports()
    assert not {"actions.js", "input.js", "keyboard.js", "app.js", "start.js"} & reachable(graph, "render.js")


def test_settings_and_the_board_do_not_reach_the_page_state() -> None:
    graph = imports()
    for module in ("settings.js", "board.js"):
        assert not {"store.js", "render.js"} & reachable(graph, module)


def test_the_write_finder_sees_every_way_of_writing_the_state_and_no_read() -> None:
    writes = ["S.selection = null;", "S.hint={a: 1}", "S.view.moves += 1", "S.count++", "--S.count",
              "delete S.view", 'S["view"] = v', "Object.assign(S, { view })", "S.a ??= b"]
    reads = ["if (S.selection === null)", "S.view.id !== id", "const v = S.view;", "f(S.hint)", "x = S.view",
             "DS.x = 1", "state.view = view", "S.view.legal_moves.find((m) => m.count === 1)"]
    assert all(WRITE.search(text) for text in writes), [text for text in writes if not WRITE.search(text)]
    assert not any(WRITE.search(text) for text in reads), [text for text in reads if WRITE.search(text)]


@pytest.mark.parametrize("module", [name for name in SCRIPTS if name != STATE])
def test_only_the_store_writes_the_page_state(module: str) -> None:
    found = [line.strip() for line in source(module).splitlines() if WRITE.search(line)]
    assert not found, f"{module} writes the page state itself; use store.js's setters: {found}"


@pytest.mark.parametrize("module", SCRIPTS)
def test_no_script_names_a_game(module: str) -> None:
    """Per-game layouts, pile names and rules come from the server's registry (GET /api/games/info)."""
    text = source(module)
    named = [name for name in GAMES if re.search(rf"['\"`]{re.escape(name)}['\"`]", text)]
    assert not named, f"{module} names {named}: take what it needs to know from the game info"
