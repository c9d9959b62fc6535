"""Layered search benchmark: classic King Albert's two complete searches on lost deals, memory above all.

    python benchmarks/layered.py                          # about two minutes on two cores
    python benchmarks/layered.py --deals 140,44,183,4003 --memory 4096

Each deal is proved lost twice, by the depth-first complete search and by the layered one (both without the
first pass, which only looks for wins), each in a fresh process so that its peak resident memory is its
own. Prints per deal and search: the verdict, positions made, seconds and the peak memory in MiB, then the
medians of the layered search's ratios to the depth-first one (positions, seconds, memory). Both run in one
invocation, one after the other, so the ratios are fair on a busy machine; the memory figures do not depend
on the load at all.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from tableaux.solver import BACKENDS, DEFAULT_MEMORY_MB

DEFAULT_DEALS = "183,44,140,4003,4549"
"""Lost classic deals whose proofs take from 5 to 70 million positions."""

CHILD = """
import json, resource, sys, tableaux
from tableaux.solver import solve
deal, layered, memory = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
solve(tableaux.new_game("king-albert", 1), max_nodes=1000)  # everything imported and warm
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
r = solve(tableaux.new_game("king-albert-classic", deal), first_pass=False, layered=layered, memory_mb=memory,
          backend="c")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"verdict": r.verdict, "nodes": r.nodes, "seconds": r.seconds, "mib": peak / 1024}))
"""


def measure(deal: int, layered: bool, memory_mb: int) -> dict[str, float | str]:
    run = subprocess.run([sys.executable, "-c", CHILD, str(deal), "1" if layered else "0", str(memory_mb)],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", default=DEFAULT_DEALS,
                        help=f"comma-separated classic deals (default {DEFAULT_DEALS})")
    parser.add_argument("--memory", type=int, default=DEFAULT_MEMORY_MB, help="MiB each search may take")
    args = parser.parse_args()
    if "c" not in BACKENDS:
        print("the C core is not built: nothing to measure", file=sys.stderr)
        return 1
    print(f"{'deal':>6} {'search':<11} {'verdict':<10} {'positions':>12} {'seconds':>8} {'peak MiB':>9}")
    ratios: dict[str, list[float]] = {"positions": [], "seconds": [], "memory": []}
    for deal in (int(d) for d in args.deals.split(",")):
        row = {}
        for layered in (False, True):
            r = row[layered] = measure(deal, layered, args.memory)
            name = "layered" if layered else "depth-first"
            print(f"{deal:>6} {name:<11} {r['verdict']:<10} {r['nodes']:>12,} {r['seconds']:>8.2f} {r['mib']:>9.1f}")
        dfs, lay = row[False], row[True]
        ratios["positions"].append(lay["nodes"] / max(dfs["nodes"], 1))
        ratios["seconds"].append(lay["seconds"] / max(dfs["seconds"], 1e-6))
        ratios["memory"].append(lay["mib"] / max(dfs["mib"], 0.1))
    print("layered / depth-first, medians: " + ", ".join(
        f"{k} {statistics.median(v):.2f}" for k, v in ratios.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
