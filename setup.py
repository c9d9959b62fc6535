"""Builds the solver's optional C core; everything else is in pyproject.toml.

``optional=True``: where no C compiler is at hand, ``pip install .`` still
succeeds and the pure-Python solver runs instead (``tableaux.solver.BACKENDS``
says which are present).
"""

from setuptools import Extension, setup

CORE_SOURCES = [
    "_core", "core/cards", "core/king_albert", "core/eagle_wing", "core/table", "core/search", "core/solve",
    "core/bestfirst", "core/layered", "core/layered_keys", "core/layered_line",
    "core/layered_disk", "core/relaxed",
]
"""The C files of the solver's core (tests/solver/test_sanitizer.py builds the same list)."""

setup(
    ext_modules=[
        Extension(
            "tableaux.solver._core",
            sources=[f"src/tableaux/solver/{name}.c" for name in CORE_SOURCES],
            depends=["src/tableaux/solver/core/core.h", "src/tableaux/solver/core/king_albert.h",
                     "src/tableaux/solver/core/layered.h"],
            extra_compile_args=["-O2", "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        )
    ]
)
