"""Any "by time" report as a picture: chosen columns against the interval end."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt

from ..api import report
from ..errors import ZvmsimError
from ..monitor.stream import MonitorData
from ..perfkit.catalog import find_report
from ..perfkit.reduce import RunData
from ..perfkit.report import MEAN

__all__ = ["by_time_plot"]


def by_time_plot(
    data: MonitorData | RunData,
    code: str,
    columns: list[str],
    *,
    user: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    """Plot *columns* of by-time report *code* (FCX225, FCX164...) per interval; the axes.

    The ``>>Mean>>`` row is drawn as a dashed line per column. A per-user report
    needs *user* (one userid) so there is one line per column.
    """
    spec = find_report(code)
    if not spec.by_time:
        raise ZvmsimError(f"{spec.fcx} {spec.name} is not a by-time report")
    frame = report(data, code, user=user).frame
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ZvmsimError(f"{spec.fcx} has no column '{missing[0]}'")
    rows = frame[frame["interval_end"] != MEAN]
    means = frame[frame["interval_end"] == MEAN]
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    x = range(len(rows))
    for col in columns:
        line = ax.plot(x, rows[col].astype(float), marker="o", markersize=3, label=col)[0]
        if len(means):
            ax.axhline(float(means[col].iloc[0]), color=line.get_color(), linestyle="--", lw=0.8)
    ax.set_xticks(list(x), list(rows["interval_end"]), rotation=45, fontsize=8)
    ax.set_xlabel("interval end")
    ax.set_title(title or f"{spec.fcx} {spec.name}" + (f" {user}" if user else ""))
    ax.legend(fontsize=8)
    return ax
