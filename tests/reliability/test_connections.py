"""A server others can reach: slow or silent clients are let go, too many connections cannot stop it, and the
address a new game is counted against is the client's, or behind a trusted proxy the one it forwards.

These run the real server (uvicorn, its HTTP protocol with our deadline and cap, tests/helpers via
``python -m tableaux serve``) over raw sockets, on SQLite: none of it depends on the database. The servers
run with short deadlines (:data:`DEADLINES`: 3 s for a request to arrive, 2 s for an idle kept-alive
connection, where the defaults are 10 s and 5 s: :mod:`tableaux.web.connections`), so that what they let go
goes sooner. Waits are polls bounded by :data:`BOUND`, never paced by the deadlines themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import socket
import sys
import time
from pathlib import Path

import httpx2
import pytest
from uvicorn.server import ServerState

from helpers.net import free_port
from helpers.server import server, wait_until_answering
from tableaux.cli import serve
from tableaux.web.connections import KEEP_ALIVE, REQUEST_TIMEOUT
from tableaux.web.database import Database
from tableaux.web.server import settings_of
from tableaux.web.workers import server_config

BOUND = 90.0
"""Seconds any wait here may take before it counts as a failure."""
DEADLINES = ["--request-timeout", "3", "--keep-alive", "2"]
FILE_LIMIT = 256
LOW_FILE_LIMIT = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, ({FILE_LIMIT}, {FILE_LIMIT}))
from tableaux.cli import main
sys.exit(main(sys.argv[1:]))
"""


def address(url: str) -> tuple[str, int]:
    host, port = url.split("//")[1].rstrip("/").split(":")
    return host, int(port)


def closed_by_the_server(sock: socket.socket) -> tuple[bytes, float]:
    """Read until the server closes the connection: what it sent, and when it closed (seconds from now)."""
    started = time.monotonic()
    sock.settimeout(BOUND)
    received = b""
    while True:
        try:
            chunk = sock.recv(4096)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received, time.monotonic() - started


def test_silent_slow_and_idle_clients_are_let_go(tmp_path: Path) -> None:
    with server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "g.sqlite3"),
                 *DEADLINES]) as s:
        url = s.url()
        wait_until_answering(url)
        host, port = address(url)
        silent = socket.create_connection((host, port))
        body_cut_short = socket.create_connection((host, port))
        body_cut_short.sendall(f"POST /api/games HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json"
                               f"\r\nContent-Length: 100\r\n\r\n{{\"game\": ".encode())
        head = f"GET /api/games/info HTTP/1.1\r\nHost: {host}:{port}\r\nX-Padding: {'x' * 400}\r\n\r\n".encode()
        dripping = socket.create_connection((host, port))
        sent, started = 0, time.monotonic()
        dripping.setblocking(False)
        while True:  # one byte at a time, the way a slowloris client keeps a connection
            try:
                dripping.sendall(head[sent:sent + 1])
                sent += 1
            except OSError:
                break  # the server closed it
            try:
                if dripping.recv(4096) == b"":
                    break
            except BlockingIOError:
                pass
            except OSError:
                break
            assert time.monotonic() - started < BOUND, "a dripping client was never let go"
            time.sleep(0.05)
        assert sent < len(head), "the whole head went through at a drip"
        for sock, what in ((silent, "a silent client"), (body_cut_short, "a body cut short")):
            received, _ = closed_by_the_server(sock)
            assert received.startswith(b"HTTP/1.1 408"), (what, received)
            assert received.endswith(b'{"error": "the request did not arrive whole within 3 s; the connection is '
                                     b'closed"}'), (what, received)
            sock.close()
        kept = socket.create_connection((host, port))
        kept.sendall(f"GET /api/games/info HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        answered, idle = closed_by_the_server(kept)  # answered, then closed once idle for the keep-alive time
        assert answered.startswith(b"HTTP/1.1 200") and idle < BOUND
        kept.close()
        assert httpx2.get(url + "api/games/info").status_code == 200
    assert "Traceback" not in "".join(s.output)
    assert REQUEST_TIMEOUT > KEEP_ALIVE  # a request gets more time to arrive than an idle connection to stay


def test_more_connections_than_the_file_limit_allows_leave_the_server_answering(tmp_path: Path) -> None:
    """With a file limit of 256, 600 idle connections: the process keeps at most 128 (the rest are closed at once)
    and goes on answering once the idle ones are let go, without a flood of "Too many open files" in the log."""
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "g.sqlite3"), *DEADLINES]
    with server(args, command=[sys.executable, "-c", LOW_FILE_LIMIT]) as s:
        url = s.url()
        wait_until_answering(url)
        host, port = address(url)
        held = []
        for _ in range(600):
            try:
                held.append(socket.create_connection((host, port), timeout=BOUND))
            except OSError:
                break
        deadline = time.monotonic() + BOUND
        while True:  # a new client: refused at once while the cap is reached, answered once idle ones go
            try:
                r = httpx2.get(url + "api/games/info", timeout=BOUND)
                if r.status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert time.monotonic() < deadline, "the server never answered again"
            time.sleep(0.1)
        for sock in held:
            sock.close()
    log = "".join(s.output)
    assert "Too many open files" not in log and "Traceback" not in log, log[-3000:]
    assert log.count("connections are open, the most this process keeps") <= 2, log[-3000:]


