"""tableaux keeps its data and its cache where ``platformdirs`` says, whatever the environment, though on Linux it
works the places out without loading ``platformdirs``."""

from __future__ import annotations

import sys

import platformdirs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tableaux.common.dirs import user_dir
from tableaux.terminal.unfinished import data_dir

PATHS = st.one_of(st.none(), st.sampled_from(["", "/", "/home/ann", "/home/ann/", "relative/dir", "~/data", "//srv",
                                               "/tmp/x y/é", "/a/../b", " /lead"]))
ASKED = {"data": platformdirs.user_data_dir, "cache": platformdirs.user_cache_dir}


@pytest.mark.skipif(sys.platform != "linux", reason="the directories are worked out by hand on Linux only")
@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(ASKED)), home=PATHS, xdg=PATHS, android=st.booleans())
def test_each_directory_is_the_one_platformdirs_gives(kind: str, home: str | None, xdg: str | None,
                                                      android: bool) -> None:
    with pytest.MonkeyPatch.context() as env:
        environment = {"HOME": home, "XDG_DATA_HOME": xdg, "XDG_CACHE_HOME": xdg,
                       "ANDROID_DATA": "/data" if android else None, "ANDROID_ROOT": "/system" if android else None,
                       "SHELL": "/bin/sh" if android else None}
        for name, value in environment.items():
            if value is None:
                env.delenv(name, raising=False)
            else:
                env.setenv(name, value)
        try:
            expected = ASKED[kind]("tableaux")
        except RuntimeError:  # no usable home: platformdirs refuses, and so must we
            with pytest.raises(RuntimeError):
                user_dir(kind)
            return
        assert user_dir(kind) == expected
        if kind == "data":
            assert data_dir() == expected
