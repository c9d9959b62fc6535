"""The C extensions built with AddressSanitizer and UndefinedBehaviorSanitizer: the solver's core, running part
of the differential test and searches that grow and fill the table, again and again, and the deal's shuffle
(``tableaux.rulebook._deal``) against its Python reference: any out-of-bounds access, use after free or undefined
behaviour stops the run with a report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

SOLVER = Path(__file__).resolve().parents[2] / "src" / "tableaux" / "solver"
SOURCES = [SOLVER / "_core.c", SOLVER / "_core_args.c", *sorted((SOLVER / "core").glob("*.c"))]
DEAL_SOURCES = [SOLVER.parent / "rulebook" / "_deal.c"]

PLAYS_TO_A_WIN = textwrap.dedent(
    """
    def plays_to_a_win(rules, start, line):
        state = start
        for m in line:
            state = rules.apply(state, tuple(m))
        return rules.won(state)
    """
)
"""Put before every script: whether a line the core returned wins, replayed in the Python rules."""

CHECKS = textwrap.dedent(
    """
    import random, sys
    sys.path.insert(0, sys.argv[1])
    import _core  # the sanitized build, not the installed one
    import tableaux
    from tableaux.solver.strategy import strategy_for



    for name, game in (("king-albert", 0), ("king-albert-classic", 1), ("eagle-wing", 2)):
        rules = tableaux.GAMES[name]
        strategy = strategy_for(rules)
        rng = random.Random(name)
        for deal in range(12):
            state = rules.deal(rng.randrange(2**32))
            for _ in range(150):
                moves = rules.moves(state)
                assert _core.moves(game, state.piles, state.redeals) == moves
                for m in moves:
                    after = rules.apply(state, m)
                    assert _core.apply(game, state.piles, state.redeals, m) == (after.piles, after.redeals)
                assert _core.safe_move(game, state.piles, state.redeals) == strategy.safe_move(state, moves)
                _core.key(game, state.piles, state.redeals)
                if not moves:
                    break
                state = rules.apply(state, rng.choice(moves))
        for deal in range(1, 6):
            start = rules.deal(deal)
            # 16 MiB: the table grows to its cap and fills on the longer searches.
            verdict, line, nodes, _, _ = _core.solve(game, start.piles, start.redeals, max_nodes=400_000,
                                                  memory=16 << 20)
            if verdict == 0:
                assert plays_to_a_win(rules, start, line), (name, deal)
                # The line shortening's passes and (King Albert) polish, on the search's own line.
                line = [tuple(m) for m in line]
                for budget, windowed in ((0, True), (300, True), (-1, True), (-1, False)):
                    short, _ = _core.shorten(game, start.piles, start.redeals, line, budget, windowed=windowed)
                    assert len(short) <= len(line) and plays_to_a_win(rules, start, short), (name, deal)
                if game != 2:
                    for nodes, restricted, skip in ((1, True, 0), (2000, True, 0), (2000, False, 0),
                                                    (300, True, len(line) // 2), (300, False, len(line))):
                        short, _ = _core.polish(game, start.piles, start.redeals, line, 3, nodes,
                                                restricted=restricted, skip=skip)
                        assert len(short) <= len(line) and plays_to_a_win(rules, start, short), (name, deal)
    # Proofs in 4 and 1 MiB: the full table keeps its longest searches (table_gc) many times over.
    for game, name, deal, mib in ((1, "king-albert-classic", 101, 4), (0, "king-albert", 89, 1)):
        start = tableaux.GAMES[name].deal(deal)
        verdict, _, _, _, _ = _core.solve(game, start.piles, 0, max_nodes=2_000_000, memory=mib << 20, first_pass=False)
        assert verdict == 1, (name, deal)
    # The complete search beside the pass in a small table, in turns on one thread and on a second thread.
    start = tableaux.GAMES["king-albert-classic"].deal(101)
    for threads in (1, 2):
        verdict, _, _, _, _ = _core.solve(1, start.piles, 0, max_nodes=4_000_000, memory=4 << 20, threads=threads)
        assert verdict == 1, threads
    # Two threads: the complete search beside the first pass, deciding first or waiting for the pass.
    for name, deal, budget in (("king-albert-classic", 3, 300_000), ("king-albert-classic", 3, 2_000),
                               ("king-albert", 17, 400_000), ("king-albert-classic", 52, 3_000_000)):
        start = tableaux.GAMES[name].deal(deal)
        game = 1 if name == "king-albert-classic" else 0
        verdict, line, _, _, _ = _core.solve(game, start.piles, 0, max_nodes=budget, memory=16 << 20, threads=2)
        assert verdict == _core.solve(game, start.piles, 0, max_nodes=budget, memory=16 << 20)[0], (name, deal)
    # The best-first run of the first pass wins deals 38 and 62; on 295 its memory runs out first.
    for deal, mib in ((38, 16), (62, 16), (295, 4)):
        start = tableaux.GAMES["king-albert"].deal(deal)
        verdict, line, _, _, _ = _core.solve(0, start.piles, 0, max_nodes=400_000, memory=mib << 20)
        if verdict == 0:
            assert plays_to_a_win(tableaux.GAMES["king-albert"], start, line), deal
    # Classic deal 161: the second best-first run, which takes cards back, wins it in its 3 MiB (without the
    # streamlined runs, which take the pass's first turns).
    rules = tableaux.GAMES["king-albert-classic"]
    start = rules.deal(161)
    verdict, line, _, _, _ = _core.solve(1, start.piles, 0, max_nodes=1_000_000, memory=16 << 20, streams=())
    assert verdict == 0, verdict
    assert plays_to_a_win(rules, start, line)
    # Streamlined runs (core/solve.c): every kind alone, merged-suit keys filling a small table, lines replayed.
    for game, name, deal in ((0, "king-albert", 168366), (1, "king-albert-classic", 733)):
        hard = tableaux.GAMES[name]
        start = hard.deal(deal)
        for kinds in range(1, 8):
            verdict, line, _, _, _ = _core.solve(game, start.piles, 0, max_nodes=100_000, memory=2 << 20,
                                                  stream_alone=kinds)
            assert verdict in (0, 2), (name, kinds)
            if verdict == 0:
                assert plays_to_a_win(hard, start, line), (name, kinds)
    # The layered search (core/layered.c): proofs, a win whose line crosses classes, and memory that runs out.
    for deal in (3, 16, 17, 20, 21):
        start = rules.deal(deal)
        verdict, _, _, _, _ = _core.solve(1, start.piles, 0, memory=16 << 20, first_pass=False, layered=True)
        assert verdict == 1, deal
    start = rules.deal(183)
    verdict, _, _, oom, _ = _core.solve(1, start.piles, 0, memory=2 << 20, first_pass=False, layered=True)
    assert verdict == 2 and oom
    start = rules.deal(12)  # the complete search's line: the streamlined run's leads to a larger late space
    verdict, line, _, _, _ = _core.solve(1, start.piles, 0, max_nodes=300_000, memory=64 << 20, first_pass=False)
    assert verdict == 0
    late = start
    for m in line[:-40]:
        late = rules.apply(late, tuple(m))
    verdict, line, _, _, _ = _core.solve(1, late.piles, 0, memory=16 << 20, first_pass=False, layered=True)
    assert verdict == 0 and plays_to_a_win(rules, late, line)
    # Classes on disk (core/layered_disk.c): every class, or those that outgrow 50 positions; a win's line from
    # layers kept on disk; a disk allowance that runs out.
    for deal in (3, 16, 20):
        start = rules.deal(deal)
        for disk_class in (0, 50):
            verdict, _, _, _, _ = _core.solve(1, start.piles, 0, memory=16 << 20, first_pass=False, layered=True,
                                              disk=64 << 20, disk_class=disk_class)
            assert verdict == 1, (deal, disk_class)
    verdict, line, _, _, _ = _core.solve(1, late.piles, 0, memory=16 << 20, first_pass=False, layered=True,
                                         disk=64 << 20, disk_class=0)
    assert verdict == 0 and plays_to_a_win(rules, late, line)
    start = rules.deal(183)
    verdict, _, _, _, _ = _core.solve(1, start.piles, 0, memory=16 << 20, first_pass=False, layered=True,
                                      disk=1 << 20, disk_class=0)
    assert verdict == 2
    # The relaxed game (core/relaxed.c): proofs, a relaxed win, and memory that runs out.
    for deal in (3, 16, 20):
        assert _core.relaxed(rules.deal(deal).piles, 4, -1, 0, 16 << 20)[0] == 1, deal
    assert _core.relaxed(rules.deal(1).piles, 4, -1, 0, 16 << 20)[0] == 0
    code, _, oom = _core.relaxed(rules.deal(11217).piles, 4, -1, 0, 2 << 20)
    assert code == -1 and oom
    # The relaxed verdicts (core/verdicts.c): queries in turn, room that runs out, and a complete search pruned by
    # them, its tables and stacks growing, a win replayed and a loss proved (classic 3 and 3739035860).
    walk, rng = [rules.deal(3622411542)], random.Random(3)
    for _ in range(200):
        moves = rules.moves(walk[-1])
        walk.append(rules.apply(walk[-1], rng.choice(moves)))
    for room in (64 << 20, 1 << 20):
        answers, _ = _core.verdicts([s.piles for s in walk[::5]], 3, room)
        assert any(answers) or room < 64 << 20
    for deal, verdict in ((5, 0), (3, 1), (3739035860, 1)):
        start = rules.deal(deal)
        code, line, _, _, _ = _core.solve(1, start.piles, 0, memory=256 << 20, first_pass=deal != 3739035860,
                                          verdicts=3, verdicts_from=0 if deal < 10 else 200_000)
        assert code == verdict, deal
        assert code == 1 or plays_to_a_win(rules, start, line)
    # AisleRiot's King Albert relaxed (core/relaxed.c, core/verdicts.c): builds moved and cards turned up and down
    # again, in the relaxed game, in its verdicts and in a complete search they prune.
    ka = tableaux.GAMES["king-albert"]
    for deal in (11, 39, 60):
        assert _core.relaxed(ka.deal(deal).piles, 3, -1, 0, 16 << 20, game=0)[0] == 1, deal
    walk, rng = [ka.deal(3377414400)], random.Random(4)
    for _ in range(120):
        moves = ka.moves(walk[-1])
        if not moves:
            break
        walk.append(ka.apply(walk[-1], rng.choice(moves)))
    for room in (64 << 20, 1 << 20):
        _core.verdicts([s.piles for s in walk[::6]], 3, room, game=0)
    for deal, verdict in ((2, 0), (60, 1), (89, 1)):
        start = ka.deal(deal)
        code, line, _, _, _ = _core.solve(0, start.piles, 0, memory=256 << 20, first_pass=False, verdicts=3,
                                          verdicts_from=0)
        assert code == verdict, deal
        assert code == 1 or plays_to_a_win(ka, start, line)
    print("sanitized core: OK")
    """
)


def test_the_compiled_core_is_built_where_ci_runs() -> None:
    """``pip install .`` skips the core quietly when it cannot compile it (the Python search takes over);
    where CI runs, a compiler is present, so the core must be there: a build error cannot hide."""
    from tableaux.solver import BACKENDS

    if not os.environ.get("CI"):
        pytest.skip("only CI insists on the compiled core")
    assert BACKENDS == ("c", "python")


def _sanitized_run(tmp_path: Path, script: str, *defines: str, module: str = "_core",
                   sources: list[Path] = SOURCES) -> subprocess.CompletedProcess[str]:
    """Build the core (or another ``module`` from its ``sources``) with both sanitizers into tmp_path (skipped
    without a compiler, except in CI) and run the script there with the sanitized module first on its path."""
    cc = shutil.which("gcc") or shutil.which("cc")
    required = bool(os.environ.get("CI"))
    if cc is None:
        if required:
            pytest.fail("CI must run the sanitizer build, but there is no C compiler")
        pytest.skip("no C compiler")
    libasan = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan):
        if required:
            pytest.fail("CI must run the sanitizer build, but libasan is missing")
        pytest.skip("no AddressSanitizer runtime")
    target = tmp_path / f"{module}{sysconfig.get_config_var('EXT_SUFFIX')}"
    build = subprocess.run(
        # -g1: line tables, so that a report names file and line, at 60 % of -g's compile time
        [cc, "-shared", "-fPIC", "-O1", "-g1", "-fno-omit-frame-pointer", "-pthread",
         "-fsanitize=address,undefined", "-fno-sanitize-recover=all", *defines,
         f"-I{sysconfig.get_paths()['include']}", *map(str, sources), "-o", str(target)],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr
    env = {
        **os.environ,
        "LD_PRELOAD": libasan,
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",  # CPython itself keeps memory at exit
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
    }
    run = subprocess.run([sys.executable, "-c", PLAYS_TO_A_WIN + script, str(tmp_path)], capture_output=True,
                         text=True, env=env, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    assert "runtime error" not in run.stderr
    return run


@pytest.mark.slow
def test_the_core_is_clean_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    assert "sanitized core: OK" in _sanitized_run(tmp_path, CHECKS).stdout


DEAL_CHECKS = textwrap.dedent(
    """
    import random, sys
    sys.path.insert(0, sys.argv[1])
    import _deal  # the sanitized build, not the installed one
    from tableaux.rulebook.deal import python_deck

    rng = random.Random(7)
    for deal in [0, 1, 2**31 - 1, 2**31, 2**32 - 1] + [rng.randrange(2**32) for _ in range(2000)]:
        assert _deal.shuffled_deck(deal) == python_deck(deal), deal
    for bad, error in ((-1, OverflowError), (2**32, OverflowError), ("7", TypeError)):
        try:
            _deal.shuffled_deck(bad)
        except error:
            continue
        raise AssertionError(bad)
    print("sanitized deal: OK")
    """
)


@pytest.mark.slow
def test_the_compiled_shuffle_is_clean_under_the_sanitizers_and_deals_the_python_decks(tmp_path: Path) -> None:
    run = _sanitized_run(tmp_path, DEAL_CHECKS, module="_deal", sources=DEAL_SOURCES)
    assert "sanitized deal: OK" in run.stdout


DEEP_LINES = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    import _core  # built with STACK_MAX=4096: a line of a hundred positions fills the key stack
    import tableaux

    rules = tableaux.GAMES["king-albert-classic"]
    for deal, first_pass in ((27, False), (27, True), (101, False)):
        start = rules.deal(deal)
        verdict, _, nodes, out_of_memory, _ = _core.solve(1, start.piles, 0, max_nodes=5_000_000,
                                                          first_pass=first_pass)
        assert verdict == 2 and out_of_memory and nodes < 100_000, (deal, first_pass, verdict, nodes)
    start = rules.deal(4)  # lost at once: its proof never goes deep
    assert _core.solve(1, start.piles, 0, max_nodes=5_000_000, first_pass=False)[:1] == (1,)
    print("deep lines: OK")
    """
)


@pytest.mark.slow
def test_a_line_longer_than_the_stacks_may_hold_ends_unknown_not_in_a_hang(tmp_path: Path) -> None:
    """A stack that would pass STACK_MAX items ends the search as memory running out does. Before the limit,
    the doubling of a stack's size overflowed an int past 2^30 items and looped for ever: classic searches
    in 8 GiB hung with no time limit to stop them. Built with a tiny limit, the core reaches it at once."""
    assert "deep lines: OK" in _sanitized_run(tmp_path, DEEP_LINES, "-DSTACK_MAX=4096").stdout


BROKEN_STREAMS = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, sys.argv[1])
    import _core  # built with TX_FAULT_STREAM_LINE: every streamlined run's win loses its last move
    import tableaux



    caught = 0
    hard = ((0, "king-albert", 168366), (1, "king-albert-classic", 733), (1, "king-albert-classic", 99654))
    for game, name, deal in hard:
        rules = tableaux.GAMES[name]
        start = rules.deal(deal)
        for kinds in range(1, 8):
            verdict, line, _, _, _ = _core.solve(game, start.piles, 0, max_nodes=100_000, memory=16 << 20,
                                                  stream_alone=kinds)
            assert verdict in (0, 2), (name, kinds, verdict)  # a broken line proves nothing either way
            if verdict == 0:
                assert plays_to_a_win(rules, start, line), (name, kinds)
            else:
                caught += 1
        verdict, line, _, _, _ = _core.solve(game, start.piles, 0, max_nodes=2_000_000, memory=64 << 20)
        assert verdict != 1, (name, deal)  # every one of them is winnable
        if verdict == 0:
            assert plays_to_a_win(rules, start, line), (name, deal)
    print(f"broken streamlined lines caught: {caught}")
    """
)


@pytest.mark.slow
def test_a_streamlined_line_that_does_not_win_is_dropped_never_returned(tmp_path: Path) -> None:
    """A streamlined run searches a space where suits merge and cards go home at once, so its win is replayed in
    the real game before it counts. Built to break every such win (TX_FAULT_STREAM_LINE), the core must answer
    with no line rather than that one: unknown, or a win found another way that replays."""
    out = _sanitized_run(tmp_path, BROKEN_STREAMS, "-DTX_FAULT_STREAM_LINE").stdout
    caught = int(out.rsplit(":", 1)[1])
    assert caught > 0, "no streamlined run won: the guard was never put to the test"
