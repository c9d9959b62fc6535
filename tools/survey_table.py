"""Redo the results tables of docs/winnability.md from the survey files, and check them against the old ones.

    python tools/survey_table.py            # rewrites the tables between the survey-table and fair-table markers

For each game it reads ``results/GAME.jsonl.gz`` (the surveys in progress), summarises the
longest run of consecutive deals from 1, and compares every verdict with the earlier surveys in
``results/GAME.jsonl`` where both decided: any disagreement is printed and makes the exit status 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tableaux.solver.survey import summarise
from tableaux.solver.survey_file import read_results
from tableaux.statistics import wilson

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("king-albert", "eagle-wing", "king-albert-classic")


def pct(n: int, total: int) -> str:
    return f"{n:,} ({100 * n / total:.2f}%)" if n else "0"


def fair_table() -> str:
    """The no-peek player's wins beside the solver's winnable share, over the same deals."""
    rows = []
    for path in sorted((ROOT / "results").glob("fair-*.jsonl.gz")):
        game = next((g for g in sorted(GAMES, key=len, reverse=True) if path.name.startswith(f"fair-{g}")), None)
        if game is None:
            continue
        fair = read_results(path, game, field="won")
        solver = read_results(ROOT / "results" / f"{game}.jsonl.gz", game)
        deals = sorted(d for d in fair if d in solver)
        if not deals:
            continue
        won = sum(bool(fair[d]["won"]) for d in deals)
        low, high = wilson(won, len(deals))
        winnable = sum(solver[d]["verdict"] == "winnable" for d in deals)
        unknown = sum(solver[d]["verdict"] == "unknown" for d in deals)
        s_low, s_high = wilson(winnable, len(deals))[0], wilson(winnable + unknown, len(deals))[1]
        first = fair[deals[0]]
        rows.append(f"| `{game}` | {deals[0]}-{deals[-1]} ({len(deals):,}) | {first['samples']} | "
                    f"{first['max_nodes']:,} | "
                    f"{won:,} ({100 * won / len(deals):.1f}%), **{100 * low:.1f}% .. {100 * high:.1f}%** | "
                    f"{winnable:,} ({100 * winnable / len(deals):.1f}%), {100 * s_low:.1f}% .. {100 * s_high:.1f}% |")
    return "\n".join([
        "| game | deals | samples per move | positions per layout | won without peeking, 95% CI "
        "| winnable (solver sees all), 95% CI |",
        "|---|---|---|---|---|---|",
        *rows,
    ])


def main() -> int:
    rows, disagreements = [], 0
    for game in GAMES:
        new = read_results(ROOT / "results" / f"{game}.jsonl.gz", game)
        old = read_results(ROOT / "results" / f"{game}.jsonl", game)
        for deal, row in new.items():
            before = old.get(deal)
            if before and "unknown" not in (before["verdict"], row["verdict"]) and before["verdict"] != row["verdict"]:
                print(f"{game} {deal}: {before['verdict']} before, {row['verdict']} now")
                disagreements += 1
        last = 0
        while last + 1 in new:
            last += 1
        if not last:
            continue
        s = summarise(new[d] for d in range(1, last + 1))
        rows.append(f"| `{game}` | 1-{last:,} | {pct(s.winnable, s.deals)} | {pct(s.unwinnable, s.deals)} | "
                    f"{pct(s.unknown, s.deals)} | **{100 * s.low:.2f}% .. {100 * s.high:.2f}%** | "
                    f"{s.median:.3f}, {s.p99:.2f}, {s.max:.1f} |")
    table = "\n".join([
        "| game | deals surveyed | winnable | unwinnable | unknown | winnable share, 95% CI "
        "| seconds per deal: median, p99, max |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ])
    doc = ROOT / "docs" / "winnability.md"
    text = doc.read_text()
    for marker, content in (("survey-table", table), ("fair-table", fair_table())):
        pattern = rf"(<!-- {marker} -->\n).*?(\n<!-- /{marker} -->)"
        text = re.sub(pattern, lambda m, c=content: m.group(1) + c + m.group(2), text, flags=re.S)
    doc.write_text(text)
    print(table)
    print(fair_table())
    print(f"{disagreements} disagreements with the earlier surveys")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
