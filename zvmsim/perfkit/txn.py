"""TXN: application transactions as the workload itself measures them.

Performance Toolkit has no such report — CP cannot see inside a guest — but
every question about slow applications needs one. Each workload that counts
its own work hands CP Monitor an APPLDATA record (D10 R2) with transactions
completed and the sum of their response times; this report turns the deltas
into a rate (ETR, per second) and a mean response time. Rows are per user,
with a ``>>All<<`` row per workload (total rate, mean response).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec
from .user import user_matches

__all__ = ["TXN"]

ALL = ">>All<<"
COLUMNS = ["workload", "userid", "etr", "resp_ms"]


def _row(workload: str, userid: str, txns: float, resp_us: float, seconds: float) -> dict:
    resp = resp_us / 1000.0 / txns if txns else float("nan")
    return {"workload": workload, "userid": userid, "etr": txns / seconds, "resp_ms": resp}


def build_txn(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """One row per reporting guest and one ``>>All<<`` row per workload."""
    iv = intervals[0]
    rows = []
    for workload in sorted(set(run.apps.values())):
        users = [u for u, w in sorted(run.apps.items()) if w == workload and u in iv.apps]
        users = [u for u in users if user_matches(u, user)]
        if not users:
            continue
        txns = sum(iv.apps[u]["txns"] for u in users)
        resp = sum(iv.apps[u]["resp_us"] for u in users)
        rows.append(_row(workload, ALL, txns, resp, iv.seconds))
        for u in users:
            c = iv.apps[u]
            rows.append(_row(workload, u, c["txns"], c["resp_us"], iv.seconds))
    return pd.DataFrame(rows, columns=COLUMNS)


TXN = ReportSpec(
    fcx="TXN",
    own="CP cannot see a guest's transactions; the workloads report them (APPLDATA)",
    name="TXN",
    title="Application Transactions (reported by the workloads)",
    build=build_txn,
    aliases=("TRANSACTIONS",),
    per_user=True,
    columns=[
        Column("workload", ("", "Workload"), 8, "s", left=True),
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("etr", ("ETR", "/s"), 9, "r"),
        Column("resp_ms", ("Resp", "msec"), 8, "1"),
    ],
)
