"""Classic King Albert's layered complete search (solver/layered.py, core/layered.c).

It must reach the depth-first search's verdicts, make the same positions in both backends, give winning
lines that play out in the engine, and turn a spent budget or full memory into ``unknown``, never a verdict.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.cli import run_tableaux
from helpers.positions import KAC, replay, small_positions
from tableaux import new_game
from tableaux.rulebook.engine import State
from tableaux.solver import BACKENDS, LAYERED_GAME, SolverError, solve
from tableaux.solver.layered import class_mask, fixed_cards
from tableaux.solver.strategy import KingAlbertStrategy
from tableaux.survey.solver import survey

needs_core = pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")

SMALL_LOST_DEALS = [3, 16, 20, 21, 37, 39, 60, 72, 78]
"""Classic deals that are lost, whose layered searches make a few thousand positions at most."""


def late_positions(deals: range, backs: tuple[int, ...]) -> list[State]:
    """Positions a few moves before the end of the winning lines of winnable deals, where the layered search,
    which finds wins only late, still has small spaces to search."""
    out = []
    for deal in deals:
        start = KAC.deal(deal)
        result = solve((KAC, start), max_nodes=300_000, line="found")  # the search's own line, as long as it came
        if result.verdict != "winnable":
            continue
        line = [KAC.to_raw(m) for m in result.moves]
        for back in backs:
            if back < len(line):
                out.append(replay(KAC, start, line[:-back]))
    return out


def plays_to_a_win(start: State, moves: list) -> bool:
    return KAC.won(replay(KAC, start, [KAC.to_raw(m) for m in moves]))


def classes_crossed(start: State, moves: list) -> int:
    """How many classes (masks) the line passes through, the start's included."""
    fixed, state = fixed_cards(start), start
    masks = {class_mask(state, fixed)}
    for m in moves:
        state = KAC.apply(state, KAC.to_raw(m))
        masks.add(class_mask(state, fixed))
    return len(masks)


@pytest.mark.parametrize("deal", SMALL_LOST_DEALS)
def test_a_lost_deal_is_proved_lost_by_both_backends_in_the_same_positions(deal: int) -> None:
    """The two backends are one search: on a lost deal they make the same positions, child for child, and
    the depth-first complete search proves the same deal lost."""
    start = KAC.deal(deal)
    results = {b: solve((KAC, start), first_pass=False, layered=True, backend=b) for b in BACKENDS}
    assert {r.verdict for r in results.values()} == {"unwinnable"}
    assert len({r.nodes for r in results.values()}) == 1
    assert solve((KAC, start), first_pass=False, max_nodes=5_000_000).verdict == "unwinnable"


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_on_random_positions_both_backends_give_the_depth_first_searchs_verdict(seed: int) -> None:
    """Positions with few cards in play, laid out at random (so their cards lie on cards they could never be
    put on, as dealt cards do): the layered search of each backend gives the verdict of the depth-first
    search, a lost one in the same positions in both, and every winning line plays to a won game. The layered
    searches get 50,000 positions: the Python one takes seconds for more, on the few positions that need more
    and which the budget would then leave unknown all the same."""
    state = small_positions(KAC, random.Random(seed), 1)[0]
    expected = solve((KAC, state), first_pass=False, max_nodes=200_000, line="none").verdict
    results = {b: solve((KAC, state), first_pass=False, layered=True, max_nodes=50_000, backend=b, line="found")
               for b in BACKENDS}
    for result in results.values():
        if "unknown" not in (expected, result.verdict):
            assert result.verdict == expected
        if result.verdict == "winnable":
            assert plays_to_a_win(state, result.moves)
    if all(r.verdict == "unwinnable" for r in results.values()):
        assert len({r.nodes for r in results.values()}) == 1


@needs_core
@settings(max_examples=30, deadline=None)
@given(deal=st.integers(1, 2**31), seed=st.integers(0, 2**16), plies=st.integers(1, 150))
def test_core_layered_keys_and_classes_are_the_python_references(deal: int, seed: int, plies: int) -> None:
    """The C core's 16-byte keys (core/layered_keys.c) tell positions apart exactly as the key layered.py uses
    (KingAlbertStrategy.key) does, whatever the order of the tableau piles, and it files each position under
    class_mask's class: a key that merged two positions, or a wrong class, could change a verdict."""
    from tableaux.solver import _core

    start = KAC.deal(deal)
    fixed, key = fixed_cards(start), KingAlbertStrategy(single_cards_only=True).key
    rng, state = random.Random(seed), start
    by_py: dict[bytes, bytes] = {}
    by_c: dict[bytes, bytes] = {}
    for _ in range(plies):
        ckey, mask = _core.layered_key(start.piles, state.piles)
        assert mask == class_mask(state, fixed)
        assert by_py.setdefault(key(state), ckey) == ckey
        assert by_c.setdefault(ckey, key(state)) == key(state)
        tableau = list(state.piles[4:13])
        rng.shuffle(tableau)
        assert _core.layered_key(start.piles, (*state.piles[:4], *tableau, *state.piles[13:]))[0] == ckey
        moves = KAC.moves(state)
        if not moves:
            break
        state = KAC.apply(state, rng.choice(moves))
    assert len(by_c) == len(by_py)


