"""FCX162 USERLOG — User Resource Usage Log: FCX112's figures, by time.

For each user (or the one chosen with ``--user``), a ``>>Mean>>`` row over
the period, then one row per monitor interval: %CPU (of one processor),
TCPU and VCPU seconds, T/V, virtual I/O rates and pages read per second from
paging DASD — where to look for a guest's CPU peaks and T/V swings. From
the user activity records (D4 R3) only.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .user import LOAD_COLUMNS, by_time_per_user, user_load

__all__ = ["FCX162"]


def _row(c: dict, iv: Interval) -> dict:
    return {**user_load(c, iv.seconds), "page_reads": c.get("page_reads", 0) / iv.seconds}


def build_userlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX162 rows: per user, >>Mean>> then each interval's CPU, I/O and paging."""
    return by_time_per_user(run, intervals, user, _row)


FCX162 = ReportSpec(
    fcx="FCX162",
    name="USERLOG",
    title="User Resource Usage Log",
    build=build_userlog,
    by_time=True,
    per_user=True,
    aliases=("USERLOG",),
    groups=f"{'':18}<{' CPU Load ':-^22}> <{' Virtual IO/s ':-^15}>",
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        *LOAD_COLUMNS,
        Column("page_reads", ("Page", "Reads"), 5, "r"),
    ],
)
