"""FCX133 NSS — NSS and DCSS Utilization and Paging Activity.

One row per saved segment in storage (the D3 R3 records): its name and
type, how many users have it loaded, its size, resident pages and SET
RESERVED pages at the end of the period (z/VM 6.3 can reserve pages for an
NSS or DCSS), where its other pages are, and the pages per second read in
(page faults its users waited on), written out and taken by the storage
manager. No saved segment, no rows.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX133"]


def build_nss(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX133 rows, one per NSS or DCSS, by name."""
    iv = intervals[0]
    rows = [
        {
            "name": name,
            "kind": run.segment_info[name].kind if name in run.segment_info else "",
            "users": c["users"],
            "pages": c["pages"],
            "resident": c["resident"],
            "reserved": c["reserved"],
            "xstor": c["xstor"],
            "dasd": c["dasd"],
            "page_reads": c["page_reads"] / iv.seconds,
            "page_writes": c["page_writes"] / iv.seconds,
            "steals": c["steals"] / iv.seconds,
        }
        for name, c in sorted(iv.segments.items())
    ]
    return pd.DataFrame(rows, columns=[c.key for c in FCX133.columns])


FCX133 = ReportSpec(
    fcx="FCX133",
    name="NSS",
    title="NSS and DCSS Utilization and Paging Activity",
    build=build_nss,
    aliases=("NSS", "DCSS"),
    groups="<- Saved Segment -->       <------- Number of Pages -------> <------ Paging/s ----->",
    columns=[
        Column("name", ("Segment", "Name"), 8, "s", left=True),
        Column("kind", ("", "Type"), 4, "s", left=True),
        Column("users", ("", "Users"), 5, "i"),
        Column("pages", ("", "Size"), 7, "i"),
        Column("resident", ("", "Resid"), 7, "i"),
        Column("reserved", ("", "Resrvd"), 7, "i"),
        Column("xstor", ("", "XSTOR"), 7, "i"),
        Column("dasd", ("", "DASD"), 7, "i"),
        Column("page_reads", ("Page", "Reads"), 6, "r"),
        Column("page_writes", ("Page", "Write"), 6, "r"),
        Column("steals", ("Page", "Steals"), 6, "r"),
    ],
)
