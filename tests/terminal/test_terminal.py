"""Terminal play and ``tableaux deal``: driven the way a player (or a script piping commands) drives them."""

from __future__ import annotations

import io
import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

import tableaux
from helpers.cli import run_tableaux
from helpers.handmade import Hand
from helpers.terminal import scripted
from tableaux import fair
from tableaux.advice.effort import EFFORT, Effort
from tableaux.advice.heuristic import heuristic_moves
from tableaux.advice.hints import Hint
from tableaux.play.board import ASCII, UNICODE, card_label, card_text, render
from tableaux.play.game import Game
from tableaux.rulebook.cards import DOWN, card_name, card_str, parse_card
from tableaux.rulebook.engine import RawMove, Rules, State, short_name
from tableaux.terminal import advice as terminal_fair
from tableaux.terminal.advice import Budget
from tableaux.terminal.line import play_loop

# --- helpers ----------------------------------------------------------------



def play(game: Game, *lines: str) -> tuple[Game, str]:
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    final = play_loop(game, scripted(lines), console)
    return final, out.getvalue()


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


def hidden_cards(game: Game) -> list[str]:
    return [card_str(c) for pile in game.state.piles for c in pile if c & DOWN]


def visible_cards(game: Game) -> list[str]:
    """Face-up cards at the start of a deal; Eagle Wing's face-up reserve bottom is covered until the last."""
    reserve = game.rules.index.get("reserve")
    return [
        card_str(c)
        for i, pile in enumerate(game.state.piles)
        for c in pile
        if not c & DOWN and not (i == reserve and len(pile) > 1)
    ]


# --- drawing ----------------------------------------------------------------
def test_card_labels_and_colours() -> None:
    assert card_label("TH") == "10♥"
    assert card_label("AS") == " A♠"
    assert card_label("9C", ASCII) == " 9C"
    assert card_text({"card": "QD", "up": True}, UNICODE).style == "bold red"
    assert card_text({"card": "QH", "up": True}, UNICODE).style == "bold red"
    assert "red" not in str(card_text({"card": "QS", "up": True}, UNICODE).style)
    assert card_text({"card": None, "up": False}, UNICODE).plain == UNICODE.back


def test_red_cards_are_red_on_a_colour_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", width=100)
    game = tableaux.new_game("king-albert", 1)  # R2 holds 5H, R1 holds 2C
    for line in render(game.public_position()):
        console.print(line)
    text = out.getvalue()
    assert "\x1b[1;31m 5♥" in text
    assert "\x1b[1m 2♣" in text


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_board_shows_every_pile_label_and_face_up_card(name: str) -> None:
    game = tableaux.new_game(name, 17)
    text = "\n".join(line.plain for line in render(game.public_position()))
    for pile in game.rules.pile_names:
        assert f" {short_name(pile)} " in f" {text} ".replace("\n", " ")
    for code in visible_cards(game):
        assert card_label(code).strip() in text
    for code in hidden_cards(game):
        assert card_label(code).strip() not in text


def test_eagle_wing_reserve_shows_its_last_card_only_when_it_is_the_last() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    bottom = card_label(card_str(game.state.piles[game.rules.index["reserve"]][0])).strip()
    text = "\n".join(line.plain for line in render(game.public_position()))
    assert bottom not in text  # 9C, covered by twelve face-down cards
    hand = Hand(game.rules)
    last = Game(hand.fixed(hand.state(F1="JH", T1="9D", T2="3D", S="AS*", R="9C")), 1)
    assert bottom in "\n".join(line.plain for line in render(last.public_position()))
    covered = Game(hand.fixed(hand.state(F1="JH", T1="9D", T2="3D", S="AS*", R="9C QH*")), 1)
    assert bottom not in "\n".join(line.plain for line in render(covered.public_position()))


def test_eagle_wing_trunk_is_drawn_as_a_closed_stack_with_its_count() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    lines = [line.plain for line in render(game.public_position())]
    head = next(i for i, line in enumerate(lines) if " R " in f" {line} " and "T5" in line)
    # Under the label: one card back (the closed pile, tableau cards are face up), then its count.
    assert lines[head + 1].count(UNICODE.back) == 1
    assert lines[head + 2].split() == ["13"]


