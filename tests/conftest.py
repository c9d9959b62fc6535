"""Suite-wide pytest hooks."""

from __future__ import annotations

import importlib.util
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
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


SLOW_FOLDERS = {"browser": ("browser", "server", "slow"), "reliability": ("server", "slow")}
"""Folders whose every test gets these markers: a real browser, or real servers killed and raced."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Markers a test earns by where it lives and what it uses, so ``-m`` can choose by them: the browser and
    reliability folders (see :data:`SLOW_FOLDERS`), and every run against PostgreSQL (``postgres``, and
    ``slow``: each starts from a fresh database on a real server)."""
    for item in items:
        for name in SLOW_FOLDERS.get(Path(str(item.fspath)).parent.name, ()):
            item.add_marker(name)
        params = getattr(item, "callspec", None)
        if (params is not None and "postgresql" in params.params.values()) or (
                params is None and "postgres_cluster" in getattr(item, "fixturenames", ())):
            item.add_marker("postgres")
            item.add_marker("slow")


def pytest_report_header() -> str:
    pretended = " (pretended: TABLEAUX_TEST_CPUS)" if os.environ.get("TABLEAUX_TEST_CPUS") else ""
    return f"os.cpu_count(): {os.cpu_count()}{pretended}; time zone: {os.environ.get('TZ', 'the system one')}"


os.environ[CHECK_ANSWERS] = "1"
"""Every web app the suite builds checks each answer against its route's model before sending it, and so does
every server it starts (they inherit the environment), whatever the developer's environment says: an answer
that breaks the API's contract fails the test that received it (tests/web/test_web_contract.py shows that it does)."""

BROWSER_TESTS = "test_browser.py"
POSTGRES_SKIP = "PostgreSQL is not available here"  # tests/helpers/pg_cluster.py's SKIP, which says it
POSTGRES_HINT = "install Debian's postgresql (apt-get install postgresql) and pip install '.[postgres]' to run them"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One clear last line when the browser suite was skipped, which ``-ra`` alone buries among other skips.

    The skip's reason (helpers/page.py) names what is missing and how to install it."""
    skipped = [
        report for report in terminalreporter.stats.get("skipped", [])
        if Path(str(report.fspath)).name == BROWSER_TESTS
    ]
    if skipped:
        longrepr = skipped[0].longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        terminalreporter.write_line(f"BROWSER TESTS SKIPPED: {reason}", yellow=True, bold=True)
    postgres = [report for report in terminalreporter.stats.get("skipped", []) if POSTGRES_SKIP in str(report.longrepr)]
    if postgres:
        longrepr = postgres[0].longrepr
        reason = (longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)).removeprefix("Skipped: ")
        terminalreporter.write_line(
            f"POSTGRESQL TESTS SKIPPED ({len(postgres)}; {reason}): {POSTGRES_HINT}", yellow=True, bold=True
        )


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test, and every ``tableaux`` process it starts, gets its own user data and cache directories.

    ``tableaux play`` keeps unfinished games there (and ``serve`` its database), so without this a test
    would write into the real user's directory and see games left by earlier tests; the compiled
    translations go to the cache.
    """
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(autouse=True)
def held_log_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines the server's log throttles hold back for a minute are written by a timer; in the test process
    those timers are not started, so none fires into a later test's captured log (tests/web/test_logbook.py
    runs them itself)."""
    from tableaux.web import logbook

    monkeypatch.setattr(logbook, "schedule", lambda _seconds, _action: None)


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read English messages whatever the developer's locale: LANGUAGE comes first in gettext's lookup.

    A test of another language sets its own environment (and the process language goes back afterwards).
    """
    from tableaux import i18n

    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setattr(i18n, "_process_language", "en")


# ---- the real-browser tests' shared fixtures; helpers.page skips its importer when Chromium is missing
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``tableaux serve`` in its own process, one per test module."""
    from helpers.browser import LiveServer

    live = LiveServer(tmp_path_factory.mktemp("web") / "games.db")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from helpers.page import launch_browser

    yield from launch_browser()


@pytest.fixture
def player(browser: Any, server: Any) -> Iterator[Any]:
    """A fresh anonymous player (own cookies and storage) with a desktop-sized page on the game."""
    from helpers.page import Player

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
def db(tmp_path: Path) -> Path | str:
    """Where a web API test's server keeps its games: a fresh SQLite file (a module may ask for both stores by
    overriding it with ``database``)."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def make_app(db: Path | str) -> Iterator[Callable[..., FastAPI]]:
    """``make_app(**options)``: the web game on ``db``, as often as a test restarts its server; each app's store
    is closed when the test ends (a PostgreSQL store holds a connection pool)."""
    made: list[FastAPI] = []

    def make(**options: Any) -> FastAPI:
        made.append(create_app(db, **options))
        return made[-1]

    yield make
    for app in made:
        app.state.store.close()


@pytest.fixture
def client(make_app: Callable[..., FastAPI]) -> TestClient:
    """The browser game's HTTP API on ``db``, through FastAPI's TestClient (hints get little time)."""
    return TestClient(make_app(hint_time_limit=0.05))


@pytest.fixture
def pooled_client(database: str) -> Iterator[TestClient]:
    """The web API on a fresh database, once in each store, with a solver pool of its own (one worker) that its
    lifespan starts: hints are searched there, given time to spare (a busy machine finishes them all the same)."""
    from tableaux.web.pool import SolverPool

    app = create_app(database, hint_time_limit=120.0, pool=SolverPool(workers=1, limit=4))
    with TestClient(app) as client:
        yield client
    app.state.store.close()


# ---- the stores: SQLite always, PostgreSQL where a throwaway cluster can be started
@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Any]:
    """A PostgreSQL server of the suite's own (tests/helpers/pg_cluster.py). Skipped where there is none, unless
    TABLEAUX_REQUIRE_POSTGRES is set (CI installs it, so there a missing server is a failure)."""
    import helpers.pg_cluster as pg_cluster

    pg_cluster.required()
    cluster = pg_cluster.Cluster.start()
    yield cluster
    cluster.stop()


STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """``new_database()``: a fresh, empty database each call, in the store this run of the test is for (an
    SQLite file path, or a PostgreSQL URL); the PostgreSQL ones are dropped when the test ends."""
    made: list[str] = []
    cluster = request.getfixturevalue("postgres_cluster") if request.param == "postgresql" else None

    def make() -> str:
        made.append(str(tmp_path / f"games{len(made) or ''}.sqlite3") if cluster is None else cluster.new_database())
        return made[-1]

    yield make
    if cluster is not None:
        for url in made:
            cluster.drop_database(url)


@pytest.fixture
def database(new_database: Callable[[], str]) -> str:
    """A fresh database for the test, once in each store: an SQLite file path, or a PostgreSQL URL."""
    return new_database()
