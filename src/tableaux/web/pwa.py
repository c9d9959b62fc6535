"""The page as an installable app: its manifest (``/manifest.webmanifest``) and its service worker (``/sw.js``).

The worker (``static/sw.js``) keeps the page's own files so that the page opens at once and can say that the
server cannot be reached; it never keeps an answer of the API, so no face-down card is ever stored in a
browser. It is served here, not under ``/static/``, because a worker controls only the addresses below its
own, and with the digest of every static file written into it: a new version of the files is a new worker
script, which the browser installs, replacing the files it kept.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..i18n import negotiate, web_messages

STATIC_DIR = Path(__file__).parent / "static"
WORKER = "sw.js"
THEME = "#123f26"  # the toolbar's colour (theme.css --bar), which the phone gives its status bar
BACKGROUND = "#1d6b40"  # the cloth (theme.css --felt), shown while the page starts
TITLE = "Tableaux: King Albert and Eagle Wing"  # the page's <title> in index.html, translated in web.po

router = APIRouter(include_in_schema=False)


def static_files() -> list[Path]:
    """The files the worker keeps: everything under static/ but the worker itself and the page (kept as /)."""
    return sorted(p for p in STATIC_DIR.iterdir() if p.is_file() and p.name not in (WORKER, "index.html"))


def version() -> str:
    """A digest of every file the page is made of, the page included: it changes whenever one of them does."""
    digest = hashlib.sha256()
    for path in [*static_files(), STATIC_DIR / "index.html"]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def worker_script() -> str:
    files = [f"/static/{p.name}" for p in static_files()]
    template = (STATIC_DIR / WORKER).read_text(encoding="utf-8")
    return template.replace("{{VERSION}}", version()).replace("{{FILES}}", json.dumps(files))


@router.get("/sw.js")
def service_worker() -> Response:
    """Always checked with the server (no-cache), as browsers do for workers: an upgrade is seen at the next visit."""
    return Response(worker_script(), media_type="text/javascript", headers={"cache-control": "no-cache"})


def manifest(lang: str) -> dict[str, Any]:
    messages, _plurals = web_messages(lang)
    icon = [{"src": f"/static/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
             "purpose": "any maskable"} for size in (192, 512)]
    return {
        "name": messages.get(TITLE) or TITLE,
        "short_name": "Tableaux",
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icon,
    }


@router.get("/manifest.webmanifest")
def web_manifest(request: Request) -> JSONResponse:
    """The app's name in the language the browser asks for; where it starts, how it shows, its icons."""
    lang = negotiate(request.headers.get("accept-language"))
    return JSONResponse(manifest(lang), media_type="application/manifest+json", headers={"cache-control": "no-cache"})
