"""Fair play: the observation holds only what the player has seen, samples agree with it and are uniform,
and the advice built on them (chance to win, fair hints) uses nothing else."""

from __future__ import annotations

import json
import random
import re

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

import tableaux
from helpers.games import play_randomly
from helpers.handmade import Hand
from helpers.lost import NODES, losing_game, lost_by_its_last_move
from tableaux import Game, fair
from tableaux.advice.effort import Effort
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.solver import solve

GAMES = ["king-albert", "eagle-wing"]
deals = st.integers(min_value=0, max_value=4294967295)
picks = st.lists(st.integers(min_value=0, max_value=2**16), min_size=5, max_size=150)
quick = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CODES = [card_str(c) for c in range(52)]


def random_play(game: Game, choices: list[int]) -> set[str]:
    """Play (and sometimes undo) as ``choices`` say; return every card that was on view on the way.

    Worked out here from the rules' own definition of what is on view, independently of the Game's memory.
    """
    def on_view() -> set[str]:
        return {
            card_str(c)
            for pile, shown in zip(game.state.piles, game.rules.visible(game.state), strict=True)
            for c, visible in zip(pile, shown, strict=True)
            if visible
        }

    seen = on_view()
    for pick in choices:
        moves = game.legal_moves()
        if pick % 7 == 0 and game.moves_played:
            game.undo()
        elif moves:
            game.play(moves[pick % len(moves)])
        else:
            break
        seen |= on_view()
    return seen


def codes_in(data: object) -> set[str]:
    text = json.dumps(data)
    return {code for code in CODES if f'"{code}"' in text}


# --- the observation --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@quick
@given(deal=deals, choices=picks)
def test_observation_never_holds_a_card_that_was_never_on_view(name: str, deal: int, choices: list[int]) -> None:
    game = tableaux.new_game(name, deal)
    seen = random_play(game, choices)
    observation = game.observation()
    assert codes_in(observation) <= seen
    hidden_now = {code for code in CODES if code not in seen}
    for code in hidden_now:  # not as a string, not inside a message or a move either
        assert not re.search(rf"\b{code}\b", json.dumps(observation))
    assert "deal" not in observation and "deal" not in observation["position"]
    # ...and it keeps everything that was seen: each such card is placed where it lies now.
    placed = {e["card"]: (name, d) for name, pile in observation["piles"].items() for d, e in enumerate(pile)
              if e["card"] is not None}
    assert set(placed) == seen and observation["unseen"] == 52 - len(seen)
    real = game.position()["piles"]
    for code, (pile, depth) in placed.items():
        assert real[pile][depth]["card"] == code


def test_eagle_wing_observation_knows_the_stock_order_once_the_waste_is_turned_back() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    assert all(e["card"] is None for e in game.observation()["piles"]["stock"])
    for _ in range(30):
        game.play("S>W")
    waste = [e["card"] for e in game.observation()["piles"]["waste"]]
    game.play("W>S")
    stock = [e["card"] for e in game.observation()["piles"]["stock"]]
    assert None not in stock and stock == waste[::-1]
    assert game.public_position()["piles"]["stock"][0]["card"] is None  # known, yet face down on screen


def test_eagle_wing_trunk_bottom_card_is_not_in_the_observation_while_covered() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    bottom = game.position()["piles"]["reserve"][0]["card"]
    observation = game.observation()
    assert bottom not in codes_in(observation)
    assert observation["piles"]["reserve"][0] == {"card": None, "up": True}  # dealt face up, not seen


def test_king_albert_card_seen_then_covered_by_undo_stays_known() -> None:
    game = tableaux.new_game("king-albert", 1)
    before = game.observation()
    move = next(m for m in game.legal_moves() if m.source.startswith("tableau")
                and len(game.state.piles[game.rules.index[m.source]]) > m.count)
    game.play(move)
    turned = game.position()["piles"][move.source][-1]["card"]
    assert turned not in codes_in(before)
    game.undo()
    after = game.observation()
    assert after["piles"][move.source][-2] == {"card": turned, "up": False}
    assert turned not in codes_in(game.public_position())  # face down on screen again