@pytest.mark.slow
@needs_core
def test_winning_lines_cross_classes_and_play_out_in_the_engine() -> None:
    """A win is found in some class far below the start's; its line is put together back through the
    classes, from the seeds' origins, and replayed on the real position. Positions near the end of winning
    lines of classic deals: every verdict is the depth-first one, and some lines are long."""
    positions = late_positions(range(1, 25), (15, 25, 40))
    won = crossing = 0
    for state in positions:
        result = solve((KAC, state), first_pass=False, layered=True, max_nodes=300_000, backend="c", line="found")
        if result.verdict == "unknown":
            continue
        assert result.verdict == "winnable"  # every one of them lies on a winning line
        assert plays_to_a_win(state, result.moves)
        won += 1
        crossing += classes_crossed(state, result.moves) >= 4
    assert won >= 20 and crossing >= 5


@pytest.mark.slow
@needs_core
def test_the_python_reference_wins_the_same_positions() -> None:
    for state in late_positions(range(1, 13), (15, 25))[:12]:
        c = solve((KAC, state), first_pass=False, layered=True, max_nodes=20_000, backend="c", line="none")
        py = solve((KAC, state), first_pass=False, layered=True, max_nodes=20_000, backend="python", line="found")
        assert c.verdict == py.verdict
        if py.verdict == "winnable":
            assert plays_to_a_win(state, py.moves)


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_more_budget_never_gives_a_worse_verdict(backend: str) -> None:
    """The layered search is deterministic and only goes further with a bigger budget: below what a deal
    needs it says unknown after exactly its budget, from there on it decides, the same way. With the first
    pass before it, the pass takes at most half, as for the depth-first search (classic deal 17 among them:
    lost, 18,759 positions of layered search)."""
    game = new_game(LAYERED_GAME, 17)
    need = solve(game, first_pass=False, layered=True, backend=backend).nodes
    budgets = [need // 8, need // 2, need - 1, need, need + 1, 2 * need, 10 * need]
    verdicts = [solve(game, first_pass=False, layered=True, max_nodes=b, backend=backend) for b in budgets]
    assert [r.verdict for r in verdicts] == ["unknown"] * 3 + ["unwinnable"] * 4
    assert [r.nodes for r in verdicts[:3]] == budgets[:3]
    rank = {"unknown": 0, "unwinnable": 1, "winnable": 1}
    with_pass = [solve(game, layered=True, max_nodes=b, backend=backend).verdict for b in (1_000, 30_000, 60_000,
                                                                                        200_000)]
    assert [rank[v] for v in with_pass] == sorted(rank[v] for v in with_pass)
    assert with_pass[-1] == "unwinnable"


@pytest.mark.slow
@needs_core
def test_full_memory_gives_unknown_and_the_search_keeps_to_its_allowance() -> None:
    """``memory_mb`` bounds what the layered search holds (a class's table, its stack and the seeds): in a
    fresh process, a search of classic deal 140 in 16 MiB ends unknown, with the process's peak resident
    memory grown by no more than that; with room it proves the deal lost."""
    code = (
        "import resource, tableaux\n"
        "from tableaux.solver import solve\n"
        "solve(tableaux.new_game('king-albert', 1), backend='c', max_nodes=1000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "r = solve(tableaux.new_game('king-albert-classic', 140), backend='c', memory_mb=16, first_pass=False,\n"
        "          layered=True)\n"
        "print(r.verdict, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    verdict, grown_kib = run.stdout.split()
    assert verdict == "unknown"
    assert int(grown_kib) / 1024 <= 16 * 1.1
    game = new_game(LAYERED_GAME, 140)
    assert solve(game, backend="c", memory_mb=16, first_pass=False, layered=True).out_of_memory
    assert not solve(game, backend="c", max_nodes=1000, first_pass=False, layered=True).out_of_memory
    run = run_tableaux("solve", LAYERED_GAME, "140", "--layered", "--no-first-pass", "--memory", "16")
    assert run.returncode == 3 and "the memory ran out" in run.stdout
    game = new_game(LAYERED_GAME, 183)
    assert solve(game, backend="c", memory_mb=256, first_pass=False, layered=True).verdict == "unwinnable"


def test_a_python_table_that_would_pass_its_size_gives_unknown() -> None:
    game = new_game(LAYERED_GAME, 16)
    full = solve(game, backend="python", first_pass=False, layered=True, table_size=1000)
    assert full.verdict == "unknown" and full.out_of_memory
    assert solve(game, backend="python", first_pass=False, layered=True).verdict == "unwinnable"


@pytest.mark.parametrize("name", ["king-albert", "eagle-wing"])
def test_the_layered_search_is_refused_for_other_games_with_a_clear_error(name: str) -> None:
    with pytest.raises(SolverError, match="classic King Albert only"):
        solve(new_game(name, 1), layered=True)
    run = run_tableaux("solve", name, "1", "--layered")
    assert run.returncode == 2
    assert f"--layered plays {LAYERED_GAME} only, not {name}" in run.stderr


def test_the_command_line_proves_a_deal_lost_with_the_layered_search() -> None:
    run = run_tableaux("solve", LAYERED_GAME, "17", "--layered", "--no-first-pass", "--json")
    assert run.returncode == 1, run.stderr
    assert '"verdict": "unwinnable"' in run.stdout


# --- classes on disk (core/layered_disk.c) ---------------------------------------------------------------------
@pytest.mark.slow
@needs_core
@pytest.mark.parametrize("deal, outgrown", [(17, False), (183, True)])
def test_classes_searched_on_disk_make_the_same_positions_and_leave_no_files(
    deal: int, outgrown: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class searched breadth first on disk (every class, here: disk_class=0) makes exactly the positions the
    search in memory makes, to the same proof; its files go in TMPDIR and are gone at the end. A class that
    outgrows its table in memory (disk_class=2000: deal 183 has such classes, deal 17 none) is searched again on
    disk, to the same proof, and only its positions are made twice."""
    from tableaux.solver import _core

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    start = KAC.deal(deal)
    in_memory = _core.solve(1, start.piles, 0, first_pass=False, layered=True)
    on_disk = _core.solve(1, start.piles, 0, first_pass=False, layered=True, disk=1 << 30, disk_class=0)
    spilled = _core.solve(1, start.piles, 0, first_pass=False, layered=True, disk=1 << 30, disk_class=2000)
    assert in_memory[0] == on_disk[0] == spilled[0] == 1  # unwinnable
    assert on_disk[2] == in_memory[2]  # the same positions
    assert (spilled[2] > in_memory[2]) == outgrown
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@needs_core
def test_wins_found_on_disk_give_lines_that_play_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The line of a win made in a class on disk is put together from the class's layers, kept for it, a layer
    at a time back to a seed, and through the classes before it, on disk too."""
    from tableaux.solver import _core

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    won = crossing = 0
    for state in late_positions(range(1, 25), (15, 25, 40)):
        verdict, line, *_ = _core.solve(1, state.piles, 0, max_nodes=300_000, memory=64 << 20, first_pass=False,
                                        layered=True, disk=1 << 30, disk_class=0)
        if verdict == 0:
            moves = [KAC.to_move(tuple(m)) for m in line]
            assert plays_to_a_win(state, moves)
            won += 1
            crossing += classes_crossed(state, moves) >= 4
        else:
            assert verdict == 2  # they all lie on winning lines
    assert won >= 20 and crossing >= 5
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@needs_core
def test_disk_lets_a_search_go_on_where_its_memory_alone_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``disk_mb``: in 16 MiB a position near the end of classic deal 1's winning line soon fills the memory
    (its classes are big: few cards left that never come back); with files beside it the same search makes
    several times the positions, and with a disk allowance too small it stops again, leaving nothing behind."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    state = late_positions(range(1, 2), (60,))[0]
    alone = solve((KAC, state), first_pass=False, layered=True, memory_mb=16, max_nodes=8_000_000)
    with_disk = solve((KAC, state), first_pass=False, layered=True, memory_mb=16, disk_mb=500, max_nodes=8_000_000)
    little = solve((KAC, state), first_pass=False, layered=True, memory_mb=16, disk_mb=1, max_nodes=8_000_000)
    assert alone.verdict == with_disk.verdict == little.verdict == "unknown"
    assert with_disk.nodes > 3 * alone.nodes
    assert little.nodes < with_disk.nodes
    assert list(tmp_path.iterdir()) == []


def test_disk_goes_with_the_layered_search_only() -> None:
    run = run_tableaux("solve", LAYERED_GAME, "17", "--disk", "100")
    assert run.returncode == 2 and "--disk goes with --layered" in run.stderr
    with pytest.raises(SolverError, match="disk_mb must be"):
        solve(new_game(LAYERED_GAME, 17), layered=True, disk_mb=-1)


@needs_core
def test_a_survey_row_says_when_its_search_ran_out_of_memory(tmp_path: Path) -> None:
    # Classic deal 140 is lost; in 16 MiB the layered search runs out of memory before it can prove it, and at
    # 1,000 positions it runs out of positions instead: only the first row is marked.
    starved, short = tmp_path / "starved.jsonl", tmp_path / "short.jsonl"
    options = {"time_limit": 60.0, "first_pass": False, "layered": True, "backend": "c"}
    survey(LAYERED_GAME, range(140, 141), out=starved, memory_mb=16, **options)
    survey(LAYERED_GAME, range(140, 141), out=short, max_nodes=1000, **options)
    row = json.loads(starved.read_text())
    assert row["verdict"] == "unknown" and row["out_of_memory"] is True
    row = json.loads(short.read_text())
    assert row["verdict"] == "unknown" and "out_of_memory" not in row
