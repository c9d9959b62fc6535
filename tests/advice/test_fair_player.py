"""The fair player: plans up to the next card turned, chosen from what the player has seen only, reproducible from
its seed, and it plays on after every sampled layout is lost until the game is proved lost or no move is left."""

from __future__ import annotations

from typing import Any

import pytest

import tableaux
from helpers.handmade import Hand
from tableaux import Game, fair
from tableaux.advice.fair.planner import Plan, path_to_a_card, play_out, turns_card
from tableaux.rulebook.cards import DOWN
from tableaux.solver import SolveResult, solve
from tableaux.survey import fair as survey

SMALL: dict[str, Any] = {"samples": 4, "max_nodes": 2000}


def swapped_twin(name: str, deal: int, pile: str) -> Game:
    """Deal ``deal`` with the two lowest face-down cards of ``pile`` swapped: it looks the same to the player."""
    game = tableaux.new_game(name, deal)
    rules = game.rules
    piles = list(game.state.piles)
    p = rules.index[pile]
    cards = list(piles[p])
    i, j = [d for d, c in enumerate(cards) if c & DOWN][:2]
    cards[i], cards[j] = cards[j], cards[i]
    piles[p] = tuple(cards)
    hand = Hand(rules)
    return Game(hand.fixed(game.state._replace(piles=tuple(piles))), deal)


def test_a_plan_plays_known_moves_then_turns_one_hidden_card() -> None:
    game = tableaux.new_game("king-albert", 3)
    observation = game.observation()
    answer = fair.plan(observation, 6, seed=2, max_nodes=5000)
    assert answer.moves and answer.turns
    unseen = observation["unseen"]
    for move in answer.moves[:-1]:
        game.play(move)
        assert game.observation()["unseen"] == unseen  # nothing new is known before the last move
    game.play(answer.moves[-1])
    assert game.observation()["unseen"] < unseen


def test_a_plans_count_is_the_sampled_layouts_still_winnable_after_it() -> None:
    game = tableaux.new_game("eagle-wing", 5)
    for move in solve(game).moves[:15]:
        game.play(move)
    observation = game.observation()
    answer = fair.plan(observation, 6, seed=4, max_nodes=8000)
    assert answer.moves and answer.samples == 6 and answer.wins <= answer.winnable <= answer.decided
    assert answer.counts[" ".join(map(str, answer.moves))] == answer.wins == max(answer.counts.values())
    # Recount independently: the same seed gives the same layouts; solve each after the whole plan.
    knowledge = fair.read(observation)
    rules = knowledge.rules
    raw = [rules.to_raw(m) for m in answer.moves]
    wins = sum(solve((rules, play_out(rules, s, raw)), max_nodes=8000).winnable
               for s in fair.sample_states(knowledge, 6, seed=4))
    assert wins == answer.wins
    assert fair.plan(observation, 6, seed=4, max_nodes=8000) == answer


def test_a_plan_with_nothing_left_to_guess_is_a_whole_winning_line() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    for move in solve(game).moves[:-3]:
        game.play(move)
    answer = fair.plan(game.observation(), 4)
    assert not answer.turns and answer.wins == answer.samples
    for move in answer.moves:
        game.play(move)
    assert game.is_won()


@pytest.mark.parametrize(("name", "deal", "pile"), [("king-albert", 7, "tableau-1"), ("eagle-wing", 2, "reserve")])
def test_two_deals_that_look_the_same_get_the_same_moves_until_they_look_different(
    name: str, deal: int, pile: str
) -> None:
    one, other = tableaux.new_game(name, deal), swapped_twin(name, deal, pile)
    assert one.state != other.state and one.observation() == other.observation()
    survey.play_fair(one, seed=5, **SMALL)
    survey.play_fair(other, seed=5, **SMALL)
    a, b = [str(m) for m in one.moves_played], [str(m) for m in other.moves_played]
    replay_one, replay_other = tableaux.new_game(name, deal), swapped_twin(name, deal, pile)
    compared = 0
    for i in range(min(len(a), len(b))):
        if replay_one.observation() != replay_other.observation():
            break  # the swapped cards came into view: from here on the player knows different things
        assert a[i] == b[i], f"move {i}: {a[i]} in one deal, {b[i]} in the other, with the same observation"
        replay_one.play(a[i])
        replay_other.play(b[i])
        compared += 1
    else:
        assert a == b  # they never looked different: the same whole game
    assert compared >= 10


def test_the_player_replays_the_same_game_from_the_same_seed() -> None:
    row = survey.play_deal("king-albert", 9, seed=3, **SMALL)
    again = survey.play_deal("king-albert", 9, seed=3, **SMALL)
    assert row["player"] == "fair" and {k: v for k, v in row.items() if k != "seconds"} == {
        k: v for k, v in again.items() if k != "seconds"}
    game = tableaux.new_game("king-albert", 9)
    for move in row["moves"]:
        game.play(move)
    assert game.is_won() == row["won"]
    assert {"samples", "seed", "max_nodes", "plans", "more_samples"} <= set(row)


def lost_everywhere(samples: int) -> Plan:
    return Plan((), 0, samples, samples, 0, False, {})


