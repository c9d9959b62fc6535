"""One-command reliability run: the long versions of the hostile-input, crash, concurrency and engine tests.

    python benchmarks/reliability.py            # about five minutes on two cores
    python benchmarks/reliability.py --quick    # the sizes the normal test suite uses (under a minute)

Runs, one after the other, each in its own pytest process:

1. schemathesis fuzzing of every endpoint from /openapi.json (tests/web/test_fuzz_openapi.py),
2. the hostile-input tests by hand (tests/reliability/test_hostile.py, tests/game/test_hostile_saves.py),
3. SIGKILL of the real server during bursts of moves, restarted each time (tests/reliability/test_crash_moves.py),
   of a schema migration midway (tests/reliability/test_crash_migration.py), of one of two servers sharing a
   database (tests/reliability/test_crash_processes.py), and of a survey mid-run (tests/survey/test_crash_survey.py),
4. many players with several racing tabs each, over loopback, and moves during a flood of hint
   requests (tests/reliability/test_concurrency.py),
5. the engine's state machine: long random play/undo/redo/restart/save/load (tests/game/test_stateful.py),

and prints: requests fuzzed, crashes survived, moves verified after crashes,
concurrent players held and p99 latency under that load. Exits non-zero if any
part fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_part(label: str, test_files: str, env: dict[str, str], out: Path) -> tuple[bool, float]:
    print(f"-- {label} ({test_files})", flush=True)
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *test_files.split()],
        cwd=ROOT, env={**os.environ, **env, "TABLEAUX_RELIABILITY_OUT": str(out)},
        capture_output=True, text=True,
    )
    elapsed = time.monotonic() - start
    last = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    print(f"   {last} [{elapsed:.0f} s]", flush=True)
    if result.returncode != 0:
        print(result.stdout[-4000:], result.stderr[-2000:], sep="\n", flush=True)
    return result.returncode == 0, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the normal test suite's sizes")
    parser.add_argument("--fuzz-examples", type=int, default=400,
                        help="schemathesis examples per operation and mode (default 400; 11 operations x 2 modes)")
    parser.add_argument("--crash-rounds", type=int, default=20, help="server kills (default 20)")
    parser.add_argument("--players", type=int, default=40, help="concurrent players (default 40)")
    parser.add_argument("--tabs", type=int, default=3, help="tabs per player on the same game (default 3)")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the concurrent load (default 30)")
    parser.add_argument("--stateful-examples", type=int, default=400,
                        help="engine state-machine runs of 60 steps (default 400)")
    args = parser.parse_args()

    if args.quick:
        sizes: dict[str, dict[str, str]] = {"fuzz": {}, "hostile": {}, "crash": {}, "concurrency": {}, "stateful": {}}
    else:
        sizes = {
            "fuzz": {"TABLEAUX_FUZZ_EXAMPLES": str(args.fuzz_examples)},
            "hostile": {},
            "crash": {"TABLEAUX_CRASH_ROUNDS": str(args.crash_rounds)},
            "concurrency": {"TABLEAUX_CONCURRENCY_PLAYERS": str(args.players),
                            "TABLEAUX_CONCURRENCY_TABS": str(args.tabs),
                            "TABLEAUX_CONCURRENCY_SECONDS": str(args.seconds),
                            "TABLEAUX_TABS_EXAMPLES": str(args.stateful_examples // 4),
                            "TABLEAUX_HINT_ASKERS": "16", "TABLEAUX_HINT_SECONDS": "10"},
            "stateful": {"TABLEAUX_STATEFUL_EXAMPLES": str(args.stateful_examples)},
        }
    parts = [
        ("fuzzing from the OpenAPI description", "tests/web/test_fuzz_openapi.py", "fuzz"),
        ("hostile input by hand", "tests/reliability/test_hostile.py tests/game/test_hostile_saves.py", "hostile"),
        ("SIGKILL during bursts of moves",
         "tests/reliability/test_crash_moves.py tests/reliability/test_crash_migration.py "
         "tests/reliability/test_crash_processes.py "
         "tests/survey/test_crash_survey.py", "crash"),
        ("many players, racing tabs", "tests/reliability/test_concurrency.py", "concurrency"),
        ("engine state machine", "tests/game/test_stateful.py", "stateful"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "figures.jsonl"
        out.touch()
        ok = True
        for label, test_file, key in parts:
            passed, _ = run_part(label, test_file, sizes[key], out)
            ok = ok and passed
        figures: dict[str, list[dict[str, float]]] = {}
        for line in out.read_text().splitlines():
            record = json.loads(line)
            figures.setdefault(record.pop("kind"), []).append(record)

    fuzz = figures.get("fuzz", [{}])[-1]
    crashes = figures.get("crash", [])
    load = figures.get("concurrency", [{}])[-1]
    print()
    print("Reliability figures" + (" (quick sizes)" if args.quick else ""))
    print(f"  requests fuzzed (schemathesis)      {fuzz.get('requests', 0):>8}   "
          f"({fuzz.get('2xx', 0)} accepted, {fuzz.get('4xx', 0)} refused, {fuzz.get('5xx', 0)} server errors)")
    print(f"  crashes survived (SIGKILL)          {sum(c['crashes'] for c in crashes):>8}")
    print(f"  moves verified after crashes        {sum(c['moves_verified'] for c in crashes):>8}   "
          f"({sum(c['acknowledged'] for c in crashes)} acknowledged changes, all stored; in flight at a kill: "
          f"{sum(c['in_flight_kept'] for c in crashes)} kept, {sum(c['in_flight_lost'] for c in crashes)} not; "
          f"{sum(c['wins'] for c in crashes)} games won)")
    if load:
        print(f"  concurrent players held             {load['players']:>8}   "
              f"({load['tabs']} tabs each, {load['requests']} requests, {load['changes']} changes, "
              f"{load['conflicts']} stale requests refused with 409)")
        print(f"  latency under that load             p50 {load['p50_ms']:.0f} ms, p99 {load['p99_ms']:.0f} ms   "
              f"({load['requests_per_second']:.0f} requests/s)")
    hints = figures.get("hints", [{}])[-1]
    if hints:
        print(f"  moves while {hints['askers']} players flood hints  p50 {hints['move_p50_ms']:.0f} ms, "
              f"p99 {hints['move_p99_ms']:.0f} ms, max {hints['move_max_ms']:.0f} ms   "
              f"({hints['moves']} moves, all stored; {hints['hints']} hints, {hints['solver_hints']} by the solver)")
    print("  result                              " + ("all held" if ok else "FAILURES (see above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
