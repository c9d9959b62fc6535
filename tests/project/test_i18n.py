"""Translations: the catalogues, the fallback to English, the choice of language, and the page's catalogue API."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

import tableaux
from helpers.cli import run_tableaux
from tableaux import i18n
from tableaux.i18n import update

CATALOGUES = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"\{\w*\}|%(?:\(\w+\))?[sdifr]")
TAG = re.compile(r"</?([a-z0-9]+)")


def read(path: Path):  # noqa: ANN201 - a babel Catalog
    with path.open("rb") as f:
        return read_po(f, locale=path.parts[-3], domain=path.stem)


def translated(path: Path) -> list[tuple[str, str, str]]:
    """``(catalogue, msgid, msgstr form)`` for every translated form of every message."""
    out = []
    for message in read(path):
        if not message.id or not i18n.usable(message):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in strings:
            out.append((f"{path.parts[-3]}/{path.name}", ids[-1], form))
    return out


def test_french_german_spanish_and_dutch_have_catalogues_for_python_and_the_page() -> None:
    assert {"en", "fr", "de", "es", "nl"} <= set(i18n.languages())
    for lang in ("fr", "de", "es", "nl"):
        for domain in i18n.DOMAINS:
            assert i18n.po_path(lang, domain).is_file()


def test_catalogues_hold_every_string_the_source_marks() -> None:
    """A string wrapped in _() or t() but missing from the catalogues: run python -m tableaux.i18n.update."""
    assert update.main(["--check"]) == 0


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_translation_keeps_the_placeholders_and_markup_of_its_english_text(path: Path) -> None:
    problems = []
    for where, msgid, msgstr in translated(path):
        if sorted(PLACEHOLDER.findall(msgid)) != sorted(PLACEHOLDER.findall(msgstr)):
            problems.append(f"{where}: placeholders differ: {msgid!r} -> {msgstr!r}")
        if TAG.findall(msgid) != TAG.findall(msgstr):
            problems.append(f"{where}: markup differs: {msgid!r} -> {msgstr!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_message_is_translated_in_every_plural_form(path: Path) -> None:
    """A message with one plural form left empty is not used at all (:func:`tableaux.i18n.usable`): a French or
    Spanish player would read it in English, whatever the count."""
    missing = [message.id for message in read(path) if message.id and not i18n.usable(message)]
    assert not missing, missing


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_every_message_reads_as_its_translation_or_else_as_english_never_blank(path: Path) -> None:
    lang, domain = path.parts[-3], path.stem
    catalogue = read(path)
    assert catalogue.plural_forms == update.Catalog(locale=lang).plural_forms, "the Plural-Forms header is wrong"
    tr = i18n.translations(lang, domain)
    for message in catalogue:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n in (0, 1, 2, 5, 21, 1_000_000):
                text = tr.ngettext(message.id[0], message.id[1], n)
                english = message.id[0] if n == 1 else message.id[1]
                assert text, (message.id, n)
                if not i18n.usable(message):
                    assert text == english
            continue
        text = tr.gettext(message.id)
        assert text == (message.string if i18n.usable(message) else message.id)
        assert text.strip()


def test_an_empty_or_fuzzy_translation_falls_back_to_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    po = tmp_path / "xx" / "LC_MESSAGES" / "tableaux.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Undo"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Redo"\nmsgstr "Wrongly"\n\n'
        'msgid "Hint"\nmsgstr "Tip"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} kaart"\nmsgstr[1] ""\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "_LOCALE", str(tmp_path))
    i18n.read_catalogue.cache_clear()
    i18n.translations.cache_clear()
    try:
        with i18n.speaking("xx"):
            assert i18n.current() == "xx"
            assert i18n._("Undo") == "Undo"
            assert i18n._("Redo") == "Redo"
            assert i18n._("Hint") == "Tip"
            assert i18n._("Not in the catalogue") == "Not in the catalogue"
            assert i18n.ngettext("{n} card", "{n} cards", 3) == "{n} cards"  # half-translated plural: English
    finally:
        i18n.read_catalogue.cache_clear()
        i18n.translations.cache_clear()


def test_updating_a_catalogue_keeps_no_line_left_by_an_earlier_source_text_and_changes_nothing_the_second_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fuzzy entry's "#| msgid" line, which babel reads back as a translator's comment, would otherwise stay in
    the catalogue after the entry it described was checked or changed."""
    po = tmp_path / "xx" / "LC_MESSAGES" / "tableaux.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        '#, fuzzy\n#| msgid "Commands (old):"\nmsgid "Commands:"\nmsgstr "Befehle:"\n\n'
        '# | msgid "Undo the move"\nmsgid "Undo"\nmsgstr "Rückgängig"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "_LOCALE", str(tmp_path))
    tmpl = update.template("tableaux")
    first = update.po_text(update.merged("xx", "tableaux", tmpl))
    assert b"Befehle:" in first and "Rückgängig".encode() in first
    assert b"#|" not in first and b"# |" not in first
    po.write_bytes(first)
    assert update.without_dates(update.po_text(update.merged("xx", "tableaux", tmpl))) == update.without_dates(first)


