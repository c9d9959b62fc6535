"""``tableaux serve`` as a real process, and ``tableaux stats``."""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

import tableaux
from helpers.cli import stats_table
from helpers.net import free_port
from helpers.server import URL, children, server, wait_for_children, wait_until_answering
from helpers.store import is_postgres
from tableaux import Move
from tableaux.cli import build_parser, main
from tableaux.cli.stats import format_time
from tableaux.web.app import WEB_GAMES, create_app
from tableaux.web.database import Database
from tableaux.web.pool import default_workers
from tableaux.web.server import DEFAULT_PORT, open_socket, settings_of, url_for
from tableaux.web.store import Store


def headless_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    return env


@pytest.mark.server
@pytest.mark.slow
def test_serve_answers_prints_the_url_and_keeps_games_across_restarts(database: str) -> None:
    port = free_port()
    args = ["serve", "--port", str(port), "--no-browser", "--db", database]
    with server(args) as s:
        url = s.url()
        assert url == f"http://127.0.0.1:{port}/"
        s.wait_for(re.escape(f"Saved games and statistics: {database}"))
        r = wait_until_answering(url)
        assert r.status_code == 200 and r.headers["x-content-type-options"] == "nosniff"
        with httpx2.Client(base_url=url) as client:
            view = client.post("api/games", json={"game": "eagle-wing", "deal": 17}).json()
            move = view["legal_moves"][0]
            view = client.post(f"api/games/{view['id']}/moves", json={"move": move, "version": 0}).json()
            cookies = dict(client.cookies)
            assert client.get("").status_code == 200
    assert is_postgres(database) or Path(database).exists()
    with server(args) as s:
        url = s.url()
        wait_until_answering(url)
        with httpx2.Client(base_url=url, cookies=cookies) as client:
            resumed = client.get("api/current")
            assert resumed.status_code == 200
            assert resumed.json()["position"] == view["position"] and resumed.json()["version"] == 1


@pytest.mark.server
@pytest.mark.slow
def test_a_killed_server_loses_no_move(tmp_path: Path) -> None:
    """Every move is committed before its answer: SIGKILL right after the last one loses nothing."""
    db = tmp_path / "games.sqlite3"
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", str(db)]
    with server(args) as s:
        url = s.url()
        wait_until_answering(url)
        with httpx2.Client(base_url=url) as client:
            view = client.post("api/games", json={"game": "king-albert", "deal": 5}).json()
            for _ in range(15):
                if not view["legal_moves"]:
                    break
                body = {"move": view["legal_moves"][-1], "version": view["version"]}
                view = client.post(f"api/games/{view['id']}/moves", json=body).json()
            cookies = dict(client.cookies)
        s.proc.kill()  # no shutdown, no goodbye
        s.proc.wait()
    args[2] = str(free_port())
    with server(args) as s:
        url = s.url()
        wait_until_answering(url)
        resumed = httpx2.get(url + "api/current", cookies=cookies).json()
    assert resumed["version"] == view["version"] and resumed["position"] == view["position"]


@pytest.mark.server
@pytest.mark.slow
def test_refusals_held_back_for_the_minute_reach_the_log_when_the_server_is_stopped(tmp_path: Path) -> None:
    """SIGTERM within the minute after a line of refusals: the count since that line is not lost with the process."""
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "games.sqlite3"),
            "--games-per-minute-per-address", "1"]
    with server(args) as s:
        url = s.url()
        wait_until_answering(url)
        answers = [httpx2.post(url + "api/games", json={"game": "king-albert", "deal": deal}).status_code
                   for deal in range(4)]
        assert answers == [201, 429, 429, 429]
        s.wait_for("1 new game refused, over")
        s.proc.send_signal(signal.SIGTERM)
        s.wait_for("2 new games refused, over")
        s.proc.wait(timeout=60)


