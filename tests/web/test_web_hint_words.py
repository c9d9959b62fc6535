"""Hints in plain words through the web API, on SQLite and PostgreSQL: each hint brings its one sentence, made on
the server from the move and the cards on view, in the request's language; its message says the time ran out
only when it did."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tableaux
from helpers.browser import hidden_card_problems
from tableaux.advice.effort import effort
from tableaux.advice.hints import move_sentence
from tableaux.i18n import speaking


@pytest.fixture
def client(pooled_client: TestClient) -> TestClient:
    """On SQLite and PostgreSQL, with a solver pool of its own (tests/conftest.py)."""
    return pooled_client


def ask(client: TestClient, view: dict[str, Any], mode: str, lang: str = "en") -> dict[str, Any]:
    r = client.post(f"/api/games/{view['id']}/hint", json={"mode": mode}, headers={"Accept-Language": lang})
    assert r.status_code == 200, r.text
    assert not hidden_card_problems(str(r.url), r.json())
    return r.json()["hint"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_hint_comes_with_its_move_in_one_sentence_in_the_pages_language(client: TestClient, lang: str) -> None:
    view = client.post("/api/games", json={"game": "eagle-wing", "deal": 11}).json()
    for mode in ("fair", "peek"):
        hint = ask(client, view, mode, lang)
        assert hint["move"] is not None
        game = tableaux.new_game("eagle-wing", 11)
        move = tableaux.Move(hint["move"]["source"], hint["move"]["count"], hint["move"]["target"])
        with speaking(lang):
            assert hint["sentence"] == move_sentence(game, move)
        assert hint["move"]["text"] not in hint["sentence"]  # the notation is the message's, behind "Why?"


def test_a_fair_hint_with_time_to_spare_never_says_the_time_ran_out(client: TestClient) -> None:
    drawn = effort("fair-hint", "web").samples
    for name, deal in (("king-albert", 11), ("eagle-wing", 11), ("king-albert", 3)):
        view = client.post("/api/games", json={"game": name, "deal": deal}).json()
        hint = ask(client, view, "fair")
        counted = re.search(r"of (\d+) possible layouts", hint["message"])
        assert counted and int(counted[1]) == drawn, hint["message"]
        assert "time ran out" not in hint["message"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_hints_reason_names_the_moves_of_its_plan_by_their_cards_in_the_pages_language(
        client: TestClient, lang: str) -> None:
    """For a page that hides the pile labels: the plan the message lists in notation reads, in the reason, as what
    each move does with its cards."""
    view = client.post("/api/games", json={"game": "king-albert", "deal": 1}).json()
    hint = ask(client, view, "fair", lang)
    plan = re.search(r": ([A-Z0-9:>, ]+)\.$", hint["message"])
    assert plan, hint["message"]
    game = tableaux.new_game("king-albert", 1)
    with speaking(lang):
        for move in plan[1].split(", "):
            assert move_sentence(game, game.parse_move(move)) in hint["reason"]
            game.play(move)
    assert not re.search(r"\b[A-Z]\d*(:\d+)?>[A-Z]\d*\b", hint["reason"]), hint["reason"]
