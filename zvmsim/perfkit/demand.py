"""Available list and demand scan by time: FCX254 AVAILLOG and FCX259 DEMNDLOG.

Both are z/VM 6.2-and-earlier reports. AVAILLOG shows the available frame
list as the high-frequency samples saw it, its low and high thresholds, how
often a request found it empty, and how often the demand scan ran to refill
it. DEMNDLOG shows what the scans were asked for (frames needed per second)
and which pass supplied the frames they took: pass 1, pass 2 or the
emergency scan, as shares of the frames taken (dots when none were taken).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .storage import frames_available, storage_log
from .zvm63 import note_frame, release_note

__all__ = ["FCX254", "FCX259"]


def _avail(iv: Interval) -> dict:
    st, secs = iv.storage, iv.seconds
    return {
        "frames_available": frames_available(st),
        "low_threshold": st["low_threshold"],
        "high_threshold": st["high_threshold"],
        "times_empty": st["times_empty"] / secs,
        "scans": st["scans"] / secs,
        "frames_taken": (st["pass1"] + st["pass2"] + st["emergency"]) / secs,
    }


def _demand(iv: Interval) -> dict:
    st, secs = iv.storage, iv.seconds
    taken = st["pass1"] + st["pass2"] + st["emergency"]

    def share(n: float) -> float:
        return 100.0 * n / taken if taken else float("nan")

    return {
        "frames_needed": st["frames_needed"] / secs,
        "frames_taken": taken / secs,
        "scans": st["scans"] / secs,
        "pct_pass1": share(st["pass1"]),
        "pct_pass2": share(st["pass2"]),
        "pct_emergency": share(st["emergency"]),
    }


def build_availlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX254 rows: the available list per interval (not for z/VM 6.3 data)."""
    keys = [c.key for c in FCX254.columns]
    note = release_note(run, "FCX254", "AVAILLOG", wanted_63=False)
    if note:
        return note_frame(keys, note)
    return storage_log(intervals, _avail, keys)


def build_demndlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX259 rows: demand-scan requests and the share of frames from each pass
    (not for z/VM 6.3 data: its demand scan has no passes)."""
    note = release_note(run, "FCX259", "DEMNDLOG", wanted_63=False)
    if note:
        return note_frame(DEMNDLOG_KEYS, note)
    return storage_log(intervals, _demand, DEMNDLOG_KEYS)


# The contract's columns first, then ours.
DEMNDLOG_KEYS = [
    "interval_end",
    "frames_needed",
    "pct_pass1",
    "pct_pass2",
    "pct_emergency",
    "frames_taken",
    "scans",
]

_END = Column("interval_end", ("Interval", "End Time"), 8, "s", left=True)

_AVAIL_GROUPS = "         <---- Available List --->  Times < Demand Scan ->"
_AVAIL_COLUMNS = [
    _END,
    Column("frames_available", ("", "Avail"), 9, "i"),
    Column("low_threshold", ("Low", "Thresh"), 7, "i"),
    Column("high_threshold", ("High", "Thresh"), 7, "i"),
    Column("times_empty", ("Empty", "/s"), 6, "2"),
    Column("scans", ("Scans", "/s"), 7, "2"),
    Column("frames_taken", ("Frames", "/s"), 8, "r"),
]

FCX254 = ReportSpec(
    fcx="FCX254",
    name="AVAILLOG",
    title="Available List Management, by Time",
    build=build_availlog,
    by_time=True,
    aliases=("AVAILLOG",),
    groups=_AVAIL_GROUPS,
    columns=_AVAIL_COLUMNS,
)

_DEMAND_GROUPS = "         <---- Frames/s --->   Scans <- % of Frames Taken ->"
_DEMAND_COLUMNS = [
    _END,
    Column("frames_needed", ("", "Needed"), 9, "r"),
    Column("frames_taken", ("", "Taken"), 9, "r"),
    Column("scans", ("", "/s"), 7, "2"),
    Column("pct_pass1", ("", "Pass 1"), 7, "1"),
    Column("pct_pass2", ("", "Pass 2"), 7, "1"),
    Column("pct_emergency", ("", "Emerg"), 7, "1"),
]

FCX259 = ReportSpec(
    fcx="FCX259",
    name="DEMNDLOG",
    title="Demand Scan Details, by Time",
    build=build_demndlog,
    by_time=True,
    aliases=("DEMNDLOG",),
    groups=_DEMAND_GROUPS,
    columns=_DEMAND_COLUMNS,
)
