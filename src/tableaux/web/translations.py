"""The page's translations: ``GET /api/i18n`` (chosen from Accept-Language) and ``GET /api/i18n/{lang}``.

The catalogues are :mod:`tableaux.i18n`'s ``web`` domain; the page's
``static/i18n.js`` fetches one and looks its strings up with ``t()``. What the
server itself says (hints, the engine's reasons) is translated on the server,
into the language of each request's Accept-Language (see
:class:`tableaux.web.middleware.RequestLanguage`), which the page sets to the
language it shows.
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import _, native_name, negotiate, plural_categories, speaking, web_messages
from ..rulebook.cards import CARD_NAME, RANKS, SUIT_WORDS, SUITS, rank_name
from . import models as api
from .fields import LANGUAGES

router = APIRouter(prefix="/api", default_response_class=JSONResponse)


@functools.lru_cache(maxsize=16)
def translations_of(lang: str) -> dict[str, Any]:
    """The catalogue, and the words the engine names cards with (:func:`tableaux.rulebook.cards.card_name`), so that the
    page and the server's hints and reasons name every card alike. Words and pattern, not 52 names keyed by card:
    nothing here looks like a card of the deal."""
    messages, plurals = web_messages(lang)
    with speaking(lang):
        ranks = {RANKS[r - 1]: rank_name(r) for r in range(1, 14)}
        suits = {SUITS[s]: _(SUIT_WORDS[s]) for s in range(4)}
        card_name = _(CARD_NAME)
    return {
        "lang": lang,
        "languages": [{"code": code, "name": native_name(code)} for code in LANGUAGES],
        "plural_categories": plural_categories(lang),
        "messages": messages,
        "plurals": plurals,
        "ranks": ranks,
        "suits": suits,
        "card_name": card_name,
    }


@router.get("/i18n", operation_id="translationsForBrowser", **api.route(200, api.Translations, ()))
def best_translations(request: Request) -> JSONResponse:
    """The page's messages in the language that best fits the request's Accept-Language (English by default)."""
    return JSONResponse(translations_of(negotiate(request.headers.get("accept-language"))))


@router.get("/i18n/{lang}", operation_id="translations", **api.route(200, api.Translations, (422,)))
def translations(lang: api.LanguageCode) -> JSONResponse:
    """The page's messages in ``lang`` (the language menu's choice)."""
    return JSONResponse(translations_of(lang))
