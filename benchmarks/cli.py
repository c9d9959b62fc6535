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

    python benchmarks/cli.py [--runs 30] [--command solve king-albert 1 --json] [--no-screen]

It also prints the modules each command loads, slowest first (``-X importtime``).
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


def once(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=ENV)
    return time.perf_counter() - start


def command_line(args: list[str]) -> list[str]:
    script = Path(sys.executable).with_name("tableaux")  # what a user types: the installed command
    return [str(script), *args] if script.exists() else [sys.executable, "-m", "tableaux", *args]


def first_frame(args: list[str]) -> tuple[float, float]:
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
        os.execve(args[0], args, {**ENV, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"})
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--command", nargs="+", default=None, help="one command to time instead of the usual two")
    parser.add_argument("--no-screen", action="store_true", help="leave out the full-screen board")
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    ok = True
    for words in [args.command] if args.command else COMMANDS:
        command = command_line(words)
        once(command)  # warm the file cache and the bytecode cache
        bares, commands = [], []
        for _ in range(args.runs):
            bares.append(once(bare))
            commands.append(once(command))
        b, c = statistics.median(bares), statistics.median(commands)
        print(f"tableaux {' '.join(words)}: median {1000 * c:.1f} ms; python -c pass: median {1000 * b:.1f} ms "
              f"over {args.runs} runs; ratio {c / b:.2f} (goal: at most {GOAL:g})")
        import_trace(words)
        ok = ok and c / b <= GOAL
    if not args.no_screen:
        words = ["play", "king-albert", "--deal", "1", "--tui"]
        first_frame(command_line(words))  # warm the caches
        runs = [first_frame(command_line(words)) for _ in range(max(3, args.runs // 3))]
        drawn = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"tableaux {' '.join(words)}: the board drawn after a median {1000 * drawn:.0f} ms "
              f"(goal: at most {1000 * SCREEN_GOAL:.0f} ms); {1000 * cpu:.0f} ms of CPU to there and out, "
              f"over {len(runs)} runs")
        ok = ok and drawn <= SCREEN_GOAL
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
