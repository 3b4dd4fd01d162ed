"""FCX138 MDCACHE — Minidisk Cache Activity by time.

From the minidisk cache's sample record (D0 R14), one row per monitor
interval and a ``>>Mean>>`` row: what MDC caches (tracks or records), its
size (the storage its cached units hold, a time-weighted mean in the mean
row) against its limit, the read requests it looked up per second and how
many it served wholly from storage (the avoided I/Os; the hit ratio is
their share), write requests, and per second the units it inserted, the
units invalidations looked up and the cached units they freed. A unit is a
track (track MDC, twelve 4 KB records) or a record (record-level MDC).

Invalidations happen when something changes a minidisk's data without a
write through CP's MDC, such as a FlashCopy establish on a target minidisk:
CP must look up every unit of the changed extent.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows
from .zvm63 import note_frame

__all__ = ["FCX138"]

MB_PAGES = 256.0
NAN = float("nan")


def _row(iv: Interval) -> dict:
    m, secs = iv.mdc, iv.seconds
    reads = m.get("reads", 0)
    return {
        "size_mb": m.get("size_pages", 0) / MB_PAGES,
        "max_mb": m.get("max_pages", 0) / MB_PAGES,
        "read_rate": reads / secs,
        "hit_rate": m.get("read_hits", 0) / secs,
        "pct_hits": 100.0 * m.get("read_hits", 0) / reads if reads else NAN,
        "write_rate": m.get("writes", 0) / secs,
        "insert_rate": m.get("inserts", 0) / secs,
        "inval_rate": m.get("inval_units", 0) / secs,
        "freed_rate": m.get("inval_freed", 0) / secs,
    }


def build_mdcache(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX138 rows: the >>Mean>> row, then one row per interval (a note without MDC)."""
    keys = [c.key for c in FCX138.columns]
    if not run.mdc_level:
        return note_frame(keys, "FCX138 MDCACHE: this system has no minidisk cache.")
    rows = by_time_rows(intervals, _row, mean_gauges=True)
    level = run.mdc_level.capitalize()
    return pd.DataFrame([{**r, "level": level} for r in rows], columns=keys)


FCX138 = ReportSpec(
    fcx="FCX138",
    name="MDCACHE",
    title="Minidisk Cache Activity by Time",
    build=build_mdcache,
    by_time=True,
    aliases=("MDCACHE",),
    groups="                <-Storage MB> <------- Requests/s ------> <----- Units/s ----->",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("level", ("Cache", "Unit"), 6, "s", left=True),
        Column("size_mb", ("", "Actual"), 6, "1"),
        Column("max_mb", ("", "Max"), 6, "1"),
        Column("read_rate", ("", "Reads"), 6, "r"),
        Column("hit_rate", ("", "Hits"), 6, "r"),
        Column("pct_hits", ("Hit", "Ratio%"), 6, "1"),
        Column("write_rate", ("", "Writes"), 6, "r"),
        Column("insert_rate", ("", "Insert"), 6, "r"),
        Column("inval_rate", ("", "Inval"), 7, "r"),
        Column("freed_rate", ("", "Freed"), 6, "r"),
    ],
)
