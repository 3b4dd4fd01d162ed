"""FCX168 DEVLOG — General I/O Device Data Log.

FCX108's figures for each device, interval by interval: for every RDEV a
``>>Mean>>`` row over the whole period (the same numbers FCX108 gives),
then one row per monitor interval. A whole-run average can hide what the
intervals show: paging I/O that comes in bursts, with pending time only
while a burst lasts, or a queue that builds in one interval and is gone
in the next.
"""

from __future__ import annotations

import pandas as pd

from .device import IO_TIMES, device_rows
from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows

__all__ = ["FCX168"]

_KEYS = (
    "addr",
    "type",
    "volser",
    "label",
    "io_rate",
    "avoid_rate",
    "pend_ms",
    "disc_ms",
    "conn_ms",
    "serv_ms",
    "resp_ms",
    "cuwt_ms",
    "req_qued",
    "pct_busy",
    "pct_read",
)


def build_devlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX168 rows: for each device, its >>Mean>> row, then one row per interval."""
    table = by_time_rows(intervals, lambda iv: {"devices": device_rows(run, iv)})
    rows = [
        {"interval_end": t["interval_end"], **{k: t["devices"][i][k] for k in _KEYS}}
        for i in range(len(run.devices))
        for t in table
    ]
    return pd.DataFrame(rows, columns=["interval_end", *_KEYS])


FCX168 = ReportSpec(
    fcx="FCX168",
    name="DEVLOG",
    title="General I/O Device Data Log",
    build=build_devlog,
    by_time=True,
    aliases=("DEVLOG",),
    groups=f"{'':31}<-Rate/s--> <{' Time (msec) ':-^27}>  Req. <Percent>",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("addr", ("", "Addr"), 4, "s", left=True),
        Column("type", ("", "Type"), 6, "s", left=True),
        Column("label", ("", "Label/ID"), 9, "s", left=True),
        Column("io_rate", ("", "I/O"), 5, "r"),
        *IO_TIMES,
        Column("pct_read", ("", "READ"), 4, "i"),
    ],
)
