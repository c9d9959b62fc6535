"""Hostile input by hand to the web API, each refused precisely and changing nothing.

tests/web/test_web_errors.py already checks the common bad requests one endpoint at a
time; here the same attacks are spread over every endpoint, checked against a
snapshot of the whole database (every player's games, not only the attacked
one), and the static files are attacked over a raw socket, because HTTP
clients tidy up paths such as ``/static/../x`` before sending them. Damaged
saved-game files are in tests/game/test_hostile_saves.py.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.store import query
from tableaux import MAX_DEAL
from tableaux.web.app import COOKIE, MAX_BODY, create_app


# --- helpers shared with the crash and concurrency tests ------------------------------
def db_snapshot(db: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    """Everything a player can lose or see change: every game row, its line and the positions kept along it, and
    the statistics inputs, exactly (on SQLite or PostgreSQL)."""
    return {
        "games": query(db, "SELECT * FROM games ORDER BY id"),
        "lines": query(db, "SELECT game_id, ply, move FROM game_moves ORDER BY game_id, ply"),
        "positions": query(db, "SELECT game_id, ply, position FROM game_positions ORDER BY game_id, ply"),
        "players": query(db, "SELECT id FROM players ORDER BY id"),
    }





# --- the web API ---------------------------------------------------------------------------
@pytest.fixture(scope="module", params=("sqlite", "postgresql"))
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path | str]:
    """One database for the module, in each store: every test below asserts that it refused without changing it,
    and that PostgreSQL refuses what SQLite refuses, the same way (a NUL in a game id included)."""
    if request.param == "sqlite":
        yield tmp_path_factory.mktemp("hostile") / "games.sqlite3"
        return
    cluster = request.getfixturevalue("postgres_cluster")
    url = cluster.new_database()
    yield url
    cluster.drop_database(url)


@pytest.fixture(scope="module")
def two_players(db: Path | str) -> tuple[TestClient, TestClient, dict[str, Any], dict[str, Any]]:
    """Alice and Bob, each with a game in progress (a few moves played, one undone)."""
    app = create_app(db, hint_time_limit=0.02)
    alice, bob = TestClient(app), TestClient(app)
    games = []
    for client, name in ((alice, "eagle-wing"), (bob, "king-albert")):
        view = client.post("/api/games", json={"game": name, "deal": 77}).json()
        for _ in range(3):
            view = client.post(f"/api/games/{view['id']}/moves",
                               json={"move": view["legal_moves"][0], "version": view["version"]}).json()
        view = client.post(f"/api/games/{view['id']}/undo", json={"version": view["version"]}).json()
        games.append(view)
    return alice, bob, games[0], games[1]


def legal_body(view: dict[str, Any]) -> dict[str, Any]:
    """A request that would be accepted: a legal move at the current version."""
    return {"move": view["legal_moves"][0], "version": view["version"]}


def endpoints(view: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every POST endpoint with a body it would accept for ``view``'s game."""
    gid = view["id"]
    return [
        ("/api/games", {"game": "king-albert", "deal": 3}),
        (f"/api/games/{gid}/moves", legal_body(view)),
        (f"/api/games/{gid}/undo", {"version": view["version"]}),
        (f"/api/games/{gid}/redo", {"version": view["version"]}),
        (f"/api/games/{gid}/restart", {"version": view["version"]}),
        (f"/api/games/{gid}/hint", {"version": view["version"]}),
        ("/api/stats/reset", {"game": None, "confirm": True}),
    ]


