"""The solver's options: one frozen value, checked in one place, taken by solve(), the surveys and the command line."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tableaux
from helpers.cli import run_tableaux
from tableaux.solver import BACKENDS, LAYERED_GAME, SolveOptions, SolverError, solve

VALID = st.fixed_dictionaries({}, optional={
    "max_nodes": st.none() | st.integers(1, 10**12),
    "time_limit": st.none() | st.floats(0.001, 1e6),
    "memory_mb": st.integers(16, 1 << 20),
    "table_size": st.integers(1000, 10**9),
    "first_pass": st.booleans(),
    "backend": st.sampled_from((None, *BACKENDS)),
    "threads": st.sampled_from((1, 2)),
    "relaxed": st.none() | st.integers(1, 13),
}).flatmap(lambda d: st.sampled_from([d, {**d, "layered": True}, {**d, "layered": True, "disk_mb": 64}]))


@given(VALID)
def test_options_keep_what_they_were_given_survive_pickling_and_cannot_change(settings: dict) -> None:
    options = SolveOptions(**settings)
    assert {k: v for k, v in options.to_dict().items() if k in settings} == settings
    assert pickle.loads(pickle.dumps(options)) == options  # how a survey hands them to its workers
    assert options.replace() == options and hash(options.replace()) == hash(options)
    with pytest.raises(AttributeError, match="replace"):
        options.max_nodes = 5  # type: ignore[misc]
    changed = options.replace(max_nodes=7)
    assert changed.max_nodes == 7 and options.to_dict() == SolveOptions(**settings).to_dict()


@pytest.mark.parametrize(("settings", "says"), [
    ({"max_nodes": 0}, "max_nodes must be a whole number from 1 to"),
    ({"max_nodes": True}, "max_nodes"),
    ({"time_limit": -1}, "time_limit must be a positive number"),
    ({"memory_mb": 8}, "memory_mb must be a whole number of MiB from 16"),
    ({"table_size": 10}, "table_size must be a whole number of at least 1000"),
    ({"threads": 3}, "threads must be 1 or 2"),
    ({"disk_mb": -1}, "disk_mb must be a whole number"),
    ({"disk_mb": 100}, "disk_mb goes with layered=True"),
    ({"layered": "yes"}, "layered must be True or False"),
    ({"relaxed_stage": "yes"}, "relaxed_stage must be True or False"),
    ({"relaxed": 14}, "from 1 to 13"),
    ({"backend": "fortran"}, "backend must be 'c' or 'python'"),
    ({"max_node": 5}, "unknown solver option 'max_node'; the options are max_nodes, time_limit"),
])
def test_each_bad_option_is_refused_by_name_saying_what_is_accepted(settings: dict, says: str) -> None:
    with pytest.raises(SolverError, match=says):
        SolveOptions(**settings)
    with pytest.raises(SolverError, match=says):
        solve("king-albert", 1, **settings)


@pytest.mark.parametrize(("option", "game", "says"), [
    ({"layered": True}, "king-albert", "classic King Albert only"),
    ({"layered": True}, "eagle-wing", "classic King Albert only"),
    ({"relaxed": 4}, "eagle-wing", "King Albert's games only"),
])
def test_the_king_albert_searches_are_refused_for_the_other_games(option: dict, game: str, says: str) -> None:
    with pytest.raises(SolverError, match=f"{says} .*not {game}") as caught:
        solve(game, 1, **option)
    assert caught.value.game == game


def test_keywords_change_the_options_value_and_the_value_is_not_changed() -> None:
    options = SolveOptions(max_nodes=50, backend="python")
    small = solve("king-albert-classic", 1, options=options)
    big = solve("king-albert-classic", 1, options=options, max_nodes=200_000)
    assert small.verdict == "unknown" and small.nodes <= 50
    assert big.verdict != "unknown" and options.max_nodes == 50
    with pytest.raises(SolverError, match="options must be a SolveOptions"):
        solve("king-albert", 1, options={"max_nodes": 5})  # type: ignore[arg-type]


@pytest.mark.skipif("c" not in BACKENDS, reason="the C core is not built")
def test_the_options_are_the_compiled_cores_arguments_in_its_own_units() -> None:
    from tableaux.solver import _core

    options = SolveOptions(max_nodes=1000, time_limit=2, memory_mb=64, layered=True, disk_mb=32, threads=2)
    arguments = options.core_arguments()
    assert arguments == {"max_nodes": 1000, "time_limit": 2.0, "memory": 64 << 20, "first_pass": True,
                         "threads": 2, "layered": True, "disk": 32 << 20}
    start = tableaux.rules(LAYERED_GAME).deal(1)
    verdict, *_ = _core.solve(1, start.piles, start.redeals, **arguments)  # every name is one the core takes
    assert verdict in (0, 1, 2)
    assert SolveOptions().core_arguments()["max_nodes"] == -1 and SolveOptions().core_arguments()["time_limit"] == 0


@pytest.mark.parametrize(("command", "flags", "says"), [
    ("solve", ["king-albert", "1", "--layered"], "--layered plays king-albert-classic only, not king-albert"),
    ("solve", ["eagle-wing", "1", "--relaxed", "4"],
     "--relaxed plays king-albert, king-albert-classic only, not eagle-wing"),
    ("solve", ["king-albert-classic", "1", "--disk", "64"], "--disk goes with --layered"),
    ("survey", ["king-albert", "--deals", "1-2", "--layered"], "--layered plays king-albert-classic only"),
    ("survey", ["king-albert-classic", "--deals", "1-2", "--disk", "64"], "--disk goes with --layered"),
])
def test_the_command_line_refuses_options_that_do_not_combine_in_its_own_flags(
    command: str, flags: list[str], says: str
) -> None:
    proc = run_tableaux(command, *flags)
    assert proc.returncode == 2, proc.stdout
    assert f"tableaux {command}: error: {says}" in proc.stderr and proc.stdout == ""


def test_a_mistyped_tableaux_solver_is_warned_about_and_the_default_backend_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEAUX_SOLVER", "pyhton")
    with pytest.warns(UserWarning, match=r"TABLEAUX_SOLVER='pyhton' is not a backend \(c or python\)"):
        result = solve("king-albert", 1, max_nodes=1000)
    assert result.backend == BACKENDS[0]
    monkeypatch.setenv("TABLEAUX_SOLVER", "python")
    assert solve("king-albert", 1, max_nodes=1000).backend == "python"
