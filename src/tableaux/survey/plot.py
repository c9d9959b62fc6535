"""A survey's picture: how long deals took, and the running winnable share (``tableaux survey --plot FILE``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..i18n import _
from .files import SURVEY_EXTRA, SurveyError


def plot(rows: list[dict[str, Any]], path: str | Path, title: str) -> None:
    """Time distribution and running winnable share, as a PNG (no display needed)."""
    try:
        import matplotlib
    except ImportError:  # the survey extra is not installed
        raise SurveyError(_("plotting needs matplotlib, which the survey extra installs: {install}").format(
            install=SURVEY_EXTRA)) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["deal"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    times = [max(float(r["seconds"]), 1e-4) for r in rows]
    if times:
        bins = [10 ** (k / 4) for k in range(-16, 9)]
        for verdict, colour in (("winnable", "tab:green"), ("unwinnable", "tab:red"), ("unknown", "tab:gray")):
            part = [t for t, r in zip(times, rows, strict=True) if r["verdict"] == verdict]
            left.hist(part, bins=bins, alpha=0.6, label=f"{verdict} ({len(part)})", color=colour)
        left.set_xscale("log")
        left.legend()
    left.set_xlabel("seconds per deal")
    left.set_ylabel("deals")
    left.set_title("time distribution")
    won = low = 0
    xs, lows, highs = [], [], []
    for i, r in enumerate(rows, 1):
        won += r["verdict"] == "winnable"
        low += r["verdict"] != "unwinnable"
        xs.append(i)
        lows.append(won / i)
        highs.append(low / i)
    right.plot(xs, lows, label="winnable (unknown as lost)")
    right.plot(xs, highs, label="winnable or unknown")
    right.set_xlabel("deals solved (in deal order)")
    right.set_ylabel("running share")
    right.set_ylim(0, 1)
    right.legend()
    right.set_title("running winnable share")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
