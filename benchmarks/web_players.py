"""The simulated players of the web benchmarks: each with its own cookie, playing over loopback exactly as the
page does (every move a POST carrying the view's version), and timing each request.

:class:`Player` plays as fast as it can, in one tab or several racing on one game; :func:`steady_player` plays
a move a second, as a person does; :func:`hint_asker` asks for hints back to back. They know nothing of how the
servers were started (``web_servers.py``), only their URLs.
"""

from __future__ import annotations

import asyncio
import random
import time
from contextlib import AsyncExitStack
from typing import Any

import httpx2 as httpx


class Player:
    def __init__(self, url: str, seed: int, stop_at: float, latencies: dict[str, list[float]],
                 errors: dict[str, int]) -> None:
        self.url = url
        self.rng = random.Random(seed)
        self.stop_at = stop_at
        self.latencies = latencies
        self.errors = errors

    async def request(self, client: httpx.AsyncClient, kind: str, method: str, path: str,
                      body: dict[str, object] | None = None) -> httpx.Response:
        start = time.perf_counter()
        response = await client.request(method, path, json=body)
        self.latencies.setdefault(kind, []).append(time.perf_counter() - start)
        if response.status_code >= 400:
            key = f"{kind} {response.status_code}"
            self.errors[key] = self.errors.get(key, 0) + 1
        return response

    async def new_game(self, client: httpx.AsyncClient) -> dict[str, object]:
        game = self.rng.choice(("king-albert", "eagle-wing"))
        body = {"game": game, "deal": self.rng.randrange(1_000_000)}
        return (await self.request(client, "new game", "POST", "api/games", body)).json()

    async def play(self, tabs: int) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=30) as client:
            first = await self.new_game(client)
            await asyncio.gather(*(self.tab(client, first) for _ in range(tabs)))

    async def tab(self, client: httpx.AsyncClient, view: dict[str, object]) -> None:
        """One browser tab: plays from the view it has; a 409 hands it the current one, as the page does."""
        while time.monotonic() < self.stop_at:
            legal = view["legal_moves"]
            path = f"api/games/{view['id']}"
            if view["won"] or not legal:
                r = await self.request(client, "resume", "GET", "api/current")
                view = r.json() if r.status_code == 200 else await self.new_game(client)
                if view["won"] or not view["legal_moves"]:
                    view = await self.new_game(client)
                continue
            if view["moves"] and self.rng.random() < 0.1:
                r = await self.request(client, "undo", "POST", f"{path}/undo", {"version": view["version"]})
            else:
                move = self.rng.choice(legal)  # type: ignore[arg-type]
                r = await self.request(client, "move", "POST", f"{path}/moves",
                                       {"move": move, "version": view["version"]})
            data = r.json()
            view = data["view"] if r.status_code == 409 else data if r.status_code == 200 else view


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


Results = tuple[dict[str, list[float]], dict[str, int], float]


async def run(url: str, players: int, tabs: int, seconds: float) -> Results:
    latencies: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(*(Player(url, i, stop_at, latencies, errors).play(tabs) for i in range(players)))
    return latencies, errors, time.monotonic() - start


async def steady_player(urls: list[str], seed: int, seconds: float, latencies: list[float],
                        errors: dict[str, int], gate: asyncio.Barrier) -> int:
    """A person playing: one move a second (a new deal when done), for ``seconds``. With several ``urls``
    (servers on one database) the requests go to each in turn, with the one cookie the first server gave.

    Every player first makes its clients and its first game; the measured time starts once all have
    (``gate``): the benchmark measures players playing, not a crowd arriving in the same second (which
    costs the client process seconds of its own CPU, making its connections, and shows as slow moves)."""
    rng = random.Random(seed)
    moves = 0
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(httpx.AsyncClient(base_url=urls[0], timeout=30))
        clients = [first]

        async def new_game() -> dict[str, Any]:
            body = {"game": rng.choice(("king-albert", "eagle-wing")), "deal": rng.randrange(1_000_000)}
            return (await first.post("api/games", json=body)).json()  # type: ignore[no-any-return]

        view = await new_game()
        for url in urls[1:]:
            clients.append(await stack.enter_async_context(
                httpx.AsyncClient(base_url=url, timeout=30, cookies=first.cookies)))
            await clients[-1].get("api/games/info")  # its connection made before the clock starts
        await gate.wait()
        await asyncio.sleep(rng.random())  # players do not start, nor move, in step
        stop_at = time.monotonic() + seconds
        next_at = time.monotonic()
        while time.monotonic() < stop_at:
            next_at += 1.0
            if view["won"] or not view["legal_moves"]:
                view = await new_game()
            else:
                body = {"move": rng.choice(view["legal_moves"]), "version": view["version"]}
                start = time.perf_counter()
                r = await clients[moves % len(clients)].post(f"api/games/{view['id']}/moves", json=body)
                latencies.append(time.perf_counter() - start)
                moves += 1
                if r.status_code == 200:
                    view = r.json()
                else:
                    errors[f"move {r.status_code}"] = errors.get(f"move {r.status_code}", 0) + 1
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    return moves


def steady_step(urls: list[str], players: int, seconds: float, seed: int) -> tuple[list[float], dict[str, int]]:
    """``players`` players at a move a second for ``seconds``: the moves' latencies and the errors."""
    latencies: list[float] = []
    errors: dict[str, int] = {}

    async def run_all() -> None:
        gate = asyncio.Barrier(players)
        await asyncio.gather(*(steady_player(urls, seed + i, seconds, latencies, errors, gate)
                               for i in range(players)))

    asyncio.run(run_all())
    return latencies, errors


async def hint_asker(url: str, seed: int, stop_at: float, latencies: list[float], sources: dict[str, int],
                     errors: dict[str, int]) -> None:
    """A client asking for hints back to back, on positions the solver has to work on."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:
        while time.monotonic() < stop_at:
            view = (await client.post("api/games", json={"game": "king-albert", "deal": rng.randrange(10**6)})).json()
            for _ in range(5):
                if time.monotonic() >= stop_at:
                    break
                start = time.perf_counter()
                r = await client.post(f"api/games/{view['id']}/hint")
                latencies.append(time.perf_counter() - start)
                if r.status_code != 200:
                    errors[f"hint {r.status_code}"] = errors.get(f"hint {r.status_code}", 0) + 1
                    continue
                hint = r.json()["hint"]
                kind = "busy" if "busy" in hint["message"] else hint["source"]
                sources[kind] = sources.get(kind, 0) + 1
