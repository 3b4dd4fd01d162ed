"""FCX147 VDISKS — Virtual Disks in Storage.

One row per VDISK address space (the D3 R14 address-space records of kind
VDISK): its owner and name, its size, where its pages are at the end of the
period (resident, in expanded storage, on paging DASD), the pages per
second read from and written to paging DASD, and the pages per second the
demand scan stole from it. No VDISK, no rows.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .user import user_matches

__all__ = ["FCX147"]


def build_vdisks(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX147 rows, one per VDISK, by owner and name."""
    iv = intervals[0]
    rows = []
    for name, c in iv.spaces.items():
        rec = run.spaces.get(name)
        if rec is None or rec.kind != "VDISK" or not user_matches(rec.owner, user):
            continue
        rows.append(
            {
                "owner": rec.owner,
                "name": name,
                "size": c["pages"],
                "resident": c["resident"],
                "xstor": c["xstor"],
                "dasd": c["dasd"],
                "page_reads": c["page_reads"] / iv.seconds,
                "page_writes": c["page_writes"] / iv.seconds,
                "steals": c["steals"] / iv.seconds,
            }
        )
    rows.sort(key=lambda r: (r["owner"], r["name"]))
    return pd.DataFrame(rows, columns=[c.key for c in FCX147.columns])


FCX147 = ReportSpec(
    fcx="FCX147",
    name="VDISKS",
    title="Virtual Disks in Storage",
    build=build_vdisks,
    aliases=("VDISKS",),
    groups="<----- Virtual Disk ----> <-------- Number of Pages --------> <------ Paging/s ----->",
    per_user=True,
    columns=[
        Column("owner", ("", "Owner"), 8, "s", left=True),
        Column("name", ("Space", "Name"), 16, "s", left=True),
        Column("size", ("", "Size"), 8, "i"),
        Column("resident", ("", "Resid"), 8, "i"),
        Column("xstor", ("", "XSTOR"), 8, "i"),
        Column("dasd", ("", "DASD"), 8, "i"),
        Column("page_reads", ("Page", "Reads"), 6, "r"),
        Column("page_writes", ("Page", "Write"), 6, "r"),
        Column("steals", ("Page", "Steals"), 6, "r"),
    ],
)
