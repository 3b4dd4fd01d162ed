"""The demand scan and the aging list by time (z/VM 6.3): FCX296 STEALLOG, FCX297 AGELLOG.

STEALLOG: per second, how often the demand scan ran and what it did — users
visited, pages trial-invalidated and revalidated (and the share of
invalidations a touch undid), pages pushed onto the aging list, frames
reclaimed ready and not ready, pages written early.

AGELLOG: the global aging list — its size as a share of the dynamic paging
area and whether early writes are on, its target and current length (pages
in the frame, bytes in the text), how much of it is *ready* (a current copy
on DASD) and how much changed and not yet written, pages written early per
second, and the revalidations off the list per second — split into pages
that had been written (an early write wasted) and pages that had not.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows
from .zvm63 import note_frame, release_note

__all__ = ["FCX296", "FCX297"]


def _steal(iv: Interval) -> dict:
    st, s63, secs = iv.storage, iv.storage63, iv.seconds
    inval = s63["inval"]
    return {
        "scans": st.get("scans", 0) / secs,
        "frames_needed": st.get("frames_needed", 0) / secs,
        "visits": s63["visits"] / secs,
        "inval": inval / secs,
        "reval": s63["reval"] / secs,
        "pct_reval": 100.0 * s63["reval"] / inval if inval else float("nan"),
        "pushed": s63["pushed"] / secs,
        "ready": s63["ready"] / secs,
        "not_ready": s63["not_ready"] / secs,
        "early": s63["early"] / secs,
    }


def _agel(iv: Interval) -> dict:
    s63, secs = iv.storage63, iv.seconds
    pages = s63["agelist_pages"]
    return {
        "size_pct": s63["agelist_pct_x100"] / 100.0,
        "ew": "Y" if s63["early_writes"] >= 0.5 else "N",
        "target": s63["agelist_target"],
        "current": pages,
        "ready_pages": s63["agelist_written"],
        "changed_pages": pages - s63["agelist_written"],
        "early_writes": s63["early"] / secs,
        "revalidations": (s63["reval_written"] + s63["reval_unwritten"]) / secs,
        "reval_written": s63["reval_written"] / secs,
        "reval_unwritten": s63["reval_unwritten"] / secs,
        "reclaimed": (s63["ready"] + s63["not_ready"]) / secs,
    }


def _build(fcx: str, name: str, row, keys: list[str]):  # noqa: ANN001, ANN202
    def build(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
        note = release_note(run, fcx, name, wanted_63=True)
        if note:
            return note_frame(keys, note)
        if not any(iv.storage63 for iv in intervals):
            return pd.DataFrame(columns=keys)
        return pd.DataFrame(by_time_rows(intervals, row, mean_gauges=True), columns=keys)

    return build


_END = Column("interval_end", ("Interval", "End Time"), 8, "s", left=True)

_STEAL = [
    _END,
    Column("scans", ("Scans", "/s"), 6, "2"),
    Column("frames_needed", ("Needed", "/s"), 7, "r"),
    Column("visits", ("Visits", "/s"), 7, "r"),
    Column("inval", ("Inval", "/s"), 7, "r"),
    Column("reval", ("Reval", "/s"), 7, "r"),
    Column("pct_reval", ("Reval", "%Inv"), 5, "i"),
    Column("pushed", ("ToAgeL", "/s"), 7, "r"),
    Column("ready", ("Ready", "/s"), 7, "r"),
    Column("not_ready", ("NoRdy", "/s"), 7, "r"),
    Column("early", ("Early", "Write/s"), 7, "r"),
]

# The contract's columns first, then ours.
AGELLOG_KEYS = [
    "interval_end",
    "target",
    "current",
    "early_writes",
    "revalidations",
    "size_pct",
    "ew",
    "ready_pages",
    "changed_pages",
    "reval_written",
    "reval_unwritten",
    "reclaimed",
]

_AGEL = [
    _END,
    Column("size_pct", ("Size", "%DPA"), 5, "1"),
    Column("ew", ("E", "W"), 1, "s"),
    Column("target", ("List", "Target"), 7, "p"),
    Column("current", ("Size", "Current"), 7, "p"),
    Column("ready_pages", ("Steal", "Ready"), 7, "p"),
    Column("changed_pages", ("NotRdy", "Changd"), 7, "p"),
    Column("early_writes", ("Early", "Write/s"), 7, "r"),
    Column("revalidations", ("Reval", "/s"), 7, "r"),
    Column("reval_written", ("Reval", "Wrtn/s"), 7, "r"),
    Column("reval_unwritten", ("Reval", "NoWr/s"), 7, "r"),
    Column("reclaimed", ("Reclm", "/s"), 7, "r"),
]

_STEAL_GROUPS = "         <--- Demand scan ----> <-- Trial invalidation --> <-Aging list/reclaim->"
_AGEL_GROUPS = "         <-Set-> <---------- Storage ----------> <------ Pages/s ------------->"

FCX296 = ReportSpec(
    fcx="FCX296",
    name="STEALLOG",
    title="Steal Statistics, by Time",
    build=_build("FCX296", "STEALLOG", _steal, [c.key for c in _STEAL]),
    by_time=True,
    aliases=("STEALLOG",),
    groups=_STEAL_GROUPS,
    columns=_STEAL,
)

FCX297 = ReportSpec(
    fcx="FCX297",
    name="AGELLOG",
    title="Age List Log, by Time",
    build=_build("FCX297", "AGELLOG", _agel, AGELLOG_KEYS),
    by_time=True,
    aliases=("AGELLOG",),
    groups=_AGEL_GROUPS,
    columns=_AGEL,
)