def test_at_the_connection_cap_the_connections_already_open_are_still_answered(tmp_path: Path) -> None:
    """The cap closes new connections only: the ones the process keeps go on being answered, each request as
    usual, with no "Exceeded concurrency limit" 503 and no warning for it."""
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "g.sqlite3"),
            "--max-connections", "5"]
    with server(args) as s:
        url = s.url()
        wait_until_answering(url)
        host, port = address(url)
        held = [socket.create_connection((host, port), timeout=BOUND) for _ in range(5)]
        for sock in held:  # all five are the process's: each asks twice on its own connection
            for _ in range(2):
                sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
                answer = b""
                while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                    chunk = sock.recv(4096)
                    assert chunk, answer
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200"), answer
        for sock in held:
            sock.close()
    assert "Exceeded concurrency limit" not in "".join(s.output)


def test_new_games_are_counted_by_the_forwarded_address_only_behind_a_trusted_proxy(tmp_path: Path) -> None:
    def new_games(url: str, forwarded: str, count: int) -> list[int]:
        return [httpx2.post(url + "api/games", json={"game": "king-albert", "deal": 1},
                            headers={"X-Forwarded-For": forwarded}).status_code for _ in range(count)]

    base = ["serve", "--no-browser", "--games-per-minute-per-address", "3"]
    trusted = [*base, "--port", str(free_port()), "--db", str(tmp_path / "a.sqlite3"), "--trusted-proxy", "127.0.0.1"]
    with server(trusted) as s:
        url = s.url()
        wait_until_answering(url)
        assert new_games(url, "198.51.100.1", 4) == [201, 201, 201, 429]
        assert new_games(url, "198.51.100.2", 3) == [201, 201, 201]  # another client behind the proxy
    untrusted = [*base, "--port", str(free_port()), "--db", str(tmp_path / "b.sqlite3")]
    with server(untrusted) as s:
        url = s.url()
        wait_until_answering(url)
        assert new_games(url, "198.51.100.1", 2) == [201, 201]
        assert new_games(url, "198.51.100.2", 2) == [201, 429]  # the header is not believed: one address, 127.0.0.1


def test_the_deadlines_a_host_sets_reach_every_connection_and_bad_ones_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--request-timeout`` and ``--keep-alive`` become the settings uvicorn gives each connection's protocol,
    in this process and, sent over pickle, in each of ``--workers N``; without them the defaults hold."""
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    database = Database(path=None, url="postgresql://nobody@127.0.0.1/none")
    for argv, request_timeout, keep_alive in ((["--request-timeout", "3", "--keep-alive", "1.5"], 3.0, 1.5),
                                              ([], REQUEST_TIMEOUT, KEEP_ALIVE)):
        config = server_config(object(), settings_of(parser.parse_args(argv), database, None))
        for seen in (config, pickle.loads(pickle.dumps(config))):
            loop = asyncio.new_event_loop()  # a protocol is made inside the server's loop
            try:
                protocol = seen.http(config=seen, server_state=ServerState(), app_state={}, _loop=loop)
            finally:
                loop.close()
            assert (protocol.request_timeout, seen.timeout_keep_alive) == (request_timeout, keep_alive)
    for bad in (["--request-timeout", "0"], ["--keep-alive", "soon"]):
        with pytest.raises(SystemExit):
            parser.parse_args(bad)
        assert "must be a number from" in capsys.readouterr().err
