"""The terminal's fair play: the chance to win, a fair hint (and one that says it peeks), giving up, and where
the game was lost; playing on after giving up or asking where it was lost marks the game assisted."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from rich.console import Console

import tableaux
from helpers.terminal import SMALL, play_fair, scripted
from tableaux import fair
from tableaux.advice.effort import Effort
from tableaux.rulebook.cards import card_name, parse_card
from tableaux.terminal.line import play_loop


def test_chance_command_gives_the_chance_and_says_what_it_means() -> None:
    game = tableaux.new_game("king-albert", 1)
    expected = fair.win_chance(game.observation(), 6, seed=0, max_nodes=4000)
    final, out = play_fair(game, "chance")
    assert (f"Winnable as far as seen: {round(100 * expected.share)}% (a solver that sees every card wins "
            f"{expected.winnable} of 6 possible layouts") in out
    assert "not your chance of winning" in out and "upper bound" in out
    assert "budget" not in out and "Chance to win" not in out
    assert final.moves_played == []  # asking changes nothing


def test_a_chance_with_layouts_the_solver_could_not_tell_says_it_counts_them_as_lost() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    expected = fair.win_chance(game.observation(), 6, seed=0, max_nodes=40)
    assert expected.undecided > 0  # forty positions a layout leave some of them open
    out = io.StringIO()
    budget = {**SMALL, "chance": Effort(6, 40, None)}
    play_loop(game, scripted(["chance"]), Console(file=out, width=300), budget=budget)
    said = out.getvalue()
    share = f"{round(100 * expected.share)}%"
    assert f"Winnable as far as seen: {share} (" in said and f"could not tell for {expected.undecided} of them" in said
    assert f"{share} counts those as lost; with more time it could be higher." in said
    assert "you win less often than a solver that sees them" in said


def test_with_every_card_face_up_the_chance_is_the_solvers_verdict_not_an_estimate() -> None:
    # Classic King Albert deals every card face up: there are no layouts of hidden cards to count. (Deal 5 is won
    # within the small budget's 4,000 positions.)
    game = tableaux.new_game("king-albert-classic", 5)
    _, out = play_fair(game, "chance")
    assert "Can still be won: yes. No card is hidden, so this is the solver's verdict, not an estimate" in out
    assert "layouts" not in out and "interval" not in out and "not your chance of winning" not in out


def test_the_chance_of_a_game_with_no_move_left_is_no_estimate() -> None:
    # King Albert deal 4 has no legal move left after these three.
    game, out = play_fair(tableaux.new_game("king-albert", 4), "T6>T5", "R6>T3", "R3>T8", "chance")
    assert game.is_over()
    said = out[out.rindex("No legal move is left"):]
    assert "Cannot be won any more: no legal move is left." in said
    assert "interval" not in said and "layouts" not in said


def test_hint_is_fair_by_default_and_hint_peek_says_it_peeks_and_makes_the_game_assisted() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    _, out = play_fair(game, "hint")
    assert re.search(
        r"Play \S+: after it, a solver that sees every card wins \d+ of 6 possible layouts of the hidden cards", out)
    assert "Peeking" not in out and not game.assisted
    _, out = play_fair(game, "hint peek", "hint peek")
    assert "Play T4>F2: it starts a winning line" in out and "Peeking: the solver looked at the face-down cards" in out
    # as in the browser, a hint that peeked makes the game assisted, said once
    assert game.assisted and " ".join(out.split()).count("so this game now counts as assisted in the statistics") == 1
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


def test_lost_answers_during_play_of_classic_king_albert_where_no_card_is_hidden_and_play_goes_on_unassisted(
) -> None:
    """Nothing is hidden, so where it was lost tells nothing the chance, undo and a fair hint do not: no need to
    give the game up first, and playing on after it is the player's own game."""
    from helpers.lost import losing_game

    lost_game, k = losing_game("king-albert-classic")
    game = tableaux.Game.replay(lost_game.rules, lost_game.deal, lost_game.moves_played)
    assert not game.is_over()  # still on: moves are left
    expected = fair.where_lost(game.to_dict(), max_nodes=SMALL["where-lost"].positions)
    assert expected is not None and expected["move_index"] == k
    final, out = play_fair(game, "lost?", "undo")
    said = " ".join(out.split())
    assert "answers only once the game is over" not in said and "face-down" not in said
    assert f"You could still have won until move {k + 1}, when you moved the " in said
    assert f"A winning line from just before move {k + 1}: " in said
    assert len(final.moves_played) == len(lost_game.moves_played) - 1 and not final.assisted
    assert "counts as assisted" not in said


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
