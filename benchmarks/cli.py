"""Command start-up: how long ``tableaux solve king-albert 1 --json`` takes beside a bare interpreter's start.

A command a user types should answer at once, so its start-up (loading only
what the command needs) is measured against ``python -c pass`` on the same
machine in the same run: the two are run in turn, many times, and the ratio of
their medians is printed. The goal is at most 4. Wall-clock figures on a busy
machine are noisy; the interleaving and the medians keep the ratio fair.

    python benchmarks/cli.py [--runs 30] [--command solve king-albert 1 --json]

It also prints the modules the command loads, slowest first (``-X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

GOAL = 4.0


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode caches on, as ``pip install`` leaves them: otherwise every run would compile every module it loads."""


def once(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--command", nargs="+", default=["solve", "king-albert", "1", "--json"])
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    script = Path(sys.executable).with_name("tableaux")  # what a user types: the installed command
    command = [str(script), *args.command] if script.exists() else [sys.executable, "-m", "tableaux", *args.command]
    once(command)  # warm the file cache and the bytecode cache
    bares, commands = [], []
    for _ in range(args.runs):
        bares.append(once(bare))
        commands.append(once(command))
    b, c = statistics.median(bares), statistics.median(commands)
    print(f"python -c pass: median {1000 * b:.1f} ms over {args.runs} runs")
    print(f"tableaux {' '.join(args.command)}: median {1000 * c:.1f} ms")
    print(f"ratio {c / b:.2f} (goal: at most {GOAL:g})")
    trace = subprocess.run([sys.executable, "-X", "importtime", *command[-len(args.command) - 1:]] if script.exists()
                           else [sys.executable, "-X", "importtime", *command[1:]], capture_output=True, text=True,
                           env=ENV)
    own = []
    for line in trace.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].startswith("import time:") and parts[1].strip().isdigit():
            own.append((int(parts[0].split(":")[1]), parts[2].rstrip()))
    print("slowest modules loaded (own microseconds):")
    for micros, name in sorted(own, reverse=True)[:12]:
        print(f"  {micros:7d}  {name.strip()}")
    return 0 if c / b <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
