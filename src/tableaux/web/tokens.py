"""Player tokens: how the server makes one, recognises its own, and turns one into a player id.

A token is random bytes and their MAC under a key the store keeps in the database, so any server process
recognises the tokens of any other without a row per visitor; a player id is the token's hash, so reading the
database gives no one a cookie. These are pure functions of the key and the token, apart from the store's
reading and writing (:class:`~tableaux.web.store.Store` holds the key and calls them).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable

TOKEN_RANDOM = 16
TOKEN_MAC = 16
"""A token is 16 random bytes and 16 bytes of their MAC: 43 URL-safe characters, like the tokens before it."""


def hash_token(token: str) -> str:
    """Player ids are hashes of the cookie, so reading the database does not give anyone's cookie."""
    return hashlib.sha256(token.encode()).hexdigest()


def mac(key: bytes, random_part: bytes) -> bytes:
    return hmac.new(key, random_part, hashlib.sha256).digest()[:TOKEN_MAC]


def new_token(key: bytes) -> tuple[str, str]:
    """A fresh identity signed with ``key``: ``(token, player id)``."""
    random_part = secrets.token_bytes(TOKEN_RANDOM)
    token = base64.urlsafe_b64encode(random_part + mac(key, random_part)).rstrip(b"=").decode()
    return token, hash_token(token)


def signed_player(key: Callable[[], bytes], token: str) -> str | None:
    """The player of a token signed with the key ``key()`` gives, or None. The key is asked for only once the
    token is well formed, so a malformed one is refused even while the database that keeps the key is away."""
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii") + b"=")
    except (ValueError, UnicodeEncodeError):
        return None
    if (
        len(raw) == TOKEN_RANDOM + TOKEN_MAC
        and base64.urlsafe_b64encode(raw).rstrip(b"=").decode() == token  # the spare bits too, exactly
        and hmac.compare_digest(raw[TOKEN_RANDOM:], mac(key(), raw[:TOKEN_RANDOM]))
    ):
        return hash_token(token)
    return None
