"""``tableaux stats``: whose statistics it shows. A browser is a player; the command shows one player's figures
(the one who played last, or ``--player``), or every player's added up (``--all``), and says which, in the rows
the browser's statistics dialog uses."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import find_win, new_game, play
from tableaux.cli import main
from tableaux.web.app import create_app
from tableaux.web.store import Store


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables as wide as their words need: one browser game's column each, its row names unwrapped."""
    monkeypatch.setenv("COLUMNS", "160")

STATIC = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "web" / "static"


def row(out: str, label: str) -> list[str]:
    """The cells of the table row named ``label``, one per game."""
    line = next(line for line in out.splitlines() if f"│ {label} " in line)
    return [cell.strip() for cell in line.split("│")[2:-1]]


def win(client: TestClient, deal: int = 1) -> dict[str, Any]:
    line = find_win("king-albert", deal)
    assert line is not None
    view = new_game(client, "king-albert", deal)
    for text in line:
        view = play(client, view, text)
    assert view["won"]
    return view


def lose(client: TestClient) -> None:
    """A game with a move in it, left for a new deal: a loss."""
    view = new_game(client, "king-albert", 5)
    play(client, view, view["legal_moves"][0]["text"])
    new_game(client, "king-albert", 6)


@pytest.fixture
def two_players(tmp_path: Path) -> tuple[Path, str, str]:
    """A database where one player won a game and then another player lost one (so played last)."""
    db = tmp_path / "g.sqlite3"
    app = create_app(db)
    winner, loser = TestClient(app), TestClient(app)
    win(winner)
    lose(loser)
    store = Store(db)
    try:
        (last, _), (first, _) = store.players()
    finally:
        store.close()
    return db, first, last


def test_stats_shows_the_player_who_played_last_and_says_so(
    two_players: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    db, winner, loser = two_players
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"Statistics of player {loser[:8]}" in out
    assert row(out, "Games played") == ["1", "0", "0"] and row(out, "Games won") == ["0", "0", "0"]
    assert re.search(rf"Player {loser[:8]} last played \d{{4}}-\d\d-\d\d \d\d:\d\d UTC\.", out)
    assert f"1 other player: {winner[:8]} (" in " ".join(out.split())
    assert "--player ID" in out and "--all" in out


def test_stats_player_shows_that_player_alone(
    two_players: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    db, winner, loser = two_players
    assert main(["stats", "--db", str(db), "--player", winner[:5]]) == 0
    out = capsys.readouterr().out
    assert f"Statistics of player {winner[:8]}" in out
    assert row(out, "Games played") == ["1", "0", "0"] and row(out, "Games won") == ["1", "0", "0"]
    assert f"1 other player: {loser[:8]} (" in " ".join(out.split())


def test_stats_all_adds_every_player_up(two_players: tuple[Path, str, str], capsys: pytest.CaptureFixture[str]) -> None:
    db, winner, loser = two_players
    assert main(["stats", "--db", str(db), "--all"]) == 0
    out = capsys.readouterr().out
    assert "Statistics of every player together" in " ".join(out.split())
    assert row(out, "Games played") == ["2", "0", "0"] and row(out, "Games won") == ["1", "0", "0"]
    assert row(out, "Best winning streak") == ["1", "0", "0"]  # each player's own streak: the longest
    assert winner[:8] in out and loser[:8] in out


@pytest.mark.parametrize("wanted", ["zzzz", "", "   "])
def test_stats_refuses_a_player_no_id_starts_with_and_lists_them(
    two_players: tuple[Path, str, str], capsys: pytest.CaptureFixture[str], wanted: str
) -> None:
    db, winner, loser = two_players
    assert main(["stats", "--db", str(db), "--player", wanted]) == 2
    err = capsys.readouterr().err
    assert f"no player's id starts with {wanted!r}" in err and winner[:8] in err and loser[:8] in err


def test_stats_refuses_player_and_all_together(two_players: tuple[Path, str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    db, winner, _ = two_players
    with pytest.raises(SystemExit) as stop:
        main(["stats", "--db", str(db), "--all", "--player", winner[:8]])
    assert stop.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_stats_reset_resets_the_shown_player_only(
    two_players: tuple[Path, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, winner, loser = two_players
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["stats", "--db", str(db), "--reset", "--player", loser[:8]]) == 0
    out = capsys.readouterr().out
    assert f"for player {loser[:8]}? Saved games are kept. [y/N]" in " ".join(out.split())
    assert row(out, "Games played") == ["0", "0", "0"]
    assert main(["stats", "--db", str(db), "--player", winner[:8]]) == 0
    assert row(capsys.readouterr().out, "Games won") == ["1", "0", "0"]  # the other player's figures stand
    assert main(["stats", "--db", str(db), "--reset", "--yes", "--all"]) == 0
    assert main(["stats", "--db", str(db), "--all"]) == 0
    assert row(capsys.readouterr().out, "Games played") == ["0", "0", "0"]


def test_stats_with_no_game_recorded_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    Store(db).close()
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "No browser games recorded yet." in out
    assert "Games played in the terminal have statistics of their own: 'stats' in 'tableaux play'." in out


def test_stats_rows_are_the_browsers_rows_in_its_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal's table and the browser's statistics dialog (dialogs.js) name the same figures alike."""
    source = (STATIC / "dialogs.js").read_text()
    rows = source[source.index("const statRows"):]
    browser = re.findall(r'\["\w+", t\("([^"]+)"\)', rows[:rows.index("];")])
    assert len(browser) >= 13 and "Fastest win" in browser
    db = tmp_path / "g.sqlite3"
    win(TestClient(create_app(db)))
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    labels = [line.split("│")[1].strip() for line in out.splitlines() if line.count("│") > 2]
    assert labels == browser
