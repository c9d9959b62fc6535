"""Worker processes that end when the process that started them is gone.

A process pool's workers wait on the pool's queue; if the parent is killed
(SIGKILL, a crash) it cannot shut them down, and a worker blocked on the queue
never notices. Surveys and the web server's solver pool start their workers
with :func:`watch_parent`, so no worker outlives them.
"""

from __future__ import annotations

import os
import threading
import time


def watch_parent() -> None:
    """Pool worker start-up: exit as soon as the survey process is gone.

    A killed survey (SIGKILL, a crash) cannot shut its pool down, and a worker
    blocked on the task queue would never notice, so each worker checks its
    parent twice a second from a daemon thread.
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
