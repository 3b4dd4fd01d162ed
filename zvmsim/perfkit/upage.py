"""FCX113 UPAGE and its log FCX163 UPAGELOG: paging activity by user.

Rates are pages per second moved for the user: read from and written to
paging DASD, stolen by the demand scan, and the expanded-storage movements
(X>MS brought back from XSTORE, MS>X put there, X>DS migrated on to DASD).
Page counts (working set, resident, in XSTORE, on DASD) are the values at
the end of the period. The ``>System<`` row is the average per user.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .user import by_time_per_user, users_in, with_system_row

__all__ = ["FCX113", "FCX163"]

RATES = ("page_reads", "page_writes", "steals", "x_to_ms", "ms_to_x", "x_to_ds")
COUNTS = ("wss", "reserved", "resident", "xstor", "dasd")


def _rates(c: dict, iv: Interval) -> dict:
    return {k: c.get(k, 0) / iv.seconds for k in RATES}


def build_upage(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX113 rows: paging rates and page counts per user."""
    iv = intervals[0]
    rows = [
        {"userid": u, **_rates(iv.users[u], iv), **{k: iv.users[u].get(k, 0) for k in COUNTS}}
        for u in users_in(run, iv, user)
    ]
    return with_system_row(rows, "userid")


def build_upagelog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX163 rows: paging rates per interval for each user."""
    return by_time_per_user(run, intervals, user, _rates)


_RATE_COLUMNS = [
    Column("page_reads", ("<Page", "Reads"), 6, "r"),
    Column("page_writes", ("Rate>", "Write"), 6, "r"),
    Column("steals", ("Page", "Steals"), 6, "r"),
    Column("x_to_ms", ("<Page", "X>MS"), 6, "r"),
    Column("ms_to_x", ("Migra", "MS>X"), 6, "r"),
    Column("x_to_ds", ("tion>", "X>DS"), 6, "r"),
]

FCX113 = ReportSpec(
    fcx="FCX113",
    name="UPAGE",
    title="User Paging Activity and Storage Utilization",
    build=build_upage,
    aliases=("UPAGE",),
    groups="         <------------ Paging Activity/s ------------>"
    " <-------- Number of Pages -------->",
    per_user=True,
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        *_RATE_COLUMNS,
        Column("wss", ("", "WSS"), 7, "i"),
        Column("reserved", ("", "Resrvd"), 6, "i"),
        Column("resident", ("", "Resid"), 7, "i"),
        Column("xstor", ("", "XSTOR"), 7, "i"),
        Column("dasd", ("", "DASD"), 7, "i"),
    ],
)

FCX163 = ReportSpec(
    fcx="FCX163",
    name="UPAGELOG",
    title="User Paging Activity Log",
    build=build_upagelog,
    by_time=True,
    per_user=True,
    aliases=("UPAGELOG",),
    groups="                  <------------ Paging Activity/s ------------>",
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        *_RATE_COLUMNS,
    ],
)
