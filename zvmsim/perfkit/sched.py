"""FCX145 SCHEDLOG and FCX154 SYSSET: the scheduler's lists and its settings.

SCHEDLOG shows, per monitor interval, how many users the high-frequency
samples found in each transaction class of the dispatch list (Q0 for
QUICKDSP users, Q1 to Q3 by how long they have been there) and in each
class of the eligible list (E1 to E3), and how many of the dispatch list's
users were loading users (paging heavily). The eligible list forming is the
scheduler saying storage (STORBUF), the paging devices (LDUBUF) or the
dispatch list's size (DSPBUF) will not take more users at once. For z/VM
6.3 data it also shows how many of the eligible list's users are loading
users (held back by LDUBUF), which 6.3's faster paging makes more common.
SYSSET shows the SET SRM settings the scheduler worked with, and the
loading user's definition and the loading capacity LDUBUF divides.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column, Item, labelled, table
from .report import ReportSpec, by_time_rows
from .zvm63 import is_zvm63

__all__ = ["FCX145", "FCX154"]

CLASSES = ("q0", "q1", "q2", "q3", "e1", "e2", "e3")


def _row(iv: Interval) -> dict:
    n = iv.system.get("hf_samples", 0)
    row: dict = {}
    for c in CLASSES:
        row[f"users_{c}"] = iv.system.get(f"cls_{c}", 0) / n if n else float("nan")
    row["users_elist"] = sum(row[f"users_{c}"] for c in CLASSES[4:])
    row["users_loading"] = iv.system.get("hf_loading", 0) / n if n else float("nan")
    return row


def _row63(iv: Interval) -> dict:
    """z/VM 6.3 adds the loading users among the eligible list's E1-E3 users."""
    n = iv.system.get("hf_samples", 0)
    row = _row(iv)
    for i in (1, 2, 3):
        row[f"loading_e{i}"] = iv.system.get(f"hf_loading_e{i}", 0) / n if n else float("nan")
    return row


def build_schedlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX145 rows: the >>Mean>> row, then one row per interval."""
    if is_zvm63(run):
        return pd.DataFrame(by_time_rows(intervals, _row63))
    return pd.DataFrame(by_time_rows(intervals, _row))


def _schedlog_text(frame: pd.DataFrame) -> list[str]:
    if "loading_e1" in frame:  # z/VM 6.3: which eligible-list users are loading users
        columns = _SCHEDLOG_COLUMNS + [
            Column(f"loading_e{i}", ("Ldg", f"E{i}"), 5, "2") for i in (1, 2, 3)
        ]
        return table(frame, columns, _SCHEDLOG_GROUPS + " <Loading E>")
    return table(frame, _SCHEDLOG_COLUMNS, _SCHEDLOG_GROUPS)


_SCHEDLOG_GROUPS = "         <------ Users in Dispatch List -----> <--- Eligible List --->"
_SCHEDLOG_COLUMNS = [
    Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
    *[Column(f"users_{c}", ("", c.upper()), 7, "2") for c in CLASSES[:4]],
    Column("users_elist", ("", "Total"), 6, "2"),
    *[Column(f"users_{c}", ("", c.upper()), 6, "2") for c in CLASSES[4:]],
    Column("users_loading", ("Loading", "Users"), 7, "2"),
]

FCX145 = ReportSpec(
    fcx="FCX145",
    name="SCHEDLOG",
    title="Scheduler Queue Lengths, by Time",
    build=build_schedlog,
    by_time=True,
    aliases=("SCHEDLOG",),
    groups=_SCHEDLOG_GROUPS,
    columns=_SCHEDLOG_COLUMNS,
    body=_schedlog_text,
)

KEYS = ("storbuf", "ldubuf", "dspbuf")


def build_sysset(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX154: one row with the SRM settings in force."""
    srm = run.srm
    row: dict = {}
    for key in KEYS:
        for i in (1, 2, 3):
            row[f"{key}{i}"] = getattr(srm, f"{key}{i}") if srm else float("nan")
    for i in (1, 2, 3):
        row[f"ets_q{i}_ms"] = getattr(srm, f"ets_q{i}_us") / 1000 if srm else float("nan")
    # SET SRM LIMITHARD (VM64721): how hard limits are held
    row["limithard"] = ("CONSUMPTION" if srm.limithard_consumption else "DEADLINE") if srm else ""
    # a loading user takes this many page faults per dispatch slice; LDUBUF is a
    # share of the loading capacity (the paging exposures): 0.85 x 47 = 39.95 users
    row["loading_faults"] = srm.loading_faults if srm else float("nan")
    row["loading_capacity"] = srm.loading_capacity if srm else float("nan")
    for i in (1, 2, 3):
        row[f"loading_users{i}"] = (
            getattr(srm, f"ldubuf{i}") / 100.0 * srm.loading_capacity if srm else float("nan")
        )
    return pd.DataFrame([row])


def _sysset_text(frame: pd.DataFrame) -> list[str]:
    row = frame.iloc[0].to_dict()
    sections = [
        (
            f"SET SRM {key.upper()} (Q1 Q2 Q3):",
            [Item(f"{key}{i}", f"{key.upper()} for class {i}", "i", "") for i in (1, 2, 3)],
        )
        for key in KEYS
    ]
    sections.append(
        (
            "Elapsed time slices:",
            [Item(f"ets_q{i}_ms", f"Q{i} elapsed time slice", "i", "ms") for i in (1, 2, 3)],
        )
    )
    if row.get("limithard"):
        sections.append(
            ("SET SRM LIMITHARD:", [Item("limithard", "Method for hard limits", "s", "")])
        )
    if "loading_faults" in row:
        sections.append(
            (
                "Loading users (LDUBUF):",
                [
                    Item("loading_faults", "Loading user", "i", "Pgrd / T-slice"),
                    Item("loading_capacity", "Loading capacity", "i", "Paging expos."),
                    *[
                        Item(f"loading_users{i}", f"Loading users allowed, class {i}", "2", "")
                        for i in (1, 2, 3)
                    ],
                ],
            )
        )
    return labelled(row, sections)


FCX154 = ReportSpec(
    fcx="FCX154",
    name="SYSSET",
    title="System Settings",
    build=build_sysset,
    aliases=("SYSSET",),
    columns=[],
    body=_sysset_text,
)
