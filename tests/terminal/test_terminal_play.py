"""The terminal's play loop, driven the way a player (or a script piping commands) drives it: moves, undo,
redo and restart, a double-click home, new deals, hints, the stock, saving, a win, a dead end, the end of input.

Lines to a win or a dead end come from a small search over the engine's own moves, never typed in."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import tableaux
from helpers.terminal import play, play_fair, scripted
from tableaux.advice.heuristic import heuristic_moves
from tableaux.advice.hints import Hint
from tableaux.rulebook.engine import RawMove, Rules, State
from tableaux.terminal import advice as terminal_fair
from tableaux.terminal.line import play_loop

Order = Callable[[Rules, State], list[RawMove]]


def search(rules: Rules, start: State, goal: Callable[[State], bool], order: Order, budget: int) -> list[RawMove]:
    """Depth-first search over the engine's own moves (in ``order``) for a line reaching ``goal``."""
    seen = {start}
    path: list[RawMove] = []
    stack = [(start, iter(order(rules, start)))]
    while stack:
        state, moves = stack[-1]
        if goal(state):
            return path
        move = next(moves, None)
        if move is None:
            stack.pop()
            if path:
                path.pop()
            continue
        nxt = rules.apply(state, move)
        if nxt in seen:
            continue
        seen.add(nxt)
        if len(seen) > budget:
            break
        path.append(move)
        stack.append((nxt, iter(order(rules, nxt))))
    raise AssertionError("no line found within the budget")


def first_line(
    name: str, goal: Callable[[Rules, State], bool], deals: range, order: Order | None = None
) -> tuple[int, list[str]]:
    """The first deal in ``deals`` with a line to ``goal`` that a small search finds, and that line."""
    rules = tableaux.rules(name)
    order = order or (lambda r, s: r.moves(s))
    for deal in deals:
        try:
            line = search(rules, rules.deal(deal), lambda s: goal(rules, s), order, budget=20_000)
        except AssertionError:
            continue
        return deal, [str(rules.to_move(m)) for m in line]
    raise AssertionError(f"no {name} deal in {deals} reached the goal")


def is_dead_end(rules: Rules, state: State) -> bool:
    return not rules.won(state) and not rules.moves(state)


def test_a_legal_move_changes_the_board() -> None:
    game = tableaux.new_game("king-albert", 1)
    assert game.home_move("reserve-5") is not None  # AH
    final, out = play(game, "R5>F1")
    assert final.moves_played == [tableaux.Move("reserve-5", 1, "foundation-1")]
    assert "Played R5>F1." in out
    assert "Score 1   Moves 1" in out


def test_count_may_be_left_out() -> None:
    game = tableaux.new_game("king-albert", 1)
    move = game.legal_moves()[0]
    final, _ = play(game, f"{move.source} {move.target}".replace("tableau-", "T").replace("reserve-", "R"))
    assert len(final.moves_played) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("foo", "Not a move"),
        ("[bold]T1>T2", "Not a move"),  # rich markup in input is shown, not interpreted
        ("T1>T2", "Illegal move"),
        ("T9>T1", "cannot go onto"),
        ("T1:3>T4", "does not have 3 face-up cards"),
        ("T10>T1", "has no pile T10"),
        ("R8", "has no pile R8"),
        ("T2", "no card that can go to a foundation"),
        ("redo", "Nothing to redo"),
        ("undo", "Nothing to undo"),
        ("new 99999999999", "from 0 to 4294967295"),
        ("new -3", "whole number"),
        ("new \u00b2", "whole number"),  # a digit to str.isdigit, not to int
        ("save", "save FILE"),
        ("load /no/such/file.json", "Cannot read"),
        ("deal", "no stock"),
    ],
)
def test_nonsense_gets_a_message_and_changes_nothing(text: str, expected: str) -> None:
    game = tableaux.new_game("king-albert", 1)
    before = game.state
    final, out = play(game, text)
    assert final is game and game.state == before and not game.moves_played
    assert expected in out
    assert "Traceback" not in out and "went wrong" not in out


def test_undo_redo_restart() -> None:
    game = tableaux.new_game("king-albert", 1)
    start = game.state
    first = "R5>F1"
    assert tableaux.Move.from_str(first) in game.legal_moves()
    probe = tableaux.new_game("king-albert", 1)
    probe.play(first)
    second = str(probe.legal_moves()[0])
    final, out = play(game, first, second, "undo")
    assert [str(m) for m in final.moves_played] == [first]
    assert f"Undid {second}." in out
    final, out = play(game, "redo")
    assert [str(m) for m in final.moves_played] == [first, second]
    final, out = play(game, "restart")
    assert final.state == start and not final.moves_played
    assert [str(m) for m in final.redo_moves] == [first, second]


