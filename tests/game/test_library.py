"""The library's conveniences: what a Python user of ``tableaux`` relies on beyond the rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from helpers.cli import run_tableaux
from helpers.games import play_randomly
from tableaux import Game, Move, TableauxError
from tableaux.play.board import card_label
from tableaux.rulebook.cards import DOWN, card_str

NAMES = list(tableaux.GAMES)
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
picks = st.lists(st.integers(min_value=0, max_value=2**16), max_size=60)


def move_texts(game: Game) -> list[object]:
    """Every way of writing a move that players use, for the legal moves and some illegal ones."""
    out: list[object] = []
    names = game.rules.pile_names
    for m in game.legal_moves():
        out += [m, str(m), f"{m.source} {m.count} {m.target}", (m.source, m.count, m.target)]
        short = str(m).replace(f":{m.count}", "")
        out.append(short)  # the count left out: play() fills it in when only one fits
    out += [f"{a}>{b}" for a in names[:6] for b in names[-6:]]
    out += ["", "T1>>", "T1:99>T2", ("tableau-1", 1), 42, Move("nowhere", 1, "tableau-1")]
    return out


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks)
def test_is_legal_accepts_exactly_what_play_accepts(name: str, deal: int, choices: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    for move in move_texts(game):
        try:
            game.play(move)  # type: ignore[arg-type]
            game.undo()
            playable = True
        except TableauxError:
            playable = False
        assert game.is_legal(move) is playable, move  # type: ignore[arg-type]


def test_is_legal_takes_the_readme_move_text() -> None:
    game = tableaux.new_game("king-albert", 1)
    assert game.is_legal("T3>T6") and game.is_legal("tableau-3 tableau-6")
    assert not game.is_legal("T1>T2") and not game.is_legal("not a move")


@pytest.mark.parametrize("name", NAMES)
def test_str_of_a_game_is_the_board_the_terminal_draws(name: str) -> None:
    game = tableaux.new_game(name, 7)
    printed = run_tableaux("deal", name, "7").stdout
    assert str(game).splitlines() == [line.rstrip() for line in printed.rstrip("\n").splitlines()]
    assert "\x1b" not in str(game)  # no colour codes


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks)
def test_str_of_a_game_shows_exactly_the_face_up_cards(name: str, deal: int, choices: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    shown = {token for token in str(game).split() if token[-1] in "♣♦♥♠"}
    public = game.public_position()["piles"]
    # Only a pile's top card is drawn for foundations, reserve cells, the stock and the waste.
    fanned = set(game.rules.tableau)
    face_up = {
        card_label(c["card"]).strip()
        for i, pile in enumerate(public.values())
        for c in (pile if i in fanned else pile[-1:])
        if c["up"]
    }
    assert shown == face_up
    hidden = {card_label(card_str(c)).strip() for pile in game.state.piles for c in pile if c & DOWN}
    assert not shown & hidden


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks, more=picks)
def test_a_copy_has_the_same_game_and_goes_its_own_way(
    name: str, deal: int, choices: list[int], more: list[int]
) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    if game.moves_played:
        game.undo()  # a redo list to copy as well
    before = game.dumps()
    twin = game.copy()
    assert twin.dumps() == before and twin.state == game.state and twin.redo_moves == game.redo_moves
    play_randomly(twin, more)
    twin.restart()
    assert game.dumps() == before  # nothing done to the copy reaches the original
    assert twin.state == game.rules.deal(deal)
    play_randomly(game, more)
    assert twin.state == game.rules.deal(deal)  # nor the other way round


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_solve_takes_a_game_name_and_deal_number(name: str) -> None:
    by_name = tableaux.solve(name, 17, time_limit=30)
    by_game = tableaux.solve(tableaux.new_game(name, 17), time_limit=30)
    assert by_name.verdict == by_game.verdict == "winnable" and by_name.moves == by_game.moves
    game = tableaux.new_game(name, 17)
    for move in by_name.moves:
        game.play(move)
    assert game.is_won()


def test_solve_passes_its_budget_options_on() -> None:
    assert tableaux.solve("king-albert", 17, max_nodes=1, first_pass=False).verdict == "unknown"


@pytest.mark.parametrize(
    ("args", "error", "says"),
    [
        (("klondike", 1), tableaux.UnknownGameError, "known games are king-albert"),
        (("king-albert",), tableaux.SolverError, "needs a deal number"),
        (("king-albert", -1), tableaux.DealError, "deal number"),
        (("king-albert", 2.5), tableaux.DealError, "deal number"),
        ((tableaux.new_game("eagle-wing", 1), 5), tableaux.SolverError, "goes after a game name.*not after a Game"),
        ((42,), tableaux.SolverError, "takes a Game"),
        ((17, "king-albert"), tableaux.SolverError, "goes after a game name.*not after 17"),
    ],
)
def test_solve_refuses_bad_arguments_clearly(args: tuple[object, ...], error: type[Exception], says: str) -> None:
    with pytest.raises(error, match=says):
        tableaux.solve(*args)  # type: ignore[arg-type]


def test_the_package_namespace_is_exactly_the_api() -> None:
    public = {
        name for name in dir(tableaux)  # the floors a use has loaded are attributes too, and not the API
        if not name.startswith("_") and (name in tableaux.__all__
                                          or not isinstance(getattr(tableaux, name), types.ModuleType))
    }
    assert public == set(tableaux.__all__)
    assert len(tableaux.__all__) == len(set(tableaux.__all__))
    for helper in ("json", "random", "Path", "Any", "annotations"):
        assert helper not in dir(tableaux)


def test_the_fair_module_is_listed_in_the_api_before_its_first_use() -> None:
    listed = run_python("import sys, tableaux; print('fair' in tableaux.__all__, 'fair' in dir(tableaux), "
                        "'tableaux.advice.fair' in sys.modules)")
    assert listed == "True True False"  # listed, not loaded
    star: dict[str, object] = {}
    exec("from tableaux import *", star)
    assert isinstance(star["fair"], types.ModuleType) and star["fair"].win_chance is tableaux.fair.win_chance


def test_the_packages_the_docs_name_are_there_after_import_tableaux_alone() -> None:
    """``tableaux.solver.BACKENDS`` and ``tableaux.catalogue`` work in a fresh interpreter, loaded when first named."""
    seen = run_python("import sys, tableaux; loaded = 'tableaux.solver' in sys.modules; "
                      "print(loaded, tableaux.solver.BACKENDS[0] in ('c', 'python'), tableaux.catalogue.__name__)")
    assert seen == "False True tableaux.catalogue"


def run_python(code: str) -> str:
    """What ``code`` prints in a fresh interpreter with this one's package."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True).stdout.strip()


