"""The server through a database outage: it stays up, tells the truth, and is back when the database is.

PostgreSQL (a cluster of the test's own) is stopped at once (``pg_ctl stop -m immediate``, as a crash) under
``tableaux serve --workers 2``, and one server process is SIGKILLed during the outage. Throughout:

- every request is answered, 503 with Retry-After and a message saying that nothing changed and that earlier
  moves are safe, in well under the bound below (the benchmark prints how long, benchmarks/web.py --scenario
  outage), and a keep-alive connection carries on after such an answer;
- a killed process is replaced, and the replacement serves at once (503) although it cannot reach the
  database, alone once the other process is killed too; the port never closes;
- each process logs one line when it finds the database gone and one when it is back, not one a request;
- once PostgreSQL is started again, the server answers within the bound; every move acknowledged before is
  there, the move refused during the outage is not, and sent again with its request id it is made once.

On SQLite, the outage a file knows is a full disk: 507, the same promises (``test_a_full_disk...``).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

import helpers.pg_cluster as pg_cluster
import tableaux
from helpers.net import free_port
from helpers.server import children, server, wait_for_children, wait_until_answering
from helpers.store import check_integrity

BOUND = 10.0
"""Seconds any one answer during the outage may take (the aim is 3 s; a busy machine gets room)."""
RETURN_BOUND = 60.0
"""Seconds the server may take to answer again once PostgreSQL runs again (the aim is 5 s)."""
DOWN = re.compile(r"tableaux\[(\d+)\]: The saved games database .* cannot be used")
BACK = re.compile(r"tableaux\[(\d+)\]: The saved games database .* answers again")


@pytest.fixture
def cluster() -> Iterator[Any]:
    """A PostgreSQL cluster of this test's own: it is stopped and started again."""
    pg_cluster.required()
    started = pg_cluster.Cluster.start()
    yield started
    started.stop()


