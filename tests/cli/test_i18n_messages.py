"""Errors a user meets, the command line's help and argparse's own words, and the survey summary, translated.

Each message is checked in French against its English: translated where the
catalogue has it, and never blank.
"""

from __future__ import annotations

import argparse
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import tableaux
from helpers.cli import run_tableaux
from tableaux import catalogue, i18n
from tableaux.cli.words import translated_argparse
from tableaux.rulebook.cards import parse_card
from tableaux.rulebook.deal import DealError, check_deal, parse_deals
from tableaux.survey.solver import summarise
from tableaux.web.server import ServeError, open_socket
from tableaux.web.store import Store, StoreError


def message(action: Callable[[], object], error: type[Exception], lang: str) -> str:
    with i18n.speaking(lang), pytest.raises(error) as caught:
        action()
    return str(caught.value)


def store_on_a_folder(tmp_path: Path) -> Callable[[], object]:
    return lambda: Store(tmp_path)  # a folder is no database file


def busy_port() -> Callable[[], object]:
    import socket

    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    busy_port.holder = holder  # type: ignore[attr-defined] - kept open while the test runs
    return lambda: open_socket("127.0.0.1", port, attempts=1)


CASES: dict[str, tuple[Callable[[Path], Callable[[], object]], type[Exception]]] = {
    "CardError": (lambda _tmp: lambda: parse_card("ZZ"), tableaux.CardError),
    "DealError": (lambda _tmp: lambda: check_deal(-1), tableaux.DealError),
    "SaveFileError": (lambda _tmp: lambda: tableaux.loads("{"), tableaux.SaveFileError),
    "CatalogueError": (lambda _tmp: lambda: catalogue.parse_date("14/03/2025"), catalogue.CatalogueError),
    "StoreError": (store_on_a_folder, StoreError),
    "ServeError": (lambda _tmp: busy_port(), ServeError),
    "DealError (range)": (lambda _tmp: lambda: parse_deals("ten"), DealError),
}


@pytest.mark.parametrize("lang", [code for code in i18n.languages() if code != "en"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_errors_that_reach_users_speak_their_language_and_are_never_blank(case: str, lang: str, tmp_path: Path) -> None:
    make, error = CASES[case]
    english = message(make(tmp_path), error, "en")
    translated = message(make(tmp_path), error, lang)
    assert english.strip() and translated.strip()
    assert translated != english, f"{case} in {lang} is still English: {translated!r}"


def test_a_bad_save_file_is_refused_in_french_with_what_is_accepted() -> None:
    text = message(lambda: tableaux.loads('{"format": "other"}'), tableaux.SaveFileError, "fr")
    assert text.startswith("pas une partie tableaux enregistrée") and '"format": "tableaux' in text


def test_the_survey_summary_speaks_french_and_keeps_english_word_for_word() -> None:
    rows = [{"verdict": "winnable", "seconds": 1.0}, {"verdict": "unknown", "seconds": 2.5}]
    with i18n.speaking("en"):
        english = summarise(rows).text()
        empty = summarise([]).text()
    with i18n.speaking("fr"):
        french = summarise(rows).text()
        assert summarise([]).text() != empty
    assert english.splitlines()[0] == "deals 2: winnable 1 (50.00%), unwinnable 0 (0.00%), unknown 1 (50.00%)"
    assert french.splitlines()[0] == "donnes 2 : gagnables 1 (50.00 %), perdues 0 (0.00 %), inconnues 1 (50.00 %)"
    assert len(french.splitlines()) == 3 and "médiane 1.000" in french


def environment(lang: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    if lang:
        env["LANG"] = lang
    return env


def tableaux_cli(args: list[str], lang: str | None) -> subprocess.CompletedProcess[str]:
    return run_tableaux(*args, env=environment(lang))


def test_the_command_line_help_is_translated_under_lang_fr_argparses_words_and_colons_too() -> None:
    out = tableaux_cli(["--help"], "fr_FR.UTF-8").stdout
    assert out.startswith("usage : tableaux")
    assert "lance le jeu dans le navigateur." in " ".join(out.split())
    assert "jouer dans le terminal" in out and "afficher ce message d’aide et quitter" in out
    # argparse adds the colon after a heading itself; French puts a (non-breaking) space before it
    assert "options\u00a0:" in out and "arguments positionnels\u00a0:" in out
    sub = tableaux_cli(["pick", "--help"], "fr_FR.UTF-8").stdout
    assert "seulement les donnes que le solveur a gagnées" in sub
    for english in ("show this help message", "play in the terminal", "usage:", "positional arguments"):
        assert english not in out + sub


def test_the_command_line_help_stays_english_without_a_language() -> None:
    out = tableaux_cli(["--help"], None).stdout
    assert out.startswith("usage: tableaux") and "show this help message and exit" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "--deal", "x"], "tableaux play : erreur : argument --deal : un numéro de donne doit être un nombre "
                                  "entier de 0 à 4294967295, pas 'x'"),
        (["deal", "nope", "1"], "choix invalide : 'nope' (choisir parmi 'king-albert'"),
        (["deal"], "les arguments suivants sont requis : game, number"),
        (["daily", "king-albert", "--date", "14/03/2025"], "une date s'écrit AAAA-MM-JJ"),
        (["solve", "king-albert", "1", "--bogus"], "arguments non reconnus : --bogus"),
    ],
)
def test_argument_errors_are_french_under_lang_fr_and_still_exit_2(args: list[str], expected: str) -> None:
    done = tableaux_cli(args, "fr_FR.UTF-8")
    assert done.returncode == 2
    assert expected in done.stderr, done.stderr
    assert "error:" not in done.stderr and "usage :" in done.stderr


def test_argparse_speaks_english_again_outside_the_command_line() -> None:
    before = argparse._  # type: ignore[attr-defined]
    with i18n.speaking("de"), translated_argparse():
        assert argparse._("options") == "Optionen"  # type: ignore[attr-defined]
        assert argparse._("no such message") == "no such message"  # type: ignore[attr-defined]
    assert argparse._ is before  # type: ignore[attr-defined]


def test_a_grade_the_catalogue_lacks_is_named_in_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """``pick --difficulty hard`` on a catalogue without hard deals says so with the grade in the player's words."""
    real = catalogue.load("king-albert")
    no_hard = catalogue.Catalogue(real.game, tuple(e for e in real.entries if e.grade != "hard"), real.header)
    monkeypatch.setattr(catalogue.files, "load", lambda game: no_hard)
    french = message(lambda: catalogue.pick("king-albert", difficulty="hard"), catalogue.CatalogueError, "fr")
    english = message(lambda: catalogue.pick("king-albert", difficulty="hard"), catalogue.CatalogueError, "en")
    assert "difficile" in french and "hard" not in french
    assert "hard" in english