def test_every_endpoint_refuses_an_oversized_body_and_changes_nothing(two_players: Any, db: Path) -> None:
    alice, _, game, _ = two_players
    before = db_snapshot(db)
    for path, body in endpoints(game):
        padded = json.dumps({**body, "pad": "x" * MAX_BODY}).encode()
        r = alice.post(path, content=padded, headers={"content-type": "application/json"})
        assert r.status_code == 413, (path, r.text)
        assert f"at most {MAX_BODY} bytes" in r.json()["error"]

        def chunks(data: bytes = padded) -> Iterator[bytes]:
            for i in range(0, len(data), 1000):
                yield data[i:i + 1000]

        r = alice.post(path, content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413, (path, "chunked", r.text)
    assert db_snapshot(db) == before


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", "0x10", " 12", "99999999999999999999999"])
def test_a_content_length_that_is_not_a_byte_count_is_refused(two_players: Any, db: Path, length: str) -> None:
    alice, _, game, _ = two_players
    before = db_snapshot(db)
    r = alice.post(f"/api/games/{game['id']}/moves", content=json.dumps(legal_body(game)).encode(),
                   headers={"content-type": "application/json", "content-length": length})
    assert r.status_code in (400, 413), r.text
    assert "Content-Length" in r.json()["error"] or "too large" in r.json()["error"]
    assert db_snapshot(db) == before


@pytest.mark.parametrize(
    "ctype",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml",
     "application/json-patch+json", "text/json", "application/jsonx", "", "*/*"],
)
def test_an_acceptable_body_under_the_wrong_content_type_is_415_everywhere(
    two_players: Any, db: Path, ctype: str
) -> None:
    """Even a legal move is refused when not sent as JSON (a cross-site form cannot post one)."""
    alice, _, game, _ = two_players
    before = db_snapshot(db)
    for path, body in endpoints(game):
        headers = {"content-type": ctype} if ctype else {}
        r = alice.post(path, content=json.dumps(body).encode(), headers=headers)
        assert r.status_code == 415, (path, ctype, r.text)
        assert "application/json" in r.json()["error"]
    assert db_snapshot(db) == before


BAD_PILES = [
    ({"source": "tableau-9", "count": 1, "target": "tableau-1"}, "unknown pile 'tableau-9'"),
    ({"source": "reserve-1", "count": 1, "target": "tableau-1"}, "unknown pile 'reserve-1'"),
    ({"source": "foundation-5", "count": 1, "target": "tableau-1"}, "unknown pile 'foundation-5'"),
    ({"source": "tableau-1", "count": 1, "target": "TABLEAU-2"}, "unknown pile 'TABLEAU-2'"),
    ({"source": "tableau-1 ", "count": 1, "target": "tableau-2"}, "unknown pile 'tableau-1 '"),
    ({"source": "../tableau-1", "count": 1, "target": "tableau-2"}, "unknown pile '../tableau-1'"),
    ({"source": "tableau-\u0661", "count": 1, "target": "tableau-2"}, "unknown pile"),
    ({"source": None, "count": 1, "target": "tableau-2"}, "unknown pile null"),  # as JSON spells what was sent
    ({"source": ["tableau-1"], "count": 1, "target": "tableau-2"}, 'unknown pile ["tableau-1"]'),
    ("T9>F1", "has no pile T9;"),
    ("R1>F1", "has no pile R1;"),
    ("F5>T1", "has no pile F5;"),
    ("T1>T2>T3", "not a move"),
    ("T1\x00>T2", "not a move"),
]
BAD_COUNTS = [
    ({"source": "tableau-1", "count": 53, "target": "tableau-2"}, "count must be a whole number from 1 to 52"),
    ({"source": "tableau-1", "count": -(2**63), "target": "tableau-2"}, "count must be"),
    ({"source": "tableau-1", "count": 2**64, "target": "tableau-2"}, "count must be"),
    ({"source": "tableau-1", "count": 1e308, "target": "tableau-2"}, "count must be"),
    ({"source": "tableau-1", "count": [1], "target": "tableau-2"}, "count must be"),
    ({"source": "tableau-1", "count": {}, "target": "tableau-2"}, "count must be"),
    ("T1:0>T2", "at least 1"),
    ("T1:-1>T2", "not a move"),
    ("T1:52>T2", "illegal move"),
    ("T1:999>T2", "illegal move"),
    ("T1:1000>T2", "not a move"),
    ("T1:99999999999999999999>T2", "not a move"),
    ("3 T1:2>T2", "gives the count twice"),
]


@pytest.mark.parametrize(("move", "says"), BAD_PILES + BAD_COUNTS, ids=lambda v: repr(v)[:40])
def test_unknown_piles_and_absurd_counts_are_422_and_change_nothing(
    two_players: Any, db: Path, move: Any, says: str
) -> None:
    alice, _, game, _ = two_players  # Eagle Wing: no tableau-9, no reserve-1
    before = db_snapshot(db)
    r = alice.post(f"/api/games/{game['id']}/moves", json={"move": move, "version": game["version"]})
    assert r.status_code == 422, r.text
    assert says in r.json()["error"], r.json()
    assert db_snapshot(db) == before


