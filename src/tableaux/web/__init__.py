"""The browser game: a FastAPI app over the engine, with saved games and statistics in SQLite or PostgreSQL.

``create_app`` is imported on first use, so the solver pool's worker processes,
which import :mod:`tableaux.web.pool`, do not load the web framework.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
