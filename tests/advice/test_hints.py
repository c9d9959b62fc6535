"""Hints: the solver's move when it has one, a never-pointless rule of thumb otherwise."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tableaux
from helpers.games import random_game
from tableaux import GAMES, new_game
from tableaux.advice import fair
from tableaux.advice.effort import Effort, effort
from tableaux.advice.heuristic import heuristic_moves, history, is_pointless, repeating_moves
from tableaux.advice.hints import heuristic_hint, move_sentence, peek_hint
from tableaux.rulebook.cards import DOWN, card_name
from tableaux.rulebook.engine import State
from tableaux.solver import solve

KA = GAMES["king-albert"]


def test_peeking_hint_starts_a_winning_line_and_says_it_peeks() -> None:
    game = new_game("king-albert", 1)
    hint = tableaux.hint(game, time_limit=2.0, mode="peek")
    assert hint.source == "solver" and not hint.unwinnable
    assert hint.peeks and hint.to_dict()["peeks"] is True and "Peeking" in hint.message
    line = solve(game).moves
    assert hint.move == line[0]
    game.play(hint.move)
    assert solve(game).verdict == "winnable"  # the hint keeps the game winnable


def test_a_peeking_hint_where_every_card_is_face_up_uses_nothing_hidden_and_does_not_say_it_peeks() -> None:
    """Classic King Albert deals every card face up: the solver knows no more than the player does."""
    game = new_game("king-albert-classic", 1)
    assert game.observation()["unseen"] == 0
    hint = tableaux.hint(game, time_limit=5.0, mode="peek")
    assert hint.source == "solver" and hint.move is not None
    assert not hint.peeks and hint.to_dict()["peeks"] is False and "Peeking" not in hint.message
    assert "winning line" in hint.message or hint.unwinnable


def test_hint_says_when_the_position_is_lost() -> None:
    game = new_game("king-albert", 4)  # proved unwinnable from the deal (see the solver tests)
    assert solve(game).verdict == "unwinnable"
    hint = tableaux.hint(game, time_limit=2.0, mode="peek")
    assert hint.unwinnable and hint.source == "solver" and hint.peeks
    assert hint.message.startswith("This position cannot be won: the solver searched every line from here.")
    assert "no longer" not in hint.message  # nothing has been played yet
    if hint.move is not None:
        assert hint.move in game.legal_moves()
        game.play(hint.move)
        later = tableaux.hint(game, time_limit=2.0, mode="peek")
        assert later.unwinnable and "can no longer be won" in later.message


def test_the_reason_of_a_hint_names_every_move_of_its_plan_by_its_cards_and_never_in_notation() -> None:
    """For a screen that hides the pile labels: the plan the message lists as R5>F1, R6>F1, T3>T6 reads as what
    each move does, with the cards it moves, from the position the moves before it leave."""
    game = new_game("king-albert", 1)
    hint = tableaux.hint(game, spend=Effort(samples=8, positions=3000, seconds=60.0))
    plan = hint.message.split("turns a hidden card: ")[1].rstrip(".").split(", ")
    assert len(plan) == 3, hint.message
    ahead = game.copy()
    said = []
    for move in plan:
        said.append(move_sentence(ahead, ahead.parse_move(move)))
        ahead.play(move)
    assert said[0] == "Move the Ace of hearts to a foundation."
    assert hint.reason.startswith("after it, a solver that sees every card wins ")
    assert hint.reason.endswith("It starts a plan of 3 moves that turns a hidden card: " + " ".join(said))
    assert hint.to_dict()["reason"] == hint.reason
    for move in plan:
        assert move not in hint.reason


def test_the_reason_never_names_a_face_down_card() -> None:
    """A plan ends on the move that turns a hidden card: the card it uncovers is not named before it shows."""
    for deal in range(1, 12):
        game = new_game("king-albert", deal)
        hint = tableaux.hint(game, spend=Effort(samples=8, positions=3000, seconds=60.0))
        hidden = [card for pile in game.state.piles for card in pile if card & DOWN]
        assert hidden
        for card in hidden:
            assert f"the {card_name(card)}" not in hint.reason, (deal, hint.reason)


def test_undecided_solver_falls_back_to_the_heuristic() -> None:
    game = new_game("king-albert", 16042)  # lost, proved only after 746 million positions (results/)
    assert peek_hint(game, Effort(positions=None, seconds=0.01)) is None
    hint = tableaux.hint(game, time_limit=0.01, mode="peek")
    assert hint.source == "heuristic" and hint.move in game.legal_moves()
    assert "not a proof" in hint.message


def test_an_undecided_hint_with_every_card_face_up_speaks_of_no_hidden_cards() -> None:
    """Classic King Albert hides nothing: a fair hint that the solver could not decide falls back to the rule of
    thumb and says the search ran short, not that it sampled layouts of hidden cards there are none of."""
    game = new_game("king-albert-classic", 3486418073)  # lost, proved only after some millions of positions
    hint = tableaux.hint(game, max_nodes=50)
    assert hint.source == "heuristic" and hint.move in game.legal_moves()
    assert "not a proof" in hint.message and "no winning line" in hint.message
    assert "hidden" not in hint.message and "layouts" not in hint.message


WINNABLE = {"king-albert": 17, "eagle-wing": 1, "king-albert-classic": 1}
"""A deal of each game that the solver wins."""


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("mode", ["fair", "peek"])
def test_every_hint_of_a_won_game_says_it_is_won(name: str, mode: str) -> None:
    """A won game takes no move, though King Albert's rules would let a card come back off a foundation."""
    game = new_game(name, WINNABLE[name])
    for move in solve(game).moves:
        game.play(move)
    for hint in (tableaux.hint(game, mode=mode), heuristic_hint(game)):
        assert hint.move is None and hint.source == "none" and not hint.unwinnable
        assert hint.message == hint.sentence == hint.to_dict()["sentence"] == "The game is won."


