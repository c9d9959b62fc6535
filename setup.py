"""Builds the solver's optional C core; everything else is in pyproject.toml.

``optional=True``: where no C compiler is at hand, ``pip install .`` still
succeeds and the pure-Python solver runs instead (``tableaux.solver.BACKENDS``
says which are present).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tableaux.solver._core",
            sources=["src/tableaux/solver/_core.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
