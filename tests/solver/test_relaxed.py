"""King Albert relaxed above a rank (solver/relaxed.py, core/relaxed.c): a loss there is a proof, under both rule
sets.

The proof rests on one fact, that every real move is a relaxed move between the mapped positions, and on
the search leaving out only what its docstring proves it may. These tests check the fact move by move, check
that positions along real winning lines are never relaxed-lost, and check that both backends make the same
positions.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.cli import run_tableaux
from helpers.games import random_position
from helpers.handmade import Hand
from helpers.positions import EW, KA, KAC, replay, small_positions
from tableaux.rulebook.cards import DOWN, RANK
from tableaux.rulebook.engine import Rules, State
from tableaux.rulebook.king_albert import RESERVE, TABLEAU
from tableaux.solver import BACKENDS, RELAXED_SHARE, SolverError, solve
from tableaux.solver.relaxed import at_once, children, relaxed_search, relaxed_start, won
from tableaux.survey.solver import survey

needs_core = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")


def low_card_can_go_home(rules: Rules, state: State, low: int) -> bool:
    """Whether an Ace (or with ``low`` 2 a Two) can go home: then that is the relaxed search's only move."""
    return any(state.piles[p] and RANK[state.piles[p][-1]] <= low and rules.home_move(state, p)
               for p in (*TABLEAU, *RESERVE))


CORE_GAME = {KA: 0, KAC: 1}
"""The core's number for each rule set."""

RELAXED_C = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "solver" / "core" / "relaxed.c"


def test_the_cores_key_sorts_the_nine_piles_whatever_their_places() -> None:
    """The core's relaxed key is canonical only if its network of compare-exchanges (relaxed.c's sort9) sorts every
    order of nine piles; by the 0-1 principle it does when it sorts every string of nine 0s and 1s."""
    source = RELAXED_C.read_text()
    body = source[source.index("static inline void sort9"):]
    body = body[:body.index("\n}\n")]
    places = "abcdefghi"
    pairs = [(places.index(a), places.index(b)) for a, b in re.findall(r"SORT2\((\w), (\w)\)", body)]
    assert pairs, "relaxed.c's sort9 names no compare-exchange"
    for bits in itertools.product((0, 1), repeat=9):
        words = list(bits)
        for a, b in pairs:
            words[a], words[b] = min(words[a], words[b]), max(words[a], words[b])
        assert words == sorted(bits), f"the network leaves {bits} as {words}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from([KAC, KA]), deal=st.integers(1, 10**6), plies=st.integers(0, 120),
       rank=st.integers(1, 13), seed=st.integers(0, 2**32))
def test_every_real_move_is_a_relaxed_move(rules: Rules, deal: int, plies: int, rank: int, seed: int) -> None:
    """The relaxation's premise: from any position, each legal real move leads to a relaxed position one relaxed
    move away (or to the same one: a whole pile to an empty pile). Left out, as relaxed.py proves it may: every
    move but an Ace's where an Ace can go home (and with the Twos kept apart, a Two's where a Two can), and an
    Ace (a Two) taken back. Under AisleRiot's rules the moves are builds, and the card a move uncovers turns up
    in both games."""
    state = random_position(rules, deal, seed, plies)
    low = at_once(rank)
    if low_card_can_go_home(rules, state, low):
        return
    here = relaxed_start(rules, state, rank)
    reachable = set(children(here, rank, rules is KA)) | {here}
    for move in rules.moves(state):
        src, _, _ = move
        if src in rules.foundations and RANK[state.piles[src][-1]] <= low:
            continue
        assert relaxed_start(rules, rules.apply(state, move), rank) in reachable, (deal, plies, move)


HAND = Hand(KAC)
HOME_TO_NINE = {f"F{i + 1}": " ".join(f"{r}{s}" for r in "A23456789") for i, s in enumerate("CDHS")}
"""Every suit home up to its Nine: the sixteen court cards and Tens are left to place by hand."""


