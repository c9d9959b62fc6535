"""Translations: every user-facing string goes through gettext catalogues made with Babel.

The catalogues are the ``.po`` files under ``locale/<lang>/LC_MESSAGES/``, one
pair per language: ``tableaux.po`` for what Python says (terminal, command
line, hints, the engine's reasons) and ``web.po`` for the browser's page
(served as JSON by ``GET /api/i18n/{lang}``). They are read and compiled in
memory at first use, so ``pip install .`` needs no build step and an edited
``.po`` file takes effect at once; the compiled catalogue is kept in the user's
cache, keyed by the ``.po`` text, so a start does not compile it again
(:func:`compiled`). ``python -m tableaux.i18n.update`` brings every catalogue
up to date with the source (docs/translations.md).

English is the source language and the fallback: a message missing from a
catalogue, left empty, or marked fuzzy is shown in English, never blank.

Which language: the terminal and the command line follow the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext does); the web
server follows each request's ``Accept-Language``. The choice is held in a
context variable, so concurrent requests in different languages do not mix.
This module depends on nothing else in tableaux but :mod:`tableaux.common`: the engine may use it.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # typing is not loaded: every command starts here (benchmarks/cli.py)
if TYPE_CHECKING:
    from pathlib import Path

_LOCALE = os.path.join(os.path.dirname(__file__), "locale")
"""Where the catalogues are: one folder per language (also ``LOCALE_DIR``, as a Path)."""
SOURCE_LANGUAGE = "en"
DOMAINS = ("tableaux", "web")
"""``tableaux``: Python's messages; ``web``: the browser page's (index.html and static/*.js)."""

_process_language: str = SOURCE_LANGUAGE
_language: ContextVar[str | None] = ContextVar("tableaux_language", default=None)


def languages() -> tuple[str, ...]:
    """Every language with a catalogue, English first: a directory under ``locale/`` is a language."""
    # os.path rather than pathlib here: this runs as every command starts, and pathlib is slow to load.
    found = sorted(name for name in os.listdir(_LOCALE) if os.path.isdir(os.path.join(_LOCALE, name, "LC_MESSAGES"))) \
        if os.path.isdir(_LOCALE) else []
    return (SOURCE_LANGUAGE, *[code for code in found if code != SOURCE_LANGUAGE])


def native_name(code: str) -> str:
    """A language's name in that language ("Français"), as a player looks for it in a menu."""
    from babel import Locale

    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def match(tag: str) -> str | None:
    """The language we have for a tag such as ``fr-CA``, ``fr_FR.UTF-8`` or ``nl``; None when we have none."""
    base = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
    return base if base in languages() else None


def negotiate(accept_language: str | None) -> str:
    """The best language for an ``Accept-Language`` header (q-values respected); English when nothing fits."""
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag.strip() and quality > 0:
            choices.append((-quality, position, tag.strip()))
    for _, _, tag in sorted(choices):
        if tag == "*":
            return SOURCE_LANGUAGE
        found = match(tag)
        if found:
            return found
    return SOURCE_LANGUAGE


def env_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, looked up as gettext does; English by default.

    ``LANGUAGE`` is a colon-separated list of preferences; the first of
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set names the locale.
    ``C`` and ``POSIX`` mean English.
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for tag in value.split(":"):
            if tag in ("C", "POSIX") or tag.startswith(("C.", "POSIX.")):
                return SOURCE_LANGUAGE
            found = match(tag) if tag else None
            if found:
                return found
        if var != "LANGUAGE":
            return SOURCE_LANGUAGE  # the locale is set, to a language we do not have
    return SOURCE_LANGUAGE


def use_environment() -> str:
    """Speak the environment's language from now on in this process (the terminal and the CLI call this)."""
    global _process_language
    _process_language = env_language()
    return _process_language


def current() -> str:
    """The language messages are translated into right now."""
    return _language.get() or _process_language


def list_words(items: list[str]) -> str:
    """Several things as one phrase in the current language: "A, B and C", "A, B et C" (Babel's list patterns)."""
    if len(items) < 2:
        return "".join(items)
    from babel.lists import format_list  # loaded at the first list said, not when the package is

    return format_list(items, locale=current())


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Translate into ``lang`` inside the block (one web request, one worker job), whatever the process speaks."""
    token = _language.set(match(lang) or SOURCE_LANGUAGE)
    try:
        yield
    finally:
        _language.reset(token)


def po_path(lang: str, domain: str) -> Path:
    """The message file (gettext .po) of ``lang`` for ``domain``: ``tableaux`` (the library and commands) or ``web``."""
    from pathlib import Path

    return Path(_LOCALE, lang, "LC_MESSAGES", f"{domain}.po")


def __getattr__(name: str) -> object:
    if name == "LOCALE_DIR":  # a Path, made when asked for (see _LOCALE)
        from pathlib import Path

        return Path(_LOCALE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def usable(message: object) -> bool:
    """A translation worth showing: not fuzzy, and no form left empty (an empty one would show as a blank)."""
    string = getattr(message, "string", "")
    forms = string if isinstance(string, (tuple, list)) else (string,)
    return bool(getattr(message, "id", "")) and not getattr(message, "fuzzy", False) and all(forms)


@functools.lru_cache(maxsize=32)
def read_catalogue(lang: str, domain: str):  # noqa: ANN201 - a babel Catalog; babel is imported lazily
    """The catalogue of ``lang`` for ``domain``, as Babel reads it; None for English or a missing file."""
    if lang == SOURCE_LANGUAGE:
        return None
    path = po_path(lang, domain)
    if not path.is_file():
        return None
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


COMPILED_FORMAT = 1
"""Bump when what goes into a compiled catalogue changes (:func:`compile_catalogue`): older copies are then
left alone, and compiled afresh."""


def compile_catalogue(lang: str, domain: str, source: bytes) -> bytes:
    """The usable messages of a ``.po`` file (``source``), compiled by Babel into a gettext ``.mo`` file."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalogue = read_po(io.BytesIO(source), locale=lang, domain=domain)
    kept = Catalog(locale=lang, domain=domain)
    kept.mime_headers = catalogue.mime_headers
    for message in catalogue:
        if usable(message):
            kept[message.id] = message
    buffer = io.BytesIO()
    write_mo(buffer, kept)
    return buffer.getvalue()


def compiled_path(lang: str, domain: str, source: bytes) -> str:
    """Where the compiled copy of this very ``.po`` text is kept: a name made of its checksum and length."""
    from ..common.dirs import user_dir

    return os.path.join(user_dir("cache"), "i18n", f"{domain}-{lang}-{zlib.crc32(source):08x}-{len(source)}"
                        f"-{COMPILED_FORMAT}.mo")


def compiled(lang: str, domain: str, source: bytes) -> gettext.GNUTranslations:
    """The translations of a ``.po`` text, compiled, from the user's cache when they were compiled before.

    Babel reads a ``.po`` file slowly: loading it, parsing a catalogue and compiling it took more than all
    the rest of a command's start in another language than English (``benchmarks/cli.py``). So the
    compiled catalogue (a gettext ``.mo`` file) is kept in the user's cache directory
    (``platformdirs.user_cache_dir``), named after the ``.po`` text's CRC-32 and length: an edited ``.po``
    file, or a newly installed version's, gets a copy of its own at its first use, and the copies of that
    catalogue it replaces are removed then. A copy that cannot be read is compiled again; where the cache
    cannot be written the catalogue is compiled in memory at every start, as it always was.
    """
    path = compiled_path(lang, domain, source)
    try:
        with open(path, "rb") as f:
            return gettext.GNUTranslations(f)
    except Exception:  # noqa: BLE001 - missing, unreadable or damaged: compile it again
        pass
    data = compile_catalogue(lang, domain, source)
    folder, name = os.path.split(path)
    mine = re.compile(re.escape(f"{domain}-{lang}-") + r"[0-9a-f]{8}-\d+-\d+\.mo")
    try:
        os.makedirs(folder, exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, path)  # whole or not at all, whoever else compiles it at the same time
        for other in os.listdir(folder):
            if other != name and mine.fullmatch(other):
                os.unlink(os.path.join(folder, other))
    except OSError:
        pass
    return gettext.GNUTranslations(io.BytesIO(data))


@functools.lru_cache(maxsize=32)
def translations(lang: str, domain: str = "tableaux") -> gettext.NullTranslations:
    """gettext translations for ``lang``; what they lack falls back to the English msgid."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    try:
        with open(os.path.join(_LOCALE, lang, "LC_MESSAGES", f"{domain}.po"), "rb") as f:
            source = f.read()
    except OSError:  # no catalogue: English
        return gettext.NullTranslations()
    return compiled(lang, domain, source)


def _(message: str) -> str:
    """``message`` in the current language (English when it has no translation)."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the current language, with that language's plural rule."""
    return translations(current()).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for the catalogues without translating it yet (it is translated where it is shown)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention
    """Mark a message with plural forms for the catalogues; whoever shows it calls ``ngettext`` with both."""
    return singular, plural


def plural_categories(lang: str) -> list[str]:
    """The CLDR plural categories of ``lang`` in the order of the catalogue's plural forms (for the browser)."""
    from babel import Locale

    tags = Locale.parse(lang).plural_form.tags | {"other"}
    order = ("zero", "one", "two", "few", "many", "other")
    return [tag for tag in order if tag in tags]


def web_messages(lang: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The browser's messages in ``lang``: ``{msgid: text}`` and ``{singular msgid: [forms]}``; only usable ones."""
    catalogue = read_catalogue(lang, "web")
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if catalogue is None:
        return messages, plurals
    for message in catalogue:
        if not usable(message):
            continue
        if isinstance(message.id, tuple):
            plurals[message.id[0]] = list(message.string)
        else:
            messages[message.id] = message.string
    return messages, plurals


__all__ = [
    "DOMAINS", "LOCALE_DIR", "N_", "N_plural", "SOURCE_LANGUAGE", "_", "current", "env_language", "languages", "match",
    "native_name", "negotiate", "ngettext", "plural_categories", "speaking", "translations", "use_environment",
    "web_messages",
]
