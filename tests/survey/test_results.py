"""The committed survey results stand on their own: a win the survey's search did not find itself has its line.

A survey row says ``winnable`` because the search that made it found a line, which ``tableaux solve``
finds again at the row's budget. A few classic deals were won only by other searches (one that never
takes a card back, say), beyond the survey's budgets; their rows name a file in ``results/`` that holds
the winning line, and the line is the proof: it must play to a won game in the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tableaux
from tableaux.survey.files import read_results

RESULTS = Path(__file__).resolve().parents[2] / "results"
LINE_FILES = sorted(RESULTS.glob("*-lines.jsonl"))


def kept_lines(path: Path) -> list[dict]:
    return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]


@pytest.mark.slow
@pytest.mark.parametrize("path", LINE_FILES, ids=lambda p: p.name)
def test_every_winning_line_kept_in_results_plays_to_a_won_game(path: Path) -> None:
    rows = kept_lines(path)
    assert rows, f"{path.name} holds no line"
    for row in rows:
        game = tableaux.new_game(row["game"], row["deal"])
        for move in row["moves"].split():
            game.play(move)  # an illegal move raises, naming it
        assert game.is_won(), f"{row['game']} deal {row['deal']}: the line ends before the game is won"


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda p: p.name)
def test_a_survey_row_won_by_a_kept_line_is_winnable_and_the_line_is_there(path: Path) -> None:
    kept = {(row["game"], row["deal"]) for row in kept_lines(path)}
    games = {game for game, _ in kept}
    pointing = []
    for game in games:
        for deal, row in read_results(RESULTS / f"{game}.jsonl.gz", game).items():
            if row.get("line") == path.name:
                assert row["verdict"] == "winnable", (game, deal, row["verdict"])
                assert (game, deal) in kept, f"{game} deal {deal}: its row names {path.name}, which lacks its line"
                pointing.append((game, deal))
    assert sorted(pointing) == sorted(kept), "a kept line whose deal's survey row does not say it is won by it"
