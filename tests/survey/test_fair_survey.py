"""The no-peek survey: whole deals played with fair hints only, resumable, replayable from the seed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import tableaux
from helpers.cli import run_tableaux
from tableaux.survey.fair import play_deal
from tableaux.survey.files import read_results

SMALL = {"samples": 4, "max_nodes": 2000}


ENDS = {
    "fair": ("no move left", "no new move", "proved lost", "move limit"),
    "hindsight": ("no move left", "no sampled layout winnable", "no useful move", "move limit"),
}


@pytest.mark.parametrize("player", ["fair", "hindsight"])
@pytest.mark.parametrize(("name", "deal"), [("king-albert", 2), ("eagle-wing", 3)])
def test_a_no_peek_game_replays_in_the_engine_and_the_same_seed_plays_it_again(
    name: str, deal: int, player: str
) -> None:
    row = play_deal(name, deal, seed=7, player=player, **SMALL)
    assert set(row) >= {"deal", "won", "moves", "samples", "seed", "player"} and row["samples"] == 4
    assert row["seed"] == 7 and row["player"] == player
    game = tableaux.new_game(name, deal)
    for move in row["moves"]:
        game.play(move)  # every move legal
    assert game.is_won() == row["won"]
    if not row["won"]:
        assert row["end"] in ENDS[player]
    again = play_deal(name, deal, seed=7, player=player, **SMALL)
    assert again["moves"] == row["moves"] and again["won"] == row["won"]


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(tableaux.TableauxError, match="fair, hindsight"):
        play_deal("king-albert", 1, seed=1, player="oracle", **SMALL)


def run_survey(*args: str, player: str = "fair") -> subprocess.CompletedProcess[str]:
    return run_tableaux("survey", "king-albert", "--player", player, "--samples", "3", "--max-nodes", "1500",
                        "--workers", "1", *args, timeout=600)


def test_cli_fair_survey_writes_one_record_per_deal_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    proc = run_survey("--deals", "2-3", "--seed", "5", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "no-peek win rate: 95% CI" in proc.stdout and " s per move (" in proc.stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["deal"] for r in rows) == [2, 3]
    for row in rows:
        assert {"deal", "won", "moves", "samples", "seed"} <= set(row) and row["samples"] == 3 and row["seed"] == 5
        assert row["player"] == "fair" and row["max_nodes"] == 1500 and row["plans"] >= 1
    proc = run_survey("--deals", "2-4", "--seed", "5", "--out", str(out))  # resumes: only deal 4 is played
    assert proc.returncode == 0, proc.stderr
    assert "2 already in" in proc.stderr and "deal 4:" in proc.stderr and "deal 2:" not in proc.stderr
    assert sorted(read_results(out, "king-albert", field="won")) == [2, 3, 4]
    assert len(out.read_text().splitlines()) == 3


def test_cli_fair_survey_refuses_a_dask_scheduler(tmp_path: Path) -> None:
    proc = run_survey("--deals", "1-2", "--scheduler", "tcp://127.0.0.1:9")
    assert proc.returncode == 2 and "local workers only" in proc.stderr


@pytest.mark.parametrize("player", ["fair", "hindsight"])
def test_cli_no_peek_survey_refuses_a_time_limit_and_names_its_budget(tmp_path: Path, player: str) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    proc = run_survey("--deals", "1-2", "--time-limit", "5", "--out", str(out), player=player)
    assert proc.returncode == 2 and "--time-limit" in proc.stderr and "--max-nodes" in proc.stderr
    assert "positions per sampled layout" in proc.stderr and not out.exists()


def test_cli_survey_of_one_player_refuses_to_resume_another_players_file(tmp_path: Path) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    assert run_survey("--deals", "2", "--out", str(out), player="hindsight").returncode == 0
    assert json.loads(out.read_text())["player"] == "hindsight"
    before = out.read_bytes()
    proc = run_survey("--deals", "2-3", "--out", str(out))
    assert proc.returncode == 2 and "hindsight player" in proc.stderr and "another --out" in proc.stderr
    assert out.read_bytes() == before


def test_cli_fair_survey_of_one_game_refuses_another_games_file(tmp_path: Path) -> None:
    out = tmp_path / "fair-eagle-wing.jsonl"
    row = {"game": "eagle-wing", "deal": 2, "player": "fair", "won": False, "moves": [], "samples": 3, "seed": 0,
           "max_nodes": 1500, "plans": 4, "more_samples": 4, "seconds": 0.1}
    out.write_text(json.dumps(row) + "\n")
    before = out.read_bytes()
    proc = run_survey("--deals", "2-3", "--out", str(out))  # king-albert
    assert proc.returncode == 2 and "eagle-wing" in proc.stderr and "another --out" in proc.stderr
    assert out.read_bytes() == before


FAIR_FILES = sorted((Path(__file__).resolve().parents[2] / "results").glob("fair-*.jsonl.gz"))


@pytest.mark.slow
@pytest.mark.parametrize("path", FAIR_FILES, ids=lambda p: p.name)
def test_kept_no_peek_games_replay_in_the_engine_to_their_recorded_end(path: Path) -> None:
    rows = [row for game in ("king-albert", "eagle-wing") for row in read_results(path, game, field="won").values()]
    assert rows and len({row["player"] for row in rows}) == 1  # one player per file
    for row in rows[::25]:  # every 25th game: all of them take minutes
        game = tableaux.new_game(row["game"], row["deal"])
        for move in row["moves"]:
            game.play(move)  # an illegal move raises, naming it
        assert game.is_won() == row["won"] == (row["end"] == "won"), (path.name, row["deal"])
        if row["end"] in ("no move left",):
            assert not game.legal_moves()