# --- sampling ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals, choices=picks, seed=st.integers(0, 2**32))
def test_every_sample_agrees_with_the_observation(name: str, deal: int, choices: list[int], seed: int) -> None:
    game = tableaux.new_game(name, deal)
    random_play(game, choices)
    observation = game.observation()
    real = game.position()
    rules = game.rules
    for position in fair.sample(observation, 5, seed=seed):
        assert position["deal"] is None
        cards = [e["card"] for pile in position["piles"].values() for e in pile]
        assert sorted(cards) == sorted(CODES)  # a whole deck, each card once
        for pile, entries in observation["piles"].items():
            got = position["piles"][pile]
            assert [e["up"] for e in got] == [e["up"] for e in entries] == [e["up"] for e in real["piles"][pile]]
            for known, sampled in zip(entries, got, strict=True):
                if known["card"] is not None:
                    assert sampled["card"] == known["card"]
        # Everything on screen agrees, so the same moves are legal as in the real game.
        state = tableaux.State(
            tuple(
                tuple(tableaux.parse_card(e["card"]) | (0 if e["up"] else DOWN) for e in position["piles"][p])
                for p in rules.pile_names
            ),
            observation["redeals"],
        )
        assert rules.pile_dicts(state, hide=True) == game.public_position()["piles"]
        assert sorted(map(str, map(rules.to_move, rules.moves(state)))) == sorted(map(str, game.legal_moves()))
        assert {k: v for k, v in position.items() if k not in ("piles", "deal", "over")} == {
            k: v for k, v in real.items() if k not in ("piles", "deal", "over")}


@pytest.mark.slow
def test_a_face_down_slot_at_the_start_of_king_albert_is_uniform_over_the_unseen_cards() -> None:
    game = tableaux.new_game("king-albert", 7)
    observation = game.observation()
    unseen = [c for c in CODES if c not in codes_in(observation)]
    assert len(unseen) == 36
    per_card = 150
    n = per_card * len(unseen)
    counts = dict.fromkeys(unseen, 0)
    for position in fair.sample(observation, n, seed=2024):
        counts[position["piles"]["tableau-1"][3]["card"]] += 1  # the fourth card of T1, face down
    chi2 = sum((k - per_card) ** 2 / per_card for k in counts.values())
    # Chi-square with 35 degrees of freedom: P(chi2 > 66.62) = 0.001 for a uniform slot.
    assert chi2 < 66.62, counts
    assert set(counts) == set(unseen)  # nothing that has been seen is ever sampled there


def test_samples_are_the_same_for_the_same_seed_and_differ_for_another() -> None:
    observation = tableaux.new_game("eagle-wing", 3).observation()
    assert fair.sample(observation, 4, seed=9) == fair.sample(observation, 4, seed=9)
    assert fair.sample(observation, 4, seed=9) != fair.sample(observation, 4, seed=10)
    assert fair.sample(observation, 4, seed="x") == fair.sample(observation, 4, seed="x")


def test_a_broken_observation_gets_a_clear_error() -> None:
    observation = tableaux.new_game("king-albert", 3).observation()
    with pytest.raises(fair.FairError, match="not an observation"):
        fair.sample({"piles": {}}, 1)
    with pytest.raises(fair.FairError, match="from 1 to 100,000"):
        fair.sample(observation, 0)
    twice = json.loads(json.dumps(observation))
    twice["piles"]["reserve-1"][0]["card"] = twice["piles"]["reserve-2"][0]["card"]
    with pytest.raises(fair.FairError, match="twice"):
        fair.sample(twice, 1)
    bad = json.loads(json.dumps(observation))
    bad["piles"]["reserve-1"][0]["card"] = "ZZ"
    with pytest.raises(fair.FairError, match="not a card code"):
        fair.win_chance(bad, 1)
    with pytest.raises(fair.FairError, match="seed"):
        fair.sample(observation, 1, seed=1.5)  # type: ignore[arg-type]


# --- chance to win ----------------------------------------------------------------------------------------
def test_win_chance_of_a_position_without_hidden_cards_is_its_verdict() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    for move in solve(game).moves[:-1]:
        game.play(move)
    chance = fair.win_chance(game.observation(), 8, seed=1)
    # One layout, the real one: its verdict, with no interval around it (eight copies of it would prove no more).
    assert chance.known and chance.share == chance.low == chance.high == 1.0
    assert chance.decided == chance.samples == chance.winnable == 1


def test_win_chance_is_zero_when_no_move_can_be_made() -> None:
    game = tableaux.new_game("king-albert", 1789)  # stuck at the deal: no legal move at all
    chance = fair.win_chance(game.observation(), 6, seed=0)
    assert chance.share == 0.0 and chance.decided == 6 and chance.high < 0.5


