"""FCX265 LOCKLOG — Spin Lock Log, by Time.

CP's formal spin locks, from their D0 R23 records, interval by interval:
how often a logical PU took each lock (Locks/s) and found it held (%Coll),
how long such a request waited on average before it got the lock (spinning,
or off its physical PU after yielding it: Avg Spin usec), the processor time
spent spinning (%Spin, of one processor: CP time that no user is charged
for) and the mean number of logical PUs waiting for the lock at once
(Waitg — Little's law: collisions a second times their mean wait). The
last columns show how CP yielded to PR/SM meanwhile: Diag x'44' (give the
physical PU to anyone), SIGP Sense-Running and Diag x'9C' (have PR/SM run
the holder), and holds during which PR/SM took the holder off its physical
PU (Preempt/s). A ``>>Mean>>`` row per lock comes first.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label

__all__ = ["FCX265"]

COLUMNS = [
    "interval_end", "lock", "locks_rate", "pct_coll", "avg_spin_us", "pct_spin", "waiting",
    "diag44_rate", "sense_rate", "diag9c_rate", "preempt_rate",
]  # fmt: skip


def _rows(label: str, iv: Interval) -> list[dict]:
    rows = []
    for name, c in sorted(iv.locks.items()):
        secs = iv.seconds
        coll = c["collisions"]
        rows.append(
            {
                "interval_end": label,
                "lock": name,
                "locks_rate": c["requests"] / secs,
                "pct_coll": 100.0 * coll / c["requests"] if c["requests"] else 0.0,
                "avg_spin_us": c["wait_us"] / coll if coll else 0.0,
                "pct_spin": 100.0 * c["spin_us"] / 1e6 / secs,
                "waiting": c["wait_us"] / 1e6 / secs,
                "diag44_rate": c["diag44"] / secs,
                "sense_rate": c["sense"] / secs,
                "diag9c_rate": c["diag9c"] / secs,
                "preempt_rate": c["preempted"] / secs,
            }
        )
    return rows


def build_locklog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """>>Mean>> per lock over the whole period, then each interval's locks."""
    rows = _rows(MEAN, merge(intervals))
    for iv in intervals:
        rows += _rows(interval_label(iv), iv)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    if frame.empty:
        frame.attrs["note"] = "No spin lock data (D0 R23) in this monitor data."
    return frame


FCX265 = ReportSpec(
    fcx="FCX265",
    name="LOCKLOG",
    title="Spin Lock Log, by Time",
    build=build_locklog,
    by_time=True,
    aliases=("SPINLOCK",),
    groups=f"{'':18}<{' Spin Lock Requests ':-^40}> <{' Yields to PR/SM, per s ':-^28}>",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("lock", ("Lock", "Name"), 8, "s", left=True),
        Column("locks_rate", ("", "Locks/s"), 8, "r"),
        Column("pct_coll", ("", "%Coll"), 6, "2"),
        Column("avg_spin_us", ("Avg Spin", "usec"), 9, "1"),
        Column("pct_spin", ("", "%Spin"), 6, "2"),
        Column("waiting", ("", "Waitg"), 6, "2"),
        Column("diag44_rate", ("Diag", "x'44'"), 7, "r"),
        Column("sense_rate", ("SIGP", "Sense"), 7, "r"),
        Column("diag9c_rate", ("Diag", "x'9C'"), 7, "r"),
        Column("preempt_rate", ("", "Preempt"), 7, "r"),
    ],
)
