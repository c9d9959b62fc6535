"""``tableaux serve`` as a real process: started, its output read line by line, waited on, stopped."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2

URL = re.compile(r"http://127\.0\.0\.1:(\d+)/")




class Server:
    """A ``python -m tableaux`` process (or ``command``, run with the same ``args``) whose output is read
    line by line in the background."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, command: list[str] | None = None,
                 group: bool = False) -> None:
        # group: its own process group, as a terminal gives a command, so that a signal can go to the whole group
        # (Ctrl+C) without reaching the tests.
        self.proc = subprocess.Popen(
            [*(command or [sys.executable, "-m", "tableaux"]), *args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=group,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        self._url: str | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def wait_for(self, pattern: re.Pattern[str] | str, timeout: float = 120.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    break
                continue
            self.output.append(line)
            found = regex.search(line)
            if found:
                return found
        raise AssertionError(f"no line matching {regex.pattern!r}; output so far: {''.join(self.output)!r}")

    def url(self) -> str:
        if self._url is None:
            self._url = self.wait_for(URL).group(0)
        return self._url

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(timeout=60)  # the process is gone: its output ends, and the reader with it
        while not self.lines.empty():
            self.output.append(self.lines.get())


@contextmanager
def server(args: list[str], env: dict[str, str] | None = None, command: list[str] | None = None,
           group: bool = False) -> Iterator[Server]:
    s = Server(args, env, command, group)
    try:
        yield s
    finally:
        s.stop()


def wait_until_answering(url: str, timeout: float = 120.0) -> httpx2.Response:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx2.get(url + "api/games/info", timeout=2.0)
        except httpx2.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


# --- several processes on one port -------------------------------------------------------
def children(pid: int) -> list[int]:
    """The server processes ``--workers`` started (spawned children, not multiprocessing's resource tracker)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        if parent == pid and b"spawn_main" in command and b"resource_tracker" not in command:
            found.append(int(stat.parent.name))
    return sorted(found)


def wait_for_children(pid: int, count: int) -> list[int]:
    deadline = time.monotonic() + 60
    while True:
        found = children(pid)
        if len(found) == count:
            return found
        assert time.monotonic() < deadline, f"server processes: {found}, expected {count}"
        time.sleep(0.1)
