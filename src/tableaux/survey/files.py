"""A survey's results file: one JSON line per deal, appended batch by batch, and read back.

A file named ``*.gz`` is written as gzip, one gzip member per batch (gzip
readers see the members as one stream), so a survey of a million deals stays
a few megabytes and can be resumed in a later session from a committed file.
Leave the winning lines out of such files (``lines=False``, ``--no-lines``):
``tableaux solve`` gives any of them again in milliseconds. A survey killed
while writing leaves a torn last line or member, which is dropped.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path
from typing import Any

from ..i18n import _


class SurveyError(ValueError):
    """Bad survey arguments or an unreadable results file."""


SURVEY_EXTRA = "pip install '.[survey]'"
"""How to install the survey extra (Dask, matplotlib) from a clone of tableaux."""


def check_out(path: str | Path | None) -> None:
    """Refuse, before any deal is solved, a results file that could not be written.

    A survey may run for hours; finding out at its first write that the folder
    does not exist would waste them.
    """
    if path is None:
        return
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise SurveyError(_("--out {file} is a folder; give a file name, for example results.jsonl.gz").format(
            file=path))
    if not folder.is_dir():
        raise SurveyError(_("--out {file}: the folder {folder} does not exist").format(file=path, folder=str(folder)))
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise SurveyError(_("--out {file} cannot be written here (permission denied)").format(file=path))


def _gzip_members(data: bytes) -> tuple[bytes, int]:
    """The text of the complete gzip members at the start of ``data``, and where the last one ends.

    A survey killed while writing leaves a torn last member; what comes before it is kept.
    """
    text, end = [], 0
    while end < len(data):
        unpack = zlib.decompressobj(wbits=31)
        try:
            chunk = unpack.decompress(data[end:])
        except zlib.error:
            break
        if not unpack.eof:
            break
        text.append(chunk)
        end = len(data) - len(unpack.unused_data)
    return b"".join(text), end


def _read_text(path: str | Path) -> str:
    with open(path, "rb") as fh:
        data = fh.read()
    if str(path).endswith(".gz"):
        text, end = _gzip_members(data)
        if data and end == 0:
            raise SurveyError(_("{file}: not a survey results file (not gzip)").format(file=path))
        data = text
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise SurveyError(_("{file}: not a survey results file (not text)").format(file=path)) from None


def read_results(path: str | Path | None, game: str, *, field: str = "verdict") -> dict[int, dict[str, Any]]:
    """Results already in ``path`` for ``game``, by deal. A torn last line (a crash mid-write) is ignored.

    A file that is not a results file (its first line is not a result, or it is not gzip where the name says
    so) is refused with :class:`SurveyError`, so nothing is ever appended to it.

    ``field`` is the result every row must carry: ``verdict`` for solver surveys,
    ``won`` for surveys of a player (see :mod:`tableaux.survey.fair`).
    """
    return _read(path, game, field)[0]


def resume_results(path: str | Path | None, game: str, *, field: str = "verdict") -> dict[int, dict[str, Any]]:
    """:func:`read_results` for a survey about to append to ``path``: a file that holds another game's rows is
    refused with :class:`SurveyError`.

    Rows are read back by game, so two games' rows in one file would not mix up their counts; but every
    reader of the kept files (``tools/survey_table.py``, the docs' tables) takes a file for one game's survey,
    as its name says, and a survey of another game into it is far more likely a mistyped ``--out``.
    """
    done, others = _read(path, game, field)
    if others:
        raise SurveyError(_("{file} holds deals of {other}, not {game}: a results file holds one game's survey; "
                            "give another --out").format(file=path, other=", ".join(sorted(others)), game=game))
    return done


def _read(path: str | Path | None, game: str, field: str) -> tuple[dict[int, dict[str, Any]], set[str]]:
    """The rows of ``game`` by deal, and the other games the file has rows of."""
    if path is None or not os.path.exists(path):
        return {}, set()
    done: dict[int, dict[str, Any]] = {}
    others: set[str] = set()
    rows = 0  # results read so far: a torn last line is only believable after some
    lines = _read_text(path).split("\n")
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
        except json.JSONDecodeError:
            last = number == len(lines) or (number == len(lines) - 1 and not lines[-1])
            if last and rows:
                continue  # the last line was being written when the survey stopped
            raise SurveyError(_("{file}: line {number} is not JSON; is this a survey results file?").format(
                file=path, number=number)) from None
        if not isinstance(row, dict) or "deal" not in row or field not in row:
            raise SurveyError(_("{file}: line {number} is not a survey result (needs 'deal' and {field})").format(
                file=path, number=number, field=repr(field)))
        rows += 1
        if row.get("game") == game:
            done[int(row["deal"])] = row
        elif row.get("game") is not None:
            others.add(str(row["game"]))
    return done, others


def drop_torn_tail(path: str | Path | None) -> None:
    """Cut a half-written last line or gzip member (a survey killed mid-write), so appending stays valid."""
    if path is None or not os.path.exists(path):
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if str(path).endswith(".gz"):
            fh.truncate(_gzip_members(data)[1])
        elif data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def append_results(path: str | Path | None, rows: list[dict[str, Any]]) -> None:
    """Add rows at the end of the file, flushed to disk before the survey goes on."""
    if path is None or not rows:
        return
    text = "".join(json.dumps(row) + "\n" for row in rows).encode()
    gz = str(path).endswith(".gz")
    with open(path, "ab") as fh:
        fh.write(gzip.compress(text, mtime=0) if gz else text)
        fh.flush()
        os.fsync(fh.fileno())
