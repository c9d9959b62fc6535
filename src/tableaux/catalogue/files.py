"""The catalogue files shipped in ``tableaux/data/catalogue/``: reading, checking, writing, and picking a deal.

Reading a catalogue is a small gzip'd JSON file, read once per process, so
picking a deal never waits for the solver. A damaged file fails when it is
read, never by handing out a bad deal.
"""

from __future__ import annotations

import functools
import gzip
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..i18n import _
from ..rulebook.deal import DealError, check_deal
from ..rulebook.registry import rules
from .grades import COLUMNS, GRADES, CatalogueError, Entry, Grade, grade_of, grade_word

FORMAT = "tableaux-catalogue"
VERSION = 2
"""Version 2 added each deal's par (``par``, ``par_bound``) beside the grade."""


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


def shipped_path(game: str) -> Path:
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
            ) and _par_ok(entry)
        else:
            ok = (entry.verdict in ("unwinnable", "unknown") and entry.grade is None and entry.line is None
                  and entry.par is None and entry.par_bound is None)
        if not ok or not isinstance(entry.deal, int):
            raise CatalogueError(_(
                "the {game} catalogue is damaged: row {row} does not follow the grade definition").format(
                game=game, row=repr(row)))
        entries.append(entry)
    return Catalogue(game, tuple(entries), {k: v for k, v in data.items() if k != "rows"})


def _par_ok(entry: Entry) -> bool:
    """A par not worked out yet, or a line no longer than the search's first one and no shorter than its bound."""
    par, bound = entry.par, entry.par_bound
    if par is None or bound is None:
        return par is None and bound is None
    return (all(isinstance(x, int) and not isinstance(x, bool) for x in (par, bound))
            and 1 <= bound <= par <= entry.line)  # type: ignore[operator]


@functools.cache
def load(game: str) -> Catalogue:
    """The shipped catalogue of ``game`` (read once per process)."""
    rules(game)  # an unknown game name gets the usual error listing the games
    path = shipped_path(game)
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
    """The catalogue entry for a deal, or None when the deal is not in the catalogue; a deal number that is not
    one (:func:`tableaux.rulebook.deal.check_deal`) is refused, as dealing it would be."""
    try:
        deal = check_deal(deal)
    except DealError as exc:
        raise CatalogueError(str(exc)) from None
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


def write(data: dict[str, Any], out: Path) -> None:
    """Write a catalogue atomically; mtime 0, so the same catalogue gives the same bytes (no diff on a rebuild)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    text = json.dumps(data, separators=(",", ":")).replace("],[", "],\n[")
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(text.encode())
    tmp.replace(out)
