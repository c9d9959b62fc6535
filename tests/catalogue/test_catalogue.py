"""The graded deal catalogue, ``pick`` and the daily deal (docs/difficulty.md).

Every deal the catalogue hands out as winnable must be winnable: samples are
solved again and the winning line is replayed move by move in the engine.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gzip
import hashlib
import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

import tableaux
from helpers.cli import run_tableaux
from helpers.time_zones import FAR_ZONES, local_date, utc_date
from tableaux import catalogue
from tableaux.catalogue import GRADES, CatalogueError, daily, grade_of, load, pick
from tableaux.catalogue.build import CHILD_BUDGET, DEAL_BUDGET, grade_deal
from tableaux.catalogue.files import parse_catalogue
from tableaux.catalogue.grades import COLUMNS
from tableaux.solver import BACKENDS

NAMES = list(tableaux.GAMES)


def assert_winnable_by_replay(name: str, deal: int) -> None:
    """Solve the deal and play the line in the engine, move by move, to a won game.

    With the search that graded the catalogue (the C core) when it is built, whatever TABLEAUX_SOLVER says:
    this checks the catalogue's data, and the budget is the one it was graded with. Without the core, the
    Python search gets five times the budget, and the classic deals (minutes each in Python) are left out.
    """
    if "c" not in BACKENDS and name == "king-albert-classic":
        pytest.skip("without the C core, classic deals take the Python search minutes each")
    game = tableaux.new_game(name, deal)
    result = tableaux.solve(game, max_nodes=DEAL_BUDGET if "c" in BACKENDS else 5 * DEAL_BUDGET,
                            backend=BACKENDS[0])
    assert result.verdict == "winnable", f"{name} deal {deal} handed out as winnable but the solver says {result}"
    for move in result.moves:
        game.play(move)
    assert game.is_won(), f"{name} deal {deal}: the solver's line does not win"


# --- the shipped files ----------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_game_ships_a_catalogue_that_follows_the_grade_definition(name: str) -> None:
    with gzip.open(catalogue.shipped_path(name), "rt") as fh:
        data = json.load(fh)
    assert data["columns"] == list(COLUMNS)
    assert (data["deal_budget"], data["child_budget"]) == (DEAL_BUDGET, CHILD_BUDGET)
    first, last = map(int, data["deals"].split("-"))
    assert [row[0] for row in data["rows"]] == list(range(first, last + 1))  # every deal of the range, in order
    cat = load(name)  # checks every row: measures present, grade == grade_of(measures)
    assert len(cat.winnable) >= 1000
    for entry in cat.winnable:
        assert entry.grade == grade_of(name, entry.first_moves, entry.safe_first_moves, entry.nodes)
        assert 1 <= entry.safe_first_moves <= entry.first_moves  # the line's own first move is always safe
        assert entry.nodes <= DEAL_BUDGET + 1000
    for grade in GRADES:  # each grade holds a real share of the winnable deals
        assert sum(e.grade == grade for e in cat.winnable) > len(cat.winnable) / 6


def test_a_damaged_catalogue_is_refused() -> None:
    data = {"format": "tableaux-catalogue", "version": 2, "game": "king-albert", "columns": list(COLUMNS),
            "rows": [[17, "winnable", 10, 10, 100, 100, "easy", None, None]]}
    parse_catalogue("king-albert", data)
    data["rows"][0][-3] = "hard"  # a grade that does not follow from the measures
    with pytest.raises(CatalogueError, match="grade definition"):
        parse_catalogue("king-albert", data)
    with pytest.raises(CatalogueError):
        parse_catalogue("eagle-wing", data)


@pytest.mark.skipif("c" not in BACKENDS, reason="the shipped grades were measured with the C core")
@pytest.mark.parametrize("name", NAMES)
def test_grades_recomputed_from_the_solver_match_the_catalogue(name: str) -> None:
    cat = load(name)
    rng = random.Random(f"recompute {name}")
    for entry in rng.sample(cat.winnable, 2) + rng.sample(cat.entries, 1):
        fresh = grade_deal(tableaux.rules(name), entry.deal, backend=cat.header["backend"])
        graded = dataclasses.replace(entry, par=None, par_bound=None)  # the par is the par build's, not the grade's
        assert fresh == graded, f"{name} deal {entry.deal}: catalogue {entry}, recomputed {fresh}"


# --- pick -------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_picked_winnable_deals_are_winnable_by_replaying_the_solvers_line(name: str) -> None:
    rng = random.Random(f"pick {name}")
    for difficulty in (None, *GRADES):
        entry = pick(name, winnable=True, difficulty=difficulty, rng=rng)
        assert entry.verdict == "winnable" and entry.grade == (difficulty or entry.grade)
        assert_winnable_by_replay(name, entry.deal)


def test_pick_without_winnable_draws_from_every_verdict_and_bad_grades_are_refused() -> None:
    rng = random.Random(3)
    verdicts = {pick("king-albert", winnable=False, rng=rng).verdict for _ in range(200)}
    assert {"winnable", "unwinnable"} <= verdicts
    assert pick("king-albert", winnable=False, difficulty="hard", rng=rng).grade == "hard"  # a grade implies winnable
    with pytest.raises(CatalogueError, match="easy, medium, hard"):
        pick("king-albert", difficulty="impossible")
    with pytest.raises(tableaux.UnknownGameError):
        pick("klondike")


# --- daily ------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_daily_deals_are_winnable_by_replaying_the_solvers_line(name: str) -> None:
    for day in ("2025-01-01", "2025-06-30", "2031-12-31"):
        assert_winnable_by_replay(name, daily(name, day).deal)


def test_daily_deal_is_the_documented_hash_of_game_and_date() -> None:
    entries = load("eagle-wing").entries
    for day in ("2025-03-14", "2026-01-02"):
        for i in range(100):
            digest = hashlib.sha256(f"eagle-wing:{day}:{i}".encode()).digest()
            candidate = entries[int.from_bytes(digest[:8], "big") % len(entries)]
            if candidate.verdict == "winnable":
                break
        assert daily("eagle-wing", day) == candidate
        assert daily("eagle-wing", dt.date.fromisoformat(day)) == candidate  # a date or its text


def test_daily_deal_is_the_same_all_day_and_changes_from_day_to_day() -> None:
    days = [dt.date(2025, 1, 1) + dt.timedelta(days=n) for n in range(30)]
    deals = [daily("king-albert", d).deal for d in days]
    assert deals == [daily("king-albert", d).deal for d in days]
    assert len(set(deals)) > 20
    before, entry, after = utc_date(), daily("king-albert"), utc_date()
    assert entry in (daily("king-albert", before), daily("king-albert", after))  # today is UTC's today
    assert daily("king-albert", "2025-01-01").game == "king-albert"


def test_the_daily_deal_is_the_utc_days_in_any_time_zone(time_zone: Callable[[str], None]) -> None:
    """Every player gets the same deal on the same UTC day, wherever the server runs."""
    told_apart = False
    for zone in FAR_ZONES:
        time_zone(zone)
        before, today, entry, after = utc_date(), catalogue.today(), daily("eagle-wing"), utc_date()
        assert today in (before, after), (zone, today, before)  # (the two differ only across midnight UTC)
        assert entry == daily("eagle-wing", today)
        told_apart = told_apart or local_date() not in (before, after)
    assert told_apart, "neither zone was on another date than UTC: the test could not tell the two apart"


@pytest.mark.parametrize("bad", ["2025-02-30", "2025-1-1", "01/02/2025", "tomorrow", "", "20250101"])
def test_bad_dates_get_a_clear_error(bad: str) -> None:
    with pytest.raises(CatalogueError, match="YYYY-MM-DD"):
        daily("king-albert", bad)


# --- the command line ------------------------------------------------------------
def test_cli_pick_json_shape() -> None:
    out = run_tableaux("pick", "eagle-wing", "--winnable", "--difficulty", "medium", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"game", "deal", "verdict", "grade", "par", "par_lower_bound"}
    assert data["game"] == "eagle-wing" and data["verdict"] == "winnable" and data["grade"] == "medium"
    assert catalogue.lookup("eagle-wing", data["deal"]).grade == "medium"


def test_cli_pick_text_names_deal_verdict_and_grade() -> None:
    out = run_tableaux("pick", "king-albert", "--winnable")
    assert out.returncode == 0, out.stderr
    assert "King Albert deal " in out.stdout and ": winnable, " in out.stdout
    assert "tableaux play king-albert --deal " in out.stdout
    bad = run_tableaux("pick", "king-albert", "--difficulty", "extreme")
    assert bad.returncode == 2 and "easy" in bad.stderr


def test_cli_daily_json_shape_and_determinism() -> None:
    first = run_tableaux("daily", "king-albert-classic", "--date", "2025-07-04", "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    entry = daily("king-albert-classic", "2025-07-04")
    assert data == {"game": "king-albert-classic", "date": "2025-07-04", "deal": entry.deal, "grade": entry.grade,
                    "par": entry.par, "par_lower_bound": entry.par_bound}
    assert data["grade"] in GRADES  # a daily deal is winnable, so it always has a grade
    assert run_tableaux("daily", "king-albert-classic", "--date", "2025-07-04", "--json").stdout == first.stdout
    before = utc_date()
    today = json.loads(run_tableaux("daily", "king-albert", "--json").stdout)
    assert today["date"] in (before.isoformat(), utc_date().isoformat())  # UTC's today (two across midnight)


@pytest.mark.parametrize("zone", FAR_ZONES)
def test_cli_daily_without_a_date_gives_the_utc_days_deal_in_a_far_time_zone(zone: str) -> None:
    before = utc_date()
    out = run_tableaux("daily", "eagle-wing", "--json", env={**os.environ, "TZ": zone})
    after = utc_date()
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["date"] in (before.isoformat(), after.isoformat()), (zone, data, before)
    assert data["deal"] == daily("eagle-wing", data["date"]).deal


@pytest.mark.parametrize("bad", ["2025-13-01", "yesterday", "2025/01/01"])
def test_cli_daily_bad_date_exits_2_and_says_what_is_accepted(bad: str) -> None:
    out = run_tableaux("daily", "king-albert", "--date", bad)
    assert out.returncode == 2
    assert "YYYY-MM-DD" in out.stderr and "Traceback" not in out.stderr
    assert out.stdout == ""


# --- par --------------------------------------------------------------------------
def test_a_par_that_breaks_its_rules_is_refused() -> None:
    data = json.loads(gzip.decompress(tableaux.catalogue.shipped_path("king-albert").read_bytes()))
    row = next(r for r in data["rows"] if r[1] == "winnable")
    line = row[COLUMNS.index("line")]
    for par, bound in ((line + 1, line), (50, 51), (None, 40), (40, None), (0, 0), (True, 1)):
        bad = {**data, "rows": [[*row[:-2], par, bound]]}
        with pytest.raises(CatalogueError, match="grade definition"):
            parse_catalogue("king-albert", bad)
    lost = next(r for r in data["rows"] if r[1] != "winnable")
    with pytest.raises(CatalogueError):
        parse_catalogue("king-albert", {**data, "rows": [[*lost[:-2], 60, 50]]})
    assert parse_catalogue("king-albert", {**data, "rows": [[*row[:-2], line, line - 3]]}).entries[0].par == line


@pytest.mark.parametrize("name", NAMES)
def test_shipped_pars_are_winning_lines_no_shorter_than_their_bound(name: str) -> None:
    # Where the par build has reached a deal, its row in results/ holds the line: it wins in par moves.
    from tableaux.catalogue.par import progress_path
    from tableaux.survey.files import read_results

    repository = Path(__file__).resolve().parents[2]  # the rows live in the clone, not in the installed package
    rows = read_results(progress_path(name, repository / "results"), name, field="par")
    with_par = [e for e in load(name).winnable if e.par is not None]
    for entry in random.Random(f"par {name}").sample(with_par, min(3, len(with_par))):
        row = rows[entry.deal]
        assert (row["par"], row["bound"]) == (entry.par, entry.par_bound) and entry.par_bound <= entry.par
        game = tableaux.new_game(name, entry.deal)
        for text in row["line"].split():
            game.play(text)
        assert game.is_won() and len(game.moves_played) <= entry.line
        assert len(game.moves_played) == entry.par or entry.par == entry.line


@pytest.mark.slow
def test_the_par_build_keeps_each_deal_once_resumes_and_leaves_the_grades_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tableaux.catalogue import par

    made: list[tuple[str, int]] = []
    real = par.par_row

    def counted(game: str, deal: int, line_cap: int | None = None) -> dict:
        made.append((game, deal))
        return real(game, deal, line_cap)

    monkeypatch.setattr(par, "par_row", counted)
    out = tmp_path / "catalogue"
    out.mkdir()
    counts = par.build(["eagle-wing"], tmp_path, catalogue_dir=out, limit=2, say=lambda text: None)
    assert len(made) == 2 and counts["eagle-wing"] >= 2
    again = par.build(["eagle-wing"], tmp_path, catalogue_dir=out, limit=1, say=lambda text: None)
    assert len(made) == 3 and len(set(made)) == 3 and again["eagle-wing"] == counts["eagle-wing"] + 1
    written = parse_catalogue("eagle-wing", json.loads(gzip.decompress((out / "eagle-wing.json.gz").read_bytes())))
    shipped = load("eagle-wing")
    assert [e.row()[:-2] for e in written.entries] == [e.row()[:-2] for e in shipped.entries]  # grades as they were
    for _game, deal in made:
        entry = written.by_deal[deal]
        assert entry.par is not None and entry.par_bound is not None and entry.par_bound <= entry.par <= entry.line


@pytest.mark.slow
def test_the_par_build_works_out_again_a_winnable_deal_whose_row_has_no_par_and_no_lost_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tableaux.catalogue import par
    from tableaux.survey.files import append_results

    shipped = load("eagle-wing")
    won = shipped.winnable[0].deal
    lost = next(e.deal for e in shipped.entries if e.verdict == "unwinnable")
    append_results(par.progress_path("eagle-wing", tmp_path),
                   [{"game": "eagle-wing", "deal": deal, "par": None, "bound": None, "error": "out of positions"}
                    for deal in (won, lost)])
    made: list[int] = []
    real = par.par_row

    def counted(game: str, deal: int, line_cap: int | None = None) -> dict:
        made.append(deal)
        return real(game, deal, line_cap)

    monkeypatch.setattr(par, "par_row", counted)
    monkeypatch.setattr(par, "order", lambda games, today: [("eagle-wing", won), ("eagle-wing", lost)])
    out = tmp_path / "catalogue"
    out.mkdir()
    counts = par.build(["eagle-wing"], tmp_path, catalogue_dir=out, say=lambda text: None)
    assert made == [won] and counts["eagle-wing"] == 1
    written = parse_catalogue("eagle-wing", json.loads(gzip.decompress((out / "eagle-wing.json.gz").read_bytes())))
    assert written.by_deal[won].par is not None and written.by_deal[lost].par is None


def test_cli_pick_and_daily_say_the_par_when_the_deal_has_one() -> None:
    out = run_tableaux("pick", "king-albert", "--winnable", "--json")
    data = json.loads(out.stdout)
    entry = catalogue.lookup("king-albert", data["deal"])
    assert (data["par"], data["par_lower_bound"]) == (entry.par, entry.par_bound)
    day = json.loads(run_tableaux("daily", "eagle-wing", "--date", "2025-07-04", "--json").stdout)
    entry = daily("eagle-wing", "2025-07-04")
    assert (day["par"], day["par_lower_bound"]) == (entry.par, entry.par_bound)


@pytest.mark.parametrize("bad", [-1, 2**40, "17", 1.0, None])
def test_looking_up_a_deal_number_that_is_not_one_is_refused_saying_what_is_accepted(bad: object) -> None:
    with pytest.raises(CatalogueError, match="0 to 4294967295"):
        catalogue.lookup("king-albert", bad)  # type: ignore[arg-type]
    assert catalogue.lookup("king-albert", 17) is not None and catalogue.lookup("king-albert", 10**6) is None