NON_JSON_NUMBERS = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"0x10", b"1_000", b"0.5", b"1.000001"]
"""Whole numbers written with a point (``1.0``, ``-0.0``) are whole numbers, as in JSON Schema's ``integer``:
tests/web/test_web_api_play.py checks that they are accepted."""


@pytest.mark.parametrize("token", NON_JSON_NUMBERS, ids=lambda t: t.decode())
def test_odd_numbers_as_version_count_or_deal_are_refused(two_players: Any, db: Path, token: bytes) -> None:
    """Python's JSON reader accepts NaN and Infinity; none of them, nor a fraction, may pass as a version,
    count or deal."""
    alice, _, game, _ = two_players
    before = db_snapshot(db)
    move = game["legal_moves"][0]
    attempts = [
        (f"/api/games/{game['id']}/moves",
         b'{"move": "%s", "version": %s}' % (move["text"].encode(), token)),
        (f"/api/games/{game['id']}/moves",
         b'{"move": {"source": "%s", "count": %s, "target": "%s"}, "version": %d}'
         % (move["source"].encode(), token, move["target"].encode(), game["version"])),
        (f"/api/games/{game['id']}/undo", b'{"version": %s}' % token),
        ("/api/games", b'{"game": "king-albert", "deal": %s}' % token),
    ]
    for path, content in attempts:
        r = alice.post(path, content=content, headers={"content-type": "application/json"})
        assert r.status_code in (400, 422), (path, content, r.text)
        assert r.json()["error"]
    assert db_snapshot(db) == before


@pytest.mark.parametrize(
    ("deal", "status"),
    [(0, 201), (MAX_DEAL, 201), (MAX_DEAL + 1, 422), (-1, 422), (2**63, 422), (2**64 + 17, 422), (-(2**63), 422),
     ("4294967295", 422), ("0", 422), (1e9 + 0.5, 422), (4294967296.0, 422), ([17], 422), ({"n": 17}, 422)],
)
def test_deal_numbers_at_and_beyond_the_edges(two_players: Any, db: Path, deal: Any, status: int) -> None:
    client = TestClient(two_players[0].app)
    before = db_snapshot(db)
    r = client.post("/api/games", json={"game": "eagle-wing", "deal": deal})
    assert r.status_code == status, r.text
    if status == 201:
        assert r.json()["deal"] == deal
        assert r.json()["position"] == tableaux.new_game("eagle-wing", deal).public_position()
    else:
        assert "deal number must be" in r.json()["error"] and str(MAX_DEAL) in r.json()["error"]
        assert db_snapshot(db)["games"] == before["games"]


ABSURD_IDS = [
    "0", "-1", "1e9", "NaN", "null", "undefined", "%00", "a%00b", "%2F", "..", "%2e%2e", "' OR '1'='1",
    "1; DROP TABLE games", "%E2%98%83", "%F0%9F%82%A1" * 20, "A" * 21, "A" * 23, "x" * 5000, "*", "%25",
]


@pytest.mark.parametrize("gid", ABSURD_IDS, ids=lambda g: g[:30])
def test_absurd_game_ids_are_404_on_every_game_endpoint(two_players: Any, db: Path, gid: str) -> None:
    alice, _, game, _ = two_players
    before = db_snapshot(db)
    for method, suffix, body in (("GET", "", None), ("POST", "/moves", legal_body(game)),
                                 ("POST", "/undo", {"version": game["version"]}),
                                 ("POST", "/redo", {"version": game["version"]}),
                                 ("POST", "/restart", {"version": game["version"]}), ("POST", "/hint", None)):
        r = alice.request(method, f"/api/games/{gid}{suffix}", json=body)
        assert r.status_code in (404, 405), (method, gid, suffix, r.text)
        assert r.json()["error"]
    assert db_snapshot(db) == before


