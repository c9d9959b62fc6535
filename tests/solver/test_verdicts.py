"""The relaxed verdicts (solver/verdicts.py, core/relaxed.c's tx_verdicts_lost): King Albert's complete search
drops each position whose relaxed position a relaxed game proves lost, under both rule sets.

A verdict of lost must mean what relaxed.py's search proves (the whole relaxed game from the position has no
win), whatever was asked before; both backends must answer alike and search the same relaxed positions, so that
their complete searches make the same positions; and a position of a real winning line is never dropped.
"""

from __future__ import annotations

import functools
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers.cli import run_tableaux
from helpers.handmade import Hand
from helpers.positions import KA, KAC
from tableaux.rulebook.engine import Rules, State
from tableaux.solver import BACKENDS, solve
from tableaux.solver.verdicts import RelaxedVerdicts

needs_core = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")


BOTH = pytest.mark.parametrize("rules", [KAC, KA], ids=["classic", "aisleriot"])
CORE_GAME = {KA: 0, KAC: 1}
"""The core's number for each rule set."""


def core_verdicts(rules: Rules, states: list[State], rank: int, memory: int = 1 << 28) -> tuple[list[bool], int]:
    from tableaux.solver import _core

    return _core.verdicts([s.piles for s in states], rank, memory=memory, game=CORE_GAME[rules])


def core_relaxed(rules: Rules, state: State, rank: int) -> tuple[int, int, int]:
    from tableaux.solver import _core

    return _core.relaxed(state.piles, rank, game=CORE_GAME[rules])


def walk(rules: Rules, state: State, rng: random.Random, plies: int) -> list[State]:
    """The positions of a random game of up to ``plies`` moves from ``state``."""
    out = [state]
    for _ in range(plies):
        moves = rules.moves(state)
        if not moves:
            break
        state = rules.apply(state, rng.choice(moves))
        out.append(state)
    return out


@functools.cache
def late_positions(rules: Rules) -> tuple[State, ...]:
    """Relaxed games small enough for the Python reference, live and lost: positions of the last stretch of
    winning lines of deals and positions a few random moves off them (nearly all live), and positions of random
    play from deals (nearly all lost: random moves bury what the foundations need)."""
    rng = random.Random(5)
    out = []
    for deal in range(1, 12):
        result = solve(rules.name, deal, max_nodes=300_000, line="found")
        if result.verdict != "winnable":
            continue
        state = rules.deal(deal)
        raw = [rules.to_raw(m) for m in result.moves]
        for i, move in enumerate(raw):
            if len(raw) - i <= 60 and i % 12 == 0:
                out.append(state)
                out.append(walk(rules, state, rng, rng.randint(1, 10))[-1])
            state = rules.apply(state, move)
    for deal in range(1, 25):
        out.append(walk(rules, rules.deal(deal), rng, rng.randint(60, 150))[-1])
    return tuple(out)


@functools.cache
def winning_line_positions(rules: Rules) -> tuple[State, ...]:
    """Every position of the winning lines of deals 1-15: each can be won."""
    out = []
    for deal in range(1, 16):
        result = solve(rules.name, deal, max_nodes=300_000, line="found")
        if result.verdict == "winnable":
            state = rules.deal(deal)
            out.append(state)
            for move in result.moves:
                state = rules.apply(state, rules.to_raw(move))
                out.append(state)
    return tuple(out)


@needs_core
@BOTH
@pytest.mark.parametrize("rank", [1, 3])
def test_a_position_is_known_lost_exactly_when_its_whole_relaxed_game_has_no_win(rules: Rules, rank: int) -> None:
    """One RelaxedVerdicts asked about position after position (each query leaves what it learnt for the next):
    lost exactly where a search of the whole relaxed game from that position finds no win (the core's, whose
    move order finds the wins of these positions at once)."""
    states = late_positions(rules)
    verdicts = RelaxedVerdicts(rank, rules is KA)
    answers = [verdicts.lost(s) for s in states]
    assert answers == [core_relaxed(rules, s, rank)[0] == 1 for s in states]
    assert 0 < sum(answers) < len(answers)  # both kinds were asked about


@needs_core
@BOTH
@pytest.mark.parametrize("rank", [1, 3])
def test_both_backends_know_the_same_positions_lost_and_search_as_many_relaxed_positions(rules: Rules,
                                                                                        rank: int) -> None:
    states = list(late_positions(rules))
    verdicts = RelaxedVerdicts(rank, rules is KA)
    answers = [verdicts.lost(s) for s in states]
    assert core_verdicts(rules, states, rank) == (answers, verdicts.positions)


@needs_core
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from([KAC, KA]), deal=st.integers(1, 2**32 - 1), seed=st.integers(0, 2**32),
       plies=st.integers(20, 150), rank=st.integers(2, 5))
def test_the_cores_verdicts_along_a_random_game_are_its_relaxed_searches(rules: Rules, deal: int, seed: int,
                                                                        plies: int, rank: int) -> None:
    """The same in the core, on positions of random play from fresh deals, asked in the order played: lost exactly
    where the core's search of the whole relaxed game finds no win, given room for every relaxed position the
    queries search (out of room, they only say live: test_verdicts_out_of_room_only_say_live)."""
    states = walk(rules, rules.deal(deal), random.Random(seed), plies)[::10]
    searches = [core_relaxed(rules, s, rank) for s in states]
    # each search decided, and all of them together within three million positions, which a GiB holds
    assume(all(verdict != 2 for verdict, _, _ in searches) and sum(n for _, n, _ in searches) <= 3_000_000)
    answers, _positions = core_verdicts(rules, states, rank, memory=1 << 30)
    assert answers == [verdict == 1 for verdict, _, _ in searches]


