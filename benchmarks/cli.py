"""Command start-up: how long a command takes beside a bare interpreter's start, and how soon the full-screen
board is drawn.

A command a user types should answer at once, so its start-up (loading only what the command needs) is
measured against ``python -c pass`` on the same machine in the same run: the two are run in turn, many
times, and the ratio of their medians is printed. The goal is at most 4, for ``tableaux solve king-albert 1
--json`` and for the line mode (``tableaux play king-albert --deal 1 --line``, its input empty, so it draws
the board and says goodbye). Wall-clock figures on a busy machine are noisy; the interleaving and the
medians keep the ratio fair.

The full-screen board (``tableaux play king-albert --deal 1 --tui``) is run in a pseudo-terminal of 80x24,
and timed from the command's start to the first frame that holds the status line; the goal is half a
second (Textual's own import is about 0.15 s of it). Its CPU time is printed beside it, since on a machine
busy with other work the wall clock measures the neighbours too.

    python benchmarks/cli.py [--runs 30] [--command solve king-albert 1 --json] [--no-screen] [--baseline DIR]

It also prints the modules each command loads, slowest first (``-X importtime``), and the machine's load
average before and after, since other work on the machine stretches every figure. ``--baseline DIR`` times a
second source tree the same way in the same run, each of its runs beside one of this tree's, so that a change
is measured against the code it changes (``git worktree add /tmp/main main``, and ``python setup.py
build_ext --inplace`` there for its compiled solver); the ratios of the two are then comparable, however
busy the machine.

Measured on the 2-core development machine while other work ran on it (load average 4 to 5), 20 runs
each, against main's code as it was before these start-up changes, in the same run (``--baseline``); the
instructions are callgrind's count for one run (``valgrind --tool=callgrind``), which no load changes:

    command                                      ratio to python -c pass     million instructions
    tableaux play king-albert --deal 1 --line    3.1 (before: 8.3)           129 (before: 349)
      the same with LANGUAGE=fr                                              138 (before: 515)
    tableaux solve king-albert 1 --json          2.7 (before: 2.8)           132 (before: 148)
    python -c pass                               21 to 26 ms                  39
    tableaux play king-albert --deal 1 --tui     board drawn after a median of 315 ms (before: 337 ms), 15 runs
                                                 at load 4.2; 0.5 to 0.9 s when the load is higher, of which
                                                 Textual's import alone is 0.3 s

What the line mode starts without (``tests/cli/test_cli_startup.py`` holds it so): rich (printing to a pipe
it goes through terminal/output.py's PlainConsole, which prints what rich would), typing, dataclasses,
pathlib, platformdirs (common/dirs.py), json until a game is kept or a save read, and Babel in another
language once its compiled catalogue is in the user's cache (i18n). The full-screen board is bound by
Textual's import and start; the rest of its start is the command line's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 4.0
SCREEN_GOAL = 0.5

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode caches on, as ``pip install`` leaves them: otherwise every run would compile every module it loads."""
ENV["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="tableaux-bench-")  # no unfinished game of the player's is touched

COMMANDS = [["solve", "king-albert", "1", "--json"], ["play", "king-albert", "--deal", "1", "--line"]]


def env_for(tree: str | None) -> dict[str, str]:
    """The environment that runs this tree's package, or the one under ``tree/src``."""
    return ENV if tree is None else {**ENV, "PYTHONPATH": str(Path(tree, "src"))}


def once(args: list[str], tree: str | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env_for(tree))
    return time.perf_counter() - start


def command_line(args: list[str]) -> list[str]:
    script = Path(sys.executable).with_name("tableaux")  # what a user types: the installed command
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "tableaux", *args]