def before_the_last_move_with_a_card_taken_back(name: str, deal: int, back: str) -> tableaux.Game:
    """The deal's winning line but its last move, then ``back`` (a card off a foundation): every way on that wins
    starts by putting a card home, and the one that puts ``back``'s card straight back goes to a position the
    game has been in."""
    game = new_game(name, deal)
    for move in solve(game).moves[:-1]:
        game.play(move)
    game.play(back)
    return game


def test_a_fair_hint_where_the_solvers_line_goes_back_suggests_a_way_on_that_wins() -> None:
    """The King of hearts taken back off its foundation, one move before the win: the solver's line puts it
    straight back, a move to a position the game has been in. The King of diamonds going home wins as well and
    goes somewhere new, so that is the hint: hints that went back would have the next one go forward again."""
    game = before_the_last_move_with_a_card_taken_back("king-albert", 17, "F1>T1")
    assert "T1>F1" in repeating_moves(game)
    assert tableaux.hint(game, mode="peek").move == game.parse_move("T1>F1")
    hint = tableaux.hint(game)
    assert hint.source == "solver" and hint.message.startswith(f"Play {hint.move}: it starts a winning line")
    assert str(hint.move) not in repeating_moves(game)
    game.play(hint.move)
    assert solve(game).verdict == "winnable"


@pytest.mark.parametrize(("name", "deal"), [("king-albert", 17), ("king-albert-classic", 1)])
def test_a_fair_hint_where_every_card_is_known_always_starts_a_winning_line_when_the_solver_finds_one(
        name: str, deal: int) -> None:
    """Whichever card comes back off a foundation, and whether or not the solver's line goes straight back to a
    position the game has been in: the hint plays on to a win, and never says the solver found none."""
    line = solve(new_game(name, deal)).moves
    ahead = new_game(name, deal)
    for move in line[:-1]:
        ahead.play(move)
    backs = [m for m in ahead.legal_moves() if m.source.startswith("foundation")]
    assert backs
    for back in backs:
        game = before_the_last_move_with_a_card_taken_back(name, deal, str(back))
        hint = tableaux.hint(game)
        assert hint.source == "solver" and hint.move is not None, (back, hint.message)
        assert "no winning line" not in hint.message
        game.play(hint.move)
        assert game.is_won() or solve(game).verdict == "winnable", (back, hint.move)


