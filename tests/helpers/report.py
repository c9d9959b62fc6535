"""Figures from the reliability tests, handed to ``benchmarks/reliability.py``."""

from __future__ import annotations

import json
import os
from typing import Any


def report(kind: str, figures: dict[str, Any]) -> None:
    """Hand a run's figures to benchmarks/reliability.py, which names a file in TABLEAUX_RELIABILITY_OUT."""
    out = os.environ.get("TABLEAUX_RELIABILITY_OUT")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps({"kind": kind, **figures}) + "\n")