# --- the play loop ----------------------------------------------------------
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
        ("foo", "not a move"),
        ("[bold]T1>T2", "not a move"),  # rich markup in input is shown, not interpreted
        ("T1>T2", "Illegal move"),
        ("T9>T1", "cannot go onto"),
        ("T1:3>T4", "does not have 3 face-up cards"),
        ("T10>T1", "has no pile T10"),
        ("R8", "has no pile R8"),
        ("T2", "no card that can go to a foundation"),
        ("redo", "nothing to redo"),
        ("undo", "nothing to undo"),
        ("new 99999999999", "from 0 to 4294967295"),
        ("new -3", "whole number"),
        ("save", "save FILE"),
        ("load /no/such/file.json", "cannot read"),
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
    assert "No legal move is left: this game is over." in out
    assert out.count("this game is over") == 1  # only once the last move is played


def test_end_of_input_quits_cleanly() -> None:
    game = tableaux.new_game("king-albert", 5)
    final, out = play(game)
    assert final is game
    assert "Bye." in out and "--deal 5" in out


# --- the real command -----------------------------------------------------------
def test_deal_hides_face_down_cards() -> None:
    game = tableaux.new_game("king-albert", 1)
    result = run_tableaux("deal", "king-albert", "1")
    assert result.returncode == 0, result.stderr
    hidden = hidden_cards(game)
    assert len(hidden) == 36
    for code in hidden:
        assert card_label(code).strip() not in result.stdout
        assert code not in result.stdout
    for code in visible_cards(game):
        assert card_label(code).strip() in result.stdout
    assert "T1" in result.stdout and "R7" in result.stdout and "F4" in result.stdout


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_deal_json_is_the_whole_position(name: str) -> None:
    result = run_tableaux("deal", name, "17", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == tableaux.new_game(name, 17).position()


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "king-albert", "99999999999"],
        ["deal", "king-albert", "x"],
        ["deal", "spider", "1"],
        ["play", "king-albert", "--deal", "-1"],
        ["play", "king-albert", "--deal", "1", "--load", "x.json"],
        ["play"],
        ["play", "--load", "/no/such/file.json"],
    ],
)
def test_bad_arguments_exit_2_without_a_traceback(args: list[str]) -> None:
    result = run_tableaux(*args)
    assert result.returncode == 2
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_play_from_a_script_then_resume_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    result = run_tableaux("play", "eagle-wing", "--deal", "1", stdin=f"T4>F2\nnonsense\nsave {path}\n")
    assert result.returncode == 0, result.stderr
    assert "Played T4>F2." in result.stdout and "not a move" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
    result = run_tableaux("play", "--load", str(path), stdin="undo\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Undid T4>F2." in result.stdout
    result = run_tableaux("play", "king-albert", "--load", str(path))
    assert result.returncode == 2 and "Eagle Wing" in result.stderr


def test_ctrl_c_at_the_prompt_keeps_the_game() -> None:
    game = tableaux.new_game("king-albert", 1)
    lines = iter(["R5>F1", KeyboardInterrupt, "undo"])

    def read(prompt: str) -> str:
        item = next(lines, None)
        if item is None:
            raise EOFError
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return str(item)

    out = io.StringIO()
    final = play_loop(game, read, Console(file=out, width=100))
    assert final is game and not game.moves_played and game.redo_moves
    assert "Type 'quit' or press Ctrl-D to leave." in out.getvalue()


def test_a_bug_behind_a_command_does_not_end_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(game: Game, **kw: object) -> Hint:
        raise RuntimeError("boom")

    monkeypatch.setattr(terminal_fair, "hint", broken)
    game = tableaux.new_game("king-albert", 1)
    final, out = play(game, "hint", "R5>F1")
    assert "went wrong" in out and "Your game is still open." in out
    assert len(final.moves_played) == 1


# --- fair play: chance, hint, giveup, lost? -------------------------------------------------------
SMALL: Budget = {**EFFORT["terminal"], "chance": Effort(6, 4000, None), "fair-hint": Effort(6, 4000, None),
                 "where-lost": Effort(None, 30_000, None)}


def play_fair(game: Game, *lines: str) -> tuple[Game, str]:
    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)
    final = play_loop(game, scripted(lines), console, budget=SMALL)
    return final, out.getvalue()


def test_chance_command_gives_the_chance_and_says_what_it_means() -> None:
    game = tableaux.new_game("king-albert", 1)
    expected = fair.win_chance(game.observation(), 6, seed=0, max_nodes=4000)
    final, out = play_fair(game, "chance")
    assert (f"Can still be won: {round(100 * expected.share)}% (a solver that sees every card wins "
            f"{expected.winnable} of 6 possible layouts") in out
    assert "not your chance of winning" in out and "upper bound" in out
    assert "budget" not in out and "Chance to win" not in out
    assert final.moves_played == []  # asking changes nothing


