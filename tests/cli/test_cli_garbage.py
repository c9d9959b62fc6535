"""Every command given garbage arguments answers with a usage message and exit status 2, never a traceback."""

from __future__ import annotations

import pytest

from helpers.cli import run_tableaux

GARBAGE = [
    ["frobnicate"],
    ["play"],
    ["play", "spider"],
    ["play", "king-albert", "--deal", "-1"],
    ["play", "king-albert", "--deal", "4294967296"],
    ["play", "king-albert", "--deal", "seventeen"],
    ["play", "king-albert", "--deal", "1e3"],
    ["deal"],
    ["deal", "king-albert"],
    ["deal", "king-albert", "x"],
    ["deal", "eagle-wing", "99999999999999999999"],
    ["deal", "freecell", "1"],
    ["deal", "king-albert", "1", "--jsn"],
    ["solve", "king-albert"],
    ["solve", "king-albert", "1", "--time-limit", "-3"],
    ["solve", "king-albert", "1", "--time-limit", "nan"],
    ["solve", "king-albert", "1", "--max-nodes", "0"],
    ["solve", "king-albert", "1", "--max-nodes", "lots"],
    ["survey", "king-albert"],
    ["survey", "king-albert", "--deals", "1-10", "--workers", "0"],
    ["survey", "king-albert", "--deals", "ten-twenty"],
    ["survey", "king-albert", "--deals", "20-10"],
    ["survey", "king-albert", "--deals", "1-99999999999"],
    ["survey", "king-albert", "--deals", "1-10", "--time-limit", "inf"],
    ["serve", "--port", "0"],
    ["serve", "--port", "70000"],
    ["serve", "--port", "http"],
    ["serve", "--workers", "0"],
    ["serve", "--workers", "two"],
    ["--port", "-5"],
    ["stats", "--game", "klondike"],
    ["stats", "--bogus"],
]


@pytest.mark.parametrize("argv", GARBAGE, ids=lambda a: " ".join(a))
def test_garbage_arguments_get_usage_and_status_2(argv: list[str]) -> None:
    result = run_tableaux(*argv)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "usage:" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