def test_another_players_game_is_404_even_with_a_perfectly_valid_request(two_players: Any, db: Path) -> None:
    alice, bob, alices, bobs = two_players
    before = db_snapshot(db)
    for path, body in endpoints(alices)[1:6]:
        r = bob.post(path, json=body)
        assert r.status_code == 404, (path, r.text)
        assert "does not exist or belongs to another player" in r.json()["error"]
        assert alices["id"] not in r.text.replace(f"no game {alices['id']!r}", "")  # nothing about it leaks
    assert bob.get(f"/api/games/{alices['id']}").status_code == 404
    assert db_snapshot(db) == before
    # ... and Bob's own game is untouched too, and his stats reset leaves Alice's alone.
    alice_stats = alice.get("/api/stats").json()
    assert bob.post("/api/stats/reset", json={"game": None, "confirm": True}).status_code == 200
    assert alice.get("/api/stats").json() == alice_stats
    assert alice.get(f"/api/games/{alices['id']}").json()["version"] == alices["version"]
    assert bob.get(f"/api/games/{bobs['id']}").json()["version"] == bobs["version"]


def forged_cookies(real: str, player_id: str) -> list[str]:
    flipped = real[:-1] + ("A" if real[-1] != "A" else "B")
    return [
        flipped,               # one character off
        player_id,             # the id stored in the database (a hash of the cookie) is not a cookie
        real + "x",            # too long
        real[:-1],             # too short
        real.upper(),
        "",                    # empty
        "\u00e9" * 43,
        f"{real}; {COOKIE}=x",
    ]


def test_missing_or_forged_cookies_get_nothing_of_anyones(two_players: Any, db: Path) -> None:
    alice, _, game, _ = two_players
    real = alice.cookies[COOKIE]
    from tableaux.web.tokens import hash_token

    app = alice.app
    before = db_snapshot(db)
    alice_stats = alice.get("/api/stats").json()
    for forged in [None, *forged_cookies(real, hash_token(real))]:
        mallory = TestClient(app)
        # Sent as raw bytes on every request (the client's cookie jar is not used).
        headers = [] if forged is None else [(b"cookie", f"{COOKIE}={forged}".encode())]
        for path, body in endpoints(game)[1:6]:
            r = mallory.post(path, content=json.dumps(body).encode(),
                             headers=[*headers, (b"content-type", b"application/json")])
            assert r.status_code == 404, (forged, path, r.text)
            issued = r.headers.get("set-cookie", "")
            assert issued.startswith(f"{COOKIE}=") and real not in issued
            mallory.cookies.clear()
        for path in (f"/api/games/{game['id']}", "/api/current"):
            assert mallory.get(path, headers=headers).status_code == 404
        r = mallory.post("/api/stats/reset", content=b'{"game": null, "confirm": true}',
                         headers=[*headers, (b"content-type", b"application/json")])
        assert r.status_code == 200 and all(s["played"] == 0 for s in r.json().values())
        assert alice.get("/api/stats").json() == alice_stats
    after = db_snapshot(db)
    assert after["games"] == before["games"]
    assert set(before["players"]) <= set(after["players"])  # only fresh, empty identities were added


# --- static files over a raw socket (clients would tidy these paths up before sending) ---------------
TRAVERSALS = [
    "/static/../app.py", "/static/../../tableaux/__init__.py", "/static/%2e%2e/app.py", "/static/%2E%2E/app.py",
    "/static/%2e%2e%2fapp.py", "/static/..%2fapp.py", "/static/..%2Fapp.py", "/static/%252e%252e/app.py",
    "/static/.%2e/app.py", "/static/./../app.py", "/static/....//app.py", "/static/..;/app.py",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/%2Fetc/passwd", "//etc/passwd",
    "/static/..\\app.py", "/static/..%5capp.py", "/static/%5c..%5capp.py", "/static/\\etc\\passwd",
    "/static/C:%5cWindows%5cwin.ini", "/static/file:///etc/passwd", "/static/%c0%ae%c0%ae/app.py",
    "/static/%e0%80%ae%e0%80%ae/app.py", "/static/app.js%00.py", "/static/app.js/../../app.py",
    "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/", "/static/.",
    "/static/%2e", "/static/..", "/static/%2e%2e", "/static/../", "/api/../static/../app.py",
]
LEAKS = [b"def create_app", b"root:x:0:0", b"import ", b"[fonts]", b"__version__"]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from helpers.net import free_port
    from helpers.server import server, wait_until_answering

    db = tmp_path_factory.mktemp("hostile-live") / "games.sqlite3"
    with server(["serve", "--port", str(free_port()), "--no-browser", "--db", str(db)]) as s:
        wait_until_answering(s.url())
        yield s