def test_undo_and_redo_with_a_number_take_back_and_replay_that_many_moves_or_change_nothing() -> None:
    game = tableaux.new_game("king-albert", 1)
    line = []
    probe = tableaux.new_game("king-albert", 1)
    for _ in range(3):
        move = str(probe.legal_moves()[0])
        probe.play(move)
        line.append(move)
    final, out = play(game, *line, "undo 2")
    assert [str(m) for m in final.moves_played] == line[:1]
    assert f"Undid 2 moves: {line[2]}, {line[1]}." in out
    final, out = play(game, "undo 5", "redo 3", "undo two", "redo 0", "undo ²")  # each refused: nothing changes
    assert [str(m) for m in final.moves_played] == line[:1]
    assert "Only 1 move can be undone, not 5." in out and "Only 2 moves can be redone, not 3." in out
    assert "'undo' takes a number of moves, for example 'undo 3', not 'two'" in out
    assert "'redo' takes a number of moves, for example 'redo 3', not '0'" in out
    assert "'undo' takes a number of moves, for example 'undo 3', not '²'" in out  # a digit int() cannot read
    assert "went wrong" not in out
    final, out = play(game, "redo 2")
    assert [str(m) for m in final.moves_played] == line


def test_undoing_several_moves_before_any_is_played_says_there_is_nothing_to_undo() -> None:
    final, out = play(tableaux.new_game("king-albert", 17), "undo 3", "redo 2")
    assert "Nothing to undo: no move has been played" in out and "Nothing to redo" in out
    assert "only 0" not in out and final.moves_played == []


@pytest.mark.parametrize("width", [100, 80, 60, 40])
def test_the_help_fits_the_console_and_a_long_description_goes_on_under_itself(width: int) -> None:
    out = io.StringIO()
    play_loop(tableaux.new_game("eagle-wing", 1), scripted(["help"]), Console(file=out, width=width))
    after = out.getvalue().split("Commands:\n")[1].splitlines()
    help_lines = after[:next(i for i, line in enumerate(after) if not line.startswith(" "))]
    assert all(len(line) <= width for line in help_lines)
    commands = [line for line in help_lines if line.startswith("  ") and not line.startswith("   ")]
    assert any(line.lstrip().startswith("hint peek") for line in commands)
    # every other line goes on a description: none starts at a command's margin, where it would read as one
    assert all(line.startswith("   ") for line in help_lines if line.strip() and line not in commands)
    undo = next(i for i, line in enumerate(help_lines) if line.lstrip().startswith("undo (u)"))
    said = " ".join(" ".join(help_lines[undo:undo + 3]).split())
    assert "back to the deal ('undo 3': three moves)" in said


def test_double_click_sends_the_top_card_home() -> None:
    game = tableaux.new_game("king-albert", 1)
    expected = game.home_move("reserve-5")
    final, out = play(game, "r5")
    assert final.moves_played == [expected]


def test_new_game_with_and_without_a_number() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    final, out = play(game, "T4>F2", "new 42")
    assert final is not game and final.deal == 42 and final.name == "eagle-wing" and not final.moves_played
    assert "New game: deal 42." in out
    final, out = play(game, "new")
    assert final is not game and final.name == "eagle-wing"
    assert f"New game: deal {final.deal}." in out


def test_hint_is_shown_and_plays_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    game = tableaux.new_game("eagle-wing", 1)
    final, out = play_fair(game, "hint")  # a small budget: the default one takes seconds in pure Python
    assert not final.moves_played
    assert any(str(m) in out.split("> ")[-1] for m in game.legal_moves())
    fixed = Hint(tableaux.Move("tableau-4", 1, "foundation-2"), "heuristic", "Try T4>F2 (because).")
    monkeypatch.setattr(terminal_fair, "hint", lambda game, **kw: fixed)
    _, out = play(game, "h")
    assert "Try T4>F2 (because)." in out