def test_a_bad_argument_to_a_hint_is_an_error_the_package_exports() -> None:
    game = tableaux.new_game("king-albert", 1)
    with pytest.raises(tableaux.FairError, match="samples must be a whole number from 1 to 100,000, not -1"):
        tableaux.hint(game, samples=-1)
    with pytest.raises(tableaux.FairError, match="from 1 to 100,000, not 1000000000"):
        tableaux.hint(game, samples=10**9)  # refused before a layout is drawn, not drawn for minutes
    with pytest.raises(tableaux.FairError, match="from 1 to 100,000, not 0"):
        tableaux.hint(game, mode="peek", samples=0)  # a peeking hint draws none, but refuses what no hint takes
    assert issubclass(tableaux.FairError, TableauxError)


def test_every_error_the_library_raises_on_purpose_is_a_tableaux_error() -> None:
    """One ``except tableaux.TableauxError`` catches a bad deal number and a bad card as it catches a bad move."""
    from tableaux.rulebook.cards import parse_card

    for bad in (lambda: tableaux.new_game("king-albert", -1), lambda: parse_card("AX"),
                lambda: tableaux.new_game("king-albert", 1).play("T1>T1"), lambda: Game("king-albert", 1)):  # type: ignore[arg-type]
        with pytest.raises(TableauxError):
            bad()
    with pytest.raises(TableauxError, match=r"tableaux.new_game\('king-albert', 17\)"):
        Game("king-albert", 1)  # type: ignore[arg-type]


