"""One client address's share of the requests a server process has in hand: beyond it, 429 at once, so that a
client keeping dozens of connections busy cannot make every other player's move wait behind its requests.

Driven through the middleware itself with requests held open on an event, so "in hand at once" is exact: no
timing, no threads."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tableaux.web.app import create_app
from tableaux.web.limits import Limits, waiting_for_solver
from tableaux.web.middleware import AddressShare

LIMIT = 3
PROXY = "10.0.0.5"


def scope(address: str, path: str = "/api/games/info") -> dict[str, Any]:
    return {"type": "http", "path": path, "client": (address, 50000), "headers": []}


async def ask(share: AddressShare, where: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    said: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        said.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    await share(where, receive, send)
    start = said[0]
    headers = {k.decode(): v.decode() for k, v in start.get("headers", [])}
    return start["status"], headers, b"".join(m.get("body", b"") for m in said[1:])


def test_one_address_gets_its_share_in_hand_and_429_beyond_it_at_once_while_others_are_served() -> None:
    async def run() -> None:
        release = asyncio.Event()
        started: list[str] = []

        async def app(where: dict[str, Any], _receive: Any, send: Any) -> None:
            started.append(where["client"][0])
            await release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        share = AddressShare(app, limit=LIMIT)
        held = [asyncio.create_task(ask(share, scope("198.51.100.7"))) for _ in range(LIMIT)]
        await asyncio.sleep(0)  # they start, and wait in the app
        assert started == ["198.51.100.7"] * LIMIT
        status, headers, body = await ask(share, scope("198.51.100.7"))  # answered at once, never reaching the app
        assert status == 429 and headers["retry-after"] == "1"
        assert json.loads(body) == {"error": f"too many requests at once from one address: at most {LIMIT}; try "
                                             "again in a moment"}
        assert len(started) == LIMIT
        assert (await ask(share, scope("198.51.100.7", "/api/games/abc/hint")))[0] == 429  # a solver route too
        other = asyncio.create_task(ask(share, scope("203.0.113.9")))  # another address has a share of its own
        page = asyncio.create_task(ask(share, scope("198.51.100.7", "/static/app.js")))  # the page's files: free
        await asyncio.sleep(0)
        assert started.count("203.0.113.9") == 1 and len(started) == LIMIT + 2
        release.set()
        assert [(await t)[0] for t in (*held, other, page)] == [200] * (LIMIT + 2)
        assert share.in_hand == {}  # every request gave its place back
        assert (await ask(share, scope("198.51.100.7")))[0] == 200

    asyncio.run(run())


def test_an_ipv6_client_counts_by_its_network_as_the_other_limits_do() -> None:
    async def run() -> None:
        release = asyncio.Event()

        async def app(_where: Any, _receive: Any, send: Any) -> None:
            await release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        share = AddressShare(app, limit=1)
        held = asyncio.create_task(ask(share, scope("2001:db8::1")))
        await asyncio.sleep(0)
        assert (await ask(share, scope("2001:db8::2")))[0] == 429  # the same /64
        release.set()
        assert (await held)[0] == 200

    asyncio.run(run())


@pytest.mark.parametrize(("first", "second"), [
    ("203.0.113.5:41234", "203.0.113.5:41235"),
    ("[2001:db8::1]:443", "[2001:db8::1]:8443"),
])
@pytest.mark.parametrize("port_left_in", [True, False], ids=["port-left-in-the-address", "port-read-apart"])
def test_one_client_behind_a_trusted_proxy_has_one_share_whatever_port_the_proxy_gives(
    first: str, second: str, port_left_in: bool,
) -> None:
    """A proxy may give the client's address with the port of its connection (X-Forwarded-For: 203.0.113.5:41234),
    a new one for each connection. uvicorn's proxy headers read the port apart (``port-read-apart``), or, before
    version 0.45, leave it in the address (``port-left-in-the-address``); either way the client has one share."""
    async def run() -> None:
        release = asyncio.Event()
        started: list[object] = []

        async def app(where: Any, _receive: Any, send: Any) -> None:
            started.append(where["client"])
            if len(started) == 1:  # the first request is held in hand; any other is answered at once
                await release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        share = AddressShare(app, limit=1)

        def via_proxy(forwarded: str) -> dict[str, Any]:
            if port_left_in:
                return scope(forwarded) | {"client": (forwarded, 0)}
            return scope(PROXY) | {"headers": [(b"x-forwarded-for", forwarded.encode())]}

        entry: Any = share if port_left_in else ProxyHeadersMiddleware(share, trusted_hosts=[PROXY])
        held = asyncio.create_task(ask(entry, via_proxy(first)))
        await asyncio.sleep(0)
        assert len(share.in_hand) == 1
        assert (await ask(entry, via_proxy(second)))[0] == 429
        release.set()
        assert (await held)[0] == 200 and share.in_hand == {}

    asyncio.run(run())


def test_the_app_refuses_in_the_players_language_and_every_refusal_has_the_error_shape(tmp_path: Any) -> None:
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_address=0))
    with TestClient(app) as client:
        r = client.get("/api/games/info", headers={"Accept-Language": "de"})
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert r.json()["error"].startswith("zu viele") and "0" in r.json()["error"]
        assert client.get("/").status_code == 200  # the page itself is not an API request


def test_a_request_waiting_for_a_solver_worker_is_out_of_its_addresss_share_and_back_in_after() -> None:
    """Players behind one address may each wait for a solver answer (the pool shares its places by address); what
    a request does in the server's own threads counts, so a flood of hints answered by the rule of thumb, or of
    chances already worked out, gets 429 beyond the share (it was answered in full)."""
    async def run() -> None:
        solver, done = asyncio.Event(), asyncio.Event()
        waiting: list[int] = []

        async def app(where: dict[str, Any], _receive: Any, send: Any) -> None:
            if where["path"].endswith("/hint"):
                with waiting_for_solver():
                    waiting.append(1)
                    await solver.wait()
                await done.wait()  # after the worker's answer: counted again
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"{}"})

        share = AddressShare(app, limit=1)
        hints = [asyncio.create_task(ask(share, scope("198.51.100.7", "/api/games/abc/hint"))) for _ in range(3)]
        await asyncio.sleep(0)
        assert len(waiting) == 3 and share.in_hand == {}  # each one in turn, then out while it waits
        assert (await ask(share, scope("198.51.100.7")))[0] == 200  # the address's share is free meanwhile
        solver.set()
        await asyncio.sleep(0)
        assert share.in_hand == {"198.51.100.7": 3}  # back in, past the limit: nothing is refused half-way
        assert (await ask(share, scope("198.51.100.7")))[0] == 429
        done.set()
        assert [(await t)[0] for t in hints] == [200] * 3 and share.in_hand == {}

    asyncio.run(run())


def test_the_pool_steps_its_request_out_of_the_share_while_a_worker_answers() -> None:
    from contextlib import contextmanager

    from tableaux.web.limits import STEP_OUT
    from tableaux.web.pool import SolverPool

    seen: list[str] = []

    @contextmanager
    def step_out() -> Any:
        seen.append("out")
        yield
        seen.append("in")

    async def run() -> None:
        pool = SolverPool(workers=1)
        try:
            place = pool.reserve("198.51.100.7")
            assert place is not None
            STEP_OUT.set(step_out)
            assert await pool.run(place, abs, -3) == 3
        finally:
            pool.shutdown()

    asyncio.run(run())
    assert seen == ["out", "in"]