def test_deal_command_goes_through_the_stock_and_its_redeals() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    stock = game.position()["stock_left"]
    final, out = play(game, "deal")
    assert final.position()["stock_left"] == stock - 1
    assert final.moves_played == [tableaux.Move("stock", 1, "waste")]
    play(game, *["d"] * (stock - 1))
    assert game.position()["stock_left"] == 0
    play(game, "S")  # a click on the stock turns the waste back over
    assert game.position()["stock_left"] == stock and game.position()["redeals_left"] == 1
    play(game, *["d"] * (2 * stock + 1))
    assert game.position()["redeals_left"] == 0 and game.position()["stock_left"] == 0
    moves = len(game.moves_played)
    _, out = play(game, "deal")
    assert len(game.moves_played) == moves
    assert "Cannot deal: the waste cannot go back: no redeals are left." in out


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = tableaux.new_game("eagle-wing", 1)
    final, out = play(game, "T4>F2", "d", f"save {path}")
    assert f"Saved to {path}" in out
    saved = tableaux.load(path)
    assert saved.moves_played == final.moves_played and saved.state == final.state
    other = tableaux.new_game("king-albert", 3)
    loaded, out = play(other, f"load {path}")
    assert loaded.name == "eagle-wing" and loaded.state == final.state
    _, out = play(game, f"save {tmp_path / 'missing-dir' / 'x.json'}")
    assert "Could not save" in out


def test_the_command_that_resumes_a_save_works_as_given_with_a_space_in_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    monkeypatch.chdir(tmp_path)  # a short name, so that the line is not wrapped
    _, out = play(tableaux.new_game("eagle-wing", 1), "T4>F2", "save my game.json")
    command = out[out.index("Resume it with:") + len("Resume it with:"):].strip().splitlines()[0].strip()
    assert shlex.split(command) == ["tableaux", "play", "--load", "my game.json"]
    assert (tmp_path / "my game.json").exists()


def test_the_resume_command_of_a_save_with_a_long_name_is_not_broken_inside_the_command(tmp_path: Path) -> None:
    """Out of a terminal the line mode wraps at 80 columns, as rich does: the command to resume stands on a line of
    its own, so a long path wraps after it, never between ``--load`` and the command's start."""
    path = tmp_path / ("a-rather-long-folder-name-for-saved-games-" * 2) / "game.json"
    path.parent.mkdir()
    _, out = play(tableaux.new_game("eagle-wing", 1), "T4>F2", f"save {path}")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("tableaux play --load"))
    assert "Resume it with:" in lines[at - 1]


def test_save_over_another_file_asks_first_and_the_same_command_again_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play(tableaux.new_game("king-albert", 17), "R1>F1", "R6>F2", f"save {path}")
    before = path.read_text()
    move = str(tableaux.new_game("king-albert", 7).legal_moves()[0])
    final, out = play(tableaux.new_game("king-albert", 7), move, f"save {path}")
    assert "already exists and may hold another game" in " ".join(out.split())
    assert path.read_text() == before  # the deal 17 save is untouched
    final, out = play(tableaux.new_game("king-albert", 7), f"save {path}", f"save {path}", move, "save")
    assert tableaux.load(path).deal == 7  # asked again: replaced
    assert out.count("already exists") == 1  # then its own save is written over without asking
    assert [str(m) for m in tableaux.load(path).moves_played] == [move]