def test_a_node_budget_past_the_largest_is_refused_with_the_range_and_the_cli_exits_2() -> None:
    for budget in (0, 10**15 + 1, 2**63, 10**30):
        with pytest.raises(tableaux.SolverError, match="from 1 to 1,000,000,000,000,000"):
            tableaux.solve("king-albert", 1, max_nodes=budget)
    assert tableaux.solve("king-albert", 1, max_nodes=10**15).verdict == "winnable"
    proc = run_tableaux("solve", "king-albert", "1", "--max-nodes", "99999999999999999999")
    assert proc.returncode == 2 and "from 1 to 1,000,000,000,000,000" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_solve_json_gives_each_move_in_short_notation_too(name: str) -> None:
    proc = run_tableaux("solve", name, "1", "--json")
    assert proc.returncode == 0, proc.stderr
    moves = json.loads(proc.stdout)["moves"]
    game = tableaux.new_game(name, 1)
    for m in moves:
        assert m["text"] == str(Move(m["source"], m["count"], m["target"]))
        game.play(m["text"])
    assert moves and game.is_won()


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks, back=st.integers(0, 10))
def test_replay_rebuilds_the_game_its_moves_and_redo_list_describe(
    name: str, deal: int, choices: list[int], back: int
) -> None:
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    for _ in range(min(back, len(game.moves_played))):
        game.undo()
    texts = [str(m) for m in game.moves_played]
    again = Game.replay(game.rules, deal, texts, [str(m) for m in game.redo_moves])
    assert again.dumps() == game.dumps() and again.positions == game.positions
    assert Game.replay(game.rules, deal, game.moves_played, game.redo_moves).dumps() == game.dumps()
    assert tableaux.loads(game.dumps()).dumps() == game.dumps()


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks, back=st.integers(0, 10),
       then=st.lists(st.sampled_from(("undo", "redo", "restart", "play")), max_size=8))
def test_a_trusted_replay_is_the_game_a_checked_one_is_and_plays_on_alike(
    name: str, deal: int, choices: list[int], back: int, then: list[str]
) -> None:
    """What the web store rebuilds a long game with: the same game, position, history and seen cards as the
    checked replay of the same line, and the two stay alike through undo, redo, restart and new moves."""
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    game.back_to(max(0, game.played_count - back))
    trusted = Game.trusted_replay(game.rules, deal, game.moves_played, game.redo_moves, seen=game.seen_cards)
    for step in [*then, "check"]:
        assert trusted == game and trusted.positions == game.positions
        assert trusted.seen_cards == game.seen_cards and trusted.observation() == game.observation()
        assert (trusted.played_count, trusted.redo_count) == (len(game.moves_played), len(game.redo_moves))
        if step == "undo" and game.played_count:
            assert trusted.undo() == game.undo()
        elif step == "redo" and game.redo_count:
            assert trusted.redo() == game.redo()
        elif step == "restart":
            trusted.restart()
            game.restart()
        elif step == "play" and game.legal_moves():
            move = game.legal_moves()[-1]
            assert trusted.play(move) == game.play(move)


def test_replay_reads_move_text_exactly_and_says_which_move_failed() -> None:
    rules = tableaux.rules("king-albert")
    game = Game.replay(rules, 1, ["T3>T6"])
    assert game.moves_played == [Move("tableau-3", 1, "tableau-6")]
    with pytest.raises(tableaux.IllegalMoveError, match=r"^move 2 \('T1>T2'\) cannot be played: illegal move"):
        Game.replay(rules, 1, ["T3>T6", "T1>T2"])
    with pytest.raises(tableaux.NotationError, match=r"^redo move 1 \('nonsense'\)"):
        Game.replay(rules, 1, ["T3>T6"], ["nonsense"])
    with pytest.raises(tableaux.DealError):
        Game.replay(rules, -1, [])


def test_positions_are_the_played_line_from_the_deal() -> None:
    game = tableaux.new_game("eagle-wing", 3)
    line = [game.state]
    for move in ("S>W", "S>W", game.legal_moves()[-1]):
        game.play(move)
        line.append(game.state)
    game.undo()
    line.pop()
    assert game.positions == line and game.positions[0] == game.rules.deal(3)


@quick
@given(name=st.sampled_from(NAMES), deal=st.integers(0, 2**32 - 1), choices=picks, undos=st.integers(0, 5))
def test_a_loaded_save_equals_the_game_it_came_from(name: str, deal: int, choices: list[int], undos: int) -> None:
    """``tableaux.loads(game.dumps()) == game``: same game, deal, moves, moves to redo and assisted flag."""
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    for _ in range(min(undos, len(game.moves_played))):
        game.undo()
    loaded = tableaux.loads(game.dumps())
    assert loaded == game and loaded is not game
    if game.legal_moves():
        loaded.play(loaded.legal_moves()[0])
        assert loaded != game  # a move played on one is not on the other
    assert tableaux.new_game(name, (deal + 1) % 2**32) != game  # another deal is another game


def test_a_game_is_not_hashable_because_it_changes() -> None:
    with pytest.raises(TypeError):
        hash(tableaux.new_game("king-albert", 1))