@pytest.mark.server
@pytest.mark.slow
def test_ctrl_c_stops_the_server_and_its_solver_workers_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl+C in a terminal reaches every process of the command's group, the solver's workers too."""
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "games.sqlite3")]
    with server(args, group=True) as s:
        wait_until_answering(s.url())
        wait_for_children(s.proc.pid, default_workers())  # the solver's workers, started with the server
        os.killpg(s.proc.pid, signal.SIGINT)
        assert s.proc.wait(timeout=120) is not None
        s.stop()
        said = "".join(s.output)
        assert "Traceback" not in said and "KeyboardInterrupt" not in said, said


@pytest.mark.server
@pytest.mark.slow
def test_a_busy_default_port_moves_on_to_the_next_free_one(tmp_path: Path) -> None:
    """Without --port a second server on one computer just works, on the next free port, and says which."""
    with socket.socket() as blocker:
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        deadline = time.monotonic() + 120
        while True:  # another test's server may hold the default port for a while
            try:
                blocker.bind(("127.0.0.1", DEFAULT_PORT))
                break
            except OSError:
                assert time.monotonic() < deadline, f"port {DEFAULT_PORT} stayed busy"
                time.sleep(0.1)
        blocker.listen()
        with server(["serve", "--no-browser", "--db", str(tmp_path / "g.sqlite3")], env=headless_env(tmp_path)) as s:
            s.wait_for(f"Port {DEFAULT_PORT} is busy; using port")
            url = s.url()
            port = int(URL.search(url).group(1))  # type: ignore[union-attr]
            assert port > DEFAULT_PORT
            assert wait_until_answering(url).status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize(("host", "more"), [("127.0.0.1", []), ("127.0.0.1", ["--workers", "2"]),
                                             ("0.0.0.0", [])])
def test_a_busy_explicit_port_is_refused_not_moved(host: str, more: list[str], tmp_path: Path) -> None:
    """A port named with --port is the one a proxy, a firewall or a bookmark points at: a server that moved to
    another would seem up and serve no one, so it stops with one line saying the port is in use."""
    with socket.socket() as blocker:
        blocker.bind((host, 0))
        blocker.listen()
        busy = blocker.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, "-m", "tableaux", "serve", "--host", host, "--port", str(busy), "--no-browser",
             "--db", str(tmp_path / "g.sqlite3"), *more],
            capture_output=True, text=True, timeout=120, env=headless_env(tmp_path),
        )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert f"port {busy} on {host} is in use; choose another with --port" in proc.stderr
    assert "using port" not in proc.stdout


def test_open_socket_reports_when_every_port_is_busy() -> None:
    from tableaux.web.server import ServeError

    for _attempt in range(20):  # two ports in a row held here; on a busy machine another process may hold the second
        blockers = []
        try:
            first, port = open_socket("127.0.0.1", free_port(), attempts=1)
            blockers.append(first)
            try:
                blockers.append(open_socket("127.0.0.1", port + 1, attempts=1)[0])
            except ServeError:
                continue
            with pytest.raises(ServeError, match=f"ports {port} to {port + 1} on 127.0.0.1 are all busy; choose "
                                                 "another with --port"):
                open_socket("127.0.0.1", port, attempts=2)
            return
        finally:
            for b in blockers:
                b.close()
    pytest.fail("no two free ports in a row were found")


@pytest.mark.server
@pytest.mark.slow
def test_no_arguments_serves_with_the_default_database_and_no_display(tmp_path: Path) -> None:
    """``tableaux`` alone is ``tableaux serve``: port 8000 (or the next free one), database in the data dir."""
    with server([], env=headless_env(tmp_path)) as s:
        url = s.url()
        port = int(URL.search(url).group(1))  # type: ignore[union-attr]
        assert 8000 <= port < 8020
        s.wait_for(re.escape(f"Saved games and statistics: {tmp_path / 'xdg' / 'tableaux' / 'tableaux.sqlite3'}"))
        s.wait_for("No web browser available here; open http")
        assert wait_until_answering(url).status_code == 200
    assert (tmp_path / "xdg" / "tableaux" / "tableaux.sqlite3").exists()


@pytest.mark.server
@pytest.mark.slow
def test_the_browser_is_opened_on_the_url(tmp_path: Path) -> None:
    """With a browser available ($BROWSER here, as on a desktop), the page is opened once the server answers."""
    opened = tmp_path / "opened.txt"
    fake = tmp_path / "fake-browser"
    fake.write_text(f"#!/bin/sh\necho \"$1\" >> {opened}\n")
    fake.chmod(0o755)
    env = headless_env(tmp_path)
    env["BROWSER"] = str(fake)
    with server(["--port", str(free_port()), "--db", str(tmp_path / "g.sqlite3")], env=env) as s:
        url = s.url()
        deadline = time.monotonic() + 120
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
    assert opened.read_text().split() == [url]


@pytest.mark.server
@pytest.mark.slow
def test_options_without_a_command_mean_serve(tmp_path: Path) -> None:
    port = free_port()
    with server(["--port", str(port), "--no-browser", "--db", str(tmp_path / "g.sqlite3")],
                env=headless_env(tmp_path)) as s:
        assert s.url() == f"http://127.0.0.1:{port}/"
        assert wait_until_answering(s.url()).status_code == 200
    assert not any("No web browser" in line for line in s.output)


@pytest.mark.slow
def test_unusable_host_is_a_clear_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tableaux", "serve", "--host", "no-such-host.invalid", "--no-browser",
         "--db", str(tmp_path / "g.sqlite3")],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 1
    assert "cannot listen on host 'no-such-host.invalid'" in proc.stderr


def test_unusable_database_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("x")
    bad = str(tmp_path / "file" / "db.sqlite3")  # its "folder" is a file
    assert main(["serve", "--no-browser", "--port", str(free_port()), "--db", bad]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    missing = str(tmp_path / "nowhere" / "db.sqlite3")
    assert main(["serve", "--no-browser", "--port", str(free_port()), "--db", missing]) == 2
    assert "does not exist; create it first" in capsys.readouterr().err
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database\n" * 100)
    for command in ("stats", "serve"):  # a wrong --db is a bad argument: exit status 2, and nothing served
        extra = ["--no-browser", "--port", str(free_port())] if command == "serve" else []
        assert main([command, *extra, "--db", str(not_a_db)]) == 2
        assert "file is not a database" in capsys.readouterr().err
    assert main(["serve", "--no-browser", "--port", str(free_port()), "--db", str(tmp_path)]) == 2
    assert "cannot open the database" in capsys.readouterr().err
    for command in ("stats", "serve"):  # an empty --db (an unset $DATABASE_URL) is refused, not the default file
        assert main([command, "--db", ""]) == 2
        assert "--db is empty" in capsys.readouterr().err


@pytest.fixture
def read_only_database(tmp_path: Path) -> Iterator[Path]:
    """A SQLite database that this process can read but not write: made read-only to the file system (chmod for
    an ordinary user; root, whom permissions do not stop, makes it immutable with chattr)."""
    path = tmp_path / "games.sqlite3"
    Store(Database(path=path)).close()
    if os.geteuid() != 0:
        path.chmod(0o444)
        tmp_path.chmod(0o555)
        yield path
        tmp_path.chmod(0o755)
        path.chmod(0o644)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root, and this file system cannot make a file immutable (chattr +i): no read-only file")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_database_the_server_may_only_read_is_refused_at_start_and_still_read_by_stats(
    read_only_database: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--no-browser", "--port", str(free_port()), "--db", str(read_only_database)]) == 2
    err = capsys.readouterr().err
    assert "cannot write to the database" in err and "able to write the file and its folder" in err, err
    assert main(["stats", "--db", str(read_only_database)]) == 0  # reading needs no write
    assert "No browser games recorded yet" in capsys.readouterr().out


@pytest.mark.parametrize("written", ["proxy.internal", "10.0.0.300", "10.0.0.0/33", "localhost", ""])
def test_a_trusted_proxy_that_is_not_an_address_or_a_network_is_refused_saying_what_is_accepted(
    written: str, capsys: pytest.CaptureFixture[str],
) -> None:
    """uvicorn keeps a value it cannot read as an address as a name no connection ever has: the proxy would
    never be trusted, and every player behind it counted as one address, without a word."""
    with pytest.raises(SystemExit) as refused:
        build_parser("serve").parse_args(["serve", "--trusted-proxy", "10.0.0.5", "--trusted-proxy", written])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert f"an IP address (192.0.2.7, ::1), a network (10.0.0.0/8) or * for any, not {written!r}" in err


def test_trusted_proxies_are_read_as_addresses_and_networks_and_a_star_trusts_any(tmp_path: Path) -> None:
    def proxies(*given: str) -> tuple[str, ...]:
        args = build_parser("serve").parse_args(["serve", *(f"--trusted-proxy={p}" for p in given)])
        return settings_of(args, Database(path=tmp_path / "g.sqlite3"), None).trusted_proxies

    assert proxies("192.0.2.7", "[::1]", "10.0.0.1/8", " fd00::/64") == ("192.0.2.7", "::1", "10.0.0.0/8", "fd00::/64")
    assert proxies("10.0.0.5", "*") == ("*",)  # what uvicorn reads as "any" (it takes a "*" among others as a name)
    assert proxies() == ()


def test_url_for_shows_a_reachable_address() -> None:
    assert url_for("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert url_for("0.0.0.0", 8001) == "http://127.0.0.1:8001/"
    assert url_for("::", 8002) == "http://[::1]:8002/"
    assert url_for("::1", 8003) == "http://[::1]:8003/"


# --- several processes on one port -------------------------------------------------------
@pytest.mark.server
@pytest.mark.slow
@pytest.mark.parametrize(("cores", "warned"), [(1, True), (2, False)])
def test_more_workers_than_cores_is_warned_of_in_one_line_not_refused(cores: int, warned: bool, tmp_path: Path) -> None:
    """Processes beyond the cores only take turns on them: a host who asks for that is told so, and served."""
    pretend = Path(__file__).parents[1] / "pretend_cpus"  # (what TABLEAUX_TEST_CPUS=N does for a whole run)
    env = {**headless_env(tmp_path), "TABLEAUX_TEST_CPUS": str(cores),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(pretend), os.environ.get("PYTHONPATH")]))}
    args = ["serve", "--workers", "2", "--port", str(free_port()), "--no-browser", "--db", str(tmp_path / "g.sqlite3")]
    with server(args, env=env) as s:
        url = s.url()
        s.wait_for("Press Ctrl\\+C to stop")
        assert wait_until_answering(url).status_code == 200
    told = [line for line in s.output if "more server processes than this machine has cores" in line]
    assert told == ([f"Warning: --workers 2 starts more server processes than this machine has cores ({cores}); "
                     "they take turns on them, so answers get slower, not faster.\n"] if warned else []), s.output



@pytest.mark.server
@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the server processes in /proc (Linux)")
def test_workers_serve_one_port_from_several_processes_and_replace_one_that_dies(database: str) -> None:
    """--workers 2: two processes answer on the port, with one identity and one game across them; a SIGKILLed
    one is replaced while the other answers; the solver's hints work in every process."""
    args = ["serve", "--port", str(free_port()), "--no-browser", "--db", database, "--workers", "2"]
    with server(args) as s:
        url = s.url()
        s.wait_for("2 server processes answer on this port")
        workers = wait_for_children(s.proc.pid, 2)
        wait_until_answering(url)
        with httpx2.Client(base_url=url, timeout=30.0) as client:
            view = client.post("api/games", json={"game": "king-albert", "deal": 7}).json()
            mirror = tableaux.new_game("king-albert", 7)

            def play(moves: int) -> None:
                nonlocal view
                for _ in range(moves):  # each request on a new connection: the kernel spreads them
                    move = view["legal_moves"][0]
                    r = client.post(f"api/games/{view['id']}/moves", json={"move": move, "version": view["version"]},
                                    headers={"connection": "close"})
                    assert r.status_code == 200 and "set-cookie" not in r.headers, r.text
                    view = r.json()
                    mirror.play(Move(move["source"], move["count"], move["target"]))
                    assert view["position"] == mirror.public_position()
                hint = client.post(f"api/games/{view['id']}/hint", headers={"connection": "close"})
                assert hint.status_code == 200 and hint.json()["hint"]["source"] in ("solver", "heuristic")

            play(6)
            os.kill(workers[0], signal.SIGKILL)
            play(6)  # the other process answers meanwhile
            s.wait_for("A server process ended")
            replaced = wait_for_children(s.proc.pid, 2)
            assert workers[0] not in replaced and workers[1] in replaced
            play(6)
            assert client.get("api/current").json()["version"] == 18
        s.proc.terminate()
        s.proc.wait(timeout=60)
        assert children(s.proc.pid) == []


