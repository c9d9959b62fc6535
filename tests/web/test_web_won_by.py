"""Who won a won game, as the server stores it (a view's ``won_by``), on SQLite and PostgreSQL: the solver's line that
Show solution plays (its moves are sent with ``"by": "solution"``), or the player, even when the player took help
on the way. The page's banner says it from the view, so it reads the same after a reload or a restart.

The winning line is the solver's own (``tableaux.solve``), never typed in here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import tableaux
from helpers.web import new_game, view_of


@pytest.fixture
def db(database: str) -> str:
    return database


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> TestClient:
    return TestClient(make_app())


@cache
def line() -> tuple[str, ...]:
    """A winning line of King Albert deal 17, the solver's."""
    return tuple(str(move) for move in tableaux.solve("king-albert", 17).moves)


def send(client: TestClient, view: dict[str, Any], moves: list[str], by: str | None = None) -> dict[str, Any]:
    for text in moves:
        body = {"move": text, "version": view["version"], **({"by": by} if by else {})}
        r = client.post(f"/api/games/{view['id']}/moves", json=body)
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def near_the_end_with_a_solution(client: TestClient) -> tuple[dict[str, Any], list[str]]:
    """King Albert 17 played by the player up to four moves from the end, then Show solution asked for: the view
    and the solver's line from there."""
    view = send(client, new_game(client, "king-albert", 17), list(line()[:-4]))
    r = client.post(f"/api/games/{view['id']}/solution", json={"version": view["version"]})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["verdict"] == "winnable" and answer["moves"], answer
    return answer["view"], answer["moves"]


def test_a_win_the_solution_played_is_the_solutions_in_every_view_even_after_a_restart(
    client: TestClient, make_app: Callable[..., FastAPI]
) -> None:
    view, moves = near_the_end_with_a_solution(client)
    won = send(client, view, moves, by="solution")
    assert won["won"] and won["assisted"] and won["won_by"] == "solution"
    assert view_of(client, won)["won_by"] == "solution"  # the page reloaded
    again = TestClient(make_app())  # the server restarted, on the same database
    again.cookies = client.cookies
    assert view_of(again, won)["won_by"] == "solution"


def test_a_win_whose_last_move_the_player_made_after_a_solution_shown_is_the_players_assisted_win(
    client: TestClient,
) -> None:
    view, moves = near_the_end_with_a_solution(client)
    view = send(client, view, moves[:-1], by="solution")
    assert not view["won"] and view["won_by"] is None
    won = send(client, view, moves[-1:])  # the player's own last move
    assert won["won"] and won["assisted"] and won["won_by"] == "player"
    assert view_of(client, won)["won_by"] == "player"


def test_a_game_not_yet_won_has_no_winner_and_a_win_without_help_is_the_players(client: TestClient) -> None:
    view = send(client, new_game(client, "king-albert", 17), list(line()[:-1]))
    assert view["won_by"] is None
    won = send(client, view, list(line()[-1:]))
    assert won["won"] and not won["assisted"] and won["won_by"] == "player"


def test_a_move_sent_as_the_solutions_marks_the_game_assisted(client: TestClient) -> None:
    view = send(client, new_game(client, "king-albert", 17), list(line()[:1]), by="solution")
    assert view["assisted"] and view_of(client, view)["assisted"]


def test_an_unknown_mover_is_refused_saying_what_is_accepted_and_changes_nothing(client: TestClient) -> None:
    view = new_game(client, "king-albert", 17)
    r = client.post(f"/api/games/{view['id']}/moves", json={"move": line()[0], "version": 0, "by": "robot"})
    assert r.status_code == 422
    assert "'robot'" in r.json()["error"] and "player" in r.json()["error"] and "solution" in r.json()["error"]
    assert view_of(client, view)["version"] == 0 and not view_of(client, view)["assisted"]
