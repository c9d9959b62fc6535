"""Each catalogued deal's par: ``python -m tableaux.catalogue par``, a resumable build run outside CI.

The par of a winnable deal is the fewest moves of a winning line the solver found with
``solve(..., shortest=True)`` and :data:`PAR_NODES` positions (a node budget, so the same on every machine),
and its bound what that search proved: no winning line has fewer moves (``docs/solver.md``). A player who wins
in par moves has played as well as the solver; one who wins in par_bound moves, as well as anyone can.

The build takes minutes per hundred deals, so it keeps a row per deal in ``results/par-GAME.jsonl.gz`` (the
line, its length, the bound, the positions and seconds) as each is done, and a rerun skips the deals that
have a row: it can be stopped at any time and started again. A winnable deal whose row has no par (its search
ran out of positions) is worked out again, so a better solver fills it in. Now and then, and at the end, it
writes the pars into the shipped catalogue (:func:`merge`), beside the grades, which it leaves as they are.
The deals of the coming days' daily deals go first, then the others in deal order, taking the games in turn.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..rulebook.registry import rules
from ..solver import solve
from ..survey.files import append_results, drop_torn_tail, read_results
from .day import daily
from .files import Catalogue, load, parse_catalogue, shipped_path, write

PAR_NODES = 200_000
"""Positions the fewest-moves search of one deal may make, its first search included."""

AHEAD_DAYS = 120
"""Daily deals of this many days from the start of a build are worked out first."""

MERGE_EVERY = 25
"""Rows between two writes of the catalogue, so a stopped build loses none and shows its progress."""

RESULTS = Path(__file__).resolve().parents[3] / "results"
"""Where a build from a clone keeps its rows (the repository's ``results/``)."""


def par_row(game: str, deal: int, line_cap: int | None = None) -> dict[str, Any]:
    """One deal's par: the row the build keeps. ``line_cap``: a winning line already known (the catalogue's), whose
    length the par never exceeds."""
    started = time.process_time()
    # Every deal with a par is winnable: a relaxed game has nothing to prove there, so the whole budget searches.
    result = solve(game, deal, shortest=True, max_nodes=PAR_NODES, relaxed_stage=False)
    if not result.winnable or result.lower_bound is None:
        raise ValueError(f"{game} deal {deal} is in the catalogue as winnable, but the solver says {result.verdict} "
                         f"within {PAR_NODES} positions")
    moves = len(result.moves)
    return {
        "game": game,
        "deal": deal,
        "par": moves if line_cap is None else min(moves, line_cap),
        "bound": result.lower_bound,
        "optimal": result.optimal,
        "nodes": result.nodes,
        "seconds": round(time.process_time() - started, 3),
        "line": " ".join(str(m) for m in result.moves),
    }


def _task(task: tuple[str, int, int | None]) -> dict[str, Any]:
    try:
        return par_row(*task)
    except ValueError as exc:  # kept as a row without a par, so the build goes on and says why
        return {"game": task[0], "deal": task[1], "par": None, "bound": None, "error": str(exc)}


def progress_path(game: str, folder: Path = RESULTS) -> Path:
    return folder / f"par-{game}.jsonl.gz"


def merge(catalogue: Catalogue, rows: dict[int, dict[str, Any]], out: Path) -> Catalogue:
    """The catalogue with each deal's par from ``rows`` written into it (grades and all else unchanged)."""
    data = {**catalogue.header}
    body = []
    for entry in catalogue.entries:
        row = rows.get(entry.deal)
        has = row is not None and row["par"] is not None and entry.winnable
        par = (row["par"], row["bound"]) if has else (entry.par, entry.par_bound)  # type: ignore[index]
        body.append([*entry.row()[:-2], *par])
    data["rows"] = body
    data["par_nodes"] = PAR_NODES
    merged = parse_catalogue(catalogue.game, data)
    write(data, out)
    return merged


def order(games: Sequence[str], today: dt.date, ahead: int = AHEAD_DAYS) -> list[tuple[str, int]]:
    """The deals of ``games`` in the order the build takes them: the coming daily deals, then the rest."""
    first: list[tuple[str, int]] = []
    for day in range(ahead):
        for game in games:
            pick = (game, daily(game, today + dt.timedelta(days=day)).deal)
            if pick not in first:
                first.append(pick)
    seen = set(first)
    rest = [[(g, e.deal) for e in load(g).winnable if (g, e.deal) not in seen] for g in games]
    turns = [item for group in zip(*_padded(rest), strict=True) for item in group if item is not None]
    return first + turns


def _padded(groups: list[list[tuple[str, int]]]) -> Iterator[list[tuple[str, int] | None]]:
    longest = max((len(g) for g in groups), default=0)
    for g in groups:
        yield [*g, *([None] * (longest - len(g)))]


def build(games: Sequence[str], folder: Path = RESULTS, workers: int = 1, catalogue_dir: Path | None = None,
          limit: int | None = None, say: Callable[[str], None] = print) -> dict[str, int]:
    """Work out the par of every winnable catalogued deal of ``games`` that has no par yet (at most ``limit``),
    keeping rows in ``folder`` and pars in the catalogues (``catalogue_dir``, default: the package's). Returns
    each game's deals with a par."""
    for game in games:
        rules(game)
        drop_torn_tail(progress_path(game, folder))
    folder.mkdir(parents=True, exist_ok=True)
    done = {game: read_results(progress_path(game, folder), game, field="par") for game in games}
    lines = {game: {e.deal: e.line for e in load(game).winnable} for game in games}
    todo = [(g, d, lines[g][d]) for g, d in order(games, dt.datetime.now(dt.UTC).date())
            if d not in done[g] or (done[g][d]["par"] is None and d in lines[g])]
    if limit is not None:
        todo = todo[:limit]
    say(f"par: {sum(map(len, done.values()))} deals done, {len(todo)} to go, {PAR_NODES:,} positions each")
    since = 0
    for row in _rows(todo, workers):
        append_results(progress_path(row["game"], folder), [row])
        done[row["game"]][row["deal"]] = row
        since += 1
        if row["par"] is None:
            say(f"{row['game']} {row['deal']}: no par: {row['error']}")
        else:
            say(f"{row['game']} {row['deal']}: par {row['par']}, bound {row['bound']}"
                f"{' (fewest)' if row['optimal'] else ''}, {row['seconds']:.1f} s")
        if since >= MERGE_EVERY:
            _merge_all(games, done, catalogue_dir)
            since = 0
    _merge_all(games, done, catalogue_dir)
    compact(games, folder)
    # Rows are kept for the coming daily deals too, winnable or not, and for deals the build could not give a
    # par: only a winnable deal's row with a par puts one in the catalogue.
    return {game: sum(1 for deal, row in rows.items() if deal in lines[game] and row["par"] is not None)
            for game, rows in done.items()}


def compact(games: Sequence[str], folder: Path = RESULTS) -> None:
    """Rewrite each game's rows as one gzip stream, in deal order: the build appends a stream per row, which
    costs a header each. Not while a build appends to the same files."""
    for game in games:
        path = progress_path(game, folder)
        rows = read_results(path, game, field="par")
        if not rows:
            continue
        text = "".join(json.dumps(rows[deal]) + "\n" for deal in sorted(rows)).encode()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(gzip.compress(text, mtime=0))
        tmp.replace(path)


def _rows(todo: list[tuple[str, int, int | None]], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        yield from map(_task, todo)
        return
    from multiprocessing import Pool

    with Pool(workers) as pool:
        yield from pool.imap_unordered(_task, todo, chunksize=1)


def _merge_all(games: Sequence[str], done: dict[str, dict[int, dict[str, Any]]], catalogue_dir: Path | None) -> None:
    for game in games:
        out = (catalogue_dir or shipped_path(game).parent) / f"{game}.json.gz"
        merge(load(game), done[game], out)
    load.cache_clear()
