"""User page activity (z/VM 6.3): FCX290 UPGACT and FCX291 UPGACTLG.

Per user and per second: how its pages moved between states — instantiated
(first touched: CP backs them), released, trial-invalidated by the demand
scan, revalidated (touched while invalid but resident) — how many of its
frames were reclaimed *ready* (a current copy already on DASD) or *not
ready* (written first), and the page movements: XSTORE in (PGIN) and out
(PGOUT), DASD reads and writes, and early writes. Reval/Inval is the share of
trial invalidations that were wrong: the page was touched again before it
could be reclaimed. UPGACTLG gives the same per monitor interval.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label
from .user import user_matches
from .zvm63 import note_frame, release_note

__all__ = ["FCX290", "FCX291", "activity", "mean_row"]

_RATES = (
    ("inst", "inst"),
    ("relse", "relse"),
    ("inval", "inval"),
    ("reval", "reval"),
    ("ready", "ready"),
    ("not_ready", "not_ready"),
    ("pgin", "x_to_ms"),
    ("pgout", "ms_to_x"),
    ("reads", "page_reads"),
    ("writes", "page_writes"),
    ("early", "early"),
)


def activity(c: dict, seconds: float) -> dict:
    """One user's page-state transitions and movements per second."""
    row = {key: c.get(field, 0) / seconds for key, field in _RATES}
    row["pct_reval"] = 100.0 * c["reval"] / c["inval"] if c.get("inval") else float("nan")
    return row


def mean_row(rows: list[dict], key: str) -> dict:
    """Perfkit's ``>>Mean>>`` row: the average over users of every number column."""
    out: dict = {key: MEAN}
    for col in rows[0]:
        if col != key and col != "interval_end":
            values = [r[col] for r in rows if r[col] == r[col]]
            out[col] = sum(values) / len(values) if values else float("nan")
    return out


def _users(iv: Interval, user: str | None) -> list[str]:
    return [u for u in sorted(iv.upag) if user_matches(u, user)]


def build_upgact(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX290 rows: a ``>>Mean>>`` row, then one row per user."""
    keys = [c.key for c in FCX290.columns]
    note = release_note(run, "FCX290", "UPGACT", wanted_63=True)
    if note:
        return note_frame(keys, note)
    iv = intervals[0]
    rows = [{"userid": u, **activity(iv.upag[u], iv.seconds)} for u in _users(iv, user)]
    if rows:
        rows = [mean_row(rows, "userid"), *rows]
    return pd.DataFrame(rows, columns=keys)


def per_user_by_time(
    intervals: list[Interval], user: str | None, row: object, mean_gauges: bool = False
) -> list[dict]:
    """For each user: ``>>Mean>>`` over *intervals*, then one row per interval."""
    whole = merge(intervals, mean_gauges=mean_gauges)
    rows = []
    for uid in _users(whole, user):
        rows.append({"userid": uid, "interval_end": MEAN, **row(whole.upag[uid], whole)})
        for iv in intervals:
            if uid in iv.upag:
                rows.append(
                    {"userid": uid, "interval_end": interval_label(iv), **row(iv.upag[uid], iv)}
                )
    return rows


def build_upgactlg(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX291 rows: page activity per interval for each user."""
    keys = [c.key for c in FCX291.columns]
    note = release_note(run, "FCX291", "UPGACTLG", wanted_63=True)
    if note:
        return note_frame(keys, note)
    rows = per_user_by_time(intervals, user, lambda c, iv: activity(c, iv.seconds))
    return pd.DataFrame(rows, columns=keys)


_ACT = [
    Column("inst", ("", "Inst"), 6, "r"),
    Column("relse", ("", "Relse"), 6, "r"),
    Column("inval", ("", "Inval"), 6, "r"),
    Column("reval", ("", "Reval"), 6, "r"),
    Column("pct_reval", ("Reval", "%Inv"), 5, "i"),
    Column("ready", ("", "Ready"), 6, "r"),
    Column("not_ready", ("", "NoRdy"), 6, "r"),
    Column("pgin", ("", "PGIN"), 6, "r"),
    Column("pgout", ("", "PGOUT"), 6, "r"),
    Column("reads", ("", "Reads"), 6, "r"),
    Column("writes", ("", "Write"), 6, "r"),
    Column("early", ("Early", "Write"), 6, "r"),
]
_GROUP = " <------- Transition/s ------->       <-Steal/s--> <---------- Movement/s ---------->"
_USERID = Column("userid", ("", "Userid"), 8, "s", left=True)
_END = Column("interval_end", ("Interval", "End Time"), 8, "s", left=True)

FCX290 = ReportSpec(
    fcx="FCX290",
    name="UPGACT",
    title="User Page Activity",
    build=build_upgact,
    aliases=("UPGACT",),
    groups=" " * 8 + _GROUP,
    per_user=True,
    columns=[_USERID, *_ACT],
)

FCX291 = ReportSpec(
    fcx="FCX291",
    name="UPGACTLG",
    title="User Page Activity Log",
    build=build_upgactlg,
    by_time=True,
    per_user=True,
    aliases=("UPGACTLG",),
    groups=" " * 17 + _GROUP,
    columns=[_USERID, _END, *_ACT],
)
