"""The browser game's HTTP API, what the page is told before it plays: the games on offer, their tables and
rules in the page's language, the deal limit and the card faces; and that the page's scripts repeat none of it.

Each test runs on each store (SQLite and PostgreSQL), through FastAPI's TestClient; the answers are checked
against the engine, never against numbers typed into the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import tableaux
from tableaux import GAMES
from tableaux.i18n import _ as translated
from tableaux.i18n import speaking
from tableaux.rulebook.cards import RANKS
from tableaux.web.app import WEB_GAMES


@pytest.fixture
def db(database: str) -> str:
    """Every test here runs once on SQLite and once on PostgreSQL."""
    return database


def test_game_info_lists_the_browser_games_as_the_engine_describes_them(client: TestClient) -> None:
    r = client.get("/api/games/info")
    assert r.status_code == 200
    info = r.json()
    browser = [r for r in tableaux.GAMES.values() if r.in_browser]
    assert [g["name"] for g in info["games"]] == [r.name for r in browser] == list(WEB_GAMES)
    assert [{key: g[key] for key in ("name", "title", "piles", "labels", "has_stock")} for g in info["games"]] == [
        {"name": r.name, "title": r.title, "piles": list(r.pile_names),
         "labels": {p: str(tableaux.Move(p, 1, p)).split(">")[0] for p in r.pile_names},
         "has_stock": "stock" in r.pile_names}
        for r in browser
    ]


def test_game_info_places_every_pile_once_on_its_own_cell_of_each_grid(client: TestClient) -> None:
    """The page draws the table from the layout alone: a pile left out could not be played, two on one cell
    would cover each other. A group of piles (King Albert's reserve) takes one place, a row of its own on the
    wide grid; a spot may span rows on the side grid."""
    for entry in client.get("/api/games/info").json()["games"]:
        layout = entry["layout"]
        assert sorted(spot["pile"] for spot in layout["spots"]) == sorted(entry["piles"]), entry["name"]
        for shape in ("wide", "tall", "side"):
            grid = layout[shape]
            if grid is None:
                continue
            cells: list[tuple[int, int]] = []
            groups: set[str] = set()
            for spot in layout["spots"]:
                if spot["group"] is not None and (shape == "wide" or spot["group"] in groups):
                    continue  # drawn in a row of its own, or in its group's place already counted
                if spot["group"] is not None:
                    groups.add(spot["group"])
                place = spot[shape] if shape != "wide" else (spot["col"], spot["row"])
                assert place is not None, (entry["name"], shape, spot)
                col, row, rows = (*place, 1)[:3]
                assert 1 <= col <= grid["cols"], (entry["name"], shape, spot)
                cells += [(col, r) for r in range(row, row + rows)]
            assert len(cells) == len(set(cells)), (entry["name"], shape, cells)


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_game_info_names_piles_and_gives_the_rules_in_the_pages_language(client: TestClient, language: str) -> None:
    """What a sentence calls each pile and the rules page come from the server, in the language the page asks
    for, so the page names no game and writes no rule; the rules' sentences carry no markup but bold and keys."""
    info = client.get("/api/games/info", headers={"Accept-Language": language}).json()
    with speaking(language):
        for entry in info["games"]:
            rules = tableaux.rules(entry["name"])
            assert entry["words"] == {pile: rules.pile_words(pile) for pile in rules.pile_names}
            assert entry["rules"]["title"] == translated(rules.rules_title).format(game=translated(rules.title))
            assert entry["rules"]["guide"] == rules.guide()
            sentences = [b["text"] for b in rules.guide() if b["kind"] == "paragraph"]
            sentences += [item for b in rules.guide() if b["kind"] == "list" for item in b["items"]]
            assert len(sentences) >= 5, entry["name"]
            assert {tag for text in sentences for tag in re.findall(r"</?([a-z]+)", text)} <= {"b", "kbd"}
    words = {entry["name"]: entry["words"] for entry in info["games"]}
    assert words["king-albert"]["tableau-3"] == {"en": "tableau 3", "fr": "colonne 3", "de": "Spalte 3"}[language]
    assert words["eagle-wing"]["reserve"] == {"en": "the trunk", "fr": "tronc", "de": "Stamm"}[language]


def test_game_info_gives_the_deal_limit_and_how_each_rank_reads_on_a_card(client: TestClient) -> None:
    """The page repeats neither: it asks for deals up to max_deal and labels card faces with rank_labels."""
    info = client.get("/api/games/info").json()
    assert info["max_deal"] == tableaux.MAX_DEAL
    tableaux.new_game("king-albert", info["max_deal"])  # the highest deal number is a deal
    with pytest.raises(tableaux.DealError):
        tableaux.new_game("king-albert", info["max_deal"] + 1)
    assert set(info["rank_labels"]) == set(RANKS)
    for rank, label in info["rank_labels"].items():  # a label reads back as the card it names
        assert tableaux.parse_card(label + "S") == tableaux.parse_card(rank + "S")
    assert info["rank_labels"]["T"] == "10"  # the notation's T is not what a card face shows


def test_the_health_check_answers_200_to_get_and_head_while_the_database_answers_and_makes_no_player(
    client: TestClient,
) -> None:
    """A load balancer asks every few seconds: each ask must not cost a player (a cookie, a token)."""
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert "set-cookie" not in r.headers and "x-player-token" not in r.headers
    r = client.head("/api/health")  # many uptime monitors ask with HEAD: it was 405
    assert r.status_code == 200 and r.content == b"" and "set-cookie" not in r.headers
    page = client.head("/")
    assert page.status_code == 200 and page.content == b"" and page.headers["content-type"].startswith("text/html")
    assert int(page.headers["content-length"]) == len(client.get("/").content)  # GET's headers


def test_the_page_scripts_apply_no_rule_and_name_no_game() -> None:
    """Rules live in the engine and game names in tableaux.GAMES: the page's scripts only draw what the server
    sends, the table's layout and the rules in words included (the game info)."""
    static = Path(tableaux.__file__).parent / "web" / "static"
    for script in sorted(static.glob("*.js")):
        text = script.read_text()
        for name in (*GAMES, *(r.title for r in GAMES.values())):
            assert name not in text, f"{script.name} names {name!r}"
        shown = text.replace('"base_rank"', "").replace("position.base_rank", "")  # the view's field, shown as it is
        assert "safeHomeMove" not in text and "base_rank" not in shown, script.name
    page = (static / "index.html").read_text()
    assert not any(name in page for name in GAMES)
