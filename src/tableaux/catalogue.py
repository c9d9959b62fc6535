"""Graded winnable deals and the daily deal, read from a catalogue shipped with the package.

Grading a deal takes the solver a few milliseconds to a few seconds, so it is
done ahead of time: ``python -m tableaux.catalogue build`` solves a range of
deals of every game with fixed node budgets and writes
``tableaux/data/catalogue/GAME.json.gz``. Reading a catalogue is a small gzip'd
JSON file, read once per process, so picking a deal never waits for the solver.

The grade is defined in :func:`grade_of` and ``docs/difficulty.md``; the daily
deal in :func:`daily`. The module depends on the engine and the solver, never
the reverse.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import gzip
import hashlib
import json
import math
import random
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from .engine import Rules, TableauxError
from .i18n import _

Grade = Literal["easy", "medium", "hard"]
GRADES: tuple[Grade, ...] = ("easy", "medium", "hard")

FORMAT = "tableaux-catalogue"
VERSION = 1
COLUMNS = ("deal", "verdict", "first_moves", "safe_first_moves", "line", "nodes", "grade")
"""One row per deal; the measures are None for a deal that is not (shown to be) winnable."""

DEAL_BUDGET = 200_000
"""Positions the solver may search to decide a deal. A node budget, never a time limit, so a grade is the same on
every machine however busy it is."""
CHILD_BUDGET = 20_000
"""Positions the solver may search for each position one first move leads to."""

TRAP_WEIGHT = 3.0
"""How much the share of first moves that lose (or are not shown to keep the win) adds to the score."""

THRESHOLDS: dict[str, tuple[float, float]] = {
    "king-albert": (2.2, 2.95),
    "eagle-wing": (2.65, 2.9),
    "king-albert-classic": (4.55, 7.0),
}
"""Per game, ``(medium from, hard from)`` on the difficulty score: about a third of the winnable deals of each
game in each grade (measured on the shipped catalogue; see ``docs/difficulty.md``). Fixed numbers, so a deal's
grade never depends on which other deals are in a catalogue."""


class CatalogueError(TableauxError, ValueError):
    """A bad request to the catalogue (unknown grade, bad date), or a catalogue file that is missing or damaged."""


@dataclass(frozen=True)
class Entry:
    """One catalogued deal: its verdict, and for a winnable deal the solver's measures and the grade from them."""

    game: str
    deal: int
    verdict: str
    first_moves: int | None = None
    """Legal moves in the deal's first position."""
    safe_first_moves: int | None = None
    """How many of them lead to a position the solver shows winnable (within :data:`CHILD_BUDGET`)."""
    line: int | None = None
    """Moves in the winning line the solver found."""
    nodes: int | None = None
    """Positions the solver searched to decide the deal (within :data:`DEAL_BUDGET`)."""
    grade: Grade | None = None

    @property
    def winnable(self) -> bool:
        return self.verdict == "winnable"

    @property
    def score(self) -> float | None:
        """The difficulty score the grade is read from (None unless winnable)."""
        if self.first_moves is None or self.safe_first_moves is None or self.nodes is None:
            return None
        return difficulty_score(self.first_moves, self.safe_first_moves, self.nodes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def row(self) -> list[Any]:
        return [getattr(self, name) for name in COLUMNS]


# --- the grade ----------------------------------------------------------------
def difficulty_score(first_moves: int, safe_first_moves: int, nodes: int) -> float:
    """``log10(nodes) + 3 * (share of first moves that are not safe)``.

    Search effort on a log scale, because a deal the solver's move order wins
    almost straight away (nodes close to the line's length) plays smoothly for
    a person too, while tens of thousands of positions mean many tempting dead
    ends; plus a penalty for a first position full of traps, where most moves
    already throw the win away.
    """
    unsafe = 1 - safe_first_moves / first_moves if first_moves else 0.0
    return math.log10(max(nodes, 1)) + TRAP_WEIGHT * unsafe


def grade_of(game: str, first_moves: int, safe_first_moves: int, nodes: int) -> Grade:
    """The grade of a winnable deal from its measures, with the game's fixed :data:`THRESHOLDS`."""
    medium, hard = THRESHOLDS[game]
    score = difficulty_score(first_moves, safe_first_moves, nodes)
    return "easy" if score < medium else "medium" if score < hard else "hard"


def grade_deal(rules: Rules, deal: int, backend: str | None = None) -> Entry:
    """Solve deal ``deal`` and each position its first moves lead to, with the fixed budgets: one catalogue row.

    The first move of the winning line found is safe by construction (the
    rest of the line wins from there), so it is counted without a search.
    Every other first move is safe when the solver wins its position within
    :data:`CHILD_BUDGET`; a position left undecided counts as not safe.
    """
    from .solver import DEFAULT_MEMORY_MB, solve

    start = rules.deal(deal)
    options: dict[str, Any] = {"memory_mb": DEFAULT_MEMORY_MB, "backend": backend}
    result = solve((rules, start), max_nodes=DEAL_BUDGET, **options)
    if not result.winnable:
        return Entry(rules.name, deal, result.verdict, nodes=result.nodes)
    first = rules.to_raw(result.moves[0])
    moves = rules.moves(start)
    safe = 0
    for move in moves:
        if move == first:
            safe += 1
        elif solve((rules, rules.apply(start, move)), max_nodes=CHILD_BUDGET, **options).winnable:
            safe += 1
    grade = grade_of(rules.name, len(moves), safe, result.nodes)
    return Entry(rules.name, deal, "winnable", len(moves), safe, len(result.moves), result.nodes, grade)


# --- reading ------------------------------------------------------------------
@dataclass(frozen=True)
class Catalogue:
    game: str
    entries: tuple[Entry, ...]
    header: dict[str, Any]

    @functools.cached_property
    def winnable(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.winnable)

    @functools.cached_property
    def by_deal(self) -> dict[int, Entry]:
        return {e.deal: e for e in self.entries}


def catalogue_path(game: str) -> Path:
    """Where the catalogue of ``game`` lives inside the installed package."""
    return Path(str(resources.files("tableaux") / "data" / "catalogue" / f"{game}.json.gz"))


def parse_catalogue(game: str, data: Any) -> Catalogue:
    """Check a decoded catalogue file thoroughly: a damaged file must fail here, not hand out a bad deal."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise CatalogueError(_("the {game} catalogue is not a version {version} {format} file").format(
            game=game, version=VERSION, format=FORMAT))
    if data.get("game") != game or data.get("columns") != list(COLUMNS) or not isinstance(data.get("rows"), list):
        raise CatalogueError(_("the {game} catalogue is damaged: wrong game, columns or rows").format(game=game))
    entries = []
    for row in data["rows"]:
        if not isinstance(row, list) or len(row) != len(COLUMNS):
            raise CatalogueError(_("the {game} catalogue is damaged: bad row {row}").format(game=game, row=repr(row)))
        entry = Entry(game, *row)
        measures = (entry.first_moves, entry.safe_first_moves, entry.line, entry.nodes)
        if entry.verdict == "winnable":
            ok = all(isinstance(m, int) and m >= 1 for m in measures) and entry.grade == grade_of(
                game, entry.first_moves, entry.safe_first_moves, entry.nodes  # type: ignore[arg-type]
            )
        else:
            ok = entry.verdict in ("unwinnable", "unknown") and entry.grade is None and entry.line is None
        if not ok or not isinstance(entry.deal, int):
            raise CatalogueError(_(
                "the {game} catalogue is damaged: row {row} does not follow the grade definition").format(
                game=game, row=repr(row)))
        entries.append(entry)
    return Catalogue(game, tuple(entries), {k: v for k, v in data.items() if k != "rows"})


@functools.cache
def load(game: str) -> Catalogue:
    """The shipped catalogue of ``game`` (read once per process)."""
    from . import rules

    rules(game)  # an unknown game name gets the usual error listing the games
    path = catalogue_path(game)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError, EOFError) as exc:
        raise CatalogueError(_(
            "cannot read the {game} catalogue {file} ({error}); rebuild it with: "
            "python -m tableaux.catalogue build --games {game}").format(game=game, file=repr(str(path)), error=exc)
        ) from None
    return parse_catalogue(game, data)


def lookup(game: str, deal: int) -> Entry | None:
    """The catalogue entry for a deal, or None when the deal is not in the catalogue."""
    return load(game).by_deal.get(deal)


def check_grade(difficulty: str | None) -> Grade | None:
    if difficulty is None or difficulty in GRADES:
        return difficulty  # type: ignore[return-value]
    raise CatalogueError(_("difficulty must be one of {grades}, not {difficulty}").format(
        grades=", ".join(GRADES), difficulty=repr(difficulty)))


def pick(
    game: str, winnable: bool = True, difficulty: str | None = None, rng: random.Random | None = None
) -> Entry:
    """A deal from the catalogue, chosen at random: winnable ones only by default, of one grade if asked.

    ``winnable=False`` picks among every catalogued deal, so unwinnable deals
    come up as often as they do among all deals, and the verdict is still
    known. A ``difficulty`` only exists for winnable deals, so it implies
    ``winnable=True``. ``rng`` (a :class:`random.Random`) makes picks repeatable.
    """
    grade = check_grade(difficulty)
    catalogue = load(game)
    pool: Sequence[Entry] = catalogue.winnable if winnable or grade else catalogue.entries
    if grade is not None:
        pool = [e for e in pool if e.grade == grade]
    if not pool:
        raise CatalogueError((_("the {game} catalogue has no {grade} deal; rebuild it with more deals") if grade else
                              _("the {game} catalogue has no winnable deal; rebuild it with more deals")).format(
            game=game, grade=grade_word(grade)))
    return (rng or random).choice(pool)


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(text: str) -> dt.date:
    """``YYYY-MM-DD`` exactly (the form the daily deal is keyed by), or a clear error saying so."""
    if isinstance(text, str) and DATE.fullmatch(text.strip()):
        try:
            return dt.date.fromisoformat(text.strip())
        except ValueError as exc:
            raise CatalogueError(_(
                "not a real date: {text} ({error}); a date is YYYY-MM-DD, for example 2025-03-14").format(
                text=repr(text), error=exc)) from None
    raise CatalogueError(_("a date must be written YYYY-MM-DD, for example 2025-03-14, not {text}").format(
        text=repr(text)))


def today() -> dt.date:
    """Today in UTC: the daily deal changes at midnight UTC for every player at once."""
    return dt.datetime.now(dt.UTC).date()


DAILY_TRIES = 1000


def daily(game: str, date: dt.date | str | None = None) -> Entry:
    """The daily deal of ``game`` for ``date`` (a date or ``YYYY-MM-DD``; today in UTC when None).

    Candidate ``i`` (0, 1, 2, ...) is ``deals[sha256("GAME:YYYY-MM-DD:i") mod len(deals)]`` over the
    catalogue's deals in deal order; the first winnable candidate is the daily deal. Every player with the same
    catalogue gets the same deal, and a solver that later decides more deals only changes the days whose earlier
    candidates it newly decided.
    """
    day = today() if date is None else parse_date(date) if isinstance(date, str) else date
    if not isinstance(day, dt.date) or isinstance(day, dt.datetime):
        raise CatalogueError(_("a date must be a datetime.date or YYYY-MM-DD text, not {date}").format(date=repr(date)))
    catalogue = load(game)
    entries = catalogue.entries
    if not catalogue.winnable:
        raise CatalogueError(_("the {game} catalogue has no winnable deal").format(game=game))
    for i in range(DAILY_TRIES):
        digest = hashlib.sha256(f"{game}:{day.isoformat()}:{i}".encode()).digest()
        entry = entries[int.from_bytes(digest[:8], "big") % len(entries)]
        if entry.winnable:
            return entry
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()  # pragma: no cover - needs ~0 winnable
    return catalogue.winnable[int.from_bytes(digest[:8], "big") % len(catalogue.winnable)]


# --- the command line: tableaux pick / tableaux daily -----------------------------
def grade_word(grade: str | None) -> str:
    """A grade in the player's language; the catalogue and ``--json`` keep the English word."""
    words = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard")}
    return words.get(grade or "", grade or "")


def describe(entry: Entry, title: str) -> str:
    if entry.winnable:
        return _(
            "{game} deal {deal}: winnable, {grade} ({safe} of {first} first moves keep it winnable, "
            "winning line of {line} moves, {nodes} positions searched)"
        ).format(game=title, deal=entry.deal, grade=grade_word(entry.grade), safe=entry.safe_first_moves,
                 first=entry.first_moves, line=entry.line, nodes=entry.nodes)
    verdicts = {"winnable": _("winnable"), "unwinnable": _("unwinnable"), "unknown": _("unknown")}
    return _("{game} deal {deal}: {verdict}").format(game=title, deal=entry.deal,
                                                     verdict=verdicts.get(entry.verdict, entry.verdict))


def run_pick(args: argparse.Namespace) -> int:
    from . import rules

    entry = pick(args.game, winnable=args.winnable, difficulty=args.difficulty)
    if args.json:
        print(json.dumps({"game": entry.game, "deal": entry.deal, "verdict": entry.verdict, "grade": entry.grade}))
    else:
        print(describe(entry, _(rules(args.game).title)))
        print(_("play it: tableaux play {game} --deal {deal}").format(game=entry.game, deal=entry.deal))
    return 0


def date_argument(text: str) -> dt.date:
    """An argparse type, so a bad date gets the usage message and exit status 2."""
    try:
        return parse_date(text)
    except CatalogueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_daily(args: argparse.Namespace) -> int:
    from . import rules

    day = args.date or today()
    entry = daily(args.game, day)
    if args.json:
        print(json.dumps({"game": entry.game, "date": day.isoformat(), "deal": entry.deal}))
    else:
        print(_("{game} daily deal for {date}: deal {deal}").format(
            game=_(rules(args.game).title), date=day.isoformat(), deal=entry.deal))
        print(_("play it: tableaux play {game} --deal {deal}").format(game=entry.game, deal=entry.deal))
    return 0


# --- building -----------------------------------------------------------------
def _grade_task(task: tuple[str, int, str | None]) -> list[Any]:
    from . import rules

    game, deal, backend = task
    return grade_deal(rules(game), deal, backend).row()


def build(game: str, deals: range, out: Path, workers: int = 1, backend: str | None = None) -> Catalogue:
    """Grade ``deals`` of ``game`` and write the catalogue file: the same file for the same solver and budgets."""
    from . import rules
    from .solver import default_backend

    rules(game)
    backend = backend or default_backend()
    tasks = [(game, d, backend) for d in deals]
    rows: Iterable[list[Any]]
    if workers > 1:
        from multiprocessing import Pool

        with Pool(workers) as pool:
            rows = pool.map(_grade_task, tasks, chunksize=16)
    else:
        rows = map(_grade_task, tasks)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "deals": f"{deals.start}-{deals.stop - 1}",
        "deal_budget": DEAL_BUDGET,
        "child_budget": CHILD_BUDGET,
        "backend": backend,
        "columns": list(COLUMNS),
        "rows": list(rows),
    }
    catalogue = parse_catalogue(game, data)
    write(data, out)
    return catalogue


