"""Who is asking: the player cookie, or a token in a header for scripts and generic API clients.

Both are declared as OpenAPI security schemes, either one identifies the
player, and neither is required: a request without them gets a new identity
(a cookie, and the token in an ``X-Player-Token`` answer header). A token the
server did not issue is never adopted: in a cookie it is replaced by a new
identity (so nobody can choose or fix another browser's identity), and in the
header it is refused with 401, since a script that sends one expects to be
that player.

New identities cost nothing in the database: the store signs its tokens, and a
player's row is written with the first game it starts. The signing key is kept
in the database too, so every server process on it, on any machine, issues and
recognises the same tokens: a player's requests may land on any of them.
"""

from __future__ import annotations

import re
from typing import Annotated

import anyio
from fastapi import Depends, Header, Request, Security
from fastapi.security import APIKeyCookie, APIKeyHeader

from ..i18n import _
from .errors import ApiError
from .limits import address_bucket
from .models import TOKEN_HEADER
from .store import Store

COOKIE = "tableaux_player"
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
ISSUED = "tableaux.token"
"""Scope key: ``(token, new)`` for the answer to hand back (see :class:`~tableaux.web.middleware.IdentityHeaders`)."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")

player_cookie = APIKeyCookie(
    name=COOKIE, scheme_name="playerCookie", auto_error=False,
    description="Set by the server on a player's first request; browsers send it back by themselves.",
)
player_token = APIKeyHeader(
    name=TOKEN_HEADER, scheme_name="playerToken", auto_error=False,
    description="The same identity for scripts: the value of an earlier answer's X-Player-Token header.",
)


async def player_of(store: Store, token: str | None) -> str | None:
    if token is None or not _TOKEN.fullmatch(token):
        return None
    player = store.player_for_signed(token)
    if player is None:  # maybe a token from before tokens were signed: that needs the database
        player = await anyio.to_thread.run_sync(store.player_for, token)
    return player


async def current_player(
    request: Request,
    cookie: Annotated[str | None, Security(player_cookie)],
    scheme_token: Annotated[str | None, Security(player_token)],
    token: Annotated[str | None, Header(alias=TOKEN_HEADER, description=player_token.model.description)] = None,
) -> str:
    """The player asking. The token header is declared as a parameter as well as a security scheme, because
    OpenAPI links fill parameters: that is how a generic client carries it from one answer to the next request."""
    store: Store = request.app.state.store
    if token is not None:
        player = await player_of(store, token)
        if player is None:
            raise ApiError(401, _("{header} is not a token this server issued; send the one an earlier answer gave "
                                  "in its {header} header, or none to become a new player").format(header=TOKEN_HEADER))
        request.scope[ISSUED] = (token, False)
        return player
    player = await player_of(store, cookie)
    if player is None:
        token, player = store.issue_player()
        request.scope[ISSUED] = (token, True)
    return player


Player = Annotated[str, Depends(current_player)]


def client_address(request: Request) -> str | None:
    """The client's address as the limits count it (:func:`~tableaux.web.limits.address_bucket`): the socket's, or
    the one a trusted proxy forwarded; None without one. The solver pool shares its places out by it: a player id
    costs nothing to make, an address does."""
    client = request.scope.get("client")
    return address_bucket(client[0]) if client else None


Client = Annotated[str | None, Depends(client_address)]
