"""The C core's modules as its header (core/cards.h) maps them: each .c file has its own header, every module
includes and calls only modules below it (no cycle), every symbol with external linkage is named ``tx_*``, and
the built extension exports nothing but its Python entry point.

The calls are read from the compiled objects themselves (``nm``): a module's undefined symbols are the ones
it calls or reads in other modules, so the graph is the linker's, not a guess from the text.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

SOLVER = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "solver"
CORE = SOLVER / "core"

LAYERS = [
    "cards", "king_albert", "eagle_wing", "game", "hashset", "table", "budget", "shorten", "polish", "search",
    "bestfirst", "relaxed", "verdicts", "layered_keys", "layered_disk", "layered_class", "layered_line", "layered",
    "complete", "pass", "solve", "_core_args", "_core",
]
"""The modules from the bottom up: a module may include and call only those before it."""

INCLUDE = re.compile(r'^#include "(?:core/)?(\w+)\.h"', re.MULTILINE)


def tool(name: str) -> str:
    """A build tool's path; the test is skipped without it, except in CI, where it must be there."""
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must check the C core's modules, but there is no {name}")
        pytest.skip(f"no {name}")
    return path


def sources() -> dict[str, Path]:
    return {"_core": SOLVER / "_core.c", "_core_args": SOLVER / "_core_args.c",
            **{path.stem: path for path in sorted(CORE.glob("*.c"))}}


def headers() -> list[Path]:
    """Every module's header but _core's (the Python module has none): core's, and the Python face's own."""
    return [*CORE.glob("*.h"), SOLVER / "_core_args.h"]


def defined_and_used(objects: dict[str, Path]) -> dict[str, tuple[set[str], set[str]]]:
    """Each module's symbols with external linkage, and the symbols it uses from elsewhere."""
    nm = tool("nm")
    out = {}
    for module, obj in objects.items():
        defined, used = set(), set()
        for line in subprocess.run([nm, str(obj)], capture_output=True, text=True, check=True).stdout.splitlines():
            kind, name = line.split()[-2:]
            if kind == "U":
                used.add(name)
            elif kind.isupper():
                defined.add(name)
        out[module] = (defined, used)
    return out


@pytest.fixture(scope="module")
def objects(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every module compiled on its own, as setup.py compiles it (without optimisation: every call stays)."""
    cc = tool("gcc")
    out = tmp_path_factory.mktemp("core-objects")
    built = {}
    for module, source in sources().items():
        target = out / f"{module}.o"
        subprocess.run([cc, "-c", "-fPIC", "-O0", "-pthread", "-fvisibility=hidden",
                        f"-I{sysconfig.get_paths()['include']}", str(source), "-o", str(target)],
                       check=True, capture_output=True)
        built[module] = target
    return built


def test_the_layer_list_names_every_module_and_each_c_file_has_its_own_header() -> None:
    stems = {path.stem for path in headers()}
    assert set(sources()) | stems == set(LAYERS)
    assert set(sources()) - {"_core"} <= stems


def test_every_module_includes_only_the_headers_of_modules_below_it() -> None:
    files = [*sources().values(), *headers()]
    for path in files:
        here = LAYERS.index(path.stem)
        for name in INCLUDE.findall(path.read_text()):
            if name == path.stem:
                continue  # a module's .c includes its own header
            assert LAYERS.index(name) < here, f"{path.name} includes {name}.h, which is not below it"


def test_every_module_calls_only_modules_below_it_so_no_two_call_each_other(objects: dict[str, Path]) -> None:
    symbols = defined_and_used(objects)
    owner = {name: module for module, (defined, _) in symbols.items() for name in defined}
    for module, (_, used) in symbols.items():
        for name in used:
            if name in owner:
                below = LAYERS.index(owner[name]) < LAYERS.index(module)
                assert below, f"{module} uses {name} from {owner[name]}, which is not below it"


def test_every_symbol_with_external_linkage_is_named_tx(objects: dict[str, Path]) -> None:
    for module, (defined, _) in defined_and_used(objects).items():
        stray = {name for name in defined if not name.startswith("tx_")} - {"PyInit__core"}
        assert not stray, f"{module} defines {sorted(stray)} without the tx_ prefix"


def test_the_built_extension_exports_only_its_python_entry_point() -> None:
    from tableaux.solver import _core

    if _core is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the C core")
        pytest.skip("the C core is not built")
    nm = tool("nm")
    listing = subprocess.run([nm, "-D", "--defined-only", _core.__file__], capture_output=True, text=True, check=True)
    exported = {line.split()[-1] for line in listing.stdout.splitlines() if line.split()[-2] not in "wvV"}
    assert exported == {"PyInit__core"}