def write(data: dict[str, Any], out: Path) -> None:
    """Write a catalogue atomically; mtime 0, so the same catalogue gives the same bytes (no diff on a rebuild)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    text = json.dumps(data, separators=(",", ":")).replace("],[", "],\n[")
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(text.encode())
    tmp.replace(out)


def summary(catalogue: Catalogue) -> str:
    entries = catalogue.entries
    counts = {v: sum(e.verdict == v for e in entries) for v in ("winnable", "unwinnable", "unknown")}
    grades = {g: sum(e.grade == g for e in entries) for g in GRADES}
    return (f"{catalogue.game}: {len(entries)} deals, "
            + ", ".join(f"{n} {v}" for v, n in counts.items())
            + "; graded " + ", ".join(f"{n} {g}" for g, n in grades.items()))


def main(argv: Sequence[str] | None = None) -> int:
    from . import GAMES
    from .solver.survey import SurveyError, parse_deals

    parser = argparse.ArgumentParser(
        prog="python -m tableaux.catalogue",
        description="Regenerate the graded deal catalogues shipped in tableaux/data/catalogue/ (docs/difficulty.md).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="solve and grade a range of deals of each game")
    p.add_argument("--games", nargs="+", choices=tuple(GAMES), default=list(GAMES))
    p.add_argument("--deals", default="1-3000", help="range of deal numbers (default 1-3000)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--out", type=Path, default=None, help="directory (default: the package's data/catalogue)")
    p = sub.add_parser("summary", help="count the verdicts and grades of the shipped catalogues")
    args = parser.parse_args(argv)
    if args.command == "summary":
        for game in GAMES:
            print(summary(load(game)))
        return 0
    try:
        deals = parse_deals(args.deals)
    except SurveyError as exc:
        parser.error(str(exc))
    for game in args.games:
        out = (args.out or catalogue_path(game).parent) / f"{game}.json.gz"
        print(summary(build(game, deals, out, workers=max(1, args.workers))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
