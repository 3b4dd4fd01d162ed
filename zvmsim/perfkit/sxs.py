"""FCX264 SXSUTIL — System Execution Space Utilization, by time.

From the D0 R21 record: the size of CP's execution space (524,287 pages),
the pages on its available queues and the pages in use, with the used pages
split by what holds them — CP's identity-mapped nucleus, its other fixed
blocks, the logged-on users' blocks, the real devices' blocks, DAT tables
for resident storage and I/Os in flight. Page counts are values at each
sample; the ``>>Mean>>`` row is their time-weighted mean. A monitor file
without SXS records gives the columns and no rows.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows

__all__ = ["FCX264"]

# DataFrame column -> D0 R21 field
FIELDS = {
    "total_pages": "size",
    "avail_pages": "available",
    "used_pages": "used",
    "id_mapped": "id_mapped",
    "cp_fixed": "fixed",
    "user_pages": "users",
    "device_pages": "devices",
    "table_pages": "tables",
    "io_pages": "io",
}


def _row(iv: Interval) -> dict:
    return {col: float(iv.sxs[f]) for col, f in FIELDS.items()}


def build_sxsutil(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX264 rows: the >>Mean>> row, then one row per interval."""
    have = [iv for iv in intervals if iv.sxs]
    if not have:
        return pd.DataFrame(columns=["interval_end", *FIELDS])
    return pd.DataFrame(by_time_rows(have, _row, mean_gauges=True))


FCX264 = ReportSpec(
    fcx="FCX264",
    name="SXSUTIL",
    title="System Execution Space Utilization",
    build=build_sxsutil,
    by_time=True,
    aliases=("SXSUTIL",),
    groups=f"{'':9}<{' System Execution Space Utilization (Pages) ':-^60}>\n"
    f"{'':23}<{' Used ':-^46}>",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("total_pages", ("Total", "Pages"), 6, "i"),
        Column("avail_pages", ("Avail-", "Queues"), 6, "i"),
        Column("used_pages", ("", "Total"), 6, "i"),
        Column("id_mapped", ("ID", "Mapped"), 6, "i"),
        Column("cp_fixed", ("CP", "Fixed"), 6, "i"),
        Column("user_pages", ("", "Users"), 6, "i"),
        Column("device_pages", ("", "RDEVs"), 6, "i"),
        Column("table_pages", ("DAT", "Tables"), 6, "i"),
        Column("io_pages", ("I/O in", "Flight"), 6, "i"),
    ],
)
