"""Tests only: every Python process of a test run believes the machine has ``TABLEAUX_TEST_CPUS`` cores.

The suite must pass on any core count, and what depends on it (the web server's solver pool, survey
workers) is sized from ``os.cpu_count()`` in whichever process reads it: the test process, a
``python -m tableaux serve`` it starts, or that server's spawned workers. ``tests/conftest.py`` puts
this directory first on ``PYTHONPATH`` when the variable is set, so Python imports this file at the
start-up of every one of those processes (``site`` imports ``sitecustomize``), and patches its own
process the same way. For example::

    TABLEAUX_TEST_CPUS=16 python -m pytest tests/reliability/test_concurrency.py

Only the count is pretended: the machine still runs on its real cores.
"""

from __future__ import annotations

import os

VARIABLE = "TABLEAUX_TEST_CPUS"


def pretend_cpus() -> int | None:
    """Make ``os.cpu_count()`` (and ``os.process_cpu_count()`` where it exists) answer the pretended count."""
    text = os.environ.get(VARIABLE)
    if not text:
        return None
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise SystemExit(f"{VARIABLE} must be a whole number of cores, 1 or more (for example 16), not {text!r}")

    def cpu_count() -> int:
        return count

    os.cpu_count = cpu_count
    if hasattr(os, "process_cpu_count"):
        os.process_cpu_count = cpu_count
    return count


pretend_cpus()
