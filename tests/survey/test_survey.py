"""Surveys: ranges, the interval that counts unknowns both ways, resumption, Dask, the command."""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tableaux
import tableaux.survey.solver as survey_module
from helpers.cli import run_tableaux
from helpers.net import free_port
from tableaux.common.intervals import percentile, wilson
from tableaux.rulebook.deal import DealError, parse_deals
from tableaux.solver import SolveOptions
from tableaux.survey.files import SurveyError, read_results
from tableaux.survey.solver import summarise, survey

BUDGET = {"time_limit": 60.0, "max_nodes": 3000}  # a node budget keeps verdicts machine-independent


def test_parse_deals() -> None:
    assert parse_deals("1-5") == range(1, 6)
    assert parse_deals(" 7 ") == range(7, 8)
    for bad in ("5-1", "a-b", "", "1-99999999999", "-3"):
        with pytest.raises(DealError, match="deals must"):
            parse_deals(bad)


def test_wilson_interval_matches_published_values() -> None:
    # Reference values of the 95% Wilson score interval (Newcombe 1998, table I).
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=5e-4) and high == pytest.approx(0.3662, abs=5e-4)
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_counts_unknown_both_ways() -> None:
    rows = [{"verdict": v, "seconds": s} for v, s in
            [("winnable", 0.1)] * 6 + [("unwinnable", 0.2)] * 2 + [("unknown", 5.0)] * 2]
    summary = summarise(rows)
    assert (summary.winnable, summary.unwinnable, summary.unknown) == (6, 2, 2)
    assert summary.low == wilson(6, 10)[0]
    assert summary.high == wilson(8, 10)[1]
    assert summary.median == 0.1 and summary.max == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0 and percentile([1.0, 2.0, 3.0, 4.0], 90) == 4.0
    assert "95% CI" in summary.text()


def test_resume_after_interruption_recomputes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "ka.jsonl"
    deals = range(1, 9)

    class Stop(Exception):
        pass

    seen: list[int] = []

    def stop_after_three(row: dict) -> None:
        seen.append(row["deal"])
        if len(seen) == 3:
            raise Stop

    with pytest.raises(Stop):
        survey("king-albert", deals, out=out, on_result=stop_after_three, **BUDGET)
    assert [json.loads(line)["deal"] for line in out.read_text().splitlines()] == seen

    solved: list[int] = []
    original = survey_module.solve_deal

    def counting(game: str, deal: int, options: SolveOptions, lines: bool = True) -> dict:
        solved.append(deal)
        return original(game, deal, options, lines)

    monkeypatch.setattr(survey_module, "solve_deal", counting)
    resumed = survey("king-albert", deals, out=out, **BUDGET)
    assert sorted(solved) == [d for d in deals if d not in seen]  # nothing recomputed

    solved.clear()
    again = survey("king-albert", deals, out=out, **BUDGET)
    assert solved == []  # all done: nothing to do at all

    fresh = survey("king-albert", deals, out=tmp_path / "fresh.jsonl", **BUDGET)
    for s in (resumed, again):
        assert (s.deals, s.winnable, s.unwinnable, s.unknown) == (
            fresh.deals, fresh.winnable, fresh.unwinnable, fresh.unknown)
    assert fresh.deals == len(deals)


