"""Any "by time" report as a picture: chosen columns against the interval end.

One line per column, one point per monitor interval, the ``>>Mean>>`` row as
a dashed line of the same colour, and the y axis from zero (a rate or a
percentage that looks steep on a clipped axis is often flat). A report with
several rows per interval needs one of them picked: ``user=`` for the
per-user logs (FCX162, FCX163, FCX164...), ``device=`` for FCX168 DEVLOG,
``cpu=`` for FCX144 PROCLOG.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from ..api import report
from ..errors import ZvmsimError
from ..monitor.stream import MonitorData
from ..perfkit.catalog import find_report
from ..perfkit.reduce import RunData
from ..perfkit.report import MEAN

__all__ = ["by_time_plot"]


def _pick(frame: pd.DataFrame, code: str, column: str, value: str | None) -> pd.DataFrame:
    """The rows of *frame* whose *column* is *value* (none given: all rows)."""
    if value is None:
        return frame
    if column not in frame.columns:
        raise ZvmsimError(f"{code} has no '{column}' column to pick '{value}' from")
    chosen = frame[frame[column].astype(str).str.upper() == str(value).upper()]
    if chosen.empty:
        raise ZvmsimError(f"{code} has no {column} '{value}'")
    return chosen


def by_time_plot(
    data: MonitorData | RunData,
    code: str,
    columns: list[str],
    *,
    user: str | None = None,
    device: str | None = None,
    cpu: str | None = None,
    title: str | None = None,
    ax: Any = None,
) -> Any:
    """Plot *columns* of by-time report *code* (FCX225, FCX164...) per interval; the axes.

    The ``>>Mean>>`` row is drawn as a dashed line per column and the y axis
    starts at zero. A report with several rows per interval needs one picked:
    *user* (one userid), *device* (a device number for FCX168) or *cpu*
    (a processor for FCX144).
    """
    spec = find_report(code)
    if not spec.by_time:
        raise ZvmsimError(f"{spec.fcx} {spec.name} is not a by-time report")
    frame = report(data, code, user=user).frame
    frame = _pick(frame, spec.fcx, "addr", device)
    frame = _pick(frame, spec.fcx, "cpu", cpu)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ZvmsimError(f"{spec.fcx} has no column '{missing[0]}'")
    rows = frame[frame["interval_end"] != MEAN]
    means = frame[frame["interval_end"] == MEAN]
    if rows["interval_end"].duplicated().any() or len(means) > 1:
        raise ZvmsimError(
            f"{spec.fcx} has several rows per interval: pick one with user=, device= or cpu="
        )
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    x = range(len(rows))
    for col in columns:
        line = ax.plot(x, rows[col].astype(float), marker="o", markersize=3, label=col)[0]
        if len(means):
            ax.axhline(float(means[col].iloc[0]), color=line.get_color(), linestyle="--", lw=0.8)
    ax.set_xticks(list(x), list(rows["interval_end"]), rotation=45, fontsize=8)
    ax.set_xlabel("interval end")
    ax.set_ylim(bottom=0)
    picked = " ".join(p for p in (user, device and device.upper(), cpu and f"CPU {cpu}") if p)
    ax.set_title(title or f"{spec.fcx} {spec.name}" + (f" {picked}" if picked else ""))
    ax.legend(fontsize=8)
    return ax
