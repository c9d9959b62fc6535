"""The code base stays ruff-clean; a lint failure is a test failure so CI catches it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (pip install '.[test]' brings it)")
    result = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)  # as the README says
    assert result.returncode == 0, result.stdout + result.stderr
