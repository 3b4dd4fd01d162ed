"""FCX113 UPAGE and its log FCX163 UPAGELOG: paging activity by user.

Rates are pages per second moved for the user: read from and written to
paging DASD, stolen by the demand scan, and the expanded-storage movements
(X>MS brought back from XSTORE, MS>X put there, X>DS migrated on to DASD).
Page counts (working set, resident, in XSTORE, on DASD) are the values at
the end of the period. The ``>System<`` row is the average per user (of
all users, also when ``--user`` picks some).

Perfkit splits the resident and the locked pages by where their frames
are, below or above 2 GB, and counts pages moved from below 2 GB to above
(``>2GB>``). zvmsim does not place frames by address nor lock guest pages,
so those columns show dots; the resident total (``Total``) is zvmsim's own.
Data Spaces Owned counts the address spaces a user owns that are neither
its own storage nor a VDISK (the simulated guests create none).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import NOT_SIMULATED, Column, spans
from .report import ReportSpec
from .user import by_time_per_user, users_in, with_system_row

NAN = float("nan")

__all__ = ["FCX113", "FCX163"]

RATES = ("page_reads", "page_writes", "steals", "x_to_ms", "ms_to_x", "x_to_ds")
COUNTS = ("wss", "reserved", "resident", "xstor", "dasd")


def _rates(c: dict, iv: Interval) -> dict:
    return {k: c.get(k, 0) / iv.seconds for k in RATES}


def build_upage(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX113 rows: paging rates and page counts per user."""
    iv = intervals[0]
    rows = [
        {
            "userid": u,
            "data_spaces": float(_data_spaces(run, u)),
            **_rates(iv.users[u], iv),
            "migr_2gb": NAN,
            **{k: iv.users[u].get(k, 0) for k in COUNTS},
            "res_below_2gb": NAN,
            "res_above_2gb": NAN,
            "lock_below_2gb": NAN,
            "lock_above_2gb": NAN,
        }
        for u in users_in(run, iv, None)
    ]
    return with_system_row(rows, "userid", user)


def _data_spaces(run: RunData, userid: str) -> int:
    """Address spaces *userid* owns besides its own storage and VDISKs (D3 R14)."""
    return sum(
        1 for s in run.spaces.values() if s.owner == userid and s.kind not in ("GUEST", "VDISK")
    )


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

_UPAGE_COLUMNS = [
    Column("userid", ("", "Userid"), 8, "s", left=True),
    Column("data_spaces", ("Spaces", "Owned"), 6, "1"),
    Column("page_reads", ("", "Reads"), 5, "r"),
    Column("page_writes", ("", "Write"), 5, "r"),
    Column("steals", ("Page", "Steals"), 6, "r"),
    Column("migr_2gb", ("", ">2GB>"), 6, "r", origin=NOT_SIMULATED),
    Column("x_to_ms", ("", "X>MS"), 6, "r"),
    Column("ms_to_x", ("", "MS>X"), 6, "r"),
    Column("x_to_ds", ("", "X>DS"), 6, "r"),
    Column("wss", ("", "WSS"), 7, "i"),
    Column("reserved", ("", "Resrvd"), 6, "i"),
    Column("res_below_2gb", ("", "R<2GB"), 7, "i", origin=NOT_SIMULATED),
    Column("res_above_2gb", ("", "R>2GB"), 7, "i", origin=NOT_SIMULATED),
    Column(
        "resident",
        ("", "Total"),
        7,
        "i",
        origin="ours: resident pages, the sum Perfkit splits below and above 2 GB",
    ),
    Column("lock_below_2gb", ("", "L<2GB"), 5, "i", origin=NOT_SIMULATED),
    Column("lock_above_2gb", ("", "L>2GB"), 5, "i", origin=NOT_SIMULATED),
    Column("xstor", ("", "XSTOR"), 7, "i"),
    Column("dasd", ("", "DASD"), 7, "i"),
]

FCX113 = ReportSpec(
    fcx="FCX113",
    name="UPAGE",
    title="User Paging Activity and Storage Utilization",
    build=build_upage,
    aliases=("UPAGE",),
    groups=spans(
        _UPAGE_COLUMNS,
        ("page_reads", "x_to_ds", "Paging Activity/s"),
        ("wss", "dasd", "Number of Pages"),
    )
    + "\n"
    + spans(
        _UPAGE_COLUMNS,
        ("data_spaces", "data_spaces", "Data"),
        ("page_reads", "page_writes", "Page Rate"),
        ("migr_2gb", "x_to_ds", "Page Migration"),
        ("res_below_2gb", "resident", "Resident"),
        ("lock_below_2gb", "lock_above_2gb", "Locked"),
    ),
    columns=_UPAGE_COLUMNS,
    per_user=True,
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
