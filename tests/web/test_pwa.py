"""The page as an installable app, as the server serves it: the manifest (in the browser's language), its icons,
and the service worker script, whose version follows the content of the page's files and which keeps nothing
of the API."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from tableaux.web import pwa
from tableaux.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "games.db"))


def test_the_manifest_names_the_app_and_says_how_it_starts_and_shows(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Tableaux: King Albert and Eagle Wing" and manifest["short_name"] == "Tableaux"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert all(re.fullmatch(r"#[0-9a-f]{6}", manifest[key]) for key in ("theme_color", "background_color"))
    page = client.get("/").text
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in page
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


@pytest.mark.parametrize(("language", "name"), [("fr", "Tableaux : King Albert et Eagle Wing"), ("xx", None)])
def test_the_manifest_speaks_the_browsers_language(client: TestClient, language: str, name: str | None) -> None:
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": language}).json()
    assert manifest["name"] == (name or "Tableaux: King Albert and Eagle Wing")
    assert manifest["lang"] == (language if name else "en")


def test_the_icons_are_square_pngs_of_the_sizes_the_manifest_gives(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    assert sorted(icon["sizes"] for icon in icons) == ["192x192", "512x512"]
    for icon in icons:
        answer = client.get(icon["src"])
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png" == icon["type"]
        with Image.open(io.BytesIO(answer.content)) as image:
            assert image.format == "PNG" and f"{image.width}x{image.height}" == icon["sizes"]


def worker_constants(script: str) -> tuple[str, list[str]]:
    version = re.search(r'const VERSION = "([0-9a-f]+)";', script)
    files = re.search(r"const FILES = (\[.*?\]);", script)
    assert version and files, script[:400]
    return version.group(1), json.loads(files.group(1))


def test_the_worker_keeps_every_file_of_the_page_and_nothing_of_the_api(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert "{{" not in answer.text
    _version, files = worker_constants(answer.text)
    on_disk = {f"/static/{p.name}" for p in pwa.STATIC_DIR.iterdir() if p.is_file()}
    assert set(files) == on_disk - {"/static/sw.js", "/static/index.html"}  # the page is kept as "/"
    assert not [f for f in files if f.startswith("/api/")]
    for name in files:
        assert client.get(name).status_code == 200, name
    # The worker answers nothing under /api/ itself: such requests go to the network.
    assert 'url.pathname.startsWith("/api/")) return;' in answer.text


def test_the_workers_version_changes_with_the_content_of_any_file_of_the_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "static"
    shutil.copytree(pwa.STATIC_DIR, copy)
    monkeypatch.setattr(pwa, "STATIC_DIR", copy)
    first, _ = worker_constants(pwa.worker_script())
    assert worker_constants(pwa.worker_script())[0] == first  # the same files: the same worker
    (copy / "style.css").write_text((copy / "style.css").read_text() + "\n/* changed */\n")
    second, _ = worker_constants(pwa.worker_script())
    assert second != first
    (copy / "index.html").write_text((copy / "index.html").read_text().replace("<body>", "<body class='x'>"))
    assert worker_constants(pwa.worker_script())[0] not in (first, second)
