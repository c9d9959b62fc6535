"""Compiled catalogues are kept in the user's cache, and a cached copy is never staler than its ``.po`` file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tableaux import i18n

PO = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
      '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
      'msgid "Hint"\nmsgstr "{hint}"\n\n'
      'msgid "{{n}} card"\nmsgid_plural "{{n}} cards"\nmsgstr[0] "{{n}} kaart"\nmsgstr[1] "{{n}} kaarten"\n')


@pytest.fixture
def xx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A language ``xx`` with its own ``.po`` file, and a cache of its own."""
    po = tmp_path / "locale" / "xx" / "LC_MESSAGES" / "tableaux.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO.format(hint="Tip"), encoding="utf-8")
    monkeypatch.setattr(i18n, "_LOCALE", str(tmp_path / "locale"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.translations.cache_clear()
    yield po
    i18n.translations.cache_clear()


def hint(lang: str = "xx") -> str:
    """The word for "Hint" as a new process would find it (nothing remembered from an earlier call)."""
    i18n.translations.cache_clear()
    return i18n.translations(lang).gettext("Hint")


def copies(po: Path) -> list[str]:
    folder = po.parents[3] / "cache" / "tableaux" / "i18n"
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_a_catalogue_is_compiled_once_and_then_read_from_the_cache(xx: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert hint() == "Tip"
    assert len(copies(xx)) == 1

    def no_compiling(*args: object) -> bytes:
        raise AssertionError("compiled again although a compiled copy is kept")

    monkeypatch.setattr(i18n, "compile_catalogue", no_compiling)
    assert hint() == "Tip"
    assert i18n.translations("xx").ngettext("{n} card", "{n} cards", 3) == "{n} kaarten"


@pytest.mark.parametrize("edit", ["Top", "Tipp", "Raad"])
def test_an_edited_po_file_is_used_at_the_next_start_and_its_old_copy_goes(xx: Path, edit: str) -> None:
    assert hint() == "Tip"
    before = os.stat(xx)
    xx.write_text(PO.format(hint=edit), encoding="utf-8")
    os.utime(xx, ns=(before.st_atime_ns, before.st_mtime_ns))  # same time, even the same size: the text decides
    assert hint() == edit
    assert len(copies(xx)) == 1


def test_a_damaged_copy_is_compiled_again(xx: Path) -> None:
    assert hint() == "Tip"
    [name] = copies(xx)
    copy = xx.parents[3] / "cache" / "tableaux" / "i18n" / name
    for damage in (b"", b"\x95\x04\x12\xde" + b"\0" * 10, b"not a catalogue"):
        copy.write_bytes(damage)
        assert hint() == "Tip"
    assert copy.read_bytes()[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")  # a .mo file again


def test_without_a_writable_cache_the_catalogue_is_compiled_in_memory(xx: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = xx.parents[3] / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert hint() == "Tip"
    assert hint() == "Tip"


@pytest.mark.parametrize("lang", [lang for lang in i18n.languages() if lang != i18n.SOURCE_LANGUAGE])
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_a_cached_catalogue_says_what_the_freshly_compiled_one_says(lang: str, domain: str) -> None:
    source = Path(i18n.po_path(lang, domain)).read_bytes()
    fresh = i18n.compiled(lang, domain, source)  # compiled now (each test has a cache of its own)
    kept = i18n.compiled(lang, domain, source)  # read back from the cache
    assert os.path.exists(i18n.compiled_path(lang, domain, source))
    assert fresh._catalog == kept._catalog  # type: ignore[attr-defined]
    assert fresh.plural(1) == kept.plural(1) and fresh.plural(5) == kept.plural(5)  # type: ignore[attr-defined]
