"""Paging reports: FCX109 DEVICE CPOWNED and FCX143 PAGELOG.

CPOWNED opens with Perfkit's Page/SPOOL Allocation Summary: the page slots
on all PAGE volumes and the share in use (the "page space about 15% full"
of the thrasher story). zvmsim has no spool, T-disk or dump space, so
those lines show dots. Then a row for each CP-owned paging volume: device
type, volume, area type and its extent in cylinders, how full its page
area is, the pages read and written per second (spool reads and writes
are dots, as Perfkit shows them for a PAGE area) and their total, the I/Os
that moved them, User Interferes, how many requests were queued on
average (at the RDEV and in CP's paging queue: the time they spent queued,
from the cumulative queue-time counters of the device and paging-volume
records, over the interval — a time average, so a burst of page-outs that
drains between two high-frequency samples still counts), the service time
per page, MLOAD Resp Time —
CP's paging load estimate that its allocator weighs the volumes by, the
service time per page times one plus the queue length (with no queue it
equals Serv/Page, as every queue-free row of the seeds shows; not a
measured response time) — the average block size —
pages per write I/O, CP's blocking factor — and %Used for Alloc, the share
of the times CP's page allocator looked at the volume for a new block that
it placed the block there. zvmsim's User Interferes is the number of
minidisk links on the volume (FCX108's Mdisk Links): users whose I/O
competes with CP's paging there. PAGELOG is the system's paging by
interval: DASD reads and writes, and expanded-storage traffic.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column, fmt_number, spans, table
from .report import ReportSpec, by_time_rows

__all__ = ["FCX109", "FCX143", "paging_rates"]

NAN = float("nan")


def build_cpowned(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX109 rows, one per CP-owned paging volume."""
    iv = intervals[0]
    rows = []
    for rdev in sorted(iv.pagevols):
        p = iv.pagevols[rdev]
        d = iv.devices.get(rdev, {})
        cfg = run.devices.get(rdev)
        ssch = d.get("ssch", 0)
        pages = p["pages_read"] + p["pages_written"]
        busy_us = d.get("pend_us", 0) + d.get("disc_us", 0) + d.get("conn_us", 0)
        queue = (d.get("queue_us", 0) + p.get("queue_us", 0)) / 1e6 / iv.seconds
        serv = busy_us / pages / 1000.0 if pages else 0.0
        rows.append(
            {
                "addr": rdev,
                "devtype": cfg.devtype.split("-")[0] if cfg else "",
                "volser": cfg.volser if cfg else "",
                "area_type": "PAGE",
                "area_extent": _extent(p),
                "slots": p["slots"],
                "used_slots": p["used"],
                "pct_used": 100.0 * p["used"] / p["slots"] if p["slots"] else 0.0,
                "page_reads": p["pages_read"] / iv.seconds,
                "page_writes": p["pages_written"] / iv.seconds,
                "spool_reads": NAN,  # a PAGE area has no spool traffic: dots, as in Perfkit
                "spool_writes": NAN,
                "total_rate": pages / iv.seconds,
                "ssch_rate": ssch / iv.seconds,
                "user_interferes": cfg.links if cfg else 0,
                # requests queued for the volume, at its RDEV and in CP's paging
                # queue: their time queued over the interval (a time average)
                "queue_len": queue,
                "serv_ms": serv,
                # MLOAD: CP's estimate of a new request's wait, not a measured time
                "resp_ms": serv * (1.0 + queue),
                # CP's blocking factor: pages per write I/O (per read I/O on a
                # volume written to not at all)
                "block_size": _per_io(p["pages_written"], p["blocks_written"])
                or _per_io(p["pages_read"], p["blocks_read"]),
                "pct_alloc": 100.0 * p.get("alloc_uses", 0) / p["alloc_looks"]
                if p.get("alloc_looks")
                else 0.0,
            }
        )
    frame = pd.DataFrame(rows, columns=[c.key for c in FCX109.columns] + ["slots", "used_slots"])
    slots = sum(p["slots"] for p in iv.pagevols.values())
    used = sum(p["used"] for p in iv.pagevols.values())
    frame.attrs["page_slots"] = slots
    frame.attrs["page_slots_pct"] = 100.0 * used / slots if slots else NAN
    return frame