def test_the_player_plays_on_after_every_sampled_layout_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sampled layout lost is evidence, not proof: look over more layouts, then play the rule of thumb,
    and look again each time a card turns; stop only when no move is left."""
    asked: list[tuple[int, int]] = []

    def always_lost(observation: dict[str, Any], samples: int, **kwargs: Any) -> Plan:
        asked.append((observation["unseen"], samples))
        return lost_everywhere(samples)

    monkeypatch.setattr(survey, "plan", always_lost)
    game = tableaux.new_game("king-albert", 5)
    end = survey.play_fair(game, seed=1, **SMALL)
    assert end in ("no move left", "proved lost", "no new move", "move limit")
    assert len(game.moves_played) > 5  # it played on instead of giving up at the first verdict
    assert asked[:2] == [(36, 4), (36, 4 * survey.MORE_SAMPLES)]  # the first verdict: more layouts at once
    later = asked[2:]
    assert later and all(n == 4 for _unseen, n in later)  # then each new look is an ordinary one
    looked_at = [unseen for unseen, _n in asked[1:]]
    assert looked_at == sorted(set(looked_at), reverse=True)  # asked again only once a card had turned


def test_the_player_goes_back_to_its_plans_when_a_later_look_finds_a_winnable_layout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_plan = survey.plan
    calls = []

    def lost_at_first(observation: dict[str, Any], samples: int, **kwargs: Any) -> Plan:
        calls.append(samples)
        if len(calls) <= 2:
            return lost_everywhere(samples)
        return real_plan(observation, samples, **kwargs)

    monkeypatch.setattr(survey, "plan", lost_at_first)
    row_game = tableaux.new_game("king-albert", 1)
    survey.play_fair(row_game, seed=1, samples=8, max_nodes=10_000)
    assert len(calls) > 3 and len(row_game.moves_played) > 20


def test_a_game_is_proved_lost_only_when_every_arrangement_of_the_unseen_cards_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = tableaux.new_game("eagle-wing", 1)
    for move in solve(game).moves:
        if game.observation()["unseen"] <= 4:
            break
        game.play(move)
    knowledge = fair.read(game.observation())
    assert 2 <= len(knowledge.unseen) <= 4
    import math

    import tableaux.advice.fair.chance as advice

    solved = []
    winner = knowledge.fill(list(knowledge.unseen))  # one arrangement the fake solver lets win

    def fake(position: Any, **kwargs: Any) -> SolveResult:
        solved.append(position[1])
        return SolveResult("winnable" if position[1] == winner else "unwinnable")

    monkeypatch.setattr(advice, "solve", fake)
    assert not fair.proved_lost(knowledge, 1000)
    monkeypatch.setattr(advice, "solve", lambda position, **kwargs: solved.append(position[1]) or SolveResult(
        "unwinnable"))
    solved.clear()
    assert fair.proved_lost(knowledge, 1000)
    assert len(set(solved)) == math.factorial(len(knowledge.unseen))  # every arrangement, each once
    monkeypatch.setattr(advice, "solve", lambda position, **kwargs: SolveResult("unknown"))
    assert not fair.proved_lost(knowledge, 1000)  # undecided is not lost
    start = fair.read(tableaux.new_game("eagle-wing", 1).observation())
    assert not fair.proved_lost(start, 1000)  # 43 unseen cards: too many arrangements to prove anything


def test_turns_card_sees_only_cards_never_seen() -> None:
    game = tableaux.new_game("king-albert", 1)
    knowledge = fair.read(game.observation())
    unseen = frozenset(knowledge.unseen)
    rules = game.rules
    state = game.state
    assert not turns_card(rules, state, unseen)
    for move in rules.moves(state):
        after = rules.apply(state, move)
        source = state.piles[move[0]]
        uncovers = move[0] in rules.tableau and len(source) > move[1]
        assert turns_card(rules, after, unseen) == bool(uncovers and source[-move[1] - 1] & DOWN)


def test_a_path_to_a_card_is_known_moves_then_one_that_turns_a_card() -> None:
    game = tableaux.new_game("king-albert", 3)
    unseen = game.observation()["unseen"]
    path = path_to_a_card(fair.read(game.observation()))
    assert path
    for move in path[:-1]:
        game.play(game.rules.to_move(move))
        assert game.observation()["unseen"] == unseen
    game.play(game.rules.to_move(path[-1]))
    assert game.observation()["unseen"] < unseen
    stuck = tableaux.new_game("king-albert", 1789)  # no legal move at the deal
    assert path_to_a_card(fair.read(stuck.observation())) == []
    assert path_to_a_card(fair.read(game.observation()), limit=1) is None  # out of positions: no answer


def test_proved_lost_because_no_card_can_be_turned_is_a_proof() -> None:
    """The player's claim is checked by a search of its own: from the last position, no sequence of legal moves
    ever turns a card, and a card is still unseen, so no line wins."""
    row = survey.play_deal("king-albert", 11, seed=1, samples=8, max_nodes=10_000)
    assert row["end"] == "proved lost"
    game = tableaux.new_game("king-albert", 11)
    for move in row["moves"]:
        game.play(move)
    unseen = game.observation()["unseen"]
    assert unseen > 0 and game.legal_moves()
    seen, todo = {game.state}, [game]
    while todo:
        here = todo.pop()
        for move in here.legal_moves():
            there = here.copy()
            there.play(move)
            assert there.observation()["unseen"] == unseen and not there.is_won()
            if there.state not in seen:
                seen.add(there.state)
                todo.append(there)
    assert len(seen) > 1
