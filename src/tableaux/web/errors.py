"""The one shape of every refusal: JSON ``{"error": "..."}`` with a 4xx status (and more fields on a 409)."""

from __future__ import annotations

import json
from typing import Any


class ApiError(Exception):
    """A client error: status, message, and optionally more fields (the 409 carries the current view)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def error_body(message: str, **extra: Any) -> bytes:
    return json.dumps({"error": message, **extra}).encode()
