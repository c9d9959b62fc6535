"""One client address's share of the requests a server process has in hand: beyond it, 429 at once, so that a
client keeping dozens of connections busy cannot make every other player's move wait behind its requests.

Driven through the middleware itself with requests held open on an event, so "in hand at once" is exact: no
timing, no threads."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi.testclient import TestClient

from tableaux.web.app import create_app, pool_routes
from tableaux.web.limits import Limits
from tableaux.web.middleware import AddressShare

LIMIT = 3


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

        share = AddressShare(app, limit=LIMIT, exempt=pool_routes())
        held = [asyncio.create_task(ask(share, scope("198.51.100.7"))) for _ in range(LIMIT)]
        await asyncio.sleep(0)  # they start, and wait in the app
        assert started == ["198.51.100.7"] * LIMIT
        status, headers, body = await ask(share, scope("198.51.100.7"))  # answered at once, never reaching the app
        assert status == 429 and headers["retry-after"] == "1"
        assert json.loads(body) == {"error": f"too many requests at once from one address: at most {LIMIT}; try "
                                             "again in a moment"}
        assert len(started) == LIMIT
        other = asyncio.create_task(ask(share, scope("203.0.113.9")))  # another address has a share of its own
        page = asyncio.create_task(ask(share, scope("198.51.100.7", "/static/app.js")))  # the page's files: free
        chance = asyncio.create_task(ask(share, scope("198.51.100.7", "/api/games/abc/chance")))  # the pool's
        await asyncio.sleep(0)
        assert started.count("203.0.113.9") == 1 and len(started) == LIMIT + 3
        release.set()
        assert [(await t)[0] for t in (*held, other, page, chance)] == [200] * (LIMIT + 3)
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


def test_the_app_refuses_in_the_players_language_and_every_refusal_has_the_error_shape(tmp_path: Any) -> None:
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_address=0))
    with TestClient(app) as client:
        r = client.get("/api/games/info", headers={"Accept-Language": "de"})
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert r.json()["error"].startswith("zu viele") and "0" in r.json()["error"]
        assert client.get("/").status_code == 200  # the page itself is not an API request


def test_the_solver_routes_are_left_to_the_pool_and_every_other_api_route_is_counted(tmp_path: Any) -> None:
    app = create_app(tmp_path / "g.sqlite3", limits=Limits(requests_per_address=0))
    with TestClient(app) as client:
        for path in ("/api/games/abc/chance", "/api/games/abc/lost"):
            assert client.get(path).status_code == 404  # reached the route: no such game
        for path in ("/api/games/abc/hint", "/api/games/abc/solution"):
            assert client.post(path, json={"version": 0}).status_code == 404
        assert client.get("/api/games/abc").status_code == 429
        assert client.get("/api/games/abc/refusal", params={"source": "T1", "target": "T2"}).status_code == 429
        assert client.post("/api/games/abc/hint/x").status_code == 429  # only the routes themselves
