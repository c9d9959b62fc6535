"""Which database the web game keeps its games in: what ``--db`` names, and the engine that connects to it.

``--db`` names the database: a file path (or ``sqlite:///PATH``) is SQLite,
the embedded default that needs nothing installed; ``postgresql://...`` (or
libpq's ``host=... dbname=...``) is a PostgreSQL server that any number of
server processes, on any number of machines, can share. :func:`parse_database` reads that text and refuses
anything else before a file or a connection is made.

The store speaks to either database through one :class:`~tableaux.web.dialect.Connection`
(:mod:`tableaux.web.dialect`: placeholders, column types, row order, transactions) that an engine opens:
one connection per thread for SQLite (:mod:`tableaux.web.sqlite_engine`), a pool (psycopg_pool) for
PostgreSQL (:mod:`tableaux.web.postgres_engine`). Each engine turns its driver's errors that mean the
database is unavailable, or its disk full, into the store's own errors (:mod:`tableaux.web.outage`), and a
PostgreSQL server that went away is watched for until it is back.

psycopg is an optional extra (``pip install '.[postgres]'``), imported
only when a PostgreSQL URL is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from .outage import StoreError, one_line, shown
from .postgres_engine import PostgresEngine
from .sqlite_engine import SqliteEngine

ACCEPTED = ("a file path, sqlite:///PATH, postgresql://USER@HOST/DATABASE or libpq's 'host=HOST dbname=DATABASE "
            "user=USER'")
"""What ``--db`` accepts, as the refusals say it."""
POSTGRES_EXTRA = "pip install '.[postgres]'"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]+):")
_KEY_VALUE = re.compile(r"[A-Za-z_]+\s*=")
"""How a libpq connection string of ``keyword=value`` pairs starts (``host=/run/postgresql dbname=tableaux``)."""


@dataclass(frozen=True)
class Database:
    """A parsed ``--db``: an SQLite file (``path``) or a PostgreSQL server (``url``, as libpq reads it: a URL or
    ``keyword=value`` pairs)."""

    path: Path | None = None
    url: str | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.path is not None

    def __str__(self) -> str:
        return str(self.path) if self.path is not None else shown(str(self.url))

    def engine(self) -> SqliteEngine | PostgresEngine:
        """How a store on this database gets its connections; :class:`StoreError` if it cannot."""
        if self.path is not None:
            return SqliteEngine(self.path)
        assert self.url is not None
        return PostgresEngine(self.url)


def _in_a_folder(db: str, path: Path) -> Path:
    """``path`` when its folder is there. A file named with ``--db`` whose folder is not is refused rather than
    made: a mistyped folder would start a new, empty database, and every player's games would seem lost."""
    if path.parent.exists() and not path.parent.is_dir():
        raise StoreError(_("--db {db}: {folder} is a file, not a folder; name a file in a folder").format(
            db=repr(shown(db)), folder=repr(str(path.parent))))
    if not path.parent.is_dir():
        raise StoreError(_("--db {db}: the folder {folder} does not exist; create it first, or name a file in a "
                           "folder that does").format(db=repr(shown(db)), folder=repr(str(path.parent))))
    return path


def parse_database(db: str | Path) -> Database:
    """What ``--db`` names; :class:`StoreError` with one line (what is wrong, what is accepted) otherwise.

    Nothing is created here: a refused value leaves no file and no connection behind.
    ``sqlite:///games.db`` is relative and ``sqlite:////var/lib/games.db`` absolute, as SQLAlchemy writes them.
    """
    if isinstance(db, Path):
        return Database(path=db)  # the default, whose folder is made on first use
    text = db.strip()
    if _KEY_VALUE.match(text):  # libpq's other spelling, which it reads wherever a URL goes
        return _postgresql(text, _("--db {db} is not a PostgreSQL connection string libpq can read ({error}); "
                                   "accepted: {accepted} (write a file name that has an = as ./NAME)"))
    scheme = _SCHEME.match(text)
    if scheme is None:  # a plain path (a Windows drive letter is one character: still a path)
        if not text:
            raise StoreError(_("--db is empty; give {accepted}").format(accepted=ACCEPTED))
        return Database(path=_in_a_folder(text, Path(text).expanduser()))
    name = scheme.group(1).lower()
    if name == "sqlite":
        path = text[len("sqlite:///"):] if text[:10].lower() == "sqlite:///" else ""
        if not path or path == ":memory:":
            raise StoreError(_("--db {db}: an SQLite URL is sqlite:///PATH to a file (sqlite:////PATH from the "
                               "root); accepted: {accepted}").format(db=repr(shown(text)), accepted=ACCEPTED))
        return Database(path=_in_a_folder(text, Path(path).expanduser()))
    if name in ("postgresql", "postgres"):
        if not text[len(name) + 1:].startswith("//"):
            raise StoreError(_("--db {db}: a PostgreSQL URL starts with postgresql://; accepted: {accepted}").format(
                db=repr(shown(text)), accepted=ACCEPTED))
        return _postgresql(text, _("--db {db} is not a PostgreSQL URL libpq can read ({error}); accepted: "
                                   "{accepted}"))
    raise StoreError(_("--db {db}: {scheme}: is not a database tableaux can use; accepted: {accepted} "
                       "(write a file name that has a colon as ./NAME)").format(
        db=repr(shown(text)), scheme=scheme.group(1), accepted=ACCEPTED))


def _unquoted_secrets(error: str, text: str) -> str:
    """libpq's refusal with what :func:`shown` hides kept hidden: libpq quotes the part it could not read
    (``invalid percent-encoded token: "s3cr%zz"``), which may be a password; a quoted part that the masked text
    does not show is masked too."""
    visible = shown(text)
    return re.sub(r'"([^"]*)"', lambda m: m.group(0) if m.group(1) in visible else '"***"', shown(error))


def _postgresql(text: str, unreadable: str) -> Database:
    """A PostgreSQL ``--db`` (a URL or ``keyword=value`` pairs) once libpq's own reading accepts it; ``unreadable``
    words the refusal otherwise."""
    try:
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:
        raise StoreError(_("--db {db} needs psycopg (PostgreSQL support): {install}").format(
            db=repr(shown(text)), install=POSTGRES_EXTRA)) from None
    try:
        settings = conninfo_to_dict(text)
    except Exception as exc:  # psycopg.ProgrammingError: libpq's own reading of the text
        raise StoreError(unreadable.format(db=repr(shown(text)), error=_unquoted_secrets(one_line(exc), text),
                                           accepted=ACCEPTED)) from None
    # libpq reads any port as text and refuses one that is not a number only as it connects, and then only for a
    # host given by its address: for a host name it tries to look the port up as a service, and fails as a host
    # that cannot be reached would, which the server waits out.
    for port in str(settings.get("port") or "").split(","):
        if port and not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
            raise StoreError(unreadable.format(db=repr(shown(text)), accepted=ACCEPTED, error=_(
                "port {port} is not a number from 1 to 65535").format(port=repr(shown(port)))))
    return Database(url=text)
