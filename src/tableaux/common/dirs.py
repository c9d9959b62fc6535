"""The user's directories for tableaux: where its data is kept and where it may cache: as ``platformdirs`` says.

``platformdirs`` knows every system's rules, but importing it loads ``pathlib``, ``tempfile`` and ``shutil``,
a quarter of the line mode's start-up (``benchmarks/cli.py``). On Linux, the rule it follows is short (the
XDG base directories): ``$XDG_DATA_HOME`` or ``$XDG_CACHE_HOME`` when it is an absolute path, else
``~/.local/share`` or ``~/.cache`` under an absolute ``HOME``; then ``tableaux``. :func:`user_dir` applies it
there, and asks ``platformdirs`` everywhere else (another system, no usable ``HOME``, Android).
``tests/common/test_dirs.py`` holds the two equal over many environments.
"""

from __future__ import annotations

import os
import sys

XDG = {"data": ("XDG_DATA_HOME", "/.local/share"), "cache": ("XDG_CACHE_HOME", "/.cache")}
"""Each kind of directory: its XDG variable and where it is under ``HOME`` otherwise."""


def user_dir(kind: str) -> str:
    """``platformdirs.user_data_dir("tableaux")`` for ``data``, ``user_cache_dir`` for ``cache``."""
    variable, default = XDG[kind]
    home = os.environ.get("HOME", "")
    android = hasattr(sys, "getandroidapilevel") or (
        os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system")
    if sys.platform == "linux" and not android and home.startswith("/"):
        base = os.environ.get(variable, "")
        return os.path.join(base if base.startswith("/") else home.rstrip("/") + default, "tableaux")
    import platformdirs

    return platformdirs.user_data_dir("tableaux") if kind == "data" else platformdirs.user_cache_dir("tableaux")