@pytest.mark.parametrize(("header", "lang"), [
    ("fr", "fr"),
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
    ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
    ("it, nl;q=0.5, es;q=0.7", "es"),
    ("en-GB, fr;q=0.5", "en"),
    ("nl;q=0, de;q=0.1", "de"),
    ("", "en"),
    (None, "en"),
    ("*", "en"),
    ("xx-YY", "en"),
])
def test_accept_language_picks_the_best_language_we_have(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


@pytest.mark.slow
@given(st.text(max_size=60))
def test_any_accept_language_header_gives_a_language_we_have(header: str) -> None:
    assert i18n.negotiate(header) in i18n.languages()


@pytest.mark.parametrize(("env", "lang"), [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LC_MESSAGES": "es_ES.UTF-8", "LANG": "fr_FR.UTF-8"}, "es"),
    ({"LC_ALL": "nl_NL.UTF-8", "LC_MESSAGES": "es_ES.UTF-8"}, "nl"),
    ({"LANGUAGE": "it:de", "LANG": "fr_FR.UTF-8"}, "de"),
    ({"LANGUAGE": "it", "LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "pt_BR.UTF-8"}, "en"),
])
def test_the_environment_picks_the_terminal_language_as_gettext_does(env: dict[str, str], lang: str) -> None:
    assert i18n.env_language(env) == lang


def test_the_page_gets_its_catalogue_in_the_language_accept_language_asks_for(client: TestClient) -> None:
    answer = client.get("/api/i18n", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert answer.status_code == 200
    data = answer.json()
    assert data["lang"] == "fr"
    assert data["messages"]["New game"] == "Nouvelle partie"
    assert {"code": "fr", "name": "Français"} in data["languages"]
    assert [entry["code"] for entry in data["languages"]][0] == "en"
    assert client.get("/api/i18n").json()["lang"] == "en"


def test_the_language_menu_asks_for_a_catalogue_by_its_code(client: TestClient) -> None:
    data = client.get("/api/i18n/de", headers={"Accept-Language": "fr"}).json()
    assert data["lang"] == "de"
    assert data["messages"]["Undo"] == "Rück\u00adgängig"  # a soft hyphen, where a phone may wrap it
    english = client.get("/api/i18n/en").json()
    assert english["messages"] == {} and english["lang"] == "en"  # English is the msgids themselves


def test_a_language_without_a_catalogue_is_refused_with_the_languages_there_are(client: TestClient) -> None:
    answer = client.get("/api/i18n/xx")
    assert answer.status_code == 422
    assert "'fr'" in answer.json()["error"] and "'nl'" in answer.json()["error"]


LITERAL_CALL = re.compile(r"""(?<![\w.])(?:t|tn|_|N_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]""")


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_literal_string_passed_to_a_translation_function_is_extracted(domain: str) -> None:
    """Babel's extractors skip some calls (one nested in another's arguments): such a string would stay English."""
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in update.template(domain)}
    missing = []
    for path, method, _ in update.sources(domain):
        if method == update.extract_html:
            continue
        for found in LITERAL_CALL.finditer(path.read_text(encoding="utf-8")):
            text = found.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
            if text not in extracted:
                missing.append(f"{path.name}: {text!r}")
    assert not missing, "not extracted (take the call out of the other call's arguments):\n" + "\n".join(missing)


def french_environment() -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return {**env, "LANG": "fr_FR.UTF-8"}


def output(args: list[str], env: dict[str, str], stdin: str = "") -> str:
    done = run_tableaux(*args, env=env, stdin=stdin)
    return done.stdout + done.stderr


def test_the_terminal_game_speaks_french_with_lang_fr_fr() -> None:
    out = output(["play", "king-albert", "--deal", "17"], french_environment(), "R1>F1\nmoves\nundo\nquit\n")
    assert "King Albert  donne 17" in out
    assert "Tapez un coup comme T1>T3, ou 'help'." in out
    assert "R1>F1 joué." in out and "R1>F1 annulé." in out
    assert "Coups permis :" in out
    assert "Au revoir." in out
    assert "Type a move" not in out and "Played" not in out


def test_the_terminal_game_speaks_english_by_default() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    out = output(["play", "king-albert", "--deal", "17"], env, "R1>F1\nquit\n")
    assert "Played R1>F1." in out and "King Albert  deal 17" in out


def test_the_command_line_speaks_french_with_lang_fr_fr() -> None:
    out = output(["solve", "king-albert", "17"], french_environment())
    assert "King Albert, donne 17 : gagnable (" in out
    assert "suite gagnante, " in out


def test_no_module_that_translates_with_underscore_also_uses_it_as_a_throwaway_name() -> None:
    """``word, _, rest = ...`` or ``def cmd(self, _)`` would shadow gettext's ``_`` and break every message there."""
    import ast

    problems = []
    for path in sorted((i18n.LOCALE_DIR.parent.parent).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports_it = any(isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("i18n")
                         and any(alias.name == "_" for alias in node.names) for node in ast.walk(tree))
        if not imports_it:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.arg) and node.arg == "_" or isinstance(node, ast.Name) and node.id == "_" \
                    and isinstance(node.ctx, ast.Store):
                problems.append(f"{path.name}:{node.lineno}")
    assert not problems, problems


@pytest.fixture
def french_process(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201 - a generator fixture
    """The process speaks what ``LANG=fr_FR.UTF-8`` asks for, as the terminal and the CLI do; English again after."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert i18n.use_environment() == "fr"
    yield
    monkeypatch.setattr(i18n, "_process_language", i18n.SOURCE_LANGUAGE)


FRENCH_HINT_STARTS = ("Jouez ", "Essayez ", "Cette position ", "Aucune des ", "La partie est gagnée", "Il ne reste")


@pytest.mark.usefixtures("french_process")
def test_lang_fr_fr_gives_a_french_hint_message() -> None:
    from tableaux import new_game

    for mode in ("fair", "peek"):
        hint = tableaux.hint(new_game("king-albert", 17), mode=mode, time_limit=0.5, samples=4)
        assert hint.message.startswith(FRENCH_HINT_STARTS), hint.message
    game = new_game("king-albert", 17)
    assert tableaux.hint(game, mode="peek", time_limit=5).message.endswith(
        "(Triche : le solveur a regardé les cartes face cachée.)")


@pytest.mark.usefixtures("french_process")
def test_lang_fr_fr_gives_french_reasons_for_illegal_moves() -> None:
    from tableaux import IllegalMoveError, new_game

    game = new_game("king-albert", 17)
    with pytest.raises(IllegalMoveError, match="^coup interdit T1>R1 : la réserve ne prend jamais de cartes$"):
        game.play("T1>R1")
    assert game.rules.why_illegal(game.state, (0, 1, 0)) == "une pile ne peut pas aller sur elle-même"
    eagle = new_game("eagle-wing", 17)
    assert eagle.rules.why_illegal(eagle.state, (eagle.rules.stock, 1, eagle.rules.stock)) == \
        "la pioche ne reprend que le rebut entier"
