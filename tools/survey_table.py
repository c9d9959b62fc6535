"""Redo the tables of docs/winnability.md and docs/fair.md from the survey files in results/, or explain one row.

    python tools/survey_table.py                          # rewrite the tables between the doc's markers
    python tools/survey_table.py --row king-albert-classic 76210   # a deal's row and the command that makes it
    python tools/survey_table.py --retries king-albert-classic     # what each bigger budget decided
    python tools/survey_table.py --compare king-albert /tmp/check.jsonl.gz   # verdicts of another survey

The survey table summarises the longest run of consecutive deals from 1 in ``results/GAME.jsonl.gz``
(the last row of a deal wins, as in ``tableaux survey``). The provenance table counts those deals'
rows by the budget and search that made them. The no-peek table (in docs/fair.md) sets each
``results/fair-GAME*.jsonl.gz`` beside the solver's verdicts on the same deals, and the budget curve
counts the fair player's wins on deals 1-200 at each budget it was surveyed with. ``--compare`` checks
another survey of the same game (another backend, another build, another budget) against the kept
one: a deal both decided must have the same verdict, or the exit status is 1.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shlex
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tableaux.common.intervals import wilson
from tableaux.solver import DEFAULT_MEMORY_MB
from tableaux.survey.files import read_results
from tableaux.survey.solver import summarise

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
DOC = ROOT / "docs" / "winnability.md"
FAIR_DOC = ROOT / "docs" / "fair.md"
GAMES = ("king-albert", "eagle-wing", "king-albert-classic")

UNRECORDED_MEMORY = {("king-albert", 100_000_000): 4096}
"""Rows that lack ``memory_mb`` were made with the default memory, except these (game, max_nodes): their
survey ran with ``--memory`` without writing it in the rows."""


def pct(n: int, total: int) -> str:
    return f"{n:,} ({100 * n / total:.2f}%)" if n else "0"


def surveyed(game: str) -> dict[int, dict[str, Any]]:
    """The final row of every deal in the longest run of consecutive deals from 1."""
    rows = read_results(RESULTS / f"{game}.jsonl.gz", game)
    last = 0
    while last + 1 in rows:
        last += 1
    return {d: rows[d] for d in range(1, last + 1)}


def memory_of(row: dict[str, Any]) -> int:
    return row.get("memory_mb") or UNRECORDED_MEMORY.get((row["game"], row["max_nodes"]), DEFAULT_MEMORY_MB)


def survey_table(surveys: dict[str, dict[int, dict[str, Any]]]) -> str:
    lines = [
        "| game | deals surveyed | winnable | unwinnable | unknown | winnable share, 95% CI "
        "| seconds per deal: median, p99, max |",
        "|---|---|---|---|---|---|---|",
    ]
    for game, rows in surveys.items():
        if not rows:
            continue
        s = summarise(rows.values())
        lines.append(f"| `{game}` | 1-{len(rows):,} | {pct(s.winnable, s.deals)} | {pct(s.unwinnable, s.deals)} | "
                     f"{pct(s.unknown, s.deals)} | **{100 * s.low:.2f}% .. {100 * s.high:.2f}%** | "
                     f"{s.median:.3f}, {s.p99:.2f}, {s.max:.1f} |")
    return "\n".join(lines)


def search_of(row: dict[str, Any]) -> str:
    if "search" in row:
        return f"{row['search']} (line kept)"
    if "relaxed" in row and row["verdict"] == "unwinnable":
        return f"game relaxed above rank {row['relaxed']} first"
    search = ("complete search alone" if row.get("first_pass") is False else "first pass, then complete search")
    if row.get("layered"):
        search = f"layered complete search, {row.get('disk_mb', 0):,} MiB of disk"
    return search + (", no relaxed stage" if row.get("relaxed_stage") is False else "")


def provenance_table(surveys: dict[str, dict[int, dict[str, Any]]]) -> str:
    """Which budget and search made each deal's final row: what a rerun must give to reproduce it."""
    lines = [
        "| game | positions | memory (MiB) | search | rows | winnable | unwinnable | unknown |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for game, rows in surveys.items():
        groups: dict[tuple[int, int, str], Counter[str]] = {}
        for row in rows.values():
            key = (row["max_nodes"] or 0, memory_of(row), search_of(row))
            groups.setdefault(key, Counter())[row["verdict"]] += 1
        for (nodes, memory, search), counts in sorted(groups.items()):
            lines.append(f"| `{game}` | {nodes:,} | {memory:,} | {search} | {sum(counts.values()):,} | "
                         f"{counts['winnable']:,} | {counts['unwinnable']:,} | {counts['unknown']:,} |")
    return "\n".join(lines)


def fair_rows(path: Path) -> tuple[str, dict[int, dict[str, Any]]] | None:
    """The game and the rows of one no-peek survey file, or None when the name names no game."""
    game = next((g for g in sorted(GAMES, key=len, reverse=True) if path.name.startswith(f"fair-{g}")), None)
    return None if game is None else (game, read_results(path, game, field="won"))


def per_move(rows: list[dict[str, Any]]) -> str:
    """Seconds per move: all the deals' seconds over all their moves (a long lost game weighs its moves)."""
    moves = sum(len(r["moves"]) for r in rows)
    return f"{sum(r['seconds'] for r in rows) / moves:.3f}" if moves else "-"


def fair_table(surveys: dict[str, dict[int, dict[str, Any]]]) -> str:
    """Each no-peek survey: its player and settings, its wins, and the solver's winnable share of the same deals."""
    rows = []
    for path in sorted(RESULTS.glob("fair-*.jsonl.gz")):
        found = fair_rows(path)
        if found is None or not found[1]:
            continue
        game, fair = found
        deals = sorted(fair)
        games = [fair[d] for d in deals]
        won = sum(bool(r["won"]) for r in games)
        low, high = wilson(won, len(deals))
        solver = surveys[game]
        seen = [d for d in deals if d in solver]
        if len(seen) == len(deals):
            winnable = sum(solver[d]["verdict"] == "winnable" for d in deals)
            unknown = sum(solver[d]["verdict"] == "unknown" for d in deals)
            s_low, s_high = wilson(winnable, len(deals))[0], wilson(winnable + unknown, len(deals))[1]
            beside = f"{winnable:,} ({100 * winnable / len(deals):.1f}%), {100 * s_low:.1f}% .. {100 * s_high:.1f}%"
        else:
            beside = "not surveyed"
        first = games[0]
        span = f"{deals[0]:,}-{deals[-1]:,}" + ("" if deals[-1] - deals[0] + 1 == len(deals) else " (some)")
        rows.append(f"| `{game}` | {first.get('player', 'fair')} | {span} ({len(deals):,}) | {first['samples']} | "
                    f"{first['max_nodes']:,} | {first['seed']} | "
                    f"{won:,} ({100 * won / len(deals):.1f}%), **{100 * low:.1f}% .. {100 * high:.1f}%** | "
                    f"{per_move(games)} | {beside} | `{path.name}` |")
    return "\n".join([
        "| game | player | deals | layouts per decision | positions per layout | seed "
        "| won without peeking, 95% CI | seconds per move | winnable (solver sees all), 95% CI | file |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *rows,
    ])


CURVE_DEALS = range(1, 201)
"""The deals every point of the budget curve plays: the first 200, so that points differ in budget only."""


def fair_curve() -> str:
    """The fair player's wins on the same deals at each budget it was surveyed with, smallest budget first."""
    points = []
    for path in sorted(RESULTS.glob("fair-*.jsonl.gz")):
        found = fair_rows(path)
        if found is None:
            continue
        game, rows = found
        if not all(d in rows for d in CURVE_DEALS) or rows[CURVE_DEALS[0]].get("player") != "fair":
            continue
        games = [rows[d] for d in CURVE_DEALS]
        first = games[0]
        won = sum(bool(r["won"]) for r in games)
        low, high = wilson(won, len(games))
        points.append(((game, first["samples"] * first["max_nodes"], first["samples"]),
                       f"| `{game}` | {first['samples']} | {first['max_nodes']:,} | {won} "
                       f"({100 * won / len(games):.1f}%), {100 * low:.1f}% .. {100 * high:.1f}% | {per_move(games)} |"))
    per_game = Counter(key[0] for key, _ in points)
    points = [(key, line) for key, line in points if per_game[key[0]] > 1]  # a curve needs two points
    return "\n".join([
        f"| game | layouts per decision | positions per layout | won of deals {CURVE_DEALS[0]}-{CURVE_DEALS[-1]}, "
        "95% CI | seconds per move |",
        "|---|---|---|---|---|",
        *(line for _, line in sorted(points)),
    ])


def command(row: dict[str, Any]) -> list[str]:
    """The ``tableaux solve`` run with the row's own budget and search."""
    words = ["tableaux", "solve", row["game"], str(row["deal"])]
    if row.get("max_nodes"):
        words += ["--max-nodes", str(row["max_nodes"])]
    if row.get("time_limit") is not None:
        words += ["--time-limit", f"{row['time_limit']:g}"]
    if memory_of(row) != DEFAULT_MEMORY_MB:
        words += ["--memory", str(memory_of(row))]
    if row.get("backend"):
        words += ["--backend", row["backend"]]
    if row.get("first_pass") is False:
        words.append("--no-first-pass")
    if row.get("layered"):
        words.append("--layered")
    if row.get("disk_mb"):
        words += ["--disk", str(row["disk_mb"])]
    if "relaxed" in row:
        words += ["--relaxed", str(row["relaxed"])]
    if row.get("relaxed_stage") is False:
        words.append("--no-relaxed-stage")
    return words


def explain(game: str, deal: int) -> int:
    row = read_results(RESULTS / f"{game}.jsonl.gz", game).get(deal)
    if row is None:
        print(f"{game} deal {deal} is not in results/{game}.jsonl.gz", file=sys.stderr)
        return 2
    print(row)
    if "search" in row:
        print(f"won by a line kept in results/{row['line']} ({row['search']}); "
              "python -m pytest tests/survey/test_results.py plays it to a won game")
    else:
        print(shlex.join(command(row)))
    return 0


def retries(game: str) -> str:
    """What each larger budget bought: the rows that replaced an earlier row of the same deal, by budget."""
    seen: dict[int, str] = {}
    steps: dict[tuple[int, int, str], Counter[str]] = {}
    for row in read_rows(RESULTS / f"{game}.jsonl.gz"):
        if row["deal"] in seen:
            key = (row["max_nodes"] or 0, memory_of(row), search_of(row))
            steps.setdefault(key, Counter())[row["verdict"]] += 1
            steps[key]["out of memory"] += bool(row.get("out_of_memory"))
        seen[row["deal"]] = row["verdict"]
    lines = [f"{game}: rows that solved a deal again, in file order of their first appearance",
             "| positions | memory (MiB) | search | deals | winnable | unwinnable | unknown (out of memory) |",
             "|---|---|---|---|---|---|---|"]
    for (nodes, memory, search), c in steps.items():
        lines.append(f"| {nodes:,} | {memory:,} | {search} | {c['winnable'] + c['unwinnable'] + c['unknown']:,} | "
                     f"{c['winnable']:,} | {c['unwinnable']:,} | {c['unknown']:,} ({c['out of memory']}) |")
    return "\n".join(lines)


def read_rows(path: Path) -> Iterator[dict[str, Any]]:
    """Every row of a survey file in order, retries included (``read_results`` keeps only each deal's last)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for text in f:
            if text.strip():
                yield json.loads(text)


def compare(game: str, other: Path) -> int:
    kept = read_results(RESULTS / f"{game}.jsonl.gz", game)
    new = read_results(other, game)
    both = [d for d in new if d in kept and "unknown" not in (kept[d]["verdict"], new[d]["verdict"])]
    differ = [d for d in both if kept[d]["verdict"] != new[d]["verdict"]]
    for d in differ:
        print(f"{game} {d}: {kept[d]['verdict']} in results/, {new[d]['verdict']} in {other}")
    only_kept = sum(new[d]["verdict"] == "unknown" and kept.get(d, {}).get("verdict", "unknown") != "unknown"
                    for d in new)
    only_new = sum(new[d]["verdict"] != "unknown" and kept.get(d, {}).get("verdict", "unknown") == "unknown"
                   for d in new)
    print(f"{game}: {len(new):,} deals in {other}; {len(both):,} decided in both, {len(differ)} disagreements; "
          f"{only_kept:,} decided only in results/, {only_new:,} only in {other}")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--row", nargs=2, metavar=("GAME", "DEAL"), help="print a deal's row and how to remake it")
    parser.add_argument("--retries", metavar="GAME", help="what each bigger budget decided among the unknown deals")
    parser.add_argument("--compare", nargs=2, metavar=("GAME", "FILE"),
                        help="compare another survey file's verdicts with results/GAME.jsonl.gz")
    args = parser.parse_args(argv)
    if args.row:
        return explain(args.row[0], int(args.row[1]))
    if args.retries:
        print(retries(args.retries))
        return 0
    if args.compare:
        return compare(args.compare[0], Path(args.compare[1]))
    surveys = {game: surveyed(game) for game in GAMES}
    tables = {DOC: (("survey-table", survey_table(surveys)), ("provenance", provenance_table(surveys))),
              FAIR_DOC: (("fair-table", fair_table(surveys)), ("fair-curve", fair_curve()))}
    for doc, contents in tables.items():
        text = doc.read_text()
        for marker, content in contents:
            print(content)
            text, found = re.subn(rf"(<!-- {marker} -->\n).*?(<!-- /{marker} -->)",
                                  lambda m, c=content: m.group(1) + c + "\n" + m.group(2), text, flags=re.S)
            if not found:
                print(f"docs/{doc.name} has no {marker} markers", file=sys.stderr)
                return 1
        doc.write_text(text)
    for game, rows in surveys.items():
        unknown = [d for d, r in rows.items() if r["verdict"] == "unknown"]
        out_of_memory = sum(bool(rows[d].get("out_of_memory")) for d in unknown)
        print(f"{game}: {len(unknown)} unknown ({out_of_memory} out of memory): {', '.join(map(str, unknown))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
