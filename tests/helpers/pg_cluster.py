"""A throwaway PostgreSQL cluster for the tests and the benchmark: initdb and pg_ctl in a temporary folder.

Uses the server binaries of Debian's ``postgresql`` package (or any on PATH).
initdb refuses to run as root, so as root the cluster belongs to the
``postgres`` user the package creates, in a folder of its own under the system's
temporary directory (pytest's folders are private to root). The server listens
on 127.0.0.1 only, with trust authentication for the one superuser it makes.

    cluster = Cluster.start()
    url = cluster.new_database()     # postgresql://tableaux@127.0.0.1:PORT/t1
    cluster.halt(); cluster.resume() # an outage: the server stopped at once, then started again
    ...
    cluster.stop()
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .net import free_port

SUPERUSER = "tableaux"
OWNER = "postgres"
"""Who runs the server when the tests run as root (the user Debian's package creates)."""


def binaries() -> Path | None:
    """The folder with initdb and pg_ctl: on PATH, or the newest of Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


def missing() -> str | None:
    """Why no cluster can be started here, or None when one can."""
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg and psycopg_pool are not installed (pip install '.[postgres]')"
    if binaries() is None:
        return "no initdb found (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(OWNER)
        except KeyError:
            return f"running as root and there is no {OWNER!r} user to run initdb as"
    return None


SKIP = "PostgreSQL is not available here"


def required() -> None:
    """Skip the calling test where no cluster can be started, saying why; fail instead when
    TABLEAUX_REQUIRE_POSTGRES is set (CI installs PostgreSQL, so there a missing server is a failure)."""
    import pytest

    reason = missing()
    if reason is not None:
        if os.environ.get("TABLEAUX_REQUIRE_POSTGRES"):
            pytest.fail(f"TABLEAUX_REQUIRE_POSTGRES is set but {reason}")
        pytest.skip(f"{SKIP}: {reason}")


class Cluster:
    """One running server; :meth:`new_database` gives each test a database of its own."""

    def __init__(self, folder: Path, port: int, bin_dir: Path) -> None:
        self.folder = folder
        self.port = port
        self.bin_dir = bin_dir
        self.fsync = False
        self._names = itertools.count(1)

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @staticmethod
    def _as_owner(command: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return command
        return ["runuser", "-u", OWNER, "--", *command]

    def _run(self, *command: str) -> None:
        proc = subprocess.run(self._as_owner(list(command)), capture_output=True, text=True, timeout=120,
                              cwd=self.folder)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}): {proc.stdout}{proc.stderr}")

    def _options(self) -> str:
        return (f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.folder} "
                f"-c max_connections=300 -c fsync={'on' if self.fsync else 'off'}")

    def halt(self) -> None:
        """Stop the server at once, as a crash would (``pg_ctl stop -m immediate``); the data stays, for
        :meth:`resume`."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """Start the server again after :meth:`halt`, on the same port and data (it recovers from its log)."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.folder / "server.log"),
                  "-o", self._options(), "-w", "-t", "60", "start")

    @classmethod
    def start(cls, fsync: bool = False) -> Cluster:
        """A new cluster. ``fsync=False`` (tests) skips flushing to disk, which only matters if the machine
        itself goes down; a killed server process loses nothing either way. A benchmark keeps it on."""
        bin_dir = binaries()
        assert bin_dir is not None, missing()
        folder = Path(tempfile.mkdtemp(prefix="tableaux-pg-"))
        if os.geteuid() == 0:
            owner = pwd.getpwnam(OWNER)
            os.chown(folder, owner.pw_uid, owner.pw_gid)
        cluster = cls(folder, free_port(), bin_dir)
        cluster.fsync = fsync
        try:
            cluster._run(str(bin_dir / "initdb"), "-D", str(cluster.data), "-A", "trust", "-U", SUPERUSER,
                         "-E", "UTF8", "--locale=C", "--no-sync")
            cluster.resume()
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return cluster

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def password_role(self, role: str, password: str) -> str:
        """The URL (with no password in it) of a role that must give ``password``: the cluster trusts every other
        role, and asks this one for a password over TCP from now on."""
        import psycopg
        from psycopg import sql

        hba = self.data / "pg_hba.conf"
        line = f"host all {role} 127.0.0.1/32 scram-sha-256\n"
        if line not in hba.read_text():
            hba.write_text(line + hba.read_text())  # the first line that fits a connection decides
        with psycopg.connect(self.url(), autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None:
                conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(role), sql.Literal(password)))
            conn.execute("SELECT pg_reload_conf()")
        url = f"postgresql://{role}@127.0.0.1:{self.port}/postgres"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the server reads pg_hba.conf again when its main process gets to it
            try:
                psycopg.connect(url, password="", passfile=str(self.folder / "no-passfile")).close()
            except psycopg.OperationalError:
                return url
            time.sleep(0.05)
        raise RuntimeError(f"the PostgreSQL server still lets {role} in without a password")

    def drop_database(self, url: str) -> None:
        """Drop a database made by :meth:`new_database`, closing whatever connections are left on it."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server (if it runs) and remove the cluster."""
        try:
            if (self.data / "postmaster.pid").exists():
                self.halt()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