def _extent(p: dict) -> str:
    """The page area's cylinders, ``first-last`` (dots if the record does not say)."""
    if not p.get("extent_end"):
        return "....."
    return f"{int(p['extent_start'])}-{int(p['extent_end'])}"


def _cpowned_text(frame: pd.DataFrame) -> list[str]:
    """The Page/SPOOL Allocation Summary, then the volumes' table."""

    def item(label: str, value: str) -> str:
        return f"{label:<25}{value:>8}"

    slots = frame.attrs.get("page_slots", 0)
    pct = frame.attrs.get("page_slots_pct", NAN)
    page_pct = "...%" if pct != pct else f"{pct:.0f}%"
    lines = [
        "Page / SPOOL Allocation Summary",
        item("PAGE slots available", fmt_number(slots, 7, "i"))
        + "    "
        + item("SPOOL slots available", "..."),
        item("PAGE slot utilization", page_pct) + "    " + item("SPOOL slot utilization", "..%"),
        item("T-Disk cylinders avail.", ".....") + "    " + item("DUMP slots available", "..."),
        item("T-Disk space utilization", "...%") + "    " + item("DUMP slot utilization", "..%"),
        "",
    ]
    return lines + table(frame, FCX109.columns, FCX109.groups)


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


_NOT_SIMULATED = "IBM, not simulated (dots: zvmsim has no spool)"
_CPOWNED = [
    Column("addr", ("", "Addr"), 4, "s", left=True),
    Column("devtype", ("", "Devtyp"), 6, "s", left=True),
    Column("volser", ("Volume", "Serial"), 6, "s", left=True),
    Column("area_type", ("Area", "Type"), 5, "s", left=True),
    Column("area_extent", ("Area", "Extent"), 7, "s"),
    Column("pct_used", ("Used", "%"), 4, "i"),
    Column("page_reads", ("", "P-Rds"), 6, "r"),
    Column("page_writes", ("", "P-Wrt"), 6, "r"),
    Column("spool_reads", ("", "S-Rds"), 5, "r", origin=_NOT_SIMULATED),
    Column("spool_writes", ("", "S-Wrt"), 5, "r", origin=_NOT_SIMULATED),
    Column("total_rate", ("", "Total"), 6, "r"),
    Column("ssch_rate", ("SSCH", "+RSCH"), 6, "r"),
    Column(
        "user_interferes",
        ("Inter", "feres"),
        5,
        "i",
        origin="IBM; zvmsim counts the minidisk links on the volume",
    ),
    Column(
        "queue_len",
        ("Queue", "Lngth"),
        5,
        "2",
        origin="IBM; zvmsim: time queued (RDEV and CP's paging queue) over the interval",
    ),
    Column("serv_ms", ("Time", "/Page"), 5, "1"),
    Column(
        "resp_ms",
        ("Resp", "Time"),
        6,
        "1",
        origin="IBM (MLOAD); CP's estimate, Serv/Page x (1 + Queue Lngth), not a measured time",
    ),
    Column("block_size", ("Page", "Size"), 5, "i"),
    Column("pct_alloc", ("for", "Alloc"), 5, "i"),
]

FCX109 = ReportSpec(
    fcx="FCX109",
    name="DEVICE CPOWNED",
    title="Load and Performance of CP Owned Disks",
    build=build_cpowned,
    aliases=("CPOWNED", "DEVICE CPOWNED"),
    groups=spans(
        _CPOWNED,
        ("addr", "area_extent", "Device Descr."),
        ("page_reads", "ssch_rate", "Rate/s"),
    )
    + "\n"
    + spans(
        _CPOWNED,
        ("page_reads", "page_writes", "Page"),
        ("spool_reads", "spool_writes", "Spool"),
        ("user_interferes", "user_interferes", "User"),
        ("serv_ms", "serv_ms", "Serv"),
        ("resp_ms", "resp_ms", "MLOAD"),
        ("block_size", "block_size", "Block"),
        ("pct_alloc", "pct_alloc", "%Used"),
    ),
    columns=_CPOWNED,
    body=_cpowned_text,
    data_only=(
        ("slots", "page slots on the volume"),
        ("used_slots", "page slots in use"),
    ),
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
