"""The browser game: a FastAPI app over the engine, with saved games and statistics in SQLite."""

from .app import create_app

__all__ = ["create_app"]
