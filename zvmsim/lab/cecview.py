"""The CEC view as a picture: how busy each pool of physical PUs was, interval by interval.

The HiperSockets case study's expert added up FCX126's logical-PU busy per
PU type for every monitor interval with a little Rexx and plotted it; the
CECLOG report does the adding (from the D0 R30 records only), this draws it.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt

from ..api import report
from ..perfkit.reduce import RunData
from ..perfkit.report import MEAN

__all__ = ["cec_view", "cec_view_plot"]


def cec_view(run: RunData) -> Any:
    """CECLOG's intervals as a table: one row per interval, one column per PU type (%Busy)."""
    frame = report(run, "CECLOG").frame
    frame = frame[frame["interval_end"] != MEAN]
    return frame.pivot(index="interval_end", columns="pu_type", values="pct_busy")


def cec_view_plot(run: RunData, title: str = "PU busy by PU type", ax: Any = None) -> Any:
    """Plot each PU type's %Busy (of its physical PUs) by interval; returns the axes."""
    table = cec_view(run)
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.2))
    for pu_type in table.columns:
        ax.plot(range(len(table)), table[pu_type], marker="o", markersize=3, label=pu_type)
    ax.set_xticks(range(len(table)), table.index, rotation=45, fontsize=8)
    ax.set_ylim(0, 110)
    ax.set_ylabel("% busy of the physical PUs")
    ax.set_xlabel("interval end")
    ax.set_title(title)
    ax.axhline(100, color="grey", linewidth=0.5)
    ax.legend(loc="lower right", fontsize=8, ncol=len(table.columns))
    return ax
