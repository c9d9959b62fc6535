"""The no-peek survey: whole deals played with fair hints only, resumable, replayable from the seed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import tableaux
from cli_helpers import run_tableaux
from tableaux.fair.survey import play_deal
from tableaux.solver.survey_file import read_results

SMALL = {"samples": 4, "max_nodes": 2000}


@pytest.mark.parametrize(("name", "deal"), [("king-albert", 2), ("eagle-wing", 3)])
def test_a_fair_game_replays_in_the_engine_and_the_same_seed_plays_it_again(name: str, deal: int) -> None:
    row = play_deal(name, deal, seed=7, **SMALL)
    assert set(row) >= {"deal", "won", "moves", "samples", "seed"} and row["samples"] == 4 and row["seed"] == 7
    game = tableaux.new_game(name, deal)
    for move in row["moves"]:
        game.play(move)  # every move legal
    assert game.is_won() == row["won"]
    if not row["won"]:
        assert row["end"] in ("no move left", "no sampled layout winnable", "no useful move", "move limit")
    again = play_deal(name, deal, seed=7, **SMALL)
    assert again["moves"] == row["moves"] and again["won"] == row["won"]


def run_survey(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tableaux("survey", "king-albert", "--player", "fair", "--samples", "3", "--max-nodes", "1500",
                        "--workers", "1", *args, timeout=600)


def test_cli_fair_survey_writes_one_record_per_deal_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    proc = run_survey("--deals", "2-3", "--seed", "5", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "no-peek win rate: 95% CI" in proc.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["deal"] for r in rows) == [2, 3]
    for row in rows:
        assert {"deal", "won", "moves", "samples", "seed"} <= set(row) and row["samples"] == 3 and row["seed"] == 5
    proc = run_survey("--deals", "2-4", "--seed", "5", "--out", str(out))  # resumes: only deal 4 is played
    assert proc.returncode == 0, proc.stderr
    assert "2 already in" in proc.stderr and "deal 4:" in proc.stderr and "deal 2:" not in proc.stderr
    assert sorted(read_results(out, "king-albert", field="won")) == [2, 3, 4]
    assert len(out.read_text().splitlines()) == 3


def test_cli_fair_survey_refuses_a_dask_scheduler(tmp_path: Path) -> None:
    proc = run_survey("--deals", "1-2", "--scheduler", "tcp://127.0.0.1:9")
    assert proc.returncode == 2 and "local workers only" in proc.stderr
