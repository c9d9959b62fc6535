"""SIGKILL a running ``tableaux survey``: the deals it stored are kept, a rerun finishes the rest, no worker is left.

A survey appends each deal's row as it finishes (``tableaux.survey.files``), so a kill loses at
most the deals in flight, and the rerun with the same ``--out`` must end with exactly the totals of a
run never interrupted. Pool workers must exit with their killed parent.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from helpers.cli import run_tableaux

SURVEY = ["survey", "king-albert", "--deals", "1-120", "--max-nodes", "4000", "--time-limit", "600", "--workers", "2"]


def survey_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def processes_writing(out: Path) -> list[int]:
    """Processes still alive whose command line names ``out`` (a killed survey's workers, if any)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if str(out).encode() in cmdline:
                found.append(int(proc.name))
    return found


ORPHAN_WAIT = 60.0
"""Seconds the killed survey's workers get to notice and exit (they check twice a second): a bound on a hang."""


def kill_survey_midway(out: Path, at_least: int) -> list[int]:
    """Start a survey, SIGKILL it once ``at_least`` deals are stored; the processes still left behind once
    they are all gone or ``ORPHAN_WAIT`` seconds have passed."""
    proc = subprocess.Popen([sys.executable, "-m", "tableaux", *SURVEY, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") >= at_least:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the survey finished before it could be killed"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + ORPHAN_WAIT
    while (left := processes_writing(out)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def end_orphans(pids: list[int]) -> None:
    for pid in pids:  # our own survey's workers, by id
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.slow
def test_a_killed_survey_resumes_without_recomputing_and_ends_with_the_same_totals(tmp_path: Path) -> None:
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    uninterrupted = run_tableaux(*SURVEY, "--out", str(full), timeout=300)
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    end_orphans(kill_survey_midway(part, at_least=10))
    stored_before = {r["deal"]: r for r in survey_records(part)}
    assert 10 <= len(stored_before) < 120
    resumed = run_tableaux(*SURVEY, "--out", str(part), timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    records = survey_records(part)
    deals = [r["deal"] for r in records]
    assert sorted(deals) == list(range(1, 121)), "a deal is missing or was computed twice"
    for r in records:  # what was stored before the kill is kept as it was, not recomputed
        if r["deal"] in stored_before:
            assert r == stored_before[r["deal"]]
    verdicts = {r["deal"]: (r["verdict"], r["nodes"]) for r in survey_records(full)}
    assert {r["deal"]: (r["verdict"], r["nodes"]) for r in records} == verdicts
    summary = [line for line in uninterrupted.stdout.splitlines() if "%" in line]  # the totals, as percentages
    assert summary and all(line in resumed.stdout for line in summary)


@pytest.mark.slow
def test_a_killed_survey_leaves_no_worker_behind(tmp_path: Path) -> None:
    """A SIGKILLed survey's pool workers notice it and exit instead of sleeping forever."""
    left = kill_survey_midway(tmp_path / "part.jsonl", at_least=5)
    end_orphans(left)
    assert left == [], f"worker processes still alive after the survey was killed: {left}"