def test_win_chance_counts_samples_and_brackets_the_share() -> None:
    observation = tableaux.new_game("king-albert", 12).observation()
    chance = fair.win_chance(observation, 12, seed=5, max_nodes=3000)
    assert set(chance.to_dict()) == {"share", "low", "high", "samples", "decided", "winnable", "known"}
    assert not chance.known and chance.samples == 12 and chance.winnable <= chance.decided <= 12
    assert chance.share == chance.winnable / 12
    assert chance.low <= chance.share <= chance.high
    assert fair.win_chance(observation, 12, seed=5, max_nodes=3000) == chance


# --- fair hints -------------------------------------------------------------------------------------------
def test_fair_hint_is_the_default_says_what_it_is_based_on_and_does_not_peek() -> None:
    game = tableaux.new_game("king-albert", 1)
    hint = tableaux.hint(game, time_limit=None, samples=8, max_nodes=5000)
    assert hint.move in game.legal_moves() and not hint.peeks and hint.source == "solver"
    assert re.search(r"a solver that sees every card wins \d+ of 8 possible layouts of the hidden cards", hint.message)
    assert hint.to_dict()["peeks"] is False
    assert "Peeking" not in hint.message


def test_fair_hint_depends_only_on_what_the_player_has_seen() -> None:
    # Two King Albert positions alike in every visible card, with two face-down cards swapped.
    hand = Hand(tableaux.rules("king-albert"))
    piles = dict(T1="4D* 9S* 6C", T2="7H 5S", T3="KD", T4="2S* 8H", F1="AC", F2="AD", F3="AH 2H",
                 R1="3H", R2="3C", R3="4S")
    rest = [c for c in CODES if c not in " ".join(piles.values()).replace("*", "").split()]
    piles["T5"] = " ".join(f"{c}*" for c in rest[:-1]) + f" {rest[-1]}"
    swapped = {**piles, "T1": "2S* 9S* 6C", "T4": "4D* 8H"}
    one, other = (Game(hand.fixed(hand.state(**p)), 1) for p in (piles, swapped))
    assert one.observation() == other.observation()
    kwargs = dict(time_limit=None, samples=6, max_nodes=4000, seed=3)
    assert tableaux.hint(one, **kwargs) == tableaux.hint(other, **kwargs)



FALLBACKS = {"plan": Effort(6, 4000, None), "rule of thumb": Effort(6, 1, None)}
"""A fair hint's budgets: enough for the planner to answer, and so little that no sampled layout is decided and
the fallback answers."""


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=deals, choices=picks, seed=st.integers(0, 2**32))
def test_a_fair_hint_and_its_fallback_are_the_same_for_any_layout_of_the_hidden_cards(
        name: str, deal: int, choices: list[int], seed: int) -> None:
    """Two positions the player cannot tell apart (two layouts of the hidden cards that agree with one
    observation) get the same fair hint, whether the planner answers or its fallback does: a fallback that
    asked the solver about the real deal would tell them apart."""
    game = tableaux.new_game(name, deal)
    play_randomly(game, choices)
    knowledge = fair.read(game.observation())
    one, other = (Game(Hand(game.rules).fixed(s), deal) for s in fair.sample_states(knowledge, 2, seed=seed))
    assert one.observation() == other.observation()
    for spend in FALLBACKS.values():
        assert tableaux.hint(one, spend=spend) == tableaux.hint(other, spend=spend)