def test_save_to_a_folder_says_so_keeps_the_game_and_leaves_no_stray_file(tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    folder.mkdir()
    game = tableaux.new_game("eagle-wing", 1)
    final, out = play(game, "T4>F2", f"save {folder}")
    text = " ".join(out.split())
    assert f"Could not save: cannot save to '{folder}': it is a folder" in text
    assert "Your game is still here" in text and "went wrong inside tableaux" not in text
    assert [str(m) for m in final.moves_played] == ["T4>F2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"] and not list(folder.iterdir())
    assert not (tmp_path.parent / "saves.tmp").exists()


@pytest.mark.slow
def test_winning_shows_the_win_message() -> None:
    # The project's rule-of-thumb ordering finds wins quickly; every move still comes from Rules.moves.
    deal, line = first_line("eagle-wing", lambda r, s: r.won(s), range(1, 40), heuristic_moves)
    game = tableaux.new_game("eagle-wing", deal)
    final, out = play(game, *line[:-1])
    assert not final.is_won() and "You won" not in out
    final, out = play(final, line[-1])
    assert final.is_won()
    entry = tableaux.catalogue.lookup("eagle-wing", deal)
    par = "" if entry is None or entry.par is None else f" (par {entry.par})"
    assert f"Played {line[-1]}.\nYou won Eagle Wing deal {deal} in {len(line)} moves{par}!" in out
    assert "Score 52" in out


def test_a_catalogued_deal_shows_its_par_on_the_status_line_and_beside_the_win(monkeypatch: pytest.MonkeyPatch) -> None:
    from tableaux.catalogue import pars

    deal, line = first_line("king-albert", lambda r, s: r.won(s), range(1, 40), heuristic_moves)
    monkeypatch.setitem(pars._PARS, "king-albert", {deal: len(line) - 7})
    game = tableaux.new_game("king-albert", deal)
    final, out = play(game, *line)
    assert final.is_won() and f"Par {len(line) - 7}" in out.splitlines()[2]  # the status line, under the title
    assert f"You won King Albert deal {deal} in {len(line)} moves (par {len(line) - 7})!" in out
    _, other = play(tableaux.new_game("king-albert", deal + 1), "board")
    assert "Par " not in other and "(par" not in other  # a deal without a par says nothing of one


def test_a_dead_end_shows_the_over_message() -> None:
    deal, line = first_line("eagle-wing", is_dead_end, range(1, 40))
    game = tableaux.new_game("eagle-wing", deal)
    final, out = play(game, *line)
    assert final.position()["over"]
    assert "No legal move is left: this game is over, and counts as lost once you leave it." in " ".join(out.split())
    assert out.count("this game is over") == 1  # only once the last move is played


def test_end_of_input_quits_cleanly() -> None:
    game = tableaux.new_game("king-albert", 5)
    final, out = play(game)
    assert final is game
    assert "Bye." in out and "--deal 5" in out


def test_the_clock_starts_at_the_first_move_and_counts_a_resumed_game_on() -> None:
    from tableaux.terminal.sitting import Sitting

    now = [100.0]
    game = tableaux.new_game("king-albert", 1)
    sitting = Sitting(game, clock=lambda: now[0])
    now[0] += 45  # looking at the deal: no play yet
    assert sitting.seconds() == 0
    sitting.act(lambda: sitting.play(game.legal_moves()[0]))
    now[0] += 20
    assert sitting.seconds() == 20
    sitting.act(sitting.undo)  # a move taken back is still play
    now[0] += 5
    assert sitting.seconds() == 25
    fresh = tableaux.new_game("king-albert", 2)
    sitting.switch_to(fresh, "")
    now[0] += 30
    assert sitting.seconds() == 0  # a new deal counts from its own first move


def test_the_clock_stops_when_the_game_is_given_up_and_goes_on_if_it_is_played_on() -> None:
    from tableaux.terminal.sitting import Sitting

    now = [0.0]
    game = tableaux.new_game("king-albert", 1)
    sitting = Sitting(game, clock=lambda: now[0])
    sitting.act(lambda: sitting.play(game.legal_moves()[0]))
    now[0] += 30
    sitting.act(sitting.giveup)
    now[0] += 100  # looking at the lost game: not play
    assert sitting.seconds() == 30
    sitting.act(sitting.undo)  # playing on (assisted now): the clock goes on from where it stopped
    now[0] += 5
    assert sitting.seconds() == 35


def test_giving_up_an_assisted_game_says_it_counts_apart_not_as_lost() -> None:
    from tableaux.terminal import advice

    game = tableaux.new_game("king-albert", 1)
    assert "counts as lost" in advice.give_up_question(game)
    game.assisted = True
    question = advice.give_up_question(game)
    assert "counts as lost" not in question and "solver's help" in question


def test_a_won_game_refuses_a_move_with_the_games_own_reason_and_still_steps_back() -> None:
    """King Albert's rules would let a card come back off a foundation, but the game ends at the win: the terminal
    says what the game says (undo, or a new game), lists no move, and its hint says the game is won."""
    game = tableaux.new_game("king-albert", 17)
    final, out = play(game, *map(str, tableaux.solve(game).moves))
    assert final.is_won()
    final, out = play(final, "F1>T1", "moves", "hint")
    assert final.is_won() and final.score == 52
    assert ("This game is won and takes no more moves: undo takes the last move back, or start a new game.\n"
            "Legal moves: none\nThe game is won.\n") in out
    assert "Type 'moves'" not in out
    final, out = play(final, "undo")
    assert not final.is_won() and "Undid " in out


def test_a_game_saved_to_a_file_and_loaded_goes_on_with_its_clock(tmp_path: Path) -> None:
    """A save keeps the time played, so loading it is no way to a short best time (its clock began at 0:00)."""
    from tableaux.rulebook.engine import Move
    from tableaux.terminal.sitting import Sitting

    now = [1000.0]
    sitting = Sitting(tableaux.new_game("king-albert", 17), clock=lambda: now[0])
    sitting.act(lambda: sitting.play(Move.from_str("R1>F1")))  # the clock starts at the first move
    now[0] += 65
    sitting.save(tmp_path / "game.json")
    assert [str(m) for m in tableaux.load(tmp_path / "game.json").moves_played] == ["R1>F1"]  # still a save
    other = Sitting(tableaux.new_game("king-albert", 3), clock=lambda: now[0])
    other.load(tmp_path / "game.json")
    now[0] += 10
    assert other.game.deal == 17 and other.seconds() == 75
