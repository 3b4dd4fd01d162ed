"""FCX225 SYSSUMLG — System Performance Summary by Time.

One row per monitor interval and a ``>>Mean>>`` row over the whole run:
processor busy, T/V (total over virtual CPU time), capture ratio (CPU time
charged to users over all CPU busy time), users, real I/O rate and average
DASD response, eligible-list length and paging rates, then the spool's
pages per second (dots: zvmsim has no spool). The capture ratio has four
decimals, as Perfkit prints it. Perfkit's report goes on with CP's own
transaction counts and times (UP+MP Transactions: trivial, non-trivial,
quick dispatch); zvmsim's CP does not classify transactions that way, so
those columns are left out — TXN has the applications' own.
"""

from __future__ import annotations

import pandas as pd

from .paging import paging_rates
from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows

__all__ = ["FCX225"]


def _summary(iv: Interval) -> dict:
    busy = sum(c["busy_us"] for c in iv.cpus.values())
    elapsed = sum(c["elapsed_us"] for c in iv.cpus.values())
    virtual = sum(c["virtual_us"] for c in iv.cpus.values())
    charged = sum(u["tcpu_us"] for u in iv.users.values())
    ssch = sum(d["ssch"] for d in iv.devices.values())
    resp_us = sum(
        d["pend_us"] + d["disc_us"] + d["conn_us"] + d["queue_us"] for d in iv.devices.values()
    )
    hf = iv.system.get("hf_samples", 0)
    paging = paging_rates(iv)
    # users found active at least once (older files: found out of dormancy), or charged
    active = sum(
        1
        for u in iv.users.values()
        if u.get("hf_act", u["hf_samples"] - u["hf_dm"] - u.get("hf_dorm", 0)) > 0 or u["tcpu_us"]
    )
    return {
        "pct_busy": 100.0 * busy / elapsed if elapsed else 0.0,
        "tv_ratio": busy / virtual if virtual else 0.0,
        "capture_ratio": charged / busy if busy else 0.0,
        "online": float(len(iv.cpus)),
        "logged": float(iv.system.get("logged", 0)),
        "active": float(active),
        "ssch_rate": ssch / iv.seconds,
        "dasd_resp_ms": resp_us / ssch / 1000.0 if ssch else 0.0,
        "users_elist": iv.system.get("hf_eligible", 0) / hf if hf else 0.0,
        "pgin_pgout": paging["xstore_in"] + paging["xstore_out"],
        "page_rate": paging["dasd_total"],
        "spool_pages": float("nan"),
    }


def build_syssumlg(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX225 rows: the >>Mean>> row, then one row per interval.

    Activ counts the users active at least once in an interval; its ``>>Mean>>``
    is the mean of the intervals' counts (seed 000: 12 over 11-13 a minute), not
    the users active at least once in the whole period.
    """
    rows = by_time_rows(intervals, _summary)
    if len(rows) > 1:
        rows[0]["active"] = sum(r["active"] for r in rows[1:]) / (len(rows) - 1)
    return pd.DataFrame(rows)


FCX225 = ReportSpec(
    fcx="FCX225",
    name="SYSSUMLG",
    title="System Performance Summary by Time",
    build=build_syssumlg,
    by_time=True,
    aliases=("SYSSUMLG",),
    groups="          <------- CPU -------->  <-Users->  <---I/O--->  Stg  <-Paging-->",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("pct_busy", ("Pct", "Busy"), 5, "1"),
        Column("tv_ratio", ("T/V", "Ratio"), 5, "2"),
        Column("capture_ratio", ("Cap-", "ture"), 5, "4"),
        Column("online", ("On-", "line"), 4, "1"),
        Column("logged", ("", "Log."), 4, "i"),
        Column("active", ("", "Activ"), 5, "i"),
        Column("ssch_rate", ("SSCH+", "RSCH/s"), 6, "r"),
        Column("dasd_resp_ms", ("DASD", "Resp"), 5, "1"),
        Column("users_elist", ("Users", "Elist"), 5, "1"),
        Column("pgin_pgout", ("PGIN+", "PGOUT"), 6, "r"),
        Column("page_rate", ("Read+", "Write"), 6, "r"),
        Column(
            "spool_pages",
            ("Spool", "Pg/s"),
            5,
            "r",
            origin="IBM, not simulated (dots: zvmsim has no spool)",
        ),
    ],
)
