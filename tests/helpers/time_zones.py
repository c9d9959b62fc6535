"""Far time zones for the tests of what must follow UTC (the daily deal), and UTC's date to compare with.

The ``time_zone`` fixture (conftest.py) puts the test process in one of them.
"""

from __future__ import annotations

import datetime as dt
import time

FAR_ZONES = ("Etc/GMT-14", "Etc/GMT+12")
"""14 hours ahead of UTC and 12 behind (POSIX signs are reversed): at every hour of the day one of them is on
another date than UTC, so a test that tries both sees a local date taken for the UTC one whenever it runs."""


def utc_date() -> dt.date:
    """Today in UTC, from the C library's clock rather than from the code under test."""
    return dt.date(*time.gmtime()[:3])


def local_date() -> dt.date:
    """Today in the process's time zone (TZ), as code that forgot UTC would have it."""
    return dt.date(*time.localtime()[:3])