def test_a_build_moves_whole_and_the_card_it_uncovers_turns_up() -> None:
    """AisleRiot's rules: the relaxed game moves a build of any length, as the real game does, turns up the card it
    uncovers, and never moves it onto the pile it leaves (the card turned up there takes it, but putting it back
    is no move)."""
    piles = {**HOME_TO_NINE, "T1": "KS* QH JS", "T2": "KD* QC JD", "T3": "TH", "T4": "TC", "T5": "TD", "T6": "TS",
             "R1": "JC", "R2": "JH", "R3": "QS", "R4": "QD", "R5": "KC", "R6": "KH"}
    state = Hand(KA).state(**piles)
    here = relaxed_start(KA, state, 4)
    found = set(children(here, 4, True))
    for move in KA.moves(state):
        assert relaxed_start(KA, KA.apply(state, move), 4) in found | {here}, move
    king, queen, jack = 13 * 8 + 4, 12 * 8 + 5, 11 * 8 + 4  # the black King, the red Queen, the black Jack
    assert (king | 128, queen, jack) in here[2]
    assert any({(king,), (queen, jack)} <= set(pos[2]) for pos in found)  # the build to an empty pile, King up
    assert not any((king, queen, jack) in pos[2] for pos in found)


def relaxed_children(rank: int, **piles: str) -> set:
    return set(children(relaxed_start(KAC, HAND.state(**piles), rank), rank))


def after(rank: int, **piles: str) -> object:
    return relaxed_start(KAC, HAND.state(**piles), rank)


def test_a_two_goes_home_at_once_when_the_twos_are_kept_apart() -> None:
    """With the Twos kept apart, a Two that can go home is the only move there, and no Two comes back; relaxed
    above the Aces alone a Two is known by its colour only and is left to the search."""
    piles = {**HOME_TO_NINE, "F1": "AC", "T1": "2C"}
    placed = " ".join(piles.values()).split()
    rest = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK" if f"{r}{s}" not in placed]
    for i, card in enumerate(reversed(rest)):
        piles[f"T{i % 8 + 2}"] = (piles.get(f"T{i % 8 + 2}", "") + " " + card).strip()
    state = HAND.state(**piles)
    (only,) = children(relaxed_start(KAC, state, 2), 2)
    assert only[0] == (2, 9, 9, 9)
    assert len(set(children(relaxed_start(KAC, state, 1), 1))) > 1
    two_home = HAND.state(**{**piles, "F1": "AC 2C", "T1": ""})
    assert all(pos[0][0] >= 2 for pos in children(relaxed_start(KAC, two_home, 2), 2))  # it stays home


def test_a_low_card_comes_back_off_its_foundation_onto_the_tableau() -> None:
    """A card of a kept rank taken back is itself: the Nine of hearts onto the black Ten, as in the real game."""
    rest = dict(T1="TC", T2="JD QS KH", T3="TD JC QH KS", T4="TH JS QD KC", T5="TS JH QC KD")
    here = {**HOME_TO_NINE, **rest}
    back = {**here, "F3": "AH 2H 3H 4H 5H 6H 7H 8H", "T1": "TC 9H"}
    assert after(9, **back) in relaxed_children(9, **here)


def test_a_foundations_top_goes_to_an_empty_pile_and_a_reserve_card_too() -> None:
    rest = dict(T2="JD QS KH", T3="TD JC QH KS", T4="TH JS QD KC", T5="TS JH QC KD", R1="TC")
    here = {**HOME_TO_NINE, **rest}
    top_out = {**here, "F1": "AC 2C 3C 4C 5C 6C 7C 8C", "T1": "9C"}
    reserve_out = {**here, "R1": "", "T1": "TC"}
    found = relaxed_children(6, **here)
    assert after(6, **top_out) in found and after(6, **reserve_out) in found


