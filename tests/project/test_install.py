"""What an install brings: a light base install, the survey extra, and a test extra with all the tests need."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
HEAVY = ("dask", "distributed", "matplotlib", "numpy")


def names(requirements: list[str]) -> set[str]:
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in requirements}  # type: ignore[union-attr]


def test_the_base_install_leaves_out_the_cluster_and_the_plots() -> None:
    assert not names(PROJECT["dependencies"]) & set(HEAVY)


def test_the_survey_extra_brings_dask_distributed_and_matplotlib() -> None:
    survey = PROJECT["optional-dependencies"]["survey"]
    assert any(r.startswith("dask[distributed]") for r in survey) and "matplotlib" in names(survey)


def test_the_test_extra_brings_everything_the_survey_extra_does() -> None:
    extras = PROJECT["optional-dependencies"]
    assert set(extras["survey"]) <= set(extras["test"])


def test_the_postgres_extra_brings_psycopg_and_its_pool_and_the_tests_have_them_too() -> None:
    extras = PROJECT["optional-dependencies"]
    assert names(extras["postgres"]) == {"psycopg", "psycopg_pool"}
    assert set(extras["postgres"]) <= set(extras["test"])
    assert not names(PROJECT["dependencies"]) & names(extras["postgres"])  # SQLite alone needs nothing more


BLOCKED = """
import sys
for name in ("dask", "distributed", "matplotlib"):
    sys.modules[name] = None  # as if the survey extra were not installed
from tableaux.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(("option", "value"), [("--scheduler", "tcp://127.0.0.1:9"), ("--plot", "share.png")])
def test_survey_option_without_the_extra_names_the_extra(option: str, value: str, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKED, "survey", "king-albert", "--deals", "1-3", "--max-nodes", "100",
         "--out", str(out), option, value],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert option in proc.stderr and "pip install '.[survey]'" in proc.stderr  # from a clone: no index has it
    assert not out.exists() and not (tmp_path / "share.png").exists()  # refused before any work
