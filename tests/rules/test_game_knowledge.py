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


def test_a_layouts_every_field_keeps_the_value_it_is_given() -> None:
    from tableaux.rulebook.guide import Layout, Shape, Spot

    spot = Spot("tableau-1", "fan", 2, col=3, tall=(1, 4), side=(2, 1, 3), drop=1, group="row")
    assert (spot.pile, spot.kind, spot.row, spot.col, spot.tall, spot.side, spot.drop, spot.group) == (
        "tableau-1", "fan", 2, 3, (1, 4), (2, 1, 3), 1, "row")
    wide, tall, side = Shape(9, 4.6), Shape(4, 7.4, stacked=True, rows=4), Shape(12, 3.3, steps=2, rows=1, beside=1)
    assert (side.cols, side.depth, side.stacked, side.steps, side.rows, side.beside) == (12, 3.3, False, 2, 1, 1)
    assert (tall.stacked, tall.rows) == (True, 4) and (wide.stacked, wide.steps, wide.rows, wide.beside) == (
        False, 0, 2, 0)
    layout = Layout((spot,), wide, tall=tall, side=side)
    assert (layout.spots, layout.wide, layout.tall, layout.side) == ((spot,), wide, tall, side)


def test_a_game_whose_piles_have_places_on_a_grid_declares_that_grid() -> None:
    for rules in tableaux.GAMES.values():
        layout = rules.layout
        for grid in ("tall", "side"):
            placed = [s.pile for s in layout.spots if getattr(s, grid) is not None]
            assert bool(placed) == (getattr(layout, grid) is not None), (rules.name, grid)


def test_the_games_read_as_their_names() -> None:
    assert repr(tableaux.GAMES) == ("{'king-albert': <KingAlbert king-albert>, 'eagle-wing': <EagleWing eagle-wing>, "
                                    "'king-albert-classic': <KingAlbertClassic king-albert-classic>}")
