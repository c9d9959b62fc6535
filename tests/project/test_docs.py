"""Every Python example in README.md, docs/*.md and the package docstring runs, and shows what it claims.

Examples written as an interactive session (``>>>``) are doctests: their output
is checked, with ``...`` standing for any text and line breaks free. An error is
shown as its last traceback line (``IllegalMoveError: ...``), the way the docs
write it. Examples written as a script run from top to bottom and must not fail.
The examples of one file share their variables, as a reader's session would.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import tableaux

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(?:python|py|pycon)[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
ERROR_LINE = re.compile(r"^[A-Z]\w*(?:Error|Exception): ")
MODULE_PREFIX = re.compile(r"^(?:\w+\.)+(?=[A-Z]\w*(?:Error|Exception): )")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class DocsParser(doctest.DocTestParser):
    """Reads ``SomeError: message`` as an expected exception, without the traceback header."""

    def parse(self, string: str, name: str = "<string>") -> list[str | doctest.Example]:
        pieces = super().parse(string, name)
        for piece in pieces:
            if isinstance(piece, doctest.Example) and piece.exc_msg is None and ERROR_LINE.match(piece.want):
                piece.exc_msg = piece.want
        return pieces


class DocsChecker(doctest.OutputChecker):
    """Compares an error by its class name, as the docs write it, not its module path."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if ERROR_LINE.match(want):
            got = MODULE_PREFIX.sub("", got)
        return super().check_output(want, got, optionflags)


def run_doctest(text: str, name: str) -> None:
    test = DocsParser().get_doctest(text, {}, name, name, 0)
    runner = doctest.DocTestRunner(checker=DocsChecker(), optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)


def python_blocks(path: Path) -> list[str]:
    return FENCE.findall(path.read_text())


def test_the_documents_have_python_examples() -> None:
    # Guards the search below: a fence it fails to see would make the other tests vacuous.
    assert python_blocks(ROOT / "README.md") and python_blocks(ROOT / "docs" / "api.md")


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_example_in_the_document_is_true(path: Path) -> None:
    blocks = python_blocks(path)
    sessions = [b for b in blocks if b.lstrip().startswith(">>>")]
    scripts = [b for b in blocks if not b.lstrip().startswith(">>>")]
    if sessions:
        run_doctest("\n".join(sessions), path.name)
    namespace: dict[str, object] = {}
    for i, script in enumerate(scripts):
        exec(compile(script, f"{path.name}, script example {i + 1}", "exec"), namespace)  # noqa: S102


def test_the_package_docstring_example_is_true() -> None:
    assert ">>>" in (tableaux.__doc__ or "")
    run_doctest(tableaux.__doc__ or "", "tableaux.__doc__")


def test_a_false_example_is_caught() -> None:
    # The checker must not accept everything: a wrong output and a wrong error both fail.
    with pytest.raises(AssertionError):
        run_doctest(">>> 1 + 1\n3\n", "false output")
    with pytest.raises(AssertionError):
        run_doctest(">>> import tableaux\n>>> tableaux.new_game('klondike')\nDealError: ...\n", "false error")
    run_doctest(">>> import tableaux\n>>> tableaux.new_game('klondike')\nUnknownGameError: unknown game ...\n", "ok")


def test_readme_quick_start_is_two_commands_and_names_chromium_for_the_tests() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", quick, re.DOTALL)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2 and "python -m pytest" in commands[1]
    assert "apt-get install chromium" in quick


NGINX_SERVER = re.compile(r"^    server \{\n.*?^    \}\n", re.MULTILINE | re.DOTALL)
UPSTREAM = re.compile(r"upstream (\S+) \{(.*?)\}", re.DOTALL)


def test_every_nginx_example_of_deploy_md_sends_a_host_its_servers_answer(tmp_path: Path) -> None:
    """nginx sends the Host named in proxy_pass (an upstream group's name) unless told otherwise, and a server on a
    loopback address answers only loopback names (against DNS rebinding): each example must get past that check
    as `tableaux serve` makes it, the one for a proxy on the same machine (servers on 127.0.0.1) among them."""
    from fastapi.testclient import TestClient

    from tableaux.web.app import create_app
    from tableaux.web.server import loopback_names

    text = (ROOT / "docs" / "deploy.md").read_text()
    groups = {name: re.findall(r"server (\S+);", body) for name, body in UPSTREAM.findall(text)}
    examples = [block for block in NGINX_SERVER.findall(text) if "proxy_pass" in block]
    listening: list[str] = []
    for block in examples:
        target = re.search(r"proxy_pass http://([^/;]+)", block).group(1)  # type: ignore[union-attr]
        site = re.search(r"server_name (\S+);", block).group(1)  # type: ignore[union-attr]
        sent = re.search(r"proxy_set_header Host (\S+);", block)
        host = {"$host": site, "$http_host": site, "$proxy_host": target}.get(sent.group(1), sent.group(1)) \
            if sent else target
        for backend in groups.get(target, [target]):
            listen = backend.rsplit(":", 1)[0]
            listening.append(listen)
            allowed = loopback_names(listen, listen)  # as run_serve decides, from the address it is bound to
            app = create_app(tmp_path / "games.sqlite3", allowed_hosts=allowed)
            answer = TestClient(app, base_url=f"http://{host}").get("/api/health")
            app.state.store.close()
            assert answer.status_code == 200, (block, host, answer.text)
    assert "127.0.0.1" in listening and len(listening) > 1, examples
