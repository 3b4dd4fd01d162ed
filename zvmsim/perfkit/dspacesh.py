"""FCX134 DSPACESH — Shared Data Spaces Paging Activity.

One row per shared data space CP reports (the D3 R31 records): on our
systems the CP-owned PTRM spaces that hold guests' DAT tables, owner
SYSTEM. For each: how many users have tables in it, the guest virtual it
maps, its size and resident pages at the end of the period. z/VM 6.3
creates all 128 PTRM spaces at system initialization; 6.2 and earlier
create them (up to 16) as guests log on.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX134"]


def build_dspacesh(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX134 rows, one per shared data space, by owner and name."""
    iv = intervals[0]
    rows = [
        {
            "owner": "SYSTEM",
            "name": name,
            "users": c["users"],
            "mapped_gb": c["mapped_mb"] / 1024,
            "pages": c["pages"],
            "resident": c["resident"],
            "resident_pct": 100.0 * c["resident"] / c["pages"] if c["pages"] else 0.0,
        }
        for name, c in iv.dspaces.items()
    ]
    rows.sort(key=lambda r: (r["owner"], r["name"]))
    return pd.DataFrame(rows, columns=[c.key for c in FCX134.columns])


FCX134 = ReportSpec(
    fcx="FCX134",
    name="DSPACESH",
    title="Shared Data Spaces Paging Activity",
    build=build_dspacesh,
    aliases=("DSPACESH",),
    groups="<------ Data Space ------>  Users Mapped <---- Number of Pages ---->",
    columns=[
        Column("owner", ("Owner", "Userid"), 8, "s", left=True),
        Column("name", ("Space", "Name"), 16, "s", left=True),
        Column("users", ("", "Users"), 6, "i"),
        Column("mapped_gb", ("Guest", "GB"), 7, "r"),
        Column("pages", ("Total", "Pages"), 8, "i"),
        Column("resident", ("", "Resid"), 8, "i"),
        Column("resident_pct", ("Resid", "%"), 6, "r"),
    ],
)
