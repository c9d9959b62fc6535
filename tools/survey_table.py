"""Redo the results table of docs/winnability.md from the survey files, and check them against the old ones.

    python tools/survey_table.py            # rewrites the table between the survey-table markers

For each game it reads ``results/GAME.jsonl.gz`` (the surveys in progress), summarises the
longest run of consecutive deals from 1, and compares every verdict with the earlier surveys in
``results/GAME.jsonl`` where both decided: any disagreement is printed and makes the exit status 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tableaux.solver.survey import read_results, summarise

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("king-albert", "eagle-wing", "king-albert-classic")


def pct(n: int, total: int) -> str:
    return f"{n:,} ({100 * n / total:.2f}%)" if n else "0"


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
    text = re.sub(r"(<!-- survey-table -->\n).*?(\n<!-- /survey-table -->)", lambda m: m.group(1) + table + m.group(2),
                  text, flags=re.S)
    doc.write_text(text)
    print(table)
    print(f"{disagreements} disagreements with the earlier surveys")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
