"""The package is built in floors, and every import points down: no cycle, not even through an import in a function.

From the ground up: cards and deals; the engine; the games and their registry;
a game in progress; the solver; fair play and hints; the catalogue; the
package's face (``tableaux/__init__.py``); the user interfaces. Each module's
floor is listed below, and a new module must be given one, so the map in
README.md stays true. Imports under ``if TYPE_CHECKING:`` are left out: they
never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "tableaux"

FLOORS: list[tuple[str, list[str]]] = [
    ("cards and deals", ["i18n", "i18n.update", "cards", "deal", "statistics", "watchdog"]),
    ("engine", ["engine"]),
    ("the games", ["king_albert", "eagle_wing", "registry"]),
    ("game", ["game", "board", "saves"]),
    ("solver", ["solver", "solver.*"]),
    ("fair and hints", ["heuristic", "fair", "fair.*", "hints"]),
    ("catalogue", ["catalogue", "catalogue.*"]),
    ("the package's face", [""]),
    ("user interfaces", ["__main__", "cli", "cli.*", "terminal", "terminal_fair", "terminal_help", "unfinished",
                         "web", "web.*"]),
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
    raise AssertionError(f"{module} has no floor: add it to FLOORS in tests/test_layers.py (and README.md's map)")


def type_checking_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return skipped


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
        skipped = type_checking_nodes(tree)
        out = edges.setdefault(module, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skipped:
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


def test_the_cycle_check_sees_imports_inside_functions() -> None:
    """The walk must count an import placed inside a function: that is how a cycle hides."""
    source = "def f():\n    from .game import Game\n"
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom))
    assert resolve("tableaux.board", node) == ["tableaux.game"]
    assert not type_checking_nodes(tree)


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
