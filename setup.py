"""Builds the optional C extensions; everything else is in pyproject.toml.

The solver's core, and the deal's shuffle (``tableaux.rulebook._deal``, the
compiled twin of ``deal.py``'s, which every solve of a deal number starts with).
``optional=True``: where no C compiler is at hand, ``pip install .`` still
succeeds and the Python code runs instead (``tableaux.solver.BACKENDS`` says
whether the core is present).
"""

from pathlib import Path

from setuptools import Extension, setup

CORE_SOURCES = [
    "_core", "_core_args", "core/cards", "core/king_albert", "core/eagle_wing", "core/table", "core/budget",
    "core/search", "core/bestfirst", "core/relaxed", "core/verdicts", "core/layered_keys", "core/layered_disk",
    "core/layered_class", "core/layered_line", "core/layered", "core/complete", "core/pass", "core/solve",
    "core/shorten", "core/polish",
]
"""The C files of the solver's core (tests/solver/test_sanitizer.py builds the same list)."""

setup(
    ext_modules=[
        Extension(
            "tableaux.solver._core",
            sources=[f"src/tableaux/solver/{name}.c" for name in CORE_SOURCES],
            depends=["src/tableaux/solver/_core_args.h",
                     *(str(header) for header in Path("src/tableaux/solver/core").glob("*.h"))],
            # Only PyInit__core is exported; every other symbol (all named tx_*) stays inside the module.
            extra_compile_args=["-O2", "-pthread", "-fvisibility=hidden"],
            extra_link_args=["-pthread"],
            optional=True,
        ),
        Extension("tableaux.rulebook._deal", sources=["src/tableaux/rulebook/_deal.c"],
                  extra_compile_args=["-O2"], optional=True),
    ]
)