def test_a_plan_avoids_a_move_back_only_while_another_plan_wins_as_often() -> None:
    """With every legal move to avoid, a plan left out altogether leaves no move; as a last resort, the plan is
    the one chosen with nothing to avoid."""
    observation = new_game("king-albert", 1).observation()
    everything = {str(m) for m in new_game("king-albert", 1).legal_moves()}
    free = fair.plan(observation, 6, max_nodes=3000)
    assert free.move is not None
    assert fair.plan(observation, 6, max_nodes=3000, avoid=everything).move is None
    assert fair.plan(observation, 6, max_nodes=3000, avoid=everything, last_resort=True) == free
    other = fair.plan(observation, 6, max_nodes=3000, avoid={str(free.move)}, last_resort=True)
    assert other.move != free.move or other.wins > max(
        (wins for plan, wins in other.counts.items() if not plan.startswith(str(free.move))), default=0)


def test_a_peeking_hint_counts_the_moves_of_its_line_in_good_grammar() -> None:
    game = new_game("king-albert", 17)
    for move in solve(game).moves[:-1]:
        game.play(move)
    hint = tableaux.hint(game, mode="peek")
    assert hint.message == f"Play {hint.move}: it starts a winning line of 1 move."
    assert hint.reason == "it starts a winning line of 1 move."
    game.undo()
    assert tableaux.hint(game, mode="peek").reason == "it starts a winning line of 2 moves."


@pytest.mark.parametrize("mode", ["fair", "peek"])
def test_a_deal_with_no_legal_move_is_said_to_be_lost(mode: str) -> None:
    """No line leaves the position, so no line wins: proved without a search, and no card looked at."""
    game = new_game("king-albert", 1789)
    assert not game.legal_moves() and not game.is_won()
    hint = tableaux.hint(game, mode=mode)
    assert hint.move is None and hint.unwinnable and not hint.peeks
    assert hint.message == hint.sentence == hint.to_dict()["sentence"]
    assert "cannot be won" in hint.message


def test_a_hint_without_a_move_has_its_message_as_its_sentence_on_the_object_as_in_its_dict() -> None:
    hint = tableaux.Hint(None, "none", "No useful move is left.")
    assert hint.sentence == hint.to_dict()["sentence"] == "No useful move is left."
    moved = tableaux.hint(new_game("king-albert", 1), mode="peek")
    assert moved.sentence == moved.to_dict()["sentence"] != moved.message


@pytest.mark.parametrize("not_a_game", ["king-albert", None, 17, GAMES["king-albert"]])
def test_a_hint_for_something_that_is_not_a_game_says_what_it_takes(not_a_game: object) -> None:
    with pytest.raises(tableaux.TableauxError, match=r"takes a game in play \(a tableaux.Game, such as "
                                                     r"tableaux.new_game\('king-albert', 17\) returns\), not "):
        tableaux.hint(not_a_game)  # type: ignore[arg-type]


