"""``tableaux serve`` with a solver pool of a size the test chooses, whatever the machine's core count.

The server sizes its pool from ``os.cpu_count()`` (:func:`tableaux.web.pool.default_workers`), so a test
about a full pool would hold on two cores and not on sixteen. Run as::

    python tests/helpers/sized_server.py WORKERS LIMIT serve --port 8000 --no-browser --db games.sqlite3

it is ``python -m tableaux serve ...`` with the app given ``SolverPool(WORKERS, LIMIT)``.
"""

from __future__ import annotations

import sys
from functools import partial


def main(argv: list[str]) -> int:
    from tableaux.cli import main as tableaux_main
    from tableaux.web import app
    from tableaux.web.pool import SolverPool

    workers, limit, *args = argv
    app.create_app = partial(app.create_app, pool=SolverPool(int(workers), int(limit)))  # read when serve starts
    return tableaux_main(args)


if __name__ == "__main__":  # the pool's spawned workers import this file again, as __mp_main__
    sys.exit(main(sys.argv[1:]))
