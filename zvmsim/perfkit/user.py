"""Per-user reports: FCX112 USER (resources) and FCX114 USTAT (wait states).

USER takes CPU times and virtual I/O counts from the user activity records.
USTAT divides each user's high-frequency state samples by the number of
samples: a share of *observations*, not of time, exactly as on z/VM. In both,
the ``>System<`` row is the average per user, not a total.
"""

from __future__ import annotations

import pandas as pd

from ..monitor.records import MRUSEACT
from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX112", "FCX114", "SYSTEM_ROW"]

SYSTEM_ROW = ">System<"

# The sampled wait states, in USTAT's column order, as the user record carries them.
STATES = tuple(
    name[3:] for name in MRUSEACT.counters() if name.startswith("hf_") and name != "hf_samples"
)


def _users(run: RunData, iv: Interval, user: str | None) -> list[str]:
    names = sorted(iv.users)
    return [u for u in names if u == user] if user else names


def _with_system_row(rows: list[dict], key: str) -> pd.DataFrame:
    if rows:
        avg = {key: SYSTEM_ROW}
        for col in rows[0]:
            if col != key:
                avg[col] = sum(r[col] for r in rows) / len(rows)
        rows = [avg, *rows]
    return pd.DataFrame(rows)


def build_user(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX112 rows: CPU load and virtual I/O rates per user."""
    iv = intervals[0]
    rows = []
    for uid in _users(run, iv, user):
        c = iv.users[uid]
        tcpu, vcpu = c["tcpu_us"] / 1e6, c["vcpu_us"] / 1e6
        rows.append(
            {
                "userid": uid,
                "pct_cpu": 100.0 * tcpu / iv.seconds,
                "tcpu_s": tcpu,
                "vcpu_s": vcpu,
                "tv_ratio": tcpu / vcpu if vcpu else 0.0,
                "vio_rate": c["vio"] / iv.seconds,
                "vio_dasd": c["vio_dasd"] / iv.seconds,
                "vio_avoid": c["vio_avoid"] / iv.seconds,
                "diag98": 0.0,
                "ur": 0.0,
                "pg_s": 0.0,
            }
        )
    frame = _with_system_row(rows, "userid")
    if not frame.empty:
        sysrow = frame.index[0]
        t, v = frame.at[sysrow, "tcpu_s"], frame.at[sysrow, "vcpu_s"]
        frame.at[sysrow, "tv_ratio"] = t / v if v else 0.0
    return frame


def build_ustat(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX114 rows: share of high-frequency samples found in each state."""
    iv = intervals[0]
    rows = []
    for uid in _users(run, iv, user):
        c = iv.users[uid]
        n = c["hf_samples"]
        pct = {f"pct_{s}": (100.0 * c[f"hf_{s}"] / n if n else 0.0) for s in STATES}
        active = 100.0 - pct["pct_dm"]
        rows.append({"userid": uid, "samples": n, "pct_act": active, **pct})
    return _with_system_row(rows, "userid")


def _pct(key: str, head: str) -> Column:
    return Column(key, ("", head), 4, "i")


FCX112 = ReportSpec(
    fcx="FCX112",
    name="USER",
    title="General User Resource Utilization",
    build=build_user,
    aliases=("USER",),
    groups="         <------- CPU Load -------> <----- Virtual IO/s ------>",
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("pct_cpu", ("", "%CPU"), 5, "2"),
        Column("tcpu_s", ("<-Seco", "TCPU"), 6, "3"),
        Column("vcpu_s", ("nds->", "VCPU"), 5, "3"),
        Column("tv_ratio", ("T/V", "Ratio"), 5, "1"),
        Column("vio_rate", ("", "Total"), 5, "r"),
        Column("vio_dasd", ("", "DASD"), 5, "r"),
        Column("vio_avoid", ("", "Avoid"), 5, "1"),
        Column("diag98", ("", "Diag98"), 6, "1"),
        Column("ur", ("", "UR"), 4, "1"),
        Column("pg_s", ("", "Pg/s"), 5, "1"),
    ],
)

FCX114 = ReportSpec(
    fcx="FCX114",
    name="USTAT",
    title="Wait State Analysis by User",
    build=build_ustat,
    aliases=("USTAT",),
    groups=f"{'':44}<-SVM and->",
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        _pct("pct_act", "%ACT"),
        *[_pct(f"pct_{s}", f"%{s.upper()}") for s in STATES[:8]],
        *[_pct(f"pct_{s}", f"%{s.upper()}") for s in STATES[8:]],
    ],
)
