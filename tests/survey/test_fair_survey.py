"""The no-peek survey: whole deals played with fair hints only, resumable, replayable from the seed."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import tableaux
from helpers.cli import run_tableaux
from tableaux.survey.fair import play_deal
from tableaux.survey.fair import run as fair_survey
from tableaux.survey.files import SurveyError, read_results

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


def kept_row(deal: int, **settings: object) -> dict[str, object]:
    """A row as ``run_survey`` with the seed 0 writes it, without playing the game."""
    return {"game": "king-albert", "deal": deal, "won": False, "end": "no move left", "moves": [], "player": "fair",
            "samples": 3, "seed": 0, "max_nodes": 1500, "plans": 4, "more_samples": 4, "seconds": 0.1, **settings}


def test_cli_fair_survey_refuses_a_file_played_with_other_settings_and_names_them(tmp_path: Path) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    out.write_text("".join(json.dumps(kept_row(deal)) + "\n" for deal in (1, 2, 3)))
    before = out.read_bytes()
    proc = run_survey("--deals", "1-3", "--seed", "2", "--samples", "8", "--max-nodes", "500", "--out", str(out))
    assert proc.returncode == 2 and "already in" not in proc.stderr and "no-peek win rate" not in proc.stdout
    assert "--samples 3, --seed 0, --max-nodes 1500, not --samples 8, --seed 2, --max-nodes 500" in proc.stderr
    assert "another --out" in proc.stderr and "the file's settings" in proc.stderr
    proc = run_survey("--deals", "4", "--seed", "2", "--out", str(out))  # new deals only: the file is still one run
    assert proc.returncode == 2 and "--seed 0, not --seed 2" in proc.stderr
    assert out.read_bytes() == before
    proc = run_survey("--deals", "1-3", "--out", str(out))  # the file's own settings: its games are kept
    assert proc.returncode == 0 and "3 already in" in proc.stderr and "won by the fair player 0" in proc.stdout


def test_a_fair_survey_refuses_other_plans_and_accepts_rows_that_do_not_record_a_setting(tmp_path: Path) -> None:
    out = tmp_path / "fair-king-albert.jsonl"
    out.write_text(json.dumps(kept_row(2)) + "\n")
    with pytest.raises(SurveyError, match="plans 4, not plans 2"):
        fair_survey("king-albert", range(2, 3), samples=3, seed=0, max_nodes=1500, plans=2, out=out)
    with pytest.raises(SurveyError, match="--player fair, not --player hindsight"):
        fair_survey("king-albert", range(2, 3), samples=3, seed=0, max_nodes=1500, player="hindsight", out=out)
    older = {key: value for key, value in kept_row(2).items() if key not in ("plans", "more_samples")}
    out.write_text(json.dumps(older) + "\n")
    summary = fair_survey("king-albert", range(2, 3), samples=3, seed=0, max_nodes=1500, plans=2, out=out)
    assert summary["deals"] == 1 and len(out.read_text().splitlines()) == 1  # nothing played again


def test_a_no_peek_row_records_the_build_and_another_builds_rows_are_resumed(tmp_path: Path) -> None:
    assert play_deal("king-albert", 1789, seed=0, **SMALL)["version"] == tableaux.__version__  # no move at the start
    out = tmp_path / "fair-king-albert.jsonl"
    out.write_text(json.dumps(kept_row(2, version="0.0.1")) + "\n")
    summary = fair_survey("king-albert", range(2, 3), samples=3, seed=0, max_nodes=1500, out=out)
    assert summary["deals"] == 1 and len(out.read_text().splitlines()) == 1  # the build is no setting


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