def test_pointless_moves_are_recognised() -> None:
    empty = ()
    # T1: a face-down 2D under 6C; T2 empty. Moving 6C to T2 turns the 2D up: useful.
    covered = State((empty,) * 4 + ((14 | 64, 5), empty) + (empty,) * 7 + (empty,) * 7)
    # T1: 6C alone. Moving it to the empty T2 only swaps the piles: pointless.
    lone = State((empty,) * 4 + ((5,), empty) + (empty,) * 7 + (empty,) * 7)
    assert is_pointless(KA, lone, (4, 1, 5), None)
    assert not is_pointless(KA, covered, (4, 1, 5), None)
    assert is_pointless(KA, covered, (5, 1, 4), (4, 1, 5))  # straight back where it came from
    after = KA.apply(covered, (4, 1, 5))
    assert is_pointless(KA, after, (5, 1, 6), None, {KA.apply(after, (5, 1, 6))})  # a position seen before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(GAMES)),
    deal=st.integers(1, 10_000),
    steps=st.integers(0, 60),
    seed=st.integers(0, 1000),
)
def test_heuristic_never_suggests_a_pointless_move(name: str, deal: int, steps: int, seed: int) -> None:
    game = random_game(name, deal, steps, seed)
    rules = game.rules
    previous = rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    seen = history(game)
    legal = rules.moves(game.state)
    for move in heuristic_moves(rules, game.state, previous, seen):
        assert move in legal
        src, count, dst = move
        piles = game.state.piles
        assert not (dst in rules.tableau and not piles[dst] and src in rules.tableau and count == len(piles[src]))
        if previous is not None and rules.pile_names[src] != "stock" and rules.pile_names[dst] != "stock":
            assert (dst, count, src) != previous
        assert rules.apply(game.state, move) not in seen
    hint = heuristic_hint(game)
    if hint.move is not None:
        assert not is_pointless(rules, game.state, rules.to_raw(hint.move), previous, seen)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_following_heuristic_hints_never_goes_round_in_circles(name: str) -> None:
    for deal in (2, 3, 5):
        game = new_game(name, deal)
        positions = {game.state}
        for _ in range(150):
            hint = heuristic_hint(game)
            if hint.move is None:
                break
            game.play(hint.move)
            assert game.state not in positions, f"deal {deal}: {hint.move} repeats a position"
            positions.add(game.state)


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_a_fair_hint_cut_short_by_its_time_limit_says_after_how_many_layouts(name: str) -> None:
    """A deadline that has passed once the first layout is solved leaves the others unsolved: the hint says so,
    counting against the layouts it was handed, so that it is never read as resting on as many layouts as a
    chance to win that was not cut."""
    game = new_game(name, 11)
    hint = tableaux.hint(game, time_limit=1e-9)
    drawn = effort("fair-hint").samples
    assert hint.message.endswith(f" The time ran out after 1 of the {drawn} layouts drawn."), hint.message
    cut = tableaux.hint(game, spend=Effort(samples=12, positions=3000, seconds=1e-9))
    assert cut.message.endswith(" The time ran out after 1 of the 12 layouts drawn."), cut.message
    whole = tableaux.hint(game, time_limit=60.0, samples=8, max_nodes=3000)  # 8 small searches: never near 60 s
    assert "time ran out" not in whole.message


@pytest.mark.parametrize("front_end", ["library", "terminal", "web"])
def test_a_fair_hint_with_its_front_ends_own_effort_never_says_the_time_ran_out_when_it_did_not(
        front_end: str) -> None:
    """Each front end's hint, given its whole effort with time to spare, solves every layout it drew, and says
    nothing about time: the count its message compares with is the count it was handed."""
    game = new_game("king-albert", 11)
    spend = effort("fair-hint", front_end).within(600.0)  # type: ignore[arg-type]
    hint = tableaux.hint(game, spend=spend)
    assert hint.source == "solver" and "time ran out" not in hint.message, hint.message
    assert f"of {spend.samples} possible layouts" in hint.message


def test_a_fair_hint_says_in_plain_words_how_many_layouts_the_solver_could_not_tell() -> None:
    game = new_game("eagle-wing", 11)
    vote = tableaux.advice.fair.hindsight_vote(game.observation(), 8, max_nodes=3000)
    untold = vote.samples - vote.decided
    assert untold > 0  # this deal's layouts need more than 3,000 positions now and then
    hint = tableaux.hint(game, time_limit=60.0, samples=8, max_nodes=3000)
    assert f"a solver that sees every card wins {vote.wins} of 8 possible layouts of the hidden cards." in hint.message
    assert f"The solver could not tell for {untold} of them." in hint.message
    assert "budget" not in hint.message and "undecided" not in hint.message


@pytest.mark.parametrize(("name", "deal"), [("eagle-wing", 5), ("eagle-wing", 10), ("king-albert-classic", 5)])
def test_following_the_fair_hints_wins_these_deals_without_going_back_and_forth(name: str, deal: int) -> None:
    """Each hint from a fresh plan: where the layouts' lines all start by going back to where the game has been,
    the hint goes on another way that wins, so no position comes round again and again. In these deals a hint that
    went back would shuttle a card between two piles for ever (Eagle Wing 5 and 10), and one that fell back on the
    rule of thumb would lose a won game (classic 5). The effort has no time limit, so every machine follows the
    same hints."""
    game = new_game(name, deal)
    spend = Effort(samples=32, positions=10_000, seconds=None)
    seen: dict[State, int] = {}
    while not game.is_won():
        seen[game.state] = seen.get(game.state, 0) + 1
        assert seen[game.state] <= 2 and len(game.moves_played) < 400, game.moves_played[-6:]
        hint = tableaux.hint(game, spend=spend)
        assert hint.move is not None, hint.message
        game.play(hint.move)