@needs_core
@BOTH
@pytest.mark.parametrize("rank", [2, 3, 4, 6, 13])
def test_no_position_of_a_winning_line_is_known_lost(rules: Rules, rank: int) -> None:
    """Soundness against the real game's wins: every position along real winning lines can be won, so none is
    known lost, at any rank kept apart (13 is the real game itself)."""
    answers, _positions = core_verdicts(rules, list(winning_line_positions(rules)), rank)
    assert not any(answers)


@needs_core
@pytest.mark.parametrize(("rules", "deal"), [(KAC, 3622411542), (KA, 3390447547)], ids=["classic", "aisleriot"])
def test_verdicts_out_of_room_only_say_live(rules: Rules, deal: int) -> None:
    """Running out of room leaves positions live (not proved lost), never lost: with little memory, what is known
    lost is known lost with plenty too, and less of it."""
    states = walk(rules, rules.deal(deal), random.Random(1), 200)[::4]
    plenty, _ = core_verdicts(rules, states, 3)
    tight, _ = core_verdicts(rules, states, 3, memory=1 << 20)
    assert all(p for p, t in zip(plenty, tight, strict=True) if t)
    assert sum(tight) < sum(plenty)


@pytest.fixture
def early_verdicts(monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The verdicts asked from the complete search's first positions on, small enough for the Python search."""
    from tableaux.solver.strategy import king_albert

    monkeypatch.setattr(king_albert, "RELAXED_VERDICTS", (3, 0))
    monkeypatch.setattr(king_albert, "CLASSIC_RELAXED_VERDICTS", (3, 0))
    return 3, 0


@needs_core
@pytest.mark.parametrize(("rules", "deal"), [pytest.param(r, d, id=f"{r.name}-{d}") for r, d in (
    (KAC, 3), (KAC, 16), (KAC, 20), (KAC, 1), (KAC, 5), (KA, 11), (KA, 39), (KA, 60), (KA, 1), (KA, 2))])
def test_both_complete_searches_drop_the_same_positions(early_verdicts: tuple[int, int], rules: Rules,
                                                        deal: int) -> None:
    """With the verdicts, both backends' complete searches make the same positions (the relaxed ones counted) to
    the same verdict and line."""
    start = rules.deal(deal)
    c, py = (solve((rules, start), max_nodes=30_000, first_pass=False, backend=b, line="found") for b in BACKENDS)
    assert (c.verdict, c.nodes, c.moves) == (py.verdict, py.nodes, py.moves)


@needs_core
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=st.sampled_from([KAC, KA]), deal=st.integers(3_000_000_000, 2**32 - 1))
def test_a_solve_with_the_verdicts_never_contradicts_one_without(early_verdicts: tuple[int, int], rules: Rules,
                                                                 deal: int) -> None:
    """On fresh deals, with the verdicts asked from the start: whatever a solve decides, a bigger solve without
    them decides the same way or not at all."""
    fast = solve(rules.name, deal, max_nodes=300_000, line="none")
    if fast.verdict != "unknown":
        plain = solve(rules.name, deal, max_nodes=3_000_000, line="none", relaxed_stage=False)
        assert plain.verdict in (fast.verdict, "unknown"), deal


@needs_core
@pytest.mark.parametrize(("rules", "deal", "within"), [(KAC, 3486418073, 1_000_000), (KA, 3377414400, 1_000_000)],
                         ids=["classic", "aisleriot"])
def test_the_verdicts_prove_a_slow_lost_deal_lost_that_the_search_alone_leaves_open(rules: Rules, deal: int,
                                                                                  within: int) -> None:
    """Classic 3486418073, once the slowest of 150 fresh deals: the complete search alone proves it lost after 4.9
    million positions; with the verdicts, a default solve proves it lost in about 900,000. King Albert 3377414400,
    once the slowest of 1,000 fresh deals: 9.1 million positions without them, 900,000 with them."""
    default = solve(rules.name, deal, max_nodes=3_000_000, line="none")
    assert default.verdict == "unwinnable" and default.nodes < within
    plain = solve(rules.name, deal, max_nodes=3_000_000, line="none", relaxed_stage=False)
    assert plain.verdict == "unknown"


HAND = Hand(KAC)


def test_a_position_with_no_relaxed_proof_is_solved_without_the_verdicts(early_verdicts: tuple[int, int]) -> None:
    """The relaxation's proof needs a real position (each foundation a run of one suit): a hand-built position
    that is not one is searched the usual way, never refused and never judged by a relaxed game."""
    home = {f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789") for i, s in enumerate("CDHS")}
    piles = {**home, "F1": "AC 3C 2C 4C 5C 6C 7C 8C 9C"}
    rest = "TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS".split()
    for i, card in enumerate(rest):
        piles[f"T{i % 9 + 1}"] = (piles.get(f"T{i % 9 + 1}", "") + " " + card).strip()
    state = HAND.state(**piles)
    default = solve((KAC, state), max_nodes=20_000, line="none", backend="python")
    plain = solve((KAC, state), max_nodes=20_000, line="none", backend="python", relaxed_stage=False)
    assert (default.verdict, default.nodes) == (plain.verdict, plain.nodes)


@needs_core
def test_solve_on_the_command_line_has_the_verdicts_unless_told_to_leave_them_out() -> None:
    out = run_tableaux("solve", "king-albert-classic", "3486418073", "--max-nodes", "3000000")
    assert out.returncode == 1 and "unwinnable" in out.stdout and "proved lost" in out.stdout
    out = run_tableaux("solve", "king-albert-classic", "3486418073", "--max-nodes", "3000000", "--no-relaxed-stage",
                       "--json")
    assert out.returncode == 3 and json.loads(out.stdout)["verdict"] == "unknown"
