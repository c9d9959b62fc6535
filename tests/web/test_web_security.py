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
