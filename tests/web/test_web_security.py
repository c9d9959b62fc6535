"""The browser game's HTTP API: security headers, static files only from the package, and no face-down card in
any response."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import tableaux
from tableaux import Move
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.web.app import CSP, WEB_GAMES, create_app
from tableaux.web.fields import GAME_ID


# --- security headers and static files ------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/games/info", "/api/nothing", "/static/nope.js"])
def test_security_headers_everywhere(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.headers["content-security-policy"] == CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"


def test_csp_is_the_contracts() -> None:
    assert CSP == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
        "frame-ancestors 'none'; base-uri 'none'"
    )


def test_index_and_static_files_come_from_the_package(client: TestClient) -> None:
    static = Path(tableaux.__file__).parent / "web" / "static"
    r = client.get("/")
    assert r.status_code == 200 and r.content == (static / "index.html").read_bytes()
    assert client.get("/?game=eagle-wing&deal=17").content == r.content
    js = client.get("/static/app.js")
    assert js.status_code == 200 and js.content == (static / "app.js").read_bytes()


@pytest.mark.parametrize(
    "path",
    ["/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e/%2e%2e/__init__.py",
     "/static//etc/passwd", "/static/....//app.py"],
)
def test_no_path_traversal_out_of_static(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert b"create_app" not in r.content and b"tableaux" not in r.content.lower().replace(b"nothing at", b"")


def test_host_allow_list_refuses_other_hosts(db: Path) -> None:
    client = TestClient(create_app(db, allowed_hosts=("127.0.0.1", "localhost")), base_url="http://evil.example")
    r = client.get("/api/games/info")
    assert r.status_code == 400 and "Host" in r.json()["error"]
    ok = TestClient(create_app(db, allowed_hosts=("127.0.0.1", "localhost")), base_url="http://localhost:8000")
    assert ok.get("/api/games/info").status_code == 200


# --- no hidden card ever reaches the browser ---------------------------------------------
def hidden_codes(game: tableaux.Game) -> set[str]:
    """Every card the player cannot see: face-down ones and Eagle Wing's covered trunk bottom card."""
    shown = game.rules.visible(game.state)
    return {
        card_str(c & ~DOWN)
        for pile, seen in zip(game.state.piles, shown, strict=True)
        for c, visible in zip(pile, seen, strict=True)
        if not visible
    }


def check_no_hidden(body: bytes, game: tableaux.Game) -> None:
    # A game id (22 random characters, fields.GAME_ID) may spell a card by chance, as
    # "3H-a93l8hZY6lv22MpBj3A" did; ids are blanked, and no card's name is 22 such characters long.
    text = re.sub(f'"{GAME_ID.strip("^$")}"', '"<id>"', body.decode())
    for code in hidden_codes(game):
        assert f'"{code}"' not in text, f"face-down {code} leaked"
        assert not re.search(rf"\b{code}\b", text), f"face-down {code} leaked"


HIDING = [name for name in WEB_GAMES if hidden_codes(tableaux.new_game(name, 1))]
"""The browser's games that deal cards face down (classic King Albert deals every card face up)."""


@pytest.mark.slow
@pytest.mark.parametrize("name", HIDING)
def test_no_face_down_card_in_any_response(client: TestClient, name: str) -> None:
    rng = random.Random(f"hidden-{name}")
    responses = 0
    for deal in rng.sample(range(1000), 6):
        r = client.post("/api/games", json={"game": name, "deal": deal})
        view = r.json()
        mirror = tableaux.new_game(name, deal)
        assert hidden_codes(mirror), "a fresh deal has face-down cards"
        check_no_hidden(r.content, mirror)
        for _ in range(60):
            roll = rng.random()
            gid, version = view["id"], view["version"]
            if roll < 0.1 and mirror.moves_played:
                r = client.post(f"/api/games/{gid}/undo", json={"version": version})
                mirror.undo()
            elif roll < 0.15 and mirror.redo_moves:
                r = client.post(f"/api/games/{gid}/redo", json={"version": version})
                mirror.redo()
            elif roll < 0.2:
                r = client.post(f"/api/games/{gid}/hint")
            elif roll < 0.25:
                r = client.post(f"/api/games/{gid}/moves", json={"move": "T1>T2", "version": version + 5})
                assert r.status_code == 409
            elif view["legal_moves"]:
                move = rng.choice(view["legal_moves"])
                r = client.post(f"/api/games/{gid}/moves", json={"move": move, "version": version})
                mirror.play(Move(move["source"], move["count"], move["target"]))
            else:
                break
            assert r.status_code in (200, 409), r.text
            check_no_hidden(r.content, mirror)
            responses += 1
            body = r.json()
            view = body["view"] if "view" in body else body
            for pile in view["position"]["piles"].values():
                for card in pile:
                    assert (card["card"] is None) == (not card["up"])
        for path in ("/api/current", f"/api/current?game={name}", "/api/stats"):
            r = client.get(path)
            check_no_hidden(r.content, mirror)
    assert responses > 200


@pytest.mark.parametrize(("host", "address"), [("127.0.0.2", "127.0.0.2"), ("vm", "127.0.1.1"), ("::1", "::1")])
def test_a_server_bound_to_any_loopback_address_answers_only_names_of_this_machine(
    db: Path, host: str, address: str,
) -> None:
    """Decided by the address the socket is bound to, not by --host's spelling: 127.0.0.2, or a machine name
    that /etc/hosts maps to 127.0.1.1, answered any Host (DNS rebinding) and said other computers could play."""
    from tableaux.web.server import loopback_names

    names = loopback_names(host, address)
    assert names is not None and {host, address, "localhost", "127.0.0.1"} <= set(names)
    app = create_app(db, allowed_hosts=names)
    assert TestClient(app, base_url="http://evil.example").get("/api/games/info").status_code == 400
    named = f"[{host}]" if ":" in host else host
    assert TestClient(app, base_url=f"http://{named}:8000").get("/api/games/info").status_code == 200
    app.state.store.close()


def test_a_server_bound_beyond_this_machine_answers_any_host_name() -> None:
    from tableaux.web.server import loopback_names

    assert loopback_names("0.0.0.0", "0.0.0.0") is None and loopback_names("games.example", "192.0.2.5") is None


def test_serve_on_another_loopback_address_refuses_a_foreign_host_and_says_it_is_this_machines(
    tmp_path: Path,
) -> None:
    import http.client
    import subprocess
    import sys
    import time

    from helpers.net import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tableaux", "serve", "--host", "127.0.0.2", "--port", str(port),
                             "--no-browser", "--db", str(tmp_path / "g.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.2", port, timeout=5)
                conn.request("GET", "/api/health", headers={"Host": "evil.example"})
                status = conn.getresponse().status
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert status == 400
        conn = http.client.HTTPConnection("127.0.0.2", port, timeout=5)
        conn.request("GET", "/api/health")
        assert conn.getresponse().status == 200
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert "other computers" not in out, out
