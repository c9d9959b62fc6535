"""Suite-wide pytest hooks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tableaux.solver import BACKENDS
from tableaux.web.app import create_app
from tableaux.web.middleware import CHECK_ANSWERS

pytest_plugins = ["pytester"]

os.environ[CHECK_ANSWERS] = "1"
"""Every web app the suite builds checks each answer against its route's model before sending it, and so does
every server it starts (they inherit the environment), whatever the developer's environment says: an answer
that breaks the API's contract fails the test that received it (tests/test_web_contract.py shows that it does)."""

BROWSER_TESTS = "test_browser.py"
BROWSER_HINT = "install Debian's chromium (apt-get install chromium) to run them"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One clear last line when the browser suite was skipped, which ``-ra`` alone buries among other skips."""
    skipped = [
        report for report in terminalreporter.stats.get("skipped", [])
        if Path(str(report.fspath)).name == BROWSER_TESTS
    ]
    if skipped:
        longrepr = skipped[0].longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        terminalreporter.write_line(
            f"BROWSER TESTS SKIPPED ({reason}): {BROWSER_HINT}", yellow=True, bold=True
        )


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test, and every ``tableaux`` process it starts, gets its own user data directory.

    ``tableaux play`` keeps unfinished games there (and ``serve`` its database), so without this a test
    would write into the real user's directory and see games left by earlier tests.
    """
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read English messages whatever the developer's locale: LANGUAGE comes first in gettext's lookup.

    A test of another language sets its own environment (and the process language goes back afterwards).
    """
    from tableaux import i18n

    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setattr(i18n, "_process_language", "en")


# ---- the real-browser tests' shared fixtures; browser_page skips its importer when Chromium is missing
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``tableaux serve`` in its own process, one per test module."""
    from browser_helpers import LiveServer

    live = LiveServer(tmp_path_factory.mktemp("web") / "games.db")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from browser_page import launch_browser

    yield from launch_browser()


@pytest.fixture
def player(browser: Any, server: Any) -> Iterator[Any]:
    """A fresh anonymous player (own cookies and storage) with a desktop-sized page on the game."""
    from browser_page import Player

    p = Player(browser, server.url)
    yield p
    p.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The solver backends this installation has, the C core and the Python reference, one per run of the
    test (the solver's test modules use it for every test: ``pytestmark``)."""
    monkeypatch.setenv("TABLEAUX_SOLVER", request.param)
    return request.param


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Where a web API test's server keeps its games: a fresh SQLite file."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> TestClient:
    """The browser game's HTTP API on ``db``, through FastAPI's TestClient (hints get little time)."""
    return TestClient(create_app(db, hint_time_limit=0.05))