@pytest.fixture(scope="module")
def live_server(live: Any) -> str:
    return str(live.url())


def raw_request(url: str, data: bytes) -> tuple[int, bytes]:
    """Send ``data`` exactly as written over a plain socket; the status and body of the answer."""
    host, port = url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def raw_get(url: str, target: str) -> tuple[int, bytes]:
    return raw_request(url, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())


def test_raw_requests_reach_the_server_as_written(live_server: str) -> None:
    """The attack below is real: an honest raw request for a static file is served."""
    status, body = raw_get(live_server, "/static/app.js")
    assert status == 200 and body == (Path(tableaux.__file__).parent / "web" / "static" / "app.js").read_bytes()


@pytest.mark.parametrize("target", TRAVERSALS)
def test_path_traversal_out_of_static_is_refused(live_server: str, target: str) -> None:
    status, body = raw_get(live_server, target)
    assert status in (400, 404), (target, status, body[:200])
    for leak in LEAKS:
        assert leak not in body, (target, leak)
    if status == 404 and body.startswith(b"{"):
        assert json.loads(body)["error"]


H = b"Host: 127.0.0.1\r\n"
JSON = b"Content-Type: application/json\r\n"
PROTOCOL_GARBAGE: dict[str, tuple[bytes, bytes]] = {  # request line and headers, then the body
    "unknown method": (b"FOO /api/stats HTTP/1.1\r\n" + H, b""),
    "HTTP/1.0 without Host": (b"GET /api/stats HTTP/1.0\r\n", b""),
    "another Host (DNS rebinding)": (b"GET /api/stats HTTP/1.1\r\nHost: evil.example\r\n", b""),
    "broken chunked body": (b"POST /api/games HTTP/1.1\r\n" + H + JSON + b"Transfer-Encoding: chunked\r\n",
                            b"ZZ\r\nabc\r\n0\r\n\r\n"),
    "two Content-Lengths": (b"POST /api/games HTTP/1.1\r\n" + H + JSON + b"Content-Length: 3\r\nContent-Length: 30\r\n",
                            b"{}"),
    "negative Content-Length": (b"POST /api/games HTTP/1.1\r\n" + H + JSON + b"Content-Length: -1\r\n", b"{}"),
    "NUL in the path": (b"GET /api/games/\x00 HTTP/1.1\r\n" + H, b""),
    "raw UTF-8 in the path": ("GET /api/games/\u00e9 HTTP/1.1\r\n".encode() + H, b""),
    "bytes that are not UTF-8 in the cookie": (b"GET /api/games/x HTTP/1.1\r\n" + H
                                               + b"Cookie: tableaux_player=\xff\xfe\r\n", b""),
    "cookie syntax soup": (b"GET /api/games/x HTTP/1.1\r\n" + H + b"Cookie: ;;;===;\"\"\r\n", b""),
    "bad percent escapes in the query": (b"GET /api/current?game=%zz%ff HTTP/1.1\r\n" + H, b""),
    "bad percent escapes in the id": (b"GET /api/games/%zz%ff%fe HTTP/1.1\r\n" + H, b""),
    "OPTIONS *": (b"OPTIONS * HTTP/1.1\r\n" + H, b""),
    "an HTTP/2 preface": (b"PRI * HTTP/2.0\r\n", b"SM\r\n\r\n"),
}


def test_protocol_garbage_gets_4xx_and_the_server_carries_on(live: Any) -> None:
    url = live.url()
    for label, (head, body) in PROTOCOL_GARBAGE.items():
        status, answer = raw_request(url, head + b"Connection: close\r\n\r\n" + body)
        assert 400 <= status < 500, (label, status, answer[:200])
    status, _ = raw_request(url, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40)  # a TLS hello
    assert status == 400
    status, _ = raw_get(url, "/api/games/info")
    assert status == 200 and live.proc.poll() is None
    output = "".join(live.output)
    while not live.lines.empty():
        output += live.lines.get()
    assert "Traceback" not in output and "ERROR" not in output, output[-2000:]
