"""Game names and per-game knowledge come from ``tableaux.GAMES`` and the Rules attributes, nowhere else.

A game registered under a new name works in the command line, the hints and
the terminal exactly like the game whose rules it has.
"""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from rich.console import Console

import tableaux
from tableaux.advice.heuristic import heuristic_moves
from tableaux.cli import build_parser
from tableaux.rulebook.eagle_wing import EagleWing
from tableaux.rulebook.king_albert import KingAlbert
from tableaux.terminal.line import Session, help_text

SRC = Path(__file__).resolve().parents[2] / "src" / "tableaux"


class Renamed(EagleWing):
    name = "eagle-wing-again"
    title = "Eagle Wing again"


class RenamedKA(KingAlbert):
    name = "albert-the-second"
    title = "King Albert again"


@pytest.fixture
def renamed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(tableaux.GAMES, Renamed.name, Renamed())
    monkeypatch.setitem(tableaux.GAMES, RenamedKA.name, RenamedKA())


OWN_NAMES = {"king_albert.py", "eagle_wing.py", "registry.py"}
"""The modules that define the games and list them; every other module asks them."""


@pytest.mark.parametrize("module", sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                                          if p.name not in OWN_NAMES))
def test_no_game_name_is_written_into_the_module(module: str) -> None:
    tree = ast.parse((SRC / module).read_text())
    names = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in tableaux.GAMES]
    assert not names, f"{module} names games itself: {names}"


@pytest.mark.usefixtures("renamed")
def test_every_command_offers_every_registered_game() -> None:
    parser = build_parser()
    for command in (["solve"], ["deal"], ["play"], ["survey", "--deals", "1"]):
        args = parser.parse_args([command[0], Renamed.name, *(["1"] if command[0] in ("solve", "deal") else []),
                                  *command[1:]])
        assert args.game == Renamed.name


@pytest.mark.usefixtures("renamed")
@pytest.mark.parametrize("deal", [1, 2, 3])
def test_hints_treat_a_renamed_game_like_its_rules(deal: int) -> None:
    original, renamed = EagleWing(), Renamed()
    state = original.deal(deal)
    for _ in range(5):  # a few positions along the hinted line
        assert heuristic_moves(renamed, state) == heuristic_moves(original, state)
        state = original.apply(state, heuristic_moves(original, state)[0])


@pytest.mark.usefixtures("renamed")
def test_terminal_deals_from_the_stock_of_a_renamed_game() -> None:
    out = io.StringIO()
    session = Session(tableaux.new_game(Renamed.name, 1), Console(file=out, width=100))
    assert "S>W" in help_text(session.game)
    session.handle("deal")
    assert [str(m) for m in session.game.moves_played] == ["S>W"]
    king = Session(tableaux.new_game(RenamedKA.name, 1), Console(file=out, width=100))
    king.handle("deal")
    assert king.game.moves_played == [] and "has no stock" in out.getvalue()
    assert "S>W" not in help_text(king.game)
