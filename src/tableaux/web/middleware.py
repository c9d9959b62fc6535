"""ASGI middleware: what every response carries, and what every request body must be before a route reads it."""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ..i18n import _, negotiate, ngettext, speaking
from .errors import error_body
from .identity import COOKIE, COOKIE_MAX_AGE, ISSUED
from .limits import REFUSALS, STEP_OUT, address_bucket
from .models import TOKEN_HEADER, Conflict, Error, Unavailable

MAX_BODY = 16 * 1024
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


async def send_json(send: Send, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HttpMiddleware:
    """What every middleware here shares: it wraps ``app`` and acts on HTTP requests only, in :meth:`http`;
    lifespan and other scopes pass straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class HeadAsGet(HttpMiddleware):
    """HEAD is answered as GET would be, without the body, as HTTP means it: the routes take GET alone, and uptime
    monitors and load balancers often ask with HEAD (it was 405). The headers, Content-Length among them, are
    GET's."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class SecurityHeaders(HttpMiddleware):
    """Security headers on every response, and (optionally) a Host allow-list against DNS rebinding."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...] | None = None) -> None:
        super().__init__(app)
        self.allowed_hosts = allowed_hosts

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        is_api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in dict(SECURITY_HEADERS)]
                headers += SECURITY_HEADERS
                if is_api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        if self.allowed_hosts is not None:
            host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in self.allowed_hosts:
                body = error_body(f"unexpected Host {host!r}; this server answers to {', '.join(self.allowed_hosts)}")
                await send_json(send_with_headers, 400, body)
                return
        await self.app(scope, receive, send_with_headers)


class JsonBodies(HttpMiddleware):
    """Request bodies: at most ``limit`` bytes (413), and API bodies JSON sent as application/json (415, 400).

    The routes' pydantic models then check what the JSON says. Checking the
    media type here, exactly, is also what keeps a cross-site HTML form (which
    cannot send application/json) from ever changing a game.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        super().__init__(app)
        self.limit = limit

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        too_big = error_body(f"request body too large: at most {self.limit} bytes are accepted")
        headers = dict(scope.get("headers", []))
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await send_json(send, 400, error_body("Content-Length must be a whole number of bytes"))
                return
            if int(length) > self.limit:
                await send_json(send, 413, too_big, [(b"connection", b"close")])
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app will see the disconnect
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await send_json(send, 413, too_big, [(b"connection", b"close")])
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        # Only an empty body is no body. White space alone is not JSON, so an API route
        # refuses it like any other text that is not, even where its body is optional.
        if body and scope["path"].startswith("/api/"):
            refusal = json_refusal(body, headers.get(b"content-type", b"").decode("latin-1"))
            if refusal is not None:
                await send_json(send, *refusal)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def json_refusal(body: bytes, content_type: str) -> tuple[int, bytes] | None:
    """Why a request body is not JSON sent as application/json, as ``(status, error body)``; None if it is."""
    media = content_type.split(";")[0].strip().lower()
    if media != "application/json":
        shown = media or "none"
        return 415, error_body(f"request body must be JSON sent as Content-Type: application/json, not {shown}")
    try:
        json.loads(body)
    except (ValueError, RecursionError) as exc:
        return 400, error_body(f"request body is not valid JSON: {exc}")
    return None


class IdentityHeaders(HttpMiddleware):
    """Hand the player's token back: a new player gets the cookie (and the token, for scripts); a script that
    sent the token as a header gets it again, so a generic client can follow links from answer to request."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:

        async def send_with_identity(message: Message) -> None:
            issued = scope.get(ISSUED)
            if issued is not None and message["type"] == "http.response.start":
                token, new = issued
                extra = [(TOKEN_HEADER.lower().encode(), token.encode())]
                if new:
                    cookie = f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_MAX_AGE}; HttpOnly; SameSite=Lax"
                    # Over HTTPS (its own, or a trusted proxy's X-Forwarded-Proto, which uvicorn reads into the
                    # scheme), the token, the player's only key, is never sent back over plain HTTP.
                    if scope.get("scheme") == "https":
                        cookie += "; Secure"
                    extra.append((b"set-cookie", cookie.encode()))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_identity)


class RequestLanguage(HttpMiddleware):
    """Answer each request in the language of its Accept-Language header (English without one).

    The page sends the language it shows with every API call, so a hint or a
    refused move reads in that language; scripts that send no header get English.
    """

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        header = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
        with speaking(negotiate(header)):
            await self.app(scope, receive, send)


CHECK_ANSWERS = "TABLEAUX_CHECK_ANSWERS"
"""1 turns the answer check on (:class:`AnswerCheck`): the test suite sets it for every app it builds and every
server it starts."""
BROKEN = ("internal error: the server's answer did not match the API's description, so it was not sent; "
          "reload to see the game as it is")


class ContractBroken(RuntimeError):
    """An answer that does not match the model its route declares: a fault of the server, never of the request."""


@functools.cache
def adapter(model: Any) -> TypeAdapter[Any]:
    return TypeAdapter(model)


def answer_model(route: Any, status: int) -> Any:
    """The model an answer with ``status`` must match: the route's declared one (errors: :class:`Error`,
    :class:`Conflict` for a 409, :class:`Unavailable` for a 503 or 507); None when the route declares no such
    success."""
    if status >= 400:
        return Conflict if status == 409 else Unavailable if status in (503, 507) else Error
    if route is None:
        return None
    if status == route.status_code:
        return route.response_model
    return (route.responses.get(status) or {}).get("model")


def check_answer(scope: Scope, status: int, body: bytes) -> None:
    """Raise :class:`ContractBroken` unless ``body`` validates, strictly, against the model declared for it."""
    route = scope.get("route")
    model = answer_model(route, status)
    where = f"{scope['method']} {scope['path']} answered {status}"
    if model is None:
        raise ContractBroken(f"{where}, which its route does not declare")
    try:
        adapter(model).validate_json(body, strict=True)
    except ValidationError as exc:
        raise ContractBroken(f"{where} with an answer that breaks its model {getattr(model, '__name__', model)}: "
                             f"{exc}") from None


class AnswerCheck(HttpMiddleware):
    """Every JSON answer of the API is validated, strictly, against the model its route declares before it goes
    out, so the API's description (``/openapi.json``) is a promise the server keeps.

    An answer that breaks its model is never sent: the client gets a 500 saying so, and
    :class:`ContractBroken` is raised (the server logs it; a test client raises it in the test). The test
    suite runs every app and server with it; production leaves it out, as it costs about 5% of the server's
    CPU per request (docs/api.md gives the measurement).
    """

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not scope["path"].startswith("/api/") or scope["method"] == "HEAD":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def held(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(chunks)
            status = start["status"]
            media = dict(start.get("headers", [])).get(b"content-type", b"").split(b";")[0].strip()
            if not 300 <= status < 400:  # a redirect (of a doubled slash) has no answer of its own to check
                if media != b"application/json":
                    raise ContractBroken(f"{scope['method']} {scope['path']} answered {status} as "
                                         f"{media.decode('latin-1')!r}, not JSON")
                try:
                    check_answer(scope, status, body)
                except ContractBroken:
                    await send_json(send, 500, error_body(BROKEN))
                    raise
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, held)


class AddressShare(HttpMiddleware):
    """At most ``limit`` API requests of one client address in hand at once in this process (Limits); beyond, a 429
    with Retry-After at once, before the request costs anything. Counted in the event loop, where every request of
    the process starts and ends, so no lock is needed. The address is the socket's, or a trusted proxy's
    X-Forwarded-For (uvicorn puts it in the scope first).

    A request that waits for a solver worker is out of the count while it waits (:data:`limits.STEP_OUT`): the
    solver pool shares its places out by address itself, so that players behind one address may each wait for
    one; what the request does in this process before and after counts."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        super().__init__(app)
        self.limit = limit
        self.in_hand: dict[str, int] = {}

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        client, path = scope.get("client"), scope["path"]
        if not path.startswith("/api/") or not client:
            await self.app(scope, receive, send)
            return
        address = address_bucket(client[0])
        count = self.in_hand.get(address, 0)
        if count >= self.limit:
            REFUSALS.note("address share", lambda refused: ngettext(
                "{count} request refused: its address had {limit} in hand already, since the last such line.",
                "{count} requests refused: their address had {limit} in hand already, since the last such line.",
                refused).format(count=refused, limit=self.limit), source=address)
            body = error_body(_("too many requests at once from one address: at most {limit}; try again in a "
                                "moment").format(limit=self.limit))
            await send_json(send, 429, body, [(b"retry-after", b"1")])
            return
        self._enter(address)
        token = STEP_OUT.set(functools.partial(self._stepped_out, address))
        try:
            await self.app(scope, receive, send)
        finally:
            STEP_OUT.reset(token)
            self._leave(address)

    def _enter(self, address: str) -> None:
        self.in_hand[address] = self.in_hand.get(address, 0) + 1

    def _leave(self, address: str) -> None:
        left = self.in_hand[address] - 1
        if left:
            self.in_hand[address] = left
        else:
            del self.in_hand[address]

    @contextlib.contextmanager
    def _stepped_out(self, address: str) -> Iterator[None]:
        self._leave(address)
        try:
            yield
        finally:
            self._enter(address)
