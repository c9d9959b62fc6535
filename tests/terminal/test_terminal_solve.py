"""Terminal: the ``solve`` command, unfinished games kept across ``new``/``quit``, and the fixed messages."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
from pathlib import Path

from rich.console import Console

import tableaux
from helpers.cli import run_tableaux
from helpers.terminal import scripted
from tableaux.catalogue import load
from tableaux.play.game import Game
from tableaux.terminal.line import help_text, play_loop
from tableaux.terminal.record import Record
from tableaux.terminal.unfinished import Unfinished


def play(game: Game, *lines: str, keep: Unfinished | None = None) -> tuple[Game, str]:
    out = io.StringIO()
    final = play_loop(game, scripted(lines), Console(file=out, width=200, highlight=False), keep)
    return final, out.getvalue()


# --- solve --------------------------------------------------------------------------
def test_solve_all_plays_the_winning_line_to_the_won_banner_and_marks_the_game_assisted() -> None:
    game, out = play(tableaux.new_game("king-albert", 1), "T3>T6", "solve", "all")
    assert game.is_won() and game.assisted
    assert game.moves_played[0] == tableaux.Move("tableau-3", 1, "tableau-6")  # from the current position
    assert "A winning line of" in out and "King Albert deal 1 won in" in out and "with the solver's help" in out
    assert "You won" not in out


def test_solve_plays_one_move_per_enter_and_stop_leaves_the_game_there() -> None:
    line = tableaux.solve(tableaux.new_game("eagle-wing", 4)).moves
    game, out = play(tableaux.new_game("eagle-wing", 4), "solve", "", "", "stop")
    assert game.moves_played == line[:2]
    assert game.assisted and not game.is_won()
    assert "Solution move 2 of" in out and "Solution stopped after 2 of" in out


def test_any_command_during_the_solution_stops_it_and_is_obeyed() -> None:
    game, out = play(tableaux.new_game("king-albert", 1), "solve", "", "undo")
    assert game.moves_played == [] and "Undid" in out


def test_solve_says_so_when_the_position_cannot_be_won() -> None:
    deal = next(e.deal for e in load("king-albert").entries if e.verdict == "unwinnable")
    game, out = play(tableaux.new_game("king-albert", deal), "solve")
    assert "This position cannot be won: the solver, looking at the cards you have not seen, tried" in out
    # It promises no winnable position to go back to: the deal itself may have none ('lost?' says).
    assert "'lost?' tells whether and where this game could still have been won" in out
    assert game.moves_played == [] and not game.assisted


def test_solve_on_a_lost_classic_position_says_nothing_of_hidden_cards_there_are_none_of() -> None:
    deal = next(e.deal for e in load("king-albert-classic").entries if e.verdict == "unwinnable")
    _game, out = play(tableaux.new_game("king-albert-classic", deal), "solve")
    assert "This position cannot be won: the solver tried every way on from here." in out
    assert "not seen" not in out and "face-down" not in out


def test_solve_is_in_the_help() -> None:
    assert "solve" in help_text(tableaux.new_game("eagle-wing", 1))


# --- messages ---------------------------------------------------------------------
def test_a_move_onto_the_reserve_says_the_reserve_never_takes_cards() -> None:
    _, out = play(tableaux.new_game("king-albert", 1), "R2>R3")
    assert "the reserve never takes cards" in out
    assert "cannot go onto" not in out


def test_king_albert_never_mentions_the_stock_it_does_not_have() -> None:
    game = tableaux.new_game("king-albert", 1)
    _, out = play(game, "help", "xyz", "T1:>>")
    assert "S>W" not in out and "stock" not in out.lower()
    _, out = play(tableaux.new_game("eagle-wing", 1), "xyz")
    assert "S>W" in out  # Eagle Wing has one, so its notation help shows it


# --- unfinished games ---------------------------------------------------------------
def test_new_keeps_the_game_in_progress_and_resume_brings_it_back(tmp_path: Path) -> None:
    keep = Unfinished(tmp_path)
    game, out = play(tableaux.new_game("king-albert", 1), "T3>T6", "R5>F1", "new 2", keep=keep)
    assert game.deal == 2 and "'resume' brings it back" in out
    game, out = play(tableaux.new_game("king-albert", 7), "resume ²", "resume 2", "resume", keep=keep)
    assert out.count("Say which unfinished game: resume N, with N from 1 to 1.") == 2 and "went wrong" not in out
    assert "Unfinished games kept for you: 1) King Albert deal 1, 2 moves played" in out
    assert game.deal == 1 and [str(m) for m in game.moves_played] == ["T3>T6", "R5>F1"]


def test_two_kept_games_of_one_deal_are_told_apart_by_when_each_was_last_played(tmp_path: Path) -> None:
    keep = Unfinished(tmp_path)
    play(tableaux.new_game("king-albert", 17), "R1>F1", keep=keep)
    play(tableaux.new_game("king-albert", 17), "R1>F1", keep=keep)  # the same deal again: a file of its own
    one, other = tmp_path.glob("king-albert-17*.json")
    now = os.stat(other).st_mtime
    os.utime(one, (now - 3 * 3600 - 5, now - 3 * 3600 - 5))  # one of them was last played three hours ago
    listed = [saved.listed(now) for saved in keep.games()]
    assert listed == ["King Albert deal 17, 1 move played, last played just now",
                      "King Albert deal 17, 1 move played, last played 3 hours ago"]
    _game, out = play(tableaux.new_game("eagle-wing", 1), keep=keep)
    said = " ".join(out.split())
    assert re.search(r"1\) King Albert deal 17, 1 move played, last played (just now|\d+ minutes? ago); 2\) King "
                     r"Albert deal 17, 1 move played, last played 3 hours ago\.", said), said  # however busy


def test_quit_keeps_the_game_and_the_same_deal_starts_afresh_beside_it(tmp_path: Path) -> None:
    keep = Unfinished(tmp_path)
    play(tableaux.new_game("eagle-wing", 5), "S>W", "quit", keep=keep)
    assert (tmp_path / "eagle-wing-5.json").exists()
    game, out = play(tableaux.new_game("eagle-wing", 5), "T1>F1", keep=keep)
    assert game.moves_played == [] or str(game.moves_played[0]) != "S>W"  # dealt afresh
    assert "Unfinished games kept for you: 1) Eagle Wing deal 5, 1 move played" in out
    game, out = play(tableaux.new_game("eagle-wing", 5), "S>W", "resume 1", keep=keep)
    assert [str(m) for m in game.moves_played] == ["S>W"]
    assert tableaux.load(tmp_path / "eagle-wing-5.json").moves_played == game.moves_played  # neither overwrote


def test_a_won_game_is_no_longer_kept_and_assisted_survives_keeping(tmp_path: Path) -> None:
    keep = Unfinished(tmp_path)
    play(tableaux.new_game("king-albert", 1), "solve", "", "stop", keep=keep)
    kept = tableaux.load(tmp_path / "king-albert-1.json")
    assert kept.assisted and len(kept.moves_played) == 1
    play(tableaux.new_game("king-albert", 2), "resume", "solve", "all", keep=keep)
    assert list(tmp_path.glob("*.json")) == []


def test_a_given_up_game_is_not_kept_as_unfinished_and_is_recorded(tmp_path: Path) -> None:
    keep, record = Unfinished(tmp_path / "unfinished"), Record(tmp_path / "finished.jsonl")
    out = io.StringIO()
    play_loop(tableaux.new_game("king-albert", 1), scripted(["R5>F1", "giveup", "yes"]),
              Console(file=out, width=200, highlight=False), keep, record=record)
    assert list((tmp_path / "unfinished").glob("*.json")) == []
    assert "is kept" not in out.getvalue()
    [entry] = record.entries()
    assert (entry["game"], entry["deal"], entry["result"], entry["moves"]) == ("king-albert", 1, "given-up", 1)
    game, out = play(tableaux.new_game("king-albert", 3), keep=keep)
    assert "Unfinished games kept" not in out


def test_a_game_left_with_no_legal_move_counts_as_lost_and_is_no_longer_kept(tmp_path: Path) -> None:
    """Eagle Wing 11: after 92 deals from the stock, T1>T7 leaves no legal move. Undo could still step back, so
    the game ends when the player leaves it: then it is recorded lost, where it used to stay unfinished for ever
    and count nowhere (only wins and give-ups did, so the win rate said more than the player had won)."""
    keep, record = Unfinished(tmp_path / "unfinished"), Record(tmp_path / "finished.jsonl")
    out = io.StringIO()
    final = play_loop(tableaux.new_game("eagle-wing", 11), scripted(["d"] * 92 + ["T1>T7", "new 5", "stats"]),
                      Console(file=out, width=200, highlight=False), keep, record=record)
    text = " ".join(out.getvalue().split())
    assert "this game is over, and counts as lost once you leave it" in text
    [entry] = record.entries()
    assert (entry["game"], entry["deal"], entry["result"], entry["moves"]) == ("eagle-wing", 11, "lost", 93)
    assert final.deal == 5 and list((tmp_path / "unfinished").glob("*.json")) == []
    assert "the last one is kept" not in text
    stats = text[text.index("Statistics of Eagle Wing"):]
    assert re.search(r"Played 1 Won 0 Win rate 0%", stats)
    # Stepping back from the end and leaving then keeps the game, as any game in progress.
    play_loop(tableaux.new_game("eagle-wing", 11), scripted(["d"] * 92 + ["T1>T7", "undo", "quit"]),
              Console(file=io.StringIO(), width=200), keep, record=record)
    assert len(record.entries()) == 1 and len(list((tmp_path / "unfinished").glob("*.json"))) == 1


def test_stats_count_won_and_given_up_games_and_rules_are_shown(tmp_path: Path) -> None:
    keep, record = Unfinished(tmp_path / "unfinished"), Record(tmp_path / "finished.jsonl")
    line = tableaux.solve(tableaux.new_game("eagle-wing", 4)).moves
    out = io.StringIO()
    play_loop(tableaux.new_game("eagle-wing", 4), scripted([str(m) for m in line] + ["new 5", "S>W", "giveup",
                                                                                      "yes", "new 6", "S>W", "stats",
                                                                                      "rules"]),
              Console(file=out, width=200, highlight=False), keep, record=record)
    text = out.getvalue()
    stats = text[text.index("Statistics of Eagle Wing"):]
    assert re.search(r"Played +2\n", stats) and re.search(r"Won +1\n", stats) and re.search(r"Win rate +50%", stats)
    assert re.search(rf"Fewest moves +{len(line)}\n", stats)
    assert re.search(r"Unfinished games kept \(not counted above\) +1\n", stats)
    assert "Wing piles build downwards in suit" in text and "<b>" not in text


def test_stats_of_a_game_never_played_give_no_win_rate(tmp_path: Path) -> None:
    keep, record = Unfinished(tmp_path / "unfinished"), Record(tmp_path / "finished.jsonl")
    out = io.StringIO()
    play_loop(tableaux.new_game("king-albert", 2), scripted(["stats"]), Console(file=out, width=200, highlight=False),
              keep, record=record)
    stats = out.getvalue()[out.getvalue().index("Statistics of King Albert"):]
    assert re.search(r"Played +0\n", stats) and re.search(r"Win rate +-\n", stats), stats


def test_a_won_game_taken_back_and_won_again_in_a_later_sitting_counts_once(tmp_path: Path) -> None:
    keep, record = Unfinished(tmp_path / "unfinished"), Record(tmp_path / "finished.jsonl")
    line = [str(m) for m in tableaux.solve(tableaux.new_game("eagle-wing", 4)).moves]
    quiet = Console(file=io.StringIO(), width=200, highlight=False)
    play_loop(tableaux.new_game("eagle-wing", 4), scripted([*line, "undo"]), quiet, keep, record=record)
    assert len(record.entries()) == 1 and len(list((tmp_path / "unfinished").glob("*.json"))) == 1  # kept again
    out = io.StringIO()
    play_loop(tableaux.new_game("eagle-wing", 5), scripted(["resume", line[-1], "stats"]),
              Console(file=out, width=200, highlight=False), keep, record=record)
    stats = out.getvalue()[out.getvalue().index("Statistics of Eagle Wing"):]
    assert "You won Eagle Wing deal 4" in out.getvalue()
    assert re.search(r"Played +1\n", stats) and re.search(r"Won +1\n", stats), stats
    assert len(record.entries()) == 1


def test_tableaux_play_keeps_games_in_the_user_data_dir_and_resume_reopens_the_last(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}

    def run(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
        return run_tableaux("play", *args, stdin=stdin, env=env)

    first = run("king-albert", "--deal", "1", stdin="T3>T6\nquit\n")
    assert first.returncode == 0 and "tableaux play --resume" in first.stdout
    assert json.loads((tmp_path / "tableaux" / "unfinished" / "king-albert-1.json").read_text())["moves"] == ["T3>T6"]
    again = run("--resume", stdin="moves\n")
    assert again.returncode == 0 and "Resumed King Albert deal 1, 1 move played." in again.stdout
    none = run("eagle-wing", "--resume", stdin="")
    assert none.returncode == 2 and "no unfinished Eagle Wing game" in none.stderr
    afresh = run("king-albert", "--deal", "1", stdin="moves\n")  # the same deal, dealt again
    assert afresh.returncode == 0 and "Resumed" not in afresh.stdout
    offered = re.search(r"Unfinished games kept for you: 1\) King Albert deal 1, 1 move played, last played "
                        r"(just now|\d+ minutes? ago)\.", " ".join(afresh.stdout.split()))  # however busy the machine
    assert offered, afresh.stdout
    back = run("king-albert", "--deal", "1", "--resume", stdin="undo\n")
    assert back.returncode == 0 and "Undid T3>T6." in back.stdout
    other = run("king-albert", "--deal", "2", "--resume", stdin="")
    assert other.returncode == 2 and "no unfinished King Albert game of deal 2" in other.stderr


def test_piped_input_always_gets_the_line_mode_even_when_the_board_is_asked_for(tmp_path: Path) -> None:
    result = run_tableaux("play", "king-albert", "--deal", "1", "--tui", stdin="R5>F1\n",
                          env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    assert result.returncode == 0 and "Played R5>F1." in result.stdout
    assert "--tui needs a terminal for input and output; playing in the line mode" in result.stderr
    both = run_tableaux("play", "king-albert", "--tui", "--line")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_a_game_that_cannot_be_kept_is_never_said_kept_and_quit_warns_before_leaving_it(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    keep = Unfinished(tmp_path / "file" / "unfinished")  # under a file: its folder cannot be made
    game, out = play(tableaux.new_game("king-albert", 17), "R1>F1", "quit", "R6>F2", "quit", keep=keep)
    said = " ".join(out.split())
    assert "Could not keep this game" in said
    assert "leaving loses it. 'save FILE' saves it to a file first. Type 'quit' again to leave anyway." in said
    assert [str(m) for m in game.moves_played] == ["R1>F1", "R6>F2"]  # the first quit left nothing
    assert "is kept" not in said
    assert "Bye. Your King Albert game (deal 17) could not be kept (" in said
    _game, out = play(tableaux.new_game("king-albert", 17), "R1>F1", keep=keep)  # the end of input leaves
    assert "could not be kept" in " ".join(out.split()) and "is kept" not in out
