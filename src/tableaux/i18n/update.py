"""Bring every catalogue up to date with the source: ``python -m tableaux.i18n.update [--add LANG] [--check]``.

One command for translators and developers (docs/translations.md): it
extracts the strings marked in the source (``_()``, ``N_()`` and ``ngettext()``
in Python; ``t()`` and ``tn()`` in the page's JavaScript; ``data-i18n``
elements and attributes in index.html), then merges them into each
language's ``.po`` files. New strings arrive untranslated (shown in English
until someone translates them); strings whose English changed keep their old
translation marked fuzzy (also shown in English until it is checked); strings
gone from the source are dropped. ``--check`` changes nothing and exits 1
when a catalogue is out of date.

Needs Babel, which tableaux installs anyway. Not imported at run time.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from . import DOMAINS, LOCALE_DIR, SOURCE_LANGUAGE, languages, po_path

PACKAGE = Path(__file__).resolve().parent.parent
STATIC = PACKAGE / "web" / "static"
PY_KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "ngettext": (1, 2)}
JS_KEYWORDS = {"t": None, "tn": (1, 2)}
PY_SKIP = ("i18n", "solver")
"""The solver speaks to programs, not players; its surveys (in ``survey/``) have messages."""


class _MarkedText(HTMLParser):
    """Finds the translatable parts of index.html: the text of ``data-i18n`` elements, and the attributes named
    in ``data-i18n-attr`` (space-separated)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attr") or "").split():
            if values.get(name):
                self.found.append((line, str(values[name])))
        if "data-i18n" in values:
            self._open.append((tag, line, []))

    def handle_data(self, data: str) -> None:
        for _, _, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """A Babel extraction method for index.html (see :class:`_MarkedText`)."""
    parser = _MarkedText()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, "", text, []


def sources(domain: str) -> Iterable[tuple[Path, Any, dict[str, Any]]]:
    """Each source file of ``domain`` with its extraction method and keywords."""
    if domain == "web":
        yield STATIC / "index.html", extract_html, {}
        for path in sorted(STATIC.glob("*.js")):
            if path.name != "i18n.js":  # defines t(); its comments show how to call it
                yield path, "javascript", JS_KEYWORDS
        return
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts[0] in PY_SKIP:
            continue
        yield path, "python", PY_KEYWORDS


def template(domain: str) -> Catalog:
    """Every marked string of ``domain``, with where it is used."""
    catalog = Catalog(domain=domain, project="tableaux", charset="utf-8", fuzzy=False)
    for path, method, keywords in sources(domain):
        where = path.relative_to(PACKAGE).as_posix()
        with path.open("rb") as f:
            for line, message, comments, context in extract(method, f, keywords=keywords,
                                                            comment_tags=("TRANSLATORS:",)):
                catalog.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return catalog


def merged(lang: str, domain: str, tmpl: Catalog) -> Catalog:
    path = po_path(lang, domain)
    if path.is_file():
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=domain)
        for message in catalog:
            # Babel reads a "#| msgid" line (a fuzzy entry's earlier source text) back as a translator's comment,
            # which then outlives the entry it described: such lines are never kept.
            message.user_comments = [c for c in message.user_comments if not c.startswith("| ")]
    else:
        catalog = Catalog(locale=lang, domain=domain, project="tableaux", fuzzy=False)
    catalog.update(tmpl)
    return catalog


def po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, ignore_obsolete=True, include_lineno=False, sort_output=True)
    return out.getvalue()


def without_dates(text: bytes) -> bytes:
    """A catalogue without its date headers, to tell a real change from a new timestamp."""
    return b"\n".join(line for line in text.splitlines() if not line.startswith((b'"POT-Creation-Date', b'"PO-')))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tableaux.i18n.update", description=__doc__.splitlines()[0])
    parser.add_argument("--add", metavar="LANG", action="append", default=[],
                        help="start a catalogue for a new language (a code such as it or pt_BR)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a catalogue is out of date")
    args = parser.parse_args(argv)
    langs = [code for code in (*languages(), *args.add) if code != SOURCE_LANGUAGE]
    stale = []
    for domain in DOMAINS:
        tmpl = template(domain)
        for lang in dict.fromkeys(langs):
            path = po_path(lang, domain)
            text = po_text(merged(lang, domain, tmpl))
            old = path.read_bytes() if path.is_file() else b""
            if without_dates(text) == without_dates(old):
                continue
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(text)
    for path in stale:
        verb = "out of date" if args.check else "updated"
        print(f"{path.relative_to(LOCALE_DIR)}: {verb}", file=sys.stderr if args.check else sys.stdout)
    if args.check and stale:
        print("run: python -m tableaux.i18n.update", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