# --- tableaux stats ---------------------------------------------------------------------
def play_a_win(db: Path) -> tuple[str, list[str]]:
    from helpers.web import find_win

    line = find_win("king-albert", 1)
    assert line is not None
    client = TestClient(create_app(db))
    view = client.post("/api/games", json={"game": "king-albert", "deal": 1}).json()
    for text in line:
        view = client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}).json()
    assert view["won"]
    return format_time(view["elapsed_seconds"]), line


def test_stats_prints_every_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    won_time, line = play_a_win(db)
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "King Albert" in out and "Eagle Wing" in out
    assert stats_table(out, "Games played") == ["1", "0", "0"]
    assert stats_table(out, "Games won") == ["1", "0", "0"]
    assert stats_table(out, "Win rate") == ["100%", "-", "-"]  # none for a game never played, not 0%
    assert stats_table(out, "Current winning streak") == ["1", "0", "0"]
    assert stats_table(out, "Fastest win") == [won_time, "-", "-"]
    assert stats_table(out, "Fewest moves in a win") == [str(len(line)), "-", "-"]
    assert main(["stats", "--db", str(db), "--game", "eagle-wing"]) == 0
    out = capsys.readouterr().out
    assert "Eagle Wing" in out and "King Albert" not in out


@pytest.mark.slow
def test_stats_reset_asks_first(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.sqlite3"
    play_a_win(db)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    assert main(["stats", "--db", str(db), "--reset"]) == 1
    out = capsys.readouterr().out
    assert "[y/N]" in out and "Nothing was reset" in out
    assert main(["stats", "--db", str(db)]) == 0
    assert stats_table(capsys.readouterr().out, "Games won") == ["1", "0", "0"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no answer at all is a no
    assert main(["stats", "--db", str(db), "--reset"]) == 1
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    assert main(["stats", "--db", str(db), "--reset", "--game", "king-albert"]) == 0
    out = capsys.readouterr().out
    assert "reset" in out and stats_table(out, "Games won") == ["0"]


@pytest.mark.slow
def test_stats_reset_yes_skips_the_question(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "g.sqlite3"
    play_a_win(db)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["stats", "--db", str(db), "--reset", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "[y/N]" not in out and stats_table(out, "Games played") == ["0", "0", "0"]


def test_stats_without_a_database_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "none.sqlite3"
    assert main(["stats", "--db", str(db)]) == 0
    assert "No browser games recorded yet" in capsys.readouterr().out
    assert not db.exists()


def test_stats_of_a_database_that_cannot_be_reached_says_so_to_the_host(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("psycopg")
    assert main(["stats", "--db", f"postgresql://tableaux@127.0.0.1:{free_port()}/games"]) == 1  # nothing listens
    err = capsys.readouterr().err
    assert err.startswith("tableaux stats: cannot reach the saved games database (")  # then libpq's reason
    assert err.rstrip().endswith("nothing was read or changed") and "moves" not in err  # not the player's sentence


def test_stats_yes_without_reset_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", str(tmp_path / "x.sqlite3"), "--yes"]) == 2
    assert "--yes only goes with --reset" in capsys.readouterr().err


def test_format_time() -> None:
    assert format_time(None) == "-"
    assert format_time(0) == "0:00"
    assert format_time(65.4) == "1:05"
    assert format_time(3725) == "1:02:05"
    assert format_time(59.99) == "0:59"  # a clock shows the seconds gone by; it does not round up


@given(st.floats(min_value=0, max_value=10 * 3600, allow_nan=False))
def test_the_time_a_game_shows_is_the_time_its_statistics_show(seconds: float) -> None:
    """The view sends the elapsed time cut to a tenth; stats format the stored value: both read the same."""
    from tableaux.web.player_stats import tenths

    assert format_time(tenths(seconds)) == format_time(seconds)


@pytest.mark.slow
def test_stats_shows_the_assisted_and_daily_rows_the_browser_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A daily deal won by hand, and a game won with the solver's line: the terminal's table has the browser's
    rows (assisted games apart, the daily figures), with the numbers the web API gives."""
    monkeypatch.setenv("COLUMNS", "200")  # a terminal wide enough for every game's column and each row's name
    db = tmp_path / "g.sqlite3"
    client = TestClient(create_app(db))
    daily = client.post("/api/daily", json={"game": "king-albert"}).json()
    from helpers.web import find_win

    line = find_win("king-albert", daily["deal"])
    assert line is not None
    view = daily
    for text in line:
        view = client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}).json()
    assert view["won"] and view["daily"]
    helped = client.post("/api/games", json={"game": "eagle-wing", "deal": 1}).json()
    solution = client.post(f"/api/games/{helped['id']}/solution", json={"version": helped["version"]}).json()
    view = solution["view"]
    for text in solution["moves"]:
        view = client.post(f"/api/games/{view['id']}/moves", json={"move": text, "version": view["version"]}).json()
    assert view["won"] and view["assisted"]
    web = client.get("/api/stats").json()
    assert main(["stats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    for label, key in (("Games with the solver's help", "assisted"), ("Daily deals played", "daily_played"),
                       ("Daily deals won", "daily_won"), ("Daily streak", "daily_streak"),
                       ("Best daily streak", "best_daily_streak")):
        assert stats_table(out, label) == [str(web[name][key]) for name in WEB_GAMES], label
    assert web["king-albert"]["daily_won"] == 1 and web["eagle-wing"]["assisted"] == 1
