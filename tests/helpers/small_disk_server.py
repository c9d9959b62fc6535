"""``tableaux serve`` on an SQLite file that cannot grow past a size the test chooses: a full disk, made small.

    python tests/helpers/small_disk_server.py PAGES serve --port 8000 --no-browser --db games.sqlite3

is ``python -m tableaux serve ...`` with every SQLite connection of the server limited to ``PAGES`` pages
(``PRAGMA max_page_count``): past that, SQLite fails a write exactly as on a full disk ("database or disk is
full"), and reads go on.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from tableaux.cli import main as tableaux_main
    from tableaux.web import dialect, sqlite_engine

    pages, *args = argv
    opened = sqlite_engine.SqliteEngine._open

    def small(self: sqlite_engine.SqliteEngine) -> dialect.Connection:
        conn = opened(self)
        conn.execute(f"PRAGMA max_page_count = {int(pages)}")
        return conn

    sqlite_engine.SqliteEngine._open = small  # type: ignore[method-assign]
    return tableaux_main(args)


if __name__ == "__main__":  # the solver pool's spawned workers import this file again, as __mp_main__
    sys.exit(main(sys.argv[1:]))
