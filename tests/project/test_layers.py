"""The package is built in floors, and every import points down: no cycle, not even through an import in a
function or one made only for type checkers.

The floors are the top of ``src/tableaux``, from the ground up: i18n and common (helpers that know nothing
of solitaire); rulebook (cards, deals, the engine, the games, the registry); play (a game in progress);
solver; advice (rules of thumb, fair advice, hints); survey (many deals at once); catalogue; the package's
face (``tableaux/__init__.py``); the user interfaces (cli, terminal, web). Inside the rulebook the same holds
at a finer grain: cards and deals, then the engine, then the games and their registry. A new module must be
given a floor below, so the map in README.md stays true.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "tableaux"

FLOORS: list[tuple[str, list[str]]] = [
    ("ground", ["i18n", "i18n.*", "common", "common.*"]),
    ("rules: cards and deals", ["rulebook", "rulebook.cards", "rulebook.deal", "rulebook.guide", "rulebook.shapes"]),
    ("rules: the engine", ["rulebook.engine"]),
    ("rules: the games", ["rulebook.king_albert", "rulebook.eagle_wing", "rulebook.registry"]),
    ("play", ["play", "play.*"]),
    ("solver", ["solver", "solver.*"]),
    ("advice", ["advice", "advice.*"]),
    ("survey", ["survey", "survey.*"]),
    ("catalogue", ["catalogue", "catalogue.*"]),
    ("the package's face", [""]),
    ("user interfaces", ["__main__", "cli", "cli.*", "terminal", "terminal.*", "web", "web.*"]),
]
"""Each floor's modules, relative to ``tableaux`` (``solver.*``: every module below ``solver``; ``""``: the face)."""


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


MODULES = module_names()


def floor_of(module: str) -> int:
    relative = module.removeprefix("tableaux").removeprefix(".")
    for number, (_name, members) in enumerate(FLOORS):
        for member in members:
            if relative == member or (member.endswith(".*") and relative.startswith(member[:-1])):
                return number
    raise AssertionError(f"{module} has no floor: add it to FLOORS in tests/project/test_layers.py "
                         "(and README.md's map)")


def resolve(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package modules an import statement loads (``from . import x`` loads module ``x`` when there is one)."""
    is_package = MODULES[module].name == "__init__.py"
    here = module.split(".") if is_package else module.split(".")[:-1]
    targets: list[str] = []
    if isinstance(node, ast.ImportFrom):
        base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else [])) if node.level \
            else (node.module or "")
        targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    else:
        targets = [alias.name for alias in node.names]
    found = []
    for target in targets:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target:
            found.append(target)
    return found


def import_edges() -> dict[str, dict[str, int]]:
    """For each module, the package modules it imports and the line of the first such import."""
    edges: dict[str, dict[str, int]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        out = edges.setdefault(module, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in resolve(module, node):
                    if target != module:
                        out.setdefault(target, node.lineno)
    return edges


EDGES = import_edges()


def test_every_module_has_a_floor() -> None:
    for module in MODULES:
        floor_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_point_down(module: str) -> None:
    mine = floor_of(module)
    upward = [f"{target} (line {line}, floor '{FLOORS[floor_of(target)][0]}')"
              for target, line in EDGES[module].items() if floor_of(target) > mine]
    assert not upward, f"{module} (floor '{FLOORS[mine][0]}') imports from above: {', '.join(upward)}"


def test_no_module_below_the_face_imports_it() -> None:
    face = floor_of("tableaux")
    users = [m for m, targets in EDGES.items() if "tableaux" in targets and floor_of(m) < face]
    assert not users, f"these modules import the package's face from below it: {users}"


def test_there_is_no_import_cycle() -> None:
    """Depth-first search over every import statement; a back edge is a cycle, reported with its path."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(EDGES[module]):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(MODULES):
        if module not in state and (cycle := visit(module)) is not None:
            pytest.fail("import cycle: " + " -> ".join(cycle))


def part_of(module: str) -> str:
    """The top-level part a module belongs to: ``tableaux.advice.fair.planner`` is in ``advice``."""
    relative = module.removeprefix("tableaux").removeprefix(".")
    return relative.split(".")[0] or "(face)"


def test_there_is_no_cycle_between_the_top_level_parts() -> None:
    """Parts on one floor (cli, terminal, web) may use each other, but never both ways round."""
    parts: dict[str, set[str]] = {}
    for module, targets in EDGES.items():
        for target in targets:
            if part_of(module) != part_of(target):
                parts.setdefault(part_of(module), set()).add(part_of(target))
    both_ways = sorted(f"{a} <-> {b}" for a, outs in parts.items() for b in outs
                       if a < b and a in parts.get(b, set()))
    assert not both_ways, f"top-level parts that import each other: {both_ways}"


def test_the_cycle_check_sees_imports_inside_functions_and_for_type_checkers() -> None:
    """The walk counts an import placed inside a function or under ``if TYPE_CHECKING:``: that is how a cycle
    hides."""
    for source in ("def f():\n    from ..play.game import Game\n",
                   "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..play.game import Game\n"):
        tree = ast.parse(source)
        node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level)
        assert resolve("tableaux.advice.heuristic", node) == ["tableaux.play.game"]


README = SRC.parent / "README.md"


def test_readme_map_names_every_module_and_package() -> None:
    """README's "Layout of the code" lists each top-level module and package, so a newcomer's map is whole."""
    text = README.read_text()
    layout = text[text.index("## Layout of the code"):]
    layout = layout[:layout.index("\n## ", 3)]
    parts = [p.name + "/" if p.is_dir() else p.name for p in PACKAGE.iterdir()
             if (p.suffix == ".py" and p.name != "__main__.py") or (p / "__init__.py").exists()]
    missing = [name for name in parts if name not in layout]
    assert not missing, f"README's layout leaves out {missing}"


def test_readme_links_every_doc() -> None:
    text = README.read_text()
    docs = SRC.parent / "docs"
    missing = [p.name for p in docs.glob("*.md") if f"(docs/{p.name})" not in text]
    assert not missing, f"README links no {missing}"
