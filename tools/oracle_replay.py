"""Replay solver lines in AisleRiot's own rules code (the oracle in ../shared/tools), for developers.

    python tools/oracle_replay.py king-albert 1-20 [--oracle PATH] [--shortest N]

Solves each deal with ``tableaux.solve`` (the shortened line it returns; with ``--shortest N`` the
fewest-moves search's, N positions a deal); every winning line is replayed move by
move in the oracle, which must accept each move and end with a won game. The
project's tests do not need the oracle (they carry recorded positions); this is
the check to run after changing the rules engine or the solver.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import tableaux
from tableaux.rulebook.deal import parse_deals

DEFAULT_ORACLE = Path(__file__).resolve().parents[2] / "shared" / "tools" / "aisleriot-oracle" / "oracle"


def oracle_action(rules: tableaux.Rules, move: tableaux.Move) -> dict[str, int]:
    """Our move as the oracle's action: a drag between slots, or a click on Eagle Wing's stock."""
    src, count, dst = rules.to_raw(move)
    if "stock" in (move.source, move.target):
        return {"click": rules.index["stock"]}
    return {"from": src, "count": count, "to": dst}  # slot ids are our pile indexes in both games


def replay(oracle: Path, game: str, deal: int, moves: list[tableaux.Move]) -> tuple[bool, str]:
    rules = tableaux.rules(game)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        for move in moves:
            fh.write(json.dumps(oracle_action(rules, move)) + "\n")
    run = subprocess.run([str(oracle), game, str(deal), "--moves", fh.name], capture_output=True, text=True)
    Path(fh.name).unlink()
    lines = run.stdout.strip().splitlines()
    if run.returncode != 0 or not lines:
        return False, (lines[-1] if lines else run.stderr.strip())[:300]
    last = json.loads(lines[-1])
    return bool(last.get("won")), f"{len(lines) - 1} moves, won={last.get('won')}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=["king-albert", "eagle-wing"])
    parser.add_argument("deals", type=parse_deals)
    parser.add_argument("--oracle", type=Path, default=DEFAULT_ORACLE)
    parser.add_argument("--max-nodes", type=int, default=5_000_000)
    parser.add_argument("--shortest", type=int, default=None, metavar="N",
                        help="replay the fewest-moves search's lines, N positions a deal")
    args = parser.parse_args(argv)
    replayed = failed = 0
    for deal in args.deals:
        game = tableaux.new_game(args.game, deal)
        if args.shortest:
            result = tableaux.solve(game, max_nodes=args.shortest, shortest=True)
        else:
            result = tableaux.solve(game, max_nodes=args.max_nodes)
        if result.verdict != "winnable":
            continue
        won, detail = replay(args.oracle, args.game, deal, result.moves)
        replayed += 1
        failed += not won
        print(f"{args.game} {deal}: {'won' if won else 'NOT WON'} in the oracle ({detail}; {result.backend} solver)")
    print(f"{replayed - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