def test_above_the_rank_kept_a_card_goes_home_on_either_foundation_of_its_colour() -> None:
    """The relaxation's one new move: above rank m the Ten of hearts goes on the diamonds as well as on the
    hearts, and the Ten of clubs on the spades as well as on the clubs; never across colours."""
    rest = dict(T1="TH", T2="JD QS KH", T3="TD JC QH KS", T4="TC JS QD KC", T5="TS JH QC KD")
    here = {**HOME_TO_NINE, **rest}
    found = relaxed_children(4, **here)
    heights = {pos[0] for pos in found}
    assert {(9, 10, 9, 9), (9, 9, 10, 9)} <= heights  # the red Ten on the diamonds, or on the hearts
    black = dict(rest, T1="TC", T4="TH JS QD KC")
    heights = {pos[0] for pos in relaxed_children(4, **HOME_TO_NINE, **black)}
    assert {(10, 9, 9, 9), (9, 9, 9, 10)} <= heights and (9, 10, 9, 9) not in heights
    kept = {pos[0] for pos in relaxed_children(10, **here)}  # with Tens kept apart, only the hearts take it
    assert (9, 9, 10, 9) in kept and (9, 10, 9, 9) not in kept


@pytest.mark.parametrize(("piles", "why"), [
    ({**HOME_TO_NINE, "T1": "TC TC"}, "each of the 52 cards once"),
    ({**HOME_TO_NINE, "F1": "AC 3C 2C 4C 5C 6C 7C 8C 9C"}, "a run of one suit from its Ace"),
    ({**HOME_TO_NINE, "R1": "TC TD"}, "one card at most"),
])
def test_a_hand_built_start_that_is_no_real_position_is_refused(piles: dict[str, str], why: str) -> None:
    """The proof needs a real classic position to start from: a hand-built one is checked, not assumed."""
    rest = "TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS".split()
    placed = " ".join(piles.values()).split()
    piles = dict(piles)
    for i, card in enumerate(c for c in rest if c not in placed):
        piles[f"T{i % 9 + 1}"] = (piles.get(f"T{i % 9 + 1}", "") + " " + card).strip()
    state = HAND.state(**piles)
    with pytest.raises(ValueError, match=why):
        relaxed_start(KAC, state, 4)
    with pytest.raises(SolverError, match=why):
        solve((KAC, state), relaxed=4)


def test_relaxing_above_the_kings_is_the_real_game() -> None:
    """Above rank 13 there is nothing to relax: a won relaxed position is a won real one, and a lost deal is
    lost there too."""
    assert won(relaxed_start(KAC, KAC.deal(3), 13)) is False
    assert relaxed_search(KAC, KAC.deal(3), 13).verdict == "lost"


LOST_DEALS = {KAC: [3, 16, 20, 21, 37, 39, 60, 72, 78], KA: [11, 37, 39, 60, 71, 77, 83, 189]}
"""Deals the complete search proves lost in a few thousand positions."""


