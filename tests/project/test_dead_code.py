"""No dead code in the package: helpers nobody calls, loops over one item, branches that do nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "tableaux"
MODULES = sorted(SRC.rglob("*.py"))
TESTS = sorted((SRC.parents[1] / "tests").rglob("*.py"))


def top_level_names(path: Path) -> list[str]:
    names = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return [n for n in names if not n.startswith("_")]


def imported_from(module: str, paths: list[Path]) -> set[str]:
    """Names other files import from ``module`` (``from .cards import X``,
    ``from tableaux.rulebook.cards import X``)."""
    names = set()
    importing = re.compile(rf"^\s*from\s+[\w.]*\b{re.escape(module)}\s+import\b", re.MULTILINE)
    for path in paths:
        text = path.read_text()
        if not importing.search(text):  # no import from it can be there: spare the parse
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == module:
                names.update(alias.name for alias in node.names)
    return names


@pytest.mark.slow
@pytest.mark.parametrize("module", ["rulebook/cards"])
def test_every_helper_of_an_internal_module_is_used(module: str) -> None:
    path = SRC / f"{module}.py"
    tree = ast.parse(path.read_text())
    inside = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    others = [p for p in [*MODULES, *TESTS] if p != path]
    unused = [name for name in top_level_names(path) if name not in inside | imported_from(path.stem, others)]
    assert not unused, f"{module}.py defines names nothing uses: {unused}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(SRC).as_posix())
def test_no_loop_over_one_item_and_no_branch_that_only_passes(path: Path) -> None:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Tuple | ast.List) and len(node.iter.elts) == 1:
            found.append(f"line {node.lineno}: a loop over one item")
        if isinstance(node, ast.If) and all(isinstance(s, ast.Pass) for s in node.body):
            found.append(f"line {node.lineno}: an if whose body is only pass")
    assert not found, found


def test_game_has_no_raw_moves_duplicate_of_the_rules() -> None:
    from tableaux import Game

    assert not hasattr(Game, "raw_moves")  # rules.moves(game.state) is the one raw move list
