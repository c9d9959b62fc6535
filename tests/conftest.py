"""Suite-wide pytest hooks."""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tableaux.solver import BACKENDS
from tableaux.web.app import create_app
from tableaux.web.middleware import CHECK_ANSWERS

pytest_plugins = ["pytester"]

PRETEND_CPUS = Path(__file__).parent / "pretend_cpus"


def pytest_configure(config: pytest.Config) -> None:
    """``TABLEAUX_TEST_CPUS=N``: the run, and every Python process it starts, sees N cores (see
    ``tests/pretend_cpus/sitecustomize.py``); the count is shown in the report's header."""
    if not os.environ.get("TABLEAUX_TEST_CPUS") or not PRETEND_CPUS.is_dir():
        return  # (no such directory beside a copy of this file, in pytester's runs: PYTHONPATH has it already)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PRETEND_CPUS), os.environ.get("PYTHONPATH")]))
    spec = importlib.util.spec_from_file_location("tableaux_pretend_cpus", PRETEND_CPUS / "sitecustomize.py")
    assert spec is not None and spec.loader is not None
    try:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    except SystemExit as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_report_header() -> str:
    pretended = " (pretended: TABLEAUX_TEST_CPUS)" if os.environ.get("TABLEAUX_TEST_CPUS") else ""
    return f"os.cpu_count(): {os.cpu_count()}{pretended}; time zone: {os.environ.get('TZ', 'the system one')}"


os.environ[CHECK_ANSWERS] = "1"
"""Every web app the suite builds checks each answer against its route's model before sending it, and so does
every server it starts (they inherit the environment), whatever the developer's environment says: an answer
that breaks the API's contract fails the test that received it (tests/test_web_contract.py shows that it does)."""

BROWSER_TESTS = "test_browser.py"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One clear last line when the browser suite was skipped, which ``-ra`` alone buries among other skips.

    The skip's reason (browser_page.py) names what is missing and how to install it."""
    skipped = [
        report for report in terminalreporter.stats.get("skipped", [])
        if Path(str(report.fspath)).name == BROWSER_TESTS
    ]
    if skipped:
        longrepr = skipped[0].longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        terminalreporter.write_line(f"BROWSER TESTS SKIPPED: {reason}", yellow=True, bold=True)


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


@pytest.fixture
def time_zone() -> Iterator[Callable[[str], None]]:
    """``time_zone("Etc/GMT-14")`` puts this process in that zone (TZ and ``time.tzset()``); the zone the run
    had comes back after the test. ``time_zones.FAR_ZONES`` are the zones to try."""
    before = os.environ.get("TZ")

    def use(zone: str) -> None:
        os.environ["TZ"] = zone
        time.tzset()

    yield use
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


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
