"""CECLOG (zvmsim's own) — the CEC View: PU Busy by PU Type, by Time.

Performance Toolkit's FCX126 shows each partition's logical PUs and the
number of physical PUs, but not how full each pool of physical PUs is: a
partition using 28 % of each of its four logical CPs looks quiet even when
the CPs of all partitions together leave nothing spare. This report adds
them up — for every monitor interval and every PU type, the logical PUs'
dispatched time plus PR/SM's overhead for them, over the physical PUs of
that type (the little Rexx program of the HiperSockets case study, as a
report; not an IBM report). Rows per PU type with a ``>>Mean>>`` interval
first; ``busy_pus`` is the same in engines.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label

__all__ = ["CECLOG", "pool_busy"]

COLUMNS = ["interval_end", "pu_type", "count", "logical", "pct_busy", "busy_pus", "pct_ovhd"]
NAN = float("nan")


def pool_busy(run: RunData, iv: Interval) -> list[tuple[str, int, float, float]]:
    """(PU type, physical PUs, %busy, %overhead) of each pool: the logical PUs'
    dispatched time plus PR/SM's time for them, over the pool's capacity."""
    used: dict[str, list[float]] = {}
    for lpu, c in iv.lpus.items():
        desc = run.lpars[lpu]
        if desc.logical:
            pool = used.setdefault(desc.pu_type, [0.0, 0.0])
            pool[0] += c["dispatched_us"] + c["overhead_us"]
            pool[1] += c["overhead_us"]
    out = []
    for pu_type, c in sorted(iv.pus.items()):
        capacity = c["count"] * iv.seconds * 1e6
        busy, ovhd = used.get(pu_type, [0.0, 0.0])
        out.append(
            (pu_type, int(c["count"]), 100 * busy / capacity if capacity else NAN,
             100 * ovhd / capacity if capacity else NAN)
        )  # fmt: skip
    return out


def _rows(run: RunData, label: str, iv: Interval) -> list[dict]:
    logical: dict[str, int] = {}
    for lpu in iv.lpus:
        desc = run.lpars[lpu]
        if desc.logical:
            logical[desc.pu_type] = logical.get(desc.pu_type, 0) + 1
    return [
        {
            "interval_end": label,
            "pu_type": pu_type,
            "count": count,
            "logical": logical.get(pu_type, 0),
            "pct_busy": busy,
            "busy_pus": busy * count / 100.0,
            "pct_ovhd": ovhd,
        }
        for pu_type, count, busy, ovhd in pool_busy(run, iv)
    ]


def build_ceclog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """>>Mean>> per PU type over the whole period, then each interval's PU types."""
    rows = _rows(run, MEAN, merge(intervals))
    for iv in intervals:
        rows += _rows(run, interval_label(iv), iv)
    return pd.DataFrame(rows, columns=COLUMNS)


CECLOG = ReportSpec(
    fcx="CECLOG",
    own="Perfkit's FCX126 gives each logical PU, not each pool of physical PUs",
    name="CECLOG",
    title="CEC View: PU Busy by PU Type, by Time",
    build=build_ceclog,
    by_time=True,
    aliases=("CECVIEW", "PUBUSY"),
    groups=f"{'':15}<-- Physical --> Logical <-- Busy --->",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("pu_type", ("PU", "Type"), 4, "s", left=True),
        Column("count", ("", "PUs"), 5, "i"),
        Column("logical", ("", "PUs"), 7, "i"),
        Column("pct_busy", ("", "%Busy"), 6, "1"),
        Column("busy_pus", ("", "PUs"), 6, "2"),
        Column("pct_ovhd", ("", "%Ovhd"), 6, "1"),
    ],
)
