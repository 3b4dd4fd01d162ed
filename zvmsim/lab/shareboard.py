"""The excess-share case: its dashboard, and who got the processor under which setting.

:func:`cpu_split` lines up the %CPU of each guest (FCX112) for several runs
side by side, the way the seed's table puts "Normalize", "Should Get" and
"Problem Scenario" next to each other; :func:`cpu_split_plot` draws it.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from ..api import report
from ..monitor.stream import MonitorData
from ..perfkit.reduce import RunData
from .dashboard import Dashboard, dashboard

__all__ = ["cpu_split", "cpu_split_plot", "excess_share_dashboard"]


def excess_share_dashboard(seed: int = 1) -> Dashboard:
    """Excess share and LIMITHARD: the defect, LINUX04's demand and share, the
    LIMITHARD method, the other guests' load, processors, more guests.

    Shows who got the processor (FCX112 USER) and where each guest waited
    (FCX114 USTAT: %CPU waiting for a processor, %LIM held by a hard limit).
    """
    return dashboard("excess-share", ["FCX112", "FCX114"], seed=seed)


def cpu_split(runs: dict[str, MonitorData | RunData], prefix: str = "LINUX") -> pd.DataFrame:
    """%CPU (of one processor) of each guest whose userid starts with *prefix*, one
    column per named run, one row per guest (from FCX112)."""
    columns = {}
    for name, run in runs.items():
        frame = report(run, "FCX112").frame
        guests = frame[frame["userid"].str.startswith(prefix)]
        columns[name] = guests.set_index("userid")["pct_cpu"].astype(float)
    table = pd.DataFrame(columns)
    table.index.name = "userid"
    return table


def cpu_split_plot(table: pd.DataFrame, *, title: str = "%CPU by guest", ax: Any = None) -> Any:
    """Bars of a :func:`cpu_split` table: one group per guest, one bar per run; the axes."""
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    width = 0.8 / max(1, len(table.columns))
    for i, name in enumerate(table.columns):
        x = [k + (i - (len(table.columns) - 1) / 2) * width for k in range(len(table))]
        bars = ax.bar(x, table[name].fillna(0.0), width, label=name)
        ax.bar_label(bars, fmt="%.0f", fontsize=7)
    ax.set_xticks(range(len(table)), list(table.index))
    ax.set_ylabel("%CPU")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return ax