@functools.cache
def positions_on_winning_lines(rules: Rules) -> list[tuple[State, int]]:
    """Positions every 30 moves along the winning lines of winnable deals, each with how many moves its line
    still had to go: every one of them can be won."""
    out = []
    for deal in range(1, 16):
        start = rules.deal(deal)
        result = solve((rules, start), max_nodes=300_000)
        if result.verdict != "winnable":
            continue
        raw = [rules.to_raw(m) for m in result.moves]
        state = start
        for i, move in enumerate(raw):
            if i % 30 == 0:
                out.append((state, len(raw) - i))
            state = rules.apply(state, move)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rules", [KAC, KA], ids=["classic", "aisleriot"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_relaxed_loss_is_never_a_winnable_position(backend: str, rules: Rules) -> None:
    """Soundness, against wins the real game has: positions along winning lines can be won, so the relaxed
    game from them is never lost, at any rank kept apart (the Python reference on the lines' last stretches,
    where its searches are short)."""
    checked = 0
    for state, to_go in positions_on_winning_lines(rules):
        if backend == "python" and to_go > 40:
            continue
        for rank in (1, 4, 8, 13):
            result = solve((rules, state), relaxed=rank, backend=backend, max_nodes=20_000, first_pass=False)
            assert result.relaxed is None and result.verdict != "unwinnable", (to_go, rank)
            checked += 1
    assert checked >= (40 if backend == "c" else 8)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [KAC, KA], ids=["classic", "aisleriot"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_relaxed_game_proves_lost_deals_lost(backend: str, rules: Rules) -> None:
    """Kept apart up to the Kings, the relaxed game is the real one, so it proves every lost deal lost; kept
    apart up to the Fours, it proves most of them, in fewer positions."""
    fewer = 0
    for deal in LOST_DEALS[rules]:
        real = solve(rules.name, deal, relaxed=13, backend=backend)
        assert (real.verdict, real.relaxed) == ("unwinnable", 13), deal
        low = solve(rules.name, deal, relaxed=4, backend=backend)
        assert low.verdict == "unwinnable", deal
        fewer += low.relaxed == 4 and low.nodes < real.nodes
    assert fewer >= len(LOST_DEALS[rules]) // 2


@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("rules", [KAC, KA], ids=["classic", "aisleriot"])
def test_both_backends_make_the_same_relaxed_positions(rules: Rules) -> None:
    """core/relaxed.c against relaxed.py: the same verdict, and on a lost game the same number of positions
    (the set of positions reachable is the same whatever the order of the search)."""
    from tableaux.solver import _core

    rng = random.Random(11)
    lost = 0
    states = [rules.deal(d) for d in LOST_DEALS[rules]] + small_positions(rules, rng, 10)
    for state in states:
        for rank in (2, 4, 13):
            py = relaxed_search(rules, state, rank, max_positions=6_000)
            code, positions, out_of_memory = _core.relaxed(state.piles, rank, 6_000, game=CORE_GAME[rules])
            if py.verdict == "unknown" and code == -1:
                continue
            if py.verdict == "unknown" or code == -1:
                # One side decided within the cap and the other did not. A win may come sooner in one order
                # of search than in the other; a loss counts every reachable position, the same set on both
                # sides, so a loss on one side and no verdict on the other is a disagreement.
                decided = py.verdict if code == -1 else {1: "lost", 0: "won"}[code]
                assert decided == "won", (state, rank, py, code, positions)
                continue
            assert {1: "lost", 0: "won"}[code] == py.verdict, (state, rank)
            if code == 1:
                assert positions == py.positions, (state, rank)
                lost += 1
    assert lost >= 18


@needs_core
def test_running_out_of_memory_gives_unknown() -> None:
    """A relaxed game too big for its memory ends unknown (out of memory), never a crash or a verdict."""
    from tableaux.solver import _core

    code, positions, out_of_memory = _core.relaxed(KAC.deal(11217).piles, 4, -1, 0, 2 << 20)
    assert (code, out_of_memory) == (-1, 1) and positions > 1000
    result = solve("king-albert-classic", 11217, relaxed=4, memory_mb=16, max_nodes=50_000, first_pass=False)
    assert result.verdict == "unknown" and result.relaxed is None


def test_a_spent_budget_leaves_the_deal_to_the_usual_search() -> None:
    """A relaxed game that is won, or not searched to its end, decides nothing: the solve goes on and its
    verdict is the usual one."""
    won_deal = solve("king-albert-classic", 1, relaxed=4, max_nodes=300_000)
    assert won_deal.verdict == "winnable" and won_deal.relaxed is None
    assert KAC.won(replay(KAC, KAC.deal(1), [KAC.to_raw(m) for m in won_deal.moves]))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_relaxed_game_takes_at_most_a_tenth_of_the_budget(backend: str) -> None:
    """The relaxed game gets a tenth of a node budget, the usual search the rest: whatever the usual search
    decides with nine tenths of the budget, the solve with the relaxed game first decides the same way (a win
    stays a win, never unknown), and the relaxed game never spends more than its tenth."""
    budget = 200_000 if backend == "c" else 20_000
    decided = 0
    for deal in range(1, 16):
        plain = solve("king-albert-classic", deal, max_nodes=budget - budget // RELAXED_SHARE, backend=backend,
                      line="none")
        first = solve("king-albert-classic", deal, max_nodes=budget, relaxed=8, backend=backend, line="none")
        if first.relaxed is not None:
            assert first.verdict == "unwinnable" and first.nodes <= budget // RELAXED_SHARE, deal
        if plain.verdict != "unknown":
            assert first.verdict == plain.verdict, deal
            decided += 1
    assert decided >= 8


@needs_core
def test_a_relaxed_game_too_big_for_its_share_leaves_a_quick_win_won() -> None:
    """Classic 3482163473: the usual search wins it in about 254,000 positions, and its game relaxed above the
    Eights has no end within 3 million. With two million positions the relaxed game gets 200,000 and the usual
    search the rest, and wins."""
    from tableaux.solver import _core

    code, positions, _ = _core.relaxed(KAC.deal(3482163473).piles, 8, 200_000)
    assert (code, positions) == (-1, 200_000)
    result = solve("king-albert-classic", 3482163473, max_nodes=2_000_000, relaxed=8, line="none")
    assert result.verdict == "winnable" and result.relaxed is None


@pytest.mark.parametrize("bad", [0, 14, -1, True, 4.0, "4"])
def test_a_rank_kept_apart_outside_1_to_13_is_refused(bad: object) -> None:
    with pytest.raises(SolverError, match="from 1 to 13"):
        solve("king-albert-classic", 3, relaxed=bad)  # type: ignore[arg-type]


def test_the_relaxed_game_is_king_alberts_only() -> None:
    with pytest.raises(SolverError, match="king-albert, king-albert-classic"):
        solve("eagle-wing", 3, relaxed=4)
    with pytest.raises(ValueError, match="King Albert's games only"):
        relaxed_start(EW, EW.deal(3), 4)


@pytest.mark.parametrize(("rules", "where", "why"), [
    (KAC, "tableau-1", "every card is face up"),
    (KA, "reserve-1", "where none can"),
    (KA, "tableau-9", "where none can"),  # a face-down top
])
def test_a_face_down_card_where_none_can_lie_is_refused(rules: Rules, where: str, why: str) -> None:
    state = rules.deal(3)
    i = rules.pile_names.index(where)
    piles = tuple((DOWN | p[0], *p[1:]) if j == i else p for j, p in enumerate(state.piles))
    with pytest.raises(ValueError, match=why):
        relaxed_start(rules, state._replace(piles=piles), 4)


def test_solve_relaxed_on_the_command_line_proves_a_deal_lost() -> None:
    out = run_tableaux("solve", "king-albert-classic", "3", "--relaxed", "4")
    assert out.returncode == 1 and "unwinnable" in out.stdout and "relaxed above rank 4" in out.stdout
    out = run_tableaux("solve", "king-albert-classic", "3", "--relaxed", "4", "--json")
    assert json.loads(out.stdout)["relaxed"] == 4
    bad = run_tableaux("solve", "king-albert-classic", "3", "--relaxed", "K")
    assert bad.returncode == 2 and "from 1 (Aces) to 13 (Kings)" in bad.stderr
    other = run_tableaux("solve", "eagle-wing", "3", "--relaxed", "4")
    assert other.returncode == 2 and "king-albert, king-albert-classic only" in other.stderr
    out = run_tableaux("solve", "king-albert", "11", "--relaxed", "3")
    assert out.returncode == 1 and "relaxed above rank 3" in out.stdout


def test_a_survey_row_says_the_relaxed_game_was_searched(tmp_path) -> None:
    out = tmp_path / "rows.jsonl"
    survey("king-albert-classic", range(3, 5), time_limit=30, workers=1, out=out, max_nodes=200_000, relaxed=4)
    rows = {r["deal"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows[3]["verdict"] == "unwinnable" and rows[3]["relaxed"] == 4
    assert all(r["relaxed"] == 4 for r in rows.values())
