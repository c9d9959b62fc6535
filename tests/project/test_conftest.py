"""The suite's own hooks: a skipped browser suite, or skipped PostgreSQL runs, are announced at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

QUIET_PLUGINS = ("-p", "no:schemathesis", "-p", "no:textual-snapshot", "-p", "no:syrupy")
"""For the inner runs, which use none of them: loading these plugins is most of a pytest run's start."""

CONFTEST = (Path(__file__).parents[1] / "conftest.py").read_text().replace('pytest_plugins = ["pytester"]', "")


@pytest.mark.slow
def test_a_skipped_browser_suite_gets_one_clear_line_at_the_end_naming_what_is_missing(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(CONFTEST)
    reason = "browser tests need Playwright for Python (pip install playwright)"
    pytester.makepyfile(
        test_browser=f"import pytest\npytest.skip({reason!r}, allow_module_level=True)\n",
        test_other="def test_fine():\n    pass\n",
    )
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS)  # own process: the real test_browser module is loaded here
    result.assert_outcomes(passed=1, skipped=1)
    lines = [line for line in result.outlines if "BROWSER TESTS SKIPPED" in line]
    assert len(lines) == 1 and reason in lines[0] and "chromium" not in lines[0]  # Playwright, not the browser
    assert result.outlines[-1].startswith("=") and "BROWSER TESTS SKIPPED" in result.outlines[-2]


def test_the_browser_tests_skip_reason_names_each_thing_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from helpers.browser import missing_for_the_browser_tests

    real_find_spec = importlib.util.find_spec
    here, nowhere = tmp_path / "chromium", tmp_path / "no-chromium"
    here.touch()
    assert missing_for_the_browser_tests(here) == ([] if real_find_spec("playwright") else [
        "Playwright for Python (pip install -e '.[test]', or pip install playwright)"])
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "playwright" else
                        real_find_spec(name, *a))
    (playwright,) = missing_for_the_browser_tests(here)
    assert "Playwright" in playwright and "pip install" in playwright and "chromium" not in playwright
    playwright_too, chromium = missing_for_the_browser_tests(nowhere)
    assert playwright_too == playwright and str(nowhere) in chromium and "apt-get install chromium" in chromium
    monkeypatch.undo()
    if real_find_spec("playwright"):
        assert missing_for_the_browser_tests(nowhere) == [chromium]


@pytest.mark.slow
def test_no_browser_line_when_the_browser_suite_runs(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_browser="def test_page():\n    pass\n", test_other="import pytest\n"
                        "def test_skipped():\n    pytest.skip('unrelated')\n")
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS)  # own process: the real test_browser module is loaded here
    result.assert_outcomes(passed=1, skipped=1)
    assert not [line for line in result.outlines if "BROWSER TESTS SKIPPED" in line]


POSTGRES_TEST = """
def test_store(database):
    assert database
"""


HELPERS = Path(__file__).parents[1] / "helpers"


def fake_pg_cluster(pytester: pytest.Pytester, source: str) -> None:
    """Stands in for ``helpers/pg_cluster.py`` in the inner run, the module conftest.py asks about PostgreSQL:
    the real module (and the helper it imports), with ``source`` (its own ``missing``) after it, so the real
    ``required`` asks that one."""
    pytester.mkpydir("helpers")
    (pytester.path / "helpers" / "net.py").write_text((HELPERS / "net.py").read_text())
    real = (HELPERS / "pg_cluster.py").read_text()
    (pytester.path / "helpers" / "pg_cluster.py").write_text(real + "\n\n" + source)


@pytest.mark.slow
def test_without_postgresql_its_runs_skip_with_one_clear_line_at_the_end(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TABLEAUX_REQUIRE_POSTGRES", raising=False)  # CI sets it for the suite itself
    pytester.makeconftest(CONFTEST)
    fake_pg_cluster(pytester, "def missing():\n    return 'no initdb found (apt-get install postgresql)'\n")
    pytester.makepyfile(test_store=POSTGRES_TEST)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS)
    result.assert_outcomes(passed=1, skipped=1)  # the SQLite run passes, the PostgreSQL one is skipped
    lines = [line for line in result.outlines if "POSTGRESQL TESTS SKIPPED" in line]
    assert len(lines) == 1 and "no initdb found" in lines[0] and "apt-get install postgresql" in lines[0]


@pytest.mark.slow
def test_where_postgresql_is_required_its_absence_is_a_failure(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLEAUX_REQUIRE_POSTGRES", "1")
    pytester.makeconftest(CONFTEST)
    fake_pg_cluster(pytester, "def missing():\n    return 'no initdb found (apt-get install postgresql)'\n")
    pytester.makepyfile(test_store=POSTGRES_TEST)
    result = pytester.runpytest_subprocess(*QUIET_PLUGINS)
    result.assert_outcomes(passed=1, errors=1)
    assert not [line for line in result.outlines if "POSTGRESQL TESTS SKIPPED" in line]
    assert any("TABLEAUX_REQUIRE_POSTGRES is set but no initdb found" in line for line in result.outlines)
