"""Typing into the terminal game from a test."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def scripted(lines: Iterable[str]) -> Callable[[str], str]:
    """An input function that types ``lines`` and then presses Ctrl-D."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read
