"""The one shape of every refusal: JSON ``{"error": "..."}`` with a 4xx or 5xx status (and more fields on a 409
and a 503), sometimes with headers (Retry-After on 429 and 503)."""

from __future__ import annotations

import json
from typing import Any


class ApiError(Exception):
    """A refusal: status, message, optionally more fields (the 409 carries the current view) and headers."""

    def __init__(self, status: int, message: str, *, headers: dict[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.extra = extra


def error_body(message: str, **extra: Any) -> bytes:
    return json.dumps({"error": message, **extra}).encode()
