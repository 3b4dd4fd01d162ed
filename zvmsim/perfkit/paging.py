"""Paging reports: FCX109 DEVICE CPOWNED and FCX143 PAGELOG.

CPOWNED shows each CP-owned paging volume: how full its page area is, the
pages read and written per second, the I/Os that moved them, how many
requests were queued (high-frequency samples), the service time per page,
the response time per page including the queue (CP's MLOAD figure), the
average block size — pages per write I/O, CP's blocking factor — and %Used
for Alloc, the share of the times CP's page allocator looked at the volume
for a new block that it placed the block there. PAGELOG is the system's paging
by interval: DASD reads and writes, and expanded-storage traffic.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column, table
from .report import ReportSpec, by_time_rows

__all__ = ["FCX109", "FCX143", "paging_rates"]


def build_cpowned(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX109 rows, one per CP-owned paging volume."""
    iv = intervals[0]
    rows = []
    for rdev in sorted(iv.pagevols):
        p = iv.pagevols[rdev]
        d = iv.devices.get(rdev, {})
        ssch = d.get("ssch", 0)
        pages = p["pages_read"] + p["pages_written"]
        busy_us = d.get("pend_us", 0) + d.get("disc_us", 0) + d.get("conn_us", 0)
        hf = d.get("hf_samples", 0)
        rows.append(
            {
                "addr": rdev,
                "volser": run.devices[rdev].volser if rdev in run.devices else "",
                "area_type": "PAGE",
                "slots": p["slots"],
                "pct_used": 100.0 * p["used"] / p["slots"] if p["slots"] else 0.0,
                "page_reads": p["pages_read"] / iv.seconds,
                "page_writes": p["pages_written"] / iv.seconds,
                "ssch_rate": ssch / iv.seconds,
                # requests queued for the volume: at its RDEV and in CP's paging queue
                "queue_len": (d.get("hf_queued", 0) + p.get("hf_queued", 0)) / hf if hf else 0.0,
                "serv_ms": busy_us / pages / 1000.0 if pages else 0.0,
                "resp_ms": (busy_us + d.get("queue_us", 0) + p.get("queue_us", 0)) / pages / 1000.0
                if pages
                else 0.0,
                # CP's blocking factor: pages per write I/O (per read I/O on a
                # volume written to not at all)
                "block_size": _per_io(p["pages_written"], p["blocks_written"])
                or _per_io(p["pages_read"], p["blocks_read"]),
                "pct_alloc": 100.0 * p.get("alloc_uses", 0) / p["alloc_looks"]
                if p.get("alloc_looks")
                else 0.0,
            }
        )
    return pd.DataFrame(rows, columns=[c.key for c in FCX109.columns] + ["slots"])


def _per_io(pages: int, ios: int) -> float:
    return pages / ios if ios else 0.0


def paging_rates(iv: Interval) -> dict:
    """System paging per second in *iv*: DASD reads/writes and XSTORE traffic."""
    reads = sum(p["pages_read"] for p in iv.pagevols.values())
    writes = sum(p["pages_written"] for p in iv.pagevols.values())
    st = iv.storage  # CP's global counters: guests and VDISKs alike
    return {
        "dasd_reads": reads / iv.seconds,
        "dasd_writes": writes / iv.seconds,
        "dasd_total": (reads + writes) / iv.seconds,
        "xstore_in": st.get("xstore_in", 0) / iv.seconds,
        "xstore_out": st.get("xstore_out", 0) / iv.seconds,
        "xstore_migrate": st.get("migrated", 0) / iv.seconds,
    }


def _rates63(iv: Interval) -> dict:
    """z/VM 6.3's additions: pages written early, and revalidations (faults with no I/O)."""
    return {
        **paging_rates(iv),
        "early_writes": iv.storage63.get("early", 0) / iv.seconds,
        "revalidations": iv.storage63.get("reval", 0) / iv.seconds,
    }


def build_pagelog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX143 rows: the >>Mean>> row, then one row per interval."""
    if any(iv.storage63 for iv in intervals):
        return pd.DataFrame(by_time_rows(intervals, _rates63))
    return pd.DataFrame(by_time_rows(intervals, paging_rates))


def _pagelog_text(frame: pd.DataFrame) -> list[str]:
    if "early_writes" in frame:
        return table(frame, _PAGELOG_COLUMNS + _PAGELOG_63, _PAGELOG_GROUPS + _PAGELOG_GROUPS_63)
    return table(frame, _PAGELOG_COLUMNS, _PAGELOG_GROUPS)


FCX109 = ReportSpec(
    fcx="FCX109",
    name="DEVICE CPOWNED",
    title="Load and Performance of CP Owned Disks",
    build=build_cpowned,
    aliases=("CPOWNED", "DEVICE CPOWNED"),
    groups="<-- Device Descr. ->     Used <--- Rate/s --->  SSCH+ Queue  Serv  MLOAD Block %Used",
    columns=[
        Column("addr", ("", "Addr"), 4, "s", left=True),
        Column("volser", ("Volume", "Serial"), 6, "s", left=True),
        Column("area_type", ("Area", "Type"), 4, "s", left=True),
        Column("pct_used", ("", "%"), 4, "i"),
        Column("page_reads", ("", "P-Rds"), 7, "r"),
        Column("page_writes", ("", "P-Wrt"), 7, "r"),
        Column("ssch_rate", ("", "RSCH"), 6, "r"),
        Column("queue_len", ("", "Lngth"), 5, "1"),
        Column("serv_ms", ("Time", "/Page"), 5, "1"),
        Column("resp_ms", ("Resp", "Time"), 6, "1"),
        Column("block_size", ("Page", "Size"), 5, "i"),
        Column("pct_alloc", ("for", "Alloc"), 5, "i"),
    ],
)

_PAGELOG_GROUPS = "          <---- Paging to DASD ---->  <------ Expanded Storage ------>"
_PAGELOG_COLUMNS = [
    Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
    Column("dasd_reads", ("Reads", "/s"), 7, "r"),
    Column("dasd_writes", ("Write", "/s"), 7, "r"),
    Column("dasd_total", ("Total", "/s"), 7, "r"),
    Column("xstore_in", ("X>MS", "/s"), 8, "r"),
    Column("xstore_out", ("MS>X", "/s"), 8, "r"),
    Column("xstore_migrate", ("X>DS", "/s"), 8, "r"),
]
_PAGELOG_GROUPS_63 = " <--- z/VM 6.3 --->"
_PAGELOG_63 = [
    Column("early_writes", ("Early", "Write/s"), 8, "r"),
    Column("revalidations", ("Reval", "/s"), 8, "r"),
]

FCX143 = ReportSpec(
    fcx="FCX143",
    name="PAGELOG",
    title="Paging Activity Log",
    build=build_pagelog,
    by_time=True,
    aliases=("PAGELOG",),
    groups=_PAGELOG_GROUPS,
    columns=_PAGELOG_COLUMNS,
    body=_pagelog_text,
)