def raw_exchange(sock: socket.socket, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request on an open connection, and its answer: status, headers, body (by Content-Length)."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection was closed after {data!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def timed(send: Any) -> tuple[httpx2.Response, float]:
    started = time.monotonic()
    r = send()
    return r, time.monotonic() - started


def assert_unavailable(r: httpx2.Response, seconds: float) -> None:
    assert r.status_code == 503, r.text
    assert seconds < BOUND, f"answered after {seconds:.1f} s"
    assert r.headers["retry-after"].isdigit()
    answer = r.json()
    assert answer["cause"] == "database" and answer["outcome"] == "unchanged", answer
    assert "nothing was changed" in answer["error"] and "earlier moves are safe" in answer["error"], answer


@pytest.mark.postgres
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server processes in /proc (Linux)")
def once_back(ask: Callable[[], httpx2.Response], failure: str) -> httpx2.Response:
    """The first answer of ``ask`` that is not a 503 (the database is away), asked again until it comes, within
    :data:`RETURN_BOUND`."""
    came_back = time.monotonic()
    while (r := ask()).status_code == 503:
        assert time.monotonic() - came_back < RETURN_BOUND, failure
        time.sleep(0.05)
    return r


def test_an_outage_with_a_process_killed_during_it_keeps_the_port_open_and_loses_nothing(cluster: Any) -> None:
    db = cluster.new_database()
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", db, "--workers", "2"]
    with server(args) as s:
        url = s.url()
        workers = wait_for_children(s.proc.pid, 2)
        wait_until_answering(url)
        host, port = url.split("//")[1].rstrip("/").split(":")
        with httpx2.Client(base_url=url, timeout=60) as client:
            view = client.post("api/games", json={"game": "eagle-wing", "deal": 4}).json()
            mirror = tableaux.new_game("eagle-wing", 4)
            for _ in range(5):
                move = view["legal_moves"][0]
                view = client.post(f"api/games/{view['id']}/moves", json={"move": move, "version": view["version"]},
                                   headers={"Idempotency-Key": f"before-{view['version']}"}).json()
                mirror.play(move["text"])
            cookies = dict(client.cookies)

            cluster.halt()  # PostgreSQL is gone: every connection cut, every new one refused
            refused_move = {"move": view["legal_moves"][0], "version": view["version"]}
            for _ in range(6):
                for send in (lambda: client.get(f"api/games/{view['id']}"),
                             lambda: client.post(f"api/games/{view['id']}/moves", json=refused_move,
                                                 headers={"Idempotency-Key": "during"}),
                             lambda: client.post("api/games", json={"game": "king-albert", "deal": 9})):
                    assert_unavailable(*timed(send))
            with socket.create_connection((host, int(port)), timeout=60) as sock:  # one kept-alive connection
                request = (f"GET /api/games/{view['id']} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                           f"Cookie: tableaux_player={cookies['tableaux_player']}\r\n\r\n").encode()
                for _ in range(3):
                    status, headers, _body = raw_exchange(sock, request)
                    assert status == 503 and headers["retry-after"].isdigit()
                    assert headers.get("connection", "keep-alive") != "close"

            os.kill(workers[0], signal.SIGKILL)  # a process dies during the outage ...
            s.wait_for("A server process ended")
            replacement = int(s.wait_for(DOWN).group(1))  # ... its replacement starts, finds no database, serves
            assert replacement not in workers
            os.kill(workers[1], signal.SIGKILL)  # and the other one dies: the replacement is the one answering
            s.wait_for("A server process ended")
            for _ in range(10):  # new connections, each answered
                assert_unavailable(*timed(lambda: httpx2.get(f"{url}api/games/{view['id']}", cookies=cookies,
                                                             headers={"connection": "close"}, timeout=60)))
            replaced = wait_for_children(s.proc.pid, 2)
            assert replacement in replaced and not set(workers) & set(replaced)

            cluster.resume()
            r = once_back(lambda: client.get(f"api/games/{view['id']}"), "the server did not come back")
            assert r.status_code == 200, r.text
            assert r.json()["version"] == 5 and r.json()["position"] == mirror.public_position()  # nothing lost
            for _ in range(2):  # the move refused during the outage, sent again with its request id: made once
                again = client.post(f"api/games/{view['id']}/moves", json=refused_move,
                                    headers={"Idempotency-Key": "during"})
                assert again.status_code == 200 and again.json()["version"] == 6, again.text
            for _ in range(10):  # every process serves again (new connections spread over both), each once its
                r = once_back(  # own watch has seen the database back (it looks every second)
                    lambda: httpx2.get(f"{url}api/games/{view['id']}", cookies=cookies,
                                       headers={"connection": "close"}, timeout=60),
                    "a server process did not come back")
                assert r.status_code == 200, r.text
        assert children(s.proc.pid) == replaced  # nothing else ended
        s.proc.terminate()
        assert s.proc.wait(timeout=60) == 0
    log = "".join(s.output)
    down, back = DOWN.findall(log), BACK.findall(log)
    assert down and len(down) == len(set(down)), log  # once per process, not once per request
    assert len(back) == len(set(back)) and set(back) <= set(down), log
    assert set(map(int, down)) & set(replaced) <= set(map(int, back)), log  # every living process saw it back
    assert "Traceback" not in log, log
    check_integrity(db)


def test_a_full_disk_is_507_saying_so_and_the_connection_carries_on(tmp_path: Path) -> None:
    """SQLite on a disk with no room left: each change is answered 507 (cause disk, Retry-After, nothing changed,
    earlier moves safe), reads go on, on the same kept-alive connection, and the log says so once."""
    import sqlite3

    from tableaux.web.store import Store

    db = tmp_path / "games.sqlite3"
    Store(db).close()
    with sqlite3.connect(db) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    helper = Path(__file__).resolve().parents[1] / "helpers" / "small_disk_server.py"
    args = [str(pages + 6), "serve", "--port", str(free_port()), "--no-browser", "--db", str(db),
            "--games-per-minute", "100000", "--games-per-minute-per-address", "100000"]
    with server(args, command=[sys.executable, str(helper)]) as s:
        url = s.url()
        wait_until_answering(url)
        host, port = url.split("//")[1].rstrip("/").split(":")
        with httpx2.Client(base_url=url, timeout=60) as client:
            first = client.post("api/games", json={"game": "king-albert", "deal": 1})
            assert first.status_code == 201, first.text
            cookie = client.cookies["tableaux_player"]
            for deal in range(2, 2000):  # new games until the file may grow no more
                r = client.post("api/games", json={"game": "king-albert", "deal": deal})
                if r.status_code != 201:
                    break
            assert r.status_code == 507, r.text
            answer = r.json()
            assert answer["cause"] == "disk" and answer["outcome"] == "unchanged" and r.headers["retry-after"]
            assert "disk is full" in answer["error"] and "earlier moves are safe" in answer["error"]
        game = first.json()["id"]
        body = b'{"game": "king-albert", "deal": 4000}'  # the request just refused, again
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            head = f"Host: {host}:{port}\r\nCookie: tableaux_player={cookie}\r\n"
            for _ in range(3):
                status, _headers, _body = raw_exchange(sock, (
                    f"POST /api/games HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
                assert status == 507
                status, _headers, _body = raw_exchange(sock, f"GET /api/games/{game} HTTP/1.1\r\n{head}\r\n".encode())
                assert status == 200  # reads go on, on the same connection
    log = "".join(s.output)
    assert log.count("cannot be used: database or disk is full") == 1 and "Traceback" not in log, log
    check_integrity(db)