def first_frame(args: list[str], tree: str | None = None) -> tuple[float, float]:
    """Seconds from starting ``args`` in an 80x24 pseudo-terminal to its first frame with the status line, and
    the CPU seconds the command used until it was told to quit there."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in a terminal of 80x24
        os.execve(args[0], args, {**env_for(tree), "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"})
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    seen, drawn = b"", float("nan")
    while time.perf_counter() - start < 60:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        seen += data
        if b"Score 0" in seen:
            drawn = time.perf_counter() - start
            os.write(fd, b"q")
            break
    while True:  # let it finish drawing its goodbye
        ready, _, _ = select.select([fd], [], [], 1.0)
        try:
            if not ready or not os.read(fd, 65536):
                break
        except OSError:
            break
    _, _, usage = os.wait4(pid, 0)
    os.close(fd)
    return drawn, usage.ru_utime + usage.ru_stime


def import_trace(args: list[str]) -> None:
    trace = subprocess.run([sys.executable, "-X", "importtime", "-m", "tableaux", *args], capture_output=True,
                           text=True, env=ENV, stdin=subprocess.DEVNULL)
    own = []
    for line in trace.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].startswith("import time:") and parts[1].strip().isdigit():
            own.append((int(parts[0].split(":")[1]), parts[2].rstrip()))
    print("  slowest modules loaded (own microseconds):")
    for micros, name in sorted(own, reverse=True)[:8]:
        print(f"    {micros:7d}  {name.strip()}")


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--command", nargs="+", default=None, help="one command to time instead of the usual two")
    parser.add_argument("--no-screen", action="store_true", help="leave out the full-screen board")
    parser.add_argument("--baseline", metavar="DIR", default=None,
                        help="another source tree (a checkout of main) to time beside this one")
    args = parser.parse_args()
    trees: list[tuple[str, str | None]] = [("", None)]
    if args.baseline:
        trees.append((f" [baseline {args.baseline}]", args.baseline))
        if not list(Path(args.baseline, "src", "tableaux", "solver").glob("_core*")):
            print(f"note: {args.baseline} has no compiled solver: its solve runs the pure-Python search")
    print(f"before: {load()}")
    bare = [sys.executable, "-c", "pass"]
    ok = True
    for words in [args.command] if args.command else COMMANDS:
        command = command_line(words)
        for _label, tree in trees:
            once(command, tree)  # warm the file cache and the bytecode cache
        bares: list[float] = []
        times: dict[str | None, list[float]] = {tree: [] for _label, tree in trees}
        for _ in range(args.runs):
            bares.append(once(bare))
            for _label, tree in trees:
                times[tree].append(once(command, tree))
        b = statistics.median(bares)
        for label, tree in trees:
            c = statistics.median(times[tree])
            print(f"tableaux {' '.join(words)}{label}: median {1000 * c:.1f} ms; python -c pass: median "
                  f"{1000 * b:.1f} ms over {args.runs} runs; ratio {c / b:.2f} (goal: at most {GOAL:g})")
            ok = ok and (tree is not None or c / b <= GOAL)
        import_trace(words)
    if not args.no_screen:
        words = ["play", "king-albert", "--deal", "1", "--tui"]
        runs: dict[str | None, list[tuple[float, float]]] = {tree: [] for _label, tree in trees}
        for _label, tree in trees:
            first_frame(command_line(words), tree)  # warm the caches
        for _ in range(max(3, args.runs // 3)):
            for _label, tree in trees:
                runs[tree].append(first_frame(command_line(words), tree))
        for label, tree in trees:
            drawn = statistics.median(r[0] for r in runs[tree])
            cpu = statistics.median(r[1] for r in runs[tree])
            print(f"tableaux {' '.join(words)}{label}: the board drawn after a median {1000 * drawn:.0f} ms "
                  f"(goal: at most {1000 * SCREEN_GOAL:.0f} ms); {1000 * cpu:.0f} ms of CPU to there and out, "
                  f"over {len(runs[tree])} runs")
            ok = ok and (tree is not None or drawn <= SCREEN_GOAL)
    print(f"after: {load()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