def test_a_row_records_the_build_that_made_it_and_rows_without_one_are_still_resumed(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    old = {"game": "king-albert", "deal": 1, "verdict": "winnable", "nodes": 1, "seconds": 0.1, "max_nodes": 3000}
    out.write_text(json.dumps(old) + "\n")  # a row from before the field
    summary = survey("king-albert", range(1, 3), out=out, **BUDGET)
    rows = read_results(out, "king-albert")
    assert summary.deals == 2 and "version" not in rows[1] and rows[2]["version"] == tableaux.__version__


def test_a_torn_last_line_is_ignored_and_garbage_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    row = {"game": "eagle-wing", "deal": 3, "verdict": "winnable", "seconds": 0.1}
    out.write_text(json.dumps(row) + "\n" + '{"game": "eagle-wing", "de')
    assert list(read_results(out, "eagle-wing")) == [3]
    assert read_results(out, "king-albert") == {}
    survey("eagle-wing", range(3, 5), out=out, **BUDGET)  # resumes after cutting the torn line
    assert sorted(read_results(out, "eagle-wing")) == [3, 4]
    assert all(json.loads(line) for line in out.read_text().splitlines())
    out.write_text("not json\n" + json.dumps(row) + "\n")
    with pytest.raises(SurveyError, match="line 1"):
        read_results(out, "eagle-wing")





@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    """A real cluster: a ``dask scheduler`` process and two ``dask worker`` processes on this machine."""
    distributed = pytest.importorskip("distributed")
    dask_cli = Path(sys.executable).with_name("dask")
    if not dask_cli.exists():
        pytest.skip("the dask command is not installed")
    address = f"tcp://127.0.0.1:{free_port()}"
    host, port = address[len("tcp://"):].split(":")
    log = open(tmp_path / "dask.log", "w")  # noqa: SIM115 - closed below
    procs = [subprocess.Popen([str(dask_cli), "scheduler", "--host", host, "--port", port, "--no-dashboard"],
                              stdout=log, stderr=subprocess.STDOUT)]
    try:
        with distributed.Client(address, timeout=60) as client:
            procs.append(subprocess.Popen(
                [str(dask_cli), "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard",
                 "--local-directory", str(tmp_path / "workers")],
                stdout=log, stderr=subprocess.STDOUT))
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


@pytest.mark.slow
def test_a_real_dask_cluster_gives_the_same_verdicts_as_a_local_run(tmp_path: Path, dask_cluster: str) -> None:
    deals = range(1, 41)
    remote = survey("eagle-wing", deals, out=tmp_path / "dask.jsonl.gz", scheduler=dask_cluster, lines=False,
                    **BUDGET)
    local = survey("eagle-wing", deals, out=tmp_path / "local.jsonl", workers=2, **BUDGET)
    verdicts = {
        name: {d: r["verdict"] for d, r in read_results(tmp_path / name, "eagle-wing").items()}
        for name in ("dask.jsonl.gz", "local.jsonl")
    }
    assert verdicts["dask.jsonl.gz"] == verdicts["local.jsonl"] and len(verdicts["local.jsonl"]) == len(deals)
    assert (remote.winnable, remote.unwinnable, remote.unknown) == (local.winnable, local.unwinnable, local.unknown)


def test_gzip_results_are_compact_resumable_and_survive_a_torn_member(tmp_path: Path) -> None:
    out = tmp_path / "big.jsonl.gz"
    first = survey("king-albert", range(1, 31), out=out, workers=2, lines=False, **BUDGET)
    rows = [json.loads(line) for line in gzip.open(out, "rt")]  # an ordinary gzip reader sees one stream
    assert sorted(r["deal"] for r in rows) == list(range(1, 31))
    assert all("line" not in r and r["backend"] for r in rows)
    whole = out.read_bytes()
    out.write_bytes(whole + gzip.compress(b'{"game": "king-albert", "deal": 99}\n')[:-7])  # killed mid-write
    assert sorted(read_results(out, "king-albert")) == list(range(1, 31))
    again = survey("king-albert", range(1, 41), out=out, lines=False, **BUDGET)
    assert sorted(json.loads(line)["deal"] for line in gzip.open(out, "rt")) == list(range(1, 41))
    assert again.deals == 40 and again.winnable >= first.winnable


@pytest.mark.slow
def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    with pytest.raises(SurveyError, match="cannot reach the Dask scheduler"):
        survey("eagle-wing", range(1, 2), scheduler="tcp://127.0.0.1:9", out=tmp_path / "x.jsonl", **BUDGET)


@pytest.mark.slow
def test_cli_survey_in_parallel_with_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (pip install 'tableaux[survey]')")
    out, png = tmp_path / "s.jsonl", tmp_path / "s.png"
    cmd = ["survey", "king-albert", "--deals", "1-6", "--workers", "2", "--max-nodes", "3000", "--out", str(out),
           "--plot", str(png)]
    proc = run_tableaux(*cmd, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "95% CI" in proc.stdout and "median" in proc.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(read_results(out, "king-albert")) == [1, 2, 3, 4, 5, 6]
    proc = run_tableaux(*cmd, timeout=300)  # resumes: all six skipped
    assert proc.returncode == 0 and "6 already in" in proc.stderr
    assert len(out.read_text().splitlines()) == 6


def test_a_survey_given_only_a_node_budget_has_no_time_limit(tmp_path: Path) -> None:
    """Its verdicts then depend on positions alone, not on the machine's load; without either budget a survey has
    ten seconds a deal."""
    out = tmp_path / "s.jsonl"
    proc = run_tableaux("survey", "king-albert", "--deals", "1-2", "--workers", "1", "--max-nodes", "3000",
                        "--out", str(out), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "3000 positions per deal" in proc.stderr and " s or " not in proc.stderr
    assert {row["time_limit"] for row in read_results(out, "king-albert").values()} == {None}


def dying_solve(game: str, deal: int, options: SolveOptions, lines: bool = True) -> dict[str, object]:
    """A worker task that kills its own process the first time it meets deal 5 (a crash, an OOM kill)."""
    import os

    marker = Path(os.environ["TABLEAUX_TEST_MARKER"])
    if deal == 5 and not marker.exists():
        marker.write_text("died once")
        os._exit(1)
    return {"game": game, "deal": deal, "verdict": "winnable", "nodes": 1, "seconds": 0.0}


def always_dying_solve(game: str, deal: int, options: SolveOptions, lines: bool = True) -> dict[str, object]:
    import os

    os._exit(1)


def test_a_worker_that_dies_is_retried_not_counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEAUX_TEST_MARKER", str(tmp_path / "marker"))
    monkeypatch.setattr(survey_module, "solve_deal", dying_solve)  # workers are forked, so they see it too
    out = tmp_path / "out.jsonl"
    summary = survey("king-albert", range(1, 13), workers=2, out=out, **BUDGET)
    assert (tmp_path / "marker").exists(), "the worker never died: the test proved nothing"
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["deal"] for r in rows) == list(range(1, 13))  # each deal once, deal 5 included
    assert summary.deals == 12 and summary.winnable == 12


def test_workers_that_keep_dying_stop_the_survey_with_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(survey_module, "solve_deal", always_dying_solve)
    with pytest.raises(SurveyError, match="died 3 times in a row"):
        survey("king-albert", range(1, 5), workers=2, out=tmp_path / "out.jsonl", **BUDGET)


def test_cli_survey_says_which_deals_it_skips_and_which_it_solves_again(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    survey("king-albert", range(1, 7), out=out, time_limit=60.0, max_nodes=50)  # mostly unknown
    unknown = sum(row["verdict"] == "unknown" for row in read_results(out, "king-albert").values())
    assert 0 < unknown < 6
    proc = run_tableaux("survey", "king-albert", "--deals", "1-6", "--workers", "1", "--max-nodes", "100000",
                        "--out", str(out), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"{6 - unknown} already in" in proc.stderr and f"{unknown} unknown there, solved again" in proc.stderr


@pytest.mark.slow
def test_unknown_deals_are_solved_again_with_a_bigger_budget_and_only_then(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    small = survey("king-albert-classic", range(1, 4), out=out, time_limit=60.0, max_nodes=50)
    assert small.unknown == 3  # far too small a budget for any deal
    same = survey("king-albert-classic", range(1, 4), out=out, time_limit=60.0, max_nodes=50)
    assert same.unknown == 3 and len(out.read_text().splitlines()) == 3  # same budget: nothing redone
    bigger = survey("king-albert-classic", range(1, 4), out=out, time_limit=60.0, max_nodes=20_000_000)
    assert bigger.unknown < 3 and bigger.deals == 3
    rows = read_results(out, "king-albert-classic")
    assert all(r["max_nodes"] == 20_000_000 for r in rows.values())


def test_unknown_deals_are_solved_again_with_more_memory_and_rows_record_it(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    survey("king-albert-classic", range(1, 3), out=out, time_limit=60.0, max_nodes=50)  # rows before memory was kept
    old = [json.loads(line) for line in out.read_text().splitlines()]
    out.write_text("".join(json.dumps({k: v for k, v in row.items() if k != "memory_mb"}) + "\n" for row in old))
    less = survey("king-albert-classic", range(1, 3), out=out, time_limit=60.0, max_nodes=50, memory_mb=512)
    assert less.unknown == 2 and len(out.read_text().splitlines()) == 2  # less than the default: nothing redone
    more = survey("king-albert-classic", range(1, 3), out=out, time_limit=60.0, max_nodes=50, memory_mb=2048)
    assert more.unknown == 2 and len(out.read_text().splitlines()) == 4  # same positions, more memory: redone
    assert {r["memory_mb"] for r in read_results(out, "king-albert-classic").values()} == {2048}
    again = survey("king-albert-classic", range(1, 3), out=out, time_limit=60.0, max_nodes=50, memory_mb=2048)
    assert again.unknown == 2 and len(out.read_text().splitlines()) == 4


def test_an_unknown_deal_is_solved_again_without_the_first_pass_at_the_same_budget(tmp_path: Path) -> None:
    # Classic deal 168 is lost: its complete search alone needs about 43,000 positions, so at 60,000 the
    # first pass's share leaves it too few, and a run that gives the complete search everything proves it.
    out, deal = tmp_path / "r.jsonl", range(168, 169)
    assert survey("king-albert-classic", deal, out=out, time_limit=60.0, max_nodes=60_000).unknown == 1
    alone = survey("king-albert-classic", deal, out=out, time_limit=60.0, max_nodes=60_000, first_pass=False)
    assert alone.unwinnable == 1 and len(out.read_text().splitlines()) == 2
    assert read_results(out, "king-albert-classic")[168]["first_pass"] is False
    assert "first_pass" not in json.loads(out.read_text().splitlines()[0])  # rows with the pass stay as they were


def test_a_deal_unknown_without_the_first_pass_is_solved_again_only_with_a_bigger_budget(tmp_path: Path) -> None:
    out, deals = tmp_path / "r.jsonl", range(1, 3)
    assert survey("king-albert-classic", deals, out=out, time_limit=60.0, max_nodes=50, first_pass=False).unknown == 2
    for first_pass in (False, True):  # the first pass at the same budget leaves the complete search less
        survey("king-albert-classic", deals, out=out, time_limit=60.0, max_nodes=50, first_pass=first_pass)
        assert len(out.read_text().splitlines()) == 2
    survey("king-albert-classic", deals, out=out, time_limit=60.0, max_nodes=100)
    assert len(out.read_text().splitlines()) == 4
    assert all("first_pass" not in row for row in read_results(out, "king-albert-classic").values())


def test_a_deal_the_depth_first_search_left_unknown_is_solved_again_by_the_layered_one(tmp_path: Path) -> None:
    # Classic deal 27 is lost: the depth-first complete search proves it in 36,184 positions, the layered one
    # in 35,902, so at 36,000 only the layered one decides; its row says so, and is not redone at that budget.
    out, deal = tmp_path / "r.jsonl", range(27, 28)
    options = {"out": out, "time_limit": 60.0, "max_nodes": 36_000, "first_pass": False}
    assert survey("king-albert-classic", deal, **options).unknown == 1
    layered = survey("king-albert-classic", deal, **options, layered=True)
    assert layered.unwinnable == 1 and len(out.read_text().splitlines()) == 2
    assert read_results(out, "king-albert-classic")[27]["layered"] is True
    assert "layered" not in json.loads(out.read_text().splitlines()[0])
    survey("king-albert-classic", range(26, 28), **options, layered=True)
    assert len(out.read_text().splitlines()) == 3  # only deal 26, new


def survey_table_tool() -> Any:
    """``tools/survey_table.py``, which is a script, not a module of the package."""
    path = Path(__file__).resolve().parents[2] / "tools" / "survey_table.py"
    spec = importlib.util.spec_from_file_location("survey_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_row_made_without_the_relaxed_stage_says_so_and_its_command_leaves_it_out(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    survey("king-albert-classic", range(1, 2), out=out, time_limit=60.0, max_nodes=50, relaxed_stage=False)
    survey("king-albert-classic", range(2, 3), out=out, time_limit=60.0, max_nodes=50)
    survey("king-albert-classic", range(3, 4), out=out, time_limit=60.0, max_nodes=50, relaxed=4, relaxed_stage=False)
    rows = read_results(out, "king-albert-classic")
    assert rows[1]["relaxed_stage"] is False
    assert "relaxed_stage" not in rows[2]  # rows with the stage stay as they were
    assert "relaxed_stage" not in rows[3] and rows[3]["relaxed"] == 4  # a rank replaces the stage: nothing left out
    tool = survey_table_tool()
    assert tool.command(rows[1])[-1] == "--no-relaxed-stage" and "no relaxed stage" in tool.search_of(rows[1])
    assert "--no-relaxed-stage" not in tool.command(rows[2]) and "relaxed" not in tool.search_of(rows[2])


def test_a_deal_left_unknown_without_the_relaxed_stage_is_solved_again_with_it_at_the_same_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic deal 4000005845 is lost: with the relaxed verdicts asked from the complete search's first position,
    # a solve proves it in some 14,000 positions; the usual search alone leaves it open at 50,000.
    from tableaux.solver.strategy import king_albert

    monkeypatch.setattr(king_albert, "CLASSIC_RELAXED_VERDICTS", (3, 0))
    out, deal = tmp_path / "r.jsonl", range(4000005845, 4000005846)
    options = {"out": out, "time_limit": 60.0, "max_nodes": 50_000}
    assert survey("king-albert-classic", deal, **options, relaxed_stage=False).unknown == 1
    assert survey("king-albert-classic", deal, **options, relaxed_stage=False).unknown == 1  # the same: not redone
    assert len(out.read_text().splitlines()) == 1
    staged = survey("king-albert-classic", deal, **options)
    assert staged.unwinnable == 1 and len(out.read_text().splitlines()) == 2
    row = read_results(out, "king-albert-classic")[4000005845]
    assert "relaxed_stage" not in row and row["verdict"] == "unwinnable"


def test_a_deal_unknown_with_the_relaxed_stage_or_in_a_game_without_one_is_not_redone_at_the_same_budget(
    tmp_path: Path,
) -> None:
    out = tmp_path / "r.jsonl"
    assert survey("king-albert-classic", range(1, 2), out=out, time_limit=60.0, max_nodes=50).unknown == 1
    survey("king-albert-classic", range(1, 2), out=out, time_limit=60.0, max_nodes=50, relaxed_stage=False)
    assert len(out.read_text().splitlines()) == 1
    other = tmp_path / "ew.jsonl"
    assert survey("eagle-wing", range(1, 7), out=other, time_limit=60.0, max_nodes=50, relaxed_stage=False).unknown
    survey("eagle-wing", range(1, 7), out=other, time_limit=60.0, max_nodes=50)  # Eagle Wing has no stage
    assert len(other.read_text().splitlines()) == 6


def test_cli_no_first_pass_gives_the_complete_search_the_whole_budget(tmp_path: Path) -> None:
    cmd = ["solve", "king-albert-classic", "168", "--max-nodes", "60000"]
    assert run_tableaux(*cmd, timeout=300).returncode == 3  # unknown
    alone = run_tableaux(*cmd, "--no-first-pass", timeout=300)
    assert alone.returncode == 1 and "proved" in alone.stdout  # unwinnable
    out = tmp_path / "r.jsonl"
    survey("king-albert-classic", range(168, 169), out=out, time_limit=60.0, max_nodes=60_000)
    proc = run_tableaux("survey", "king-albert-classic", "--deals", "168-168", "--workers", "1", "--max-nodes",
                        "60000", "--time-limit", "60", "--no-first-pass", "--out", str(out), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "1 unknown there, solved again" in proc.stderr and "no first pass" in proc.stderr
    assert read_results(out, "king-albert-classic")[168]["verdict"] == "unwinnable"


def test_deals_solved_again_go_one_to_a_batch_so_a_stopped_survey_loses_little(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, sizes = tmp_path / "r.jsonl", []
    real = survey_module.solve_batch

    def counting(game: str, deals: list[int], options: SolveOptions, lines: bool = True) -> list[dict]:
        sizes.append(len(deals))
        return real(game, deals, options, lines)

    monkeypatch.setattr(survey_module, "solve_batch", counting)
    survey("king-albert-classic", range(1, 41), out=out, time_limit=60.0, max_nodes=50)
    assert sizes == [5] * 8  # a fresh range: batches of several deals
    unknown = sum(r["verdict"] == "unknown" for r in read_results(out, "king-albert-classic").values())
    sizes.clear()
    survey("king-albert-classic", range(1, 41), out=out, time_limit=60.0, max_nodes=100)
    assert unknown > 20 and sizes == [1] * unknown  # each unknown deal again, alone: each may take minutes


# --- what a survey refuses, and what it says when stopped ---------------------------------------------------
def test_an_out_file_in_a_missing_folder_is_refused_before_any_deal_is_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tableaux.cli import main

    def must_not_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was solved before the --out file was checked")

    monkeypatch.setattr(survey_module, "solve_batch", must_not_run)
    out = tmp_path / "missing" / "results.jsonl"
    assert main(["survey", "king-albert", "--deals", "1-1000000", "--workers", "1", "--out", str(out)]) == 2
    assert not out.parent.exists()


@pytest.mark.parametrize("content", [b"hello world\n", b"hello world", b'{"not": "a result"}\n', b"\x00\x01binary"])
def test_a_file_that_is_not_a_results_file_is_refused_and_left_as_it_was(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_bytes(content)
    proc = run_tableaux("survey", "king-albert", "--deals", "1-3", "--workers", "1", "--out", str(path))
    assert proc.returncode == 2 and "tableaux survey: error:" in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert path.read_bytes() == content


def test_a_survey_of_one_game_into_another_games_file_is_refused_and_the_file_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "eagle-wing.jsonl"
    path.write_text(json.dumps({"game": "eagle-wing", "deal": 1, "verdict": "winnable", "seconds": 0.1}) + "\n")
    before = path.read_bytes()
    proc = run_tableaux("survey", "king-albert", "--deals", "1-3", "--workers", "1", "--out", str(path))
    assert proc.returncode == 2 and "eagle-wing" in proc.stderr and "another --out" in proc.stderr
    with pytest.raises(SurveyError, match="holds deals of eagle-wing, not king-albert"):
        survey("king-albert", range(1, 4), out=path, **BUDGET)
    assert path.read_bytes() == before
    assert list(read_results(path, "eagle-wing")) == [1]  # reading one game's rows of a file stays as it was


def test_a_gz_name_on_a_file_that_is_not_gzip_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl.gz"
    path.write_bytes(b'{"game": "king-albert", "deal": 1, "verdict": "winnable"}\n')
    proc = run_tableaux("survey", "king-albert", "--deals", "1-3", "--workers", "1", "--out", str(path))
    assert proc.returncode == 2 and "not gzip" in proc.stderr
    assert path.read_bytes().startswith(b'{"game"')


def test_a_torn_last_line_after_results_is_still_dropped_and_the_survey_resumes(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    survey("king-albert", range(1, 4), out=path, **BUDGET)
    with path.open("a") as fh:
        fh.write('{"game": "king-albert", "de')  # a survey killed mid-write
    summary = survey("king-albert", range(1, 6), out=path, **BUDGET)
    assert summary.deals == 5 and sorted(read_results(path, "king-albert")) == [1, 2, 3, 4, 5]


def test_a_resumed_survey_shows_the_range_totals_while_it_runs(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    first = survey("king-albert", range(1, 21), out=path, **BUDGET)
    proc = run_tableaux("survey", "king-albert", "--deals", "1-25", "--workers", "1", "--max-nodes", "3000",
                        "--out", str(path))
    assert proc.returncode == 0, proc.stderr
    whole = summarise(read_results(path, "king-albert").values())
    assert whole.deals == 25 and first.deals == 20
    progress = proc.stdout + proc.stderr
    assert (f"won {whole.winnable} lost {whole.unwinnable} unknown {whole.unknown}") in progress


def test_ctrl_c_says_how_many_deals_were_saved_and_that_a_rerun_resumes(tmp_path: Path) -> None:
    import signal

    def ctrl_c_as_in_a_terminal() -> None:
        # A shell starts a background job with Ctrl-C ignored, and a child inherits that: a suite run so would
        # see a survey that rightly ignores the signal. A survey started in a terminal has the default.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    path = tmp_path / "results.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tableaux", "survey", "king-albert", "--deals", "1-1000000", "--workers", "1",
         "--max-nodes", "2000", "--out", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "NO_COLOR": "1"},
        preexec_fn=ctrl_c_as_in_a_terminal)
    try:
        deadline = time.monotonic() + 120  # bounds a hang only: the first rows come in well under a second
        while not (path.exists() and path.read_text().count("\n") >= 3):
            assert proc.poll() is None and time.monotonic() < deadline, "the survey wrote nothing"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    saved = len(read_results(path, "king-albert"))
    assert proc.returncode == 130
    assert f"{saved} deals of this range are saved in {path}" in err and "run the same command again to resume" in err
    assert "Traceback" not in err
