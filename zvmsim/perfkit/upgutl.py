"""User page utilization (z/VM 6.3): FCX292 UPGUTL and FCX293 UPGUTLLG.

Where each user's pages are: its base address-space size, working set,
*instantiated* pages (those it has touched, which CP must back somewhere),
SET RESERVED, and its resident pages split into valid and *invalid but
resident* — trial-invalidated in its own list (UFO), read with a block but
not touched yet (PNR), or on the global aging list — then XSTORE and DASD
(auxiliary storage). Amounts are pages in the frame; the text shows them in
bytes with a suffix, as Performance Toolkit does for 6.3. Gauges are the
values at the end of the period (UPGUTLLG's ``>>Mean>>``: their mean).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .upgact import _users, mean_row, per_user_by_time
from .zvm63 import note_frame, release_note

__all__ = ["FCX292", "FCX293", "residency"]


def residency(c: dict) -> dict:
    """One user's pages by where they are (gauges)."""
    ibr = c.get("ibr", 0) + c.get("pnr", 0) + c.get("aged", 0)
    return {
        "base": c.get("pages", 0),
        "wss": c.get("wss", 0),
        "inst": c.get("instantiated", 0),
        "resvd": c.get("reserved", 0),
        "resident": c.get("resident", 0),
        "valid": c.get("resident", 0) - ibr,
        "ibr": ibr,
        "ufo": c.get("ibr", 0),
        "pnr": c.get("pnr", 0),
        "agelist": c.get("aged", 0),
        "xstor": c.get("xstor", 0),
        "aux": c.get("dasd", 0),
    }


def build_upgutl(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX292 rows: a ``>>Mean>>`` row, then one row per user."""
    keys = [c.key for c in FCX292.columns] + ["ibr"]
    note = release_note(run, "FCX292", "UPGUTL", wanted_63=True)
    if note:
        return note_frame(keys, note)
    iv = intervals[0]
    rows = [{"userid": u, **residency(iv.upag[u])} for u in _users(iv, user)]
    if rows:
        rows = [mean_row(rows, "userid"), *rows]
    return pd.DataFrame(rows, columns=keys)


def build_upgutllg(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX293 rows: page residency per interval for each user."""
    keys = [c.key for c in FCX293.columns] + ["ibr"]
    note = release_note(run, "FCX293", "UPGUTLLG", wanted_63=True)
    if note:
        return note_frame(keys, note)
    rows = per_user_by_time(intervals, user, lambda c, iv: residency(c), mean_gauges=True)
    return pd.DataFrame(rows, columns=keys)


_UTL = [
    Column("wss", ("", "WSS"), 6, "p"),
    Column("inst", ("", "Inst"), 6, "p"),
    Column("resvd", ("", "Resvd"), 6, "p"),
    Column("resident", ("", "T_All"), 6, "p"),
    Column("valid", ("", "Valid"), 6, "p"),
    Column("ufo", ("", "UFO"), 6, "p"),
    Column("pnr", ("", "PNR"), 6, "p"),
    Column("agelist", ("Age", "List"), 6, "p"),
    Column("xstor", ("", "XSTOR"), 6, "p"),
    Column("aux", ("", "AUX"), 6, "p"),
    Column("base", ("Base", "Size"), 6, "p"),
]
_GROUP = "                    <------- Resident -------> <-Invalid But Resident->"
_USERID = Column("userid", ("", "Userid"), 8, "s", left=True)
_END = Column("interval_end", ("Interval", "End Time"), 8, "s", left=True)

FCX292 = ReportSpec(
    fcx="FCX292",
    name="UPGUTL",
    title="User Page Utilization Data",
    build=build_upgutl,
    aliases=("UPGUTL",),
    groups=" " * 9 + _GROUP,
    per_user=True,
    columns=[_USERID, *_UTL],
)

FCX293 = ReportSpec(
    fcx="FCX293",
    name="UPGUTLLG",
    title="User Page Utilization Data Log",
    build=build_upgutllg,
    by_time=True,
    per_user=True,
    aliases=("UPGUTLLG",),
    groups=" " * 18 + _GROUP,
    columns=[_USERID, _END, *_UTL],
)