@pytest.mark.parametrize("deal", [1, 5, 16042])
@pytest.mark.parametrize("budget", FALLBACKS)
def test_a_fair_hint_never_asks_the_solver_about_the_real_deal(deal: int, budget: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The peeking hint is the only one that hands the real game to the solver (:func:`hints.peek_hint`); a fair
    hint, its fallback included, solves sampled layouts only, through the fair planner."""
    from tableaux.advice import hints

    def peeked(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a fair hint asked the solver about the real deal")

    monkeypatch.setattr(hints, "solve", peeked)
    game = tableaux.new_game("king-albert", deal)
    for _ in range(3):
        hint = tableaux.hint(game, spend=FALLBACKS[budget])
        assert not hint.peeks and "Peeking" not in hint.message
        if hint.move is None:
            break
        game.play(hint.move)
    with pytest.raises(AssertionError, match="real deal"):  # the sentinel does catch a peek
        tableaux.hint(game, mode="peek")

def test_fair_hint_counts_are_the_sampled_layouts_its_move_wins() -> None:
    game = tableaux.new_game("eagle-wing", 5)
    for move in solve(game).moves[:20]:
        game.play(move)
    observation = game.observation()
    answer = fair.hindsight_vote(observation, 6, seed=4, max_nodes=8000)
    assert answer.move is not None and answer.decided == answer.samples == 6
    assert answer.wins == max(answer.counts.values()) == answer.counts[str(answer.move)]
    # Recount independently: the same seed gives the same layouts; solve each after the move.
    knowledge = fair.read(observation)
    rules = knowledge.rules
    move = rules.to_raw(answer.move)
    wins = sum(solve((rules, rules.apply(s, move)), max_nodes=8000).winnable
               for s in fair.sample_states(knowledge, 6, seed=4))
    assert wins == answer.wins
    assert fair.hindsight_vote(observation, 6, seed=4, max_nodes=8000) == answer


def test_fair_hint_with_every_card_known_follows_a_winning_line() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    line = solve(game).moves
    for move in line[:-3]:
        game.play(move)
    assert game.observation()["unseen"] == 0
    hint = tableaux.hint(game, time_limit=None, samples=4)
    assert "no card is hidden any more" in hint.message and not hint.peeks
    plan = fair.hindsight_vote(game.observation(), 4).line  # nothing to guess: one whole plan to follow
    assert plan[0] == hint.move
    for move in plan:
        game.play(move)
    assert game.is_won()


def test_with_nothing_to_guess_the_one_layout_gets_the_positions_of_every_sample() -> None:
    """Classic King Albert shows every card, so its samples are all one layout: searched once with what all of them
    would have had, not again and again with one sample's share. Deal 2 needs more than 10,000 positions and
    fewer than 32 times as many, so a hint with 32 samples of 10,000 positions follows a winning line instead of
    falling back on the rule of thumb, and the chance is the verdict."""
    game = tableaux.new_game("king-albert-classic", 2)
    assert solve(game, max_nodes=10_000).verdict == "unknown"
    assert solve(game, max_nodes=320_000).verdict == "winnable"
    observation = game.observation()
    assert observation["unseen"] == 0
    hint = tableaux.hint(game, spend=Effort(samples=32, positions=10_000, seconds=None))  # no clock: any machine
    assert hint.source == "solver" and "no card is hidden any more" in hint.message
    plan = fair.plan(observation, 32, max_nodes=10_000, shortened=True)  # the line a hint shows: shortened
    assert plan.moves and plan.moves[0] == hint.move and plan.wins == plan.samples == 32
    assert len(plan.moves) <= len(fair.plan(observation, 32, max_nodes=10_000).moves)
    for move in plan.moves:
        game.play(move)
    assert game.is_won()
    chance = fair.win_chance(observation, 32, max_nodes=10_000)
    assert chance.known and chance.share == 1.0 and chance.decided == chance.samples == 1
    assert fair.win_chance(observation, 1, max_nodes=10_000).decided == 0  # one sample's share alone: no verdict
    vote = fair.hindsight_vote(observation, 32, max_nodes=10_000)
    assert vote.line is not None and vote.line[0] == vote.move
    replay = tableaux.new_game("king-albert-classic", 2)
    for move in vote.line:
        replay.play(move)
    assert replay.is_won()


def test_fair_hint_gives_no_plan_while_cards_are_hidden() -> None:
    assert fair.hindsight_vote(tableaux.new_game("eagle-wing", 1).observation(), 3, max_nodes=3000).line is None


def test_unknown_hint_mode_is_refused() -> None:
    with pytest.raises(tableaux.TableauxError, match="fair, peek"):
        tableaux.hint(tableaux.new_game("king-albert", 1), mode="cheat")


@pytest.mark.parametrize("name", GAMES)
def test_fair_hint_never_suggests_going_back_to_an_earlier_position(name: str) -> None:
    game = tableaux.new_game(name, 33)
    rng = random.Random(1)
    for _ in range(15):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    from tableaux.advice.heuristic import history

    seen = history(game)
    hint = tableaux.hint(game, time_limit=None, samples=4, max_nodes=3000)
    if hint.move is not None:
        game.play(hint.move)
        assert game.state not in seen


# --- where the game was lost ------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_where_lost_names_the_last_move_of_a_game_that_ends_on_its_losing_move(name: str) -> None:
    """The last position is the first lost one: the answer is the last move, and the line wins from before it."""
    game = lost_by_its_last_move(name)
    record = game.to_dict()
    last = len(record["moves"]) - 1
    lost = fair.where_lost(record, max_nodes=NODES)
    assert lost is not None and lost["certain"] and not lost["deal_unwinnable"] and lost["undecided"] == []
    assert (lost["move_index"], lost["move"], lost["last_possible"]) == (last, record["moves"][last], last)
    before = tableaux.new_game(name, game.deal)
    for move in record["moves"][:last] + lost["line"]:
        before.play(move)
    assert before.is_won()


@pytest.mark.parametrize("name", GAMES)
def test_where_lost_finds_the_first_move_after_which_no_line_wins(name: str) -> None:
    game, k = losing_game(name)
    record = game.to_dict()
    lost = fair.where_lost(record, max_nodes=NODES)
    assert fair.where_lost(game, max_nodes=NODES) == lost  # the game in play answers as its record does
    assert lost is not None and lost["certain"] and not lost["deal_unwinnable"]
    i = lost["move_index"]
    assert i == k and lost["move"] == record["moves"][i] and lost["last_possible"] == i
    # Before moves[i]: the line it gives plays out in the engine to a won game.
    before = tableaux.new_game(name, game.deal)
    for move in record["moves"][:i]:
        before.play(move)
    for move in lost["line"]:
        before.play(move)
    assert before.is_won()
    # After moves[i]: the solver proves that no line wins.
    after = tableaux.new_game(name, game.deal)
    for move in record["moves"][: i + 1]:
        after.play(move)
    assert solve(after, max_nodes=NODES).verdict == "unwinnable"


def test_where_lost_is_none_for_a_game_that_was_never_lost() -> None:
    game = tableaux.new_game("king-albert", 1)
    line = solve(game).moves
    for move in line[:10]:
        game.play(move)
    assert fair.where_lost(game.to_dict(), max_nodes=NODES) is None  # abandoned while still winnable
    for move in line[10:]:
        game.play(move)
    assert fair.where_lost(game.to_dict()) is None  # won


def test_where_lost_says_when_the_deal_itself_cannot_be_won() -> None:
    game = tableaux.new_game("king-albert", 1789)  # no legal move at the deal
    lost = fair.where_lost(game.to_dict())
    assert lost is not None and lost["deal_unwinnable"] and lost["move_index"] is None and lost["certain"]


def test_where_lost_never_guesses_when_the_solver_runs_out_of_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    game, k = losing_game("king-albert")
    record = game.to_dict()
    with pytest.raises(fair.FairError, match="larger max_nodes"):
        fair.where_lost(record, max_nodes=1)  # the last position cannot even be decided
    # One position just after the loss left undecided: the answer is a bracket, and says so.
    import tableaux.advice.fair.lost as lost_module

    real_solve = lost_module.solve
    undecided_state = tableaux.new_game("king-albert", game.deal)
    for move in record["moves"][: k + 1]:
        undecided_state.play(move)

    def forgetful(position, **kwargs):  # type: ignore[no-untyped-def]
        if position[1] == undecided_state.state:
            return tableaux.solver.SolveResult("unknown")
        return real_solve(position, **kwargs)

    monkeypatch.setattr(lost_module, "solve", forgetful)
    lost = fair.where_lost(record, max_nodes=NODES)
    assert lost is not None and not lost["certain"]
    assert lost["move_index"] == k and lost["last_possible"] == k + 1 and lost["undecided"] == [k + 1]


def test_where_lost_refuses_a_record_that_is_not_a_game() -> None:
    with pytest.raises(tableaux.SaveFileError):
        fair.where_lost({"moves": []})


def test_a_time_limit_covers_drawing_the_layouts_which_are_the_first_the_seed_gives() -> None:
    """A caller's deadline stops the drawing too (a huge ``samples`` with a short limit used to draw every layout
    first); those drawn are a prefix of the seed's layouts, and at least one is always drawn."""
    from tableaux.advice.fair import read, sample_states

    knowledge = read(tableaux.new_game("king-albert", 3).observation())
    every = sample_states(knowledge, 5, seed=9)
    assert sample_states(knowledge, 5, seed=9, deadline=0.0) == every[:1]
    assert sample_states(knowledge, 5, seed=9, deadline=float("inf")) == every