def test_hint_is_fair_by_default_and_hint_peek_says_it_peeks() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    _, out = play_fair(game, "hint")
    assert re.search(r"Play \S+: it wins in \d+ of 6 possible layouts of the hidden cards", out)
    assert "Peeking" not in out
    _, out = play_fair(game, "hint peek")
    assert "Play T4>F2: it starts a winning line" in out and "Peeking: the solver looked at the face-down cards" in out
    _, out = play_fair(game, "hint cheat")
    assert "'hint peek'" in out


def test_lost_is_refused_while_the_game_is_on_and_answers_after_giving_up() -> None:
    from helpers.lost import losing_game

    lost_game, k = losing_game("king-albert")
    record = lost_game.to_dict()
    game = tableaux.new_game("king-albert", lost_game.deal)
    for move in record["moves"]:
        game.play(move)
    final, out = play_fair(game, "lost?", "giveup", "yes", "lost?")
    first, rest = out.split("You gave up", 1)
    assert "answers only once the game is over" in first and "You could still" not in first
    before = tableaux.Game.replay(game.rules, game.deal, game.moves_played[:k]).public_position()
    losing = game.moves_played[k]
    names = [card_name(parse_card(c["card"])) for c in before["piles"][losing.source][-losing.count:]]
    assert len(names) == 1  # a single card: its name alone
    assert (f"You could still have won until move {k + 1}, when you moved the {names[0]} ({record['moves'][k]}): "
            "after it, no line wins.") in rest
    assert f"A winning line from just before move {k + 1}: " in rest
    assert final.moves_played == game.moves_played and not final.assisted


def test_giveup_asks_first_and_a_no_keeps_the_game_on() -> None:
    game = tableaux.new_game("king-albert", 1)
    game.play("R5>F1")
    prompts: list[str] = []
    answers = scripted(["giveup", "no", "lost?"])

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return answers(prompt)

    out_file = io.StringIO()
    play_loop(game, typed, Console(file=out_file, width=200, highlight=False), budget=SMALL)
    out = out_file.getvalue()
    assert prompts[1] == "Give up this game? It counts as lost. [yes/no] "
    assert "Not given up: play on." in out and "You gave up" not in out
    assert "answers only once the game is over" in out  # still on: 'lost?' waits
    final, out = play_fair(game, "giveup")  # the end of input is no answer: nothing is given up
    assert "Not given up." in out and "You gave up" not in out


@pytest.mark.parametrize("looked", [False, True])
def test_playing_on_after_giving_up_or_lost_makes_the_game_assisted_and_says_so(looked: bool) -> None:
    from helpers.lost import losing_game

    lost_game, _k = losing_game("king-albert")
    game = tableaux.Game.replay(lost_game.rules, lost_game.deal, lost_game.moves_played)
    lines = ["giveup", "yes", *(["lost?"] if looked else []), "undo", "undo"]
    final, out = play_fair(game, *lines)
    assert final.assisted and len(final.moves_played) == len(lost_game.moves_played) - 2
    said = "'lost?' looked at every card" if looked else "You had given this game up"
    assert out.count(said) == 1  # said once, when play goes on
    assert "(as when the solver helps)" in out.split("Undid", 1)[1].split("Undid", 1)[0]
    assert final.to_dict()["assisted"] is True  # kept in the saved game, as the browser keeps it in its statistics


def test_a_new_deal_after_giving_up_is_not_assisted() -> None:
    game = tableaux.new_game("king-albert", 1)
    final, out = play_fair(game, "giveup", "yes", "new 2", "R5>F1")
    assert final.deal == 2 and not final.assisted and "assisted (as when" not in out


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_lost_names_the_last_move_when_the_game_ended_on_its_losing_move(name: str) -> None:
    """Move numbers count from 1, as the board's move counter: the last of n moves is move n."""
    from helpers.lost import lost_by_its_last_move

    game = lost_by_its_last_move(name)
    moves = [str(m) for m in game.moves_played]
    n = len(moves)
    _, out = play_fair(game, "giveup", "yes", "lost?")
    said = " ".join(out.split())  # the console wraps long lines
    assert f"You could still have won until move {n}, when you " in said
    assert f"({moves[-1]}): after it, no line wins." in said
    shown = out.split(f"A winning line from just before move {n}: ", 1)[1].split()  # wrapped over lines
    line = list(itertools.takewhile(re.compile(r"^[A-Z]\d*(:\d+)?>[A-Z]\d*$").match, shown))
    before = tableaux.new_game(name, game.deal)
    for move in moves[:-1] + line:
        before.play(move)
    assert before.is_won()


def test_lost_after_a_win_says_the_game_was_never_lost() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    for move in tableaux.solve(game).moves:
        game.play(move)
    _, out = play_fair(game, "lost?")
    assert "never lost" in out
