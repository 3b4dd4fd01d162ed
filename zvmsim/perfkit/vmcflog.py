"""VMCFLOG — VMCF Activity and the Master Processor, by Time (zvmsim's own).

Performance Toolkit spreads this over several screens; here it is one
by-time table from the D5 R11 record (master processor, master-only PLDV,
VMCF counts) and the processors' D0 R2 and D5 R3 records: VMCF functions
and SMSG commands per second, processor time per message function (all processors'
busy time over VMCF functions plus SMSGs: the utilization law read
backwards), the master's busy beside the alternates' mean, the users
waiting in the master-only PLDV and in the other dispatch vectors (high-
frequency samples), how often VMDBKs were moved to the master and how long
master-only work waited there, and the dispatches on a processor other than
the user's last (each a cache refill) with the share of busy time that moves
and refills cost.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows

__all__ = ["VMCFLOG", "master_cpu"]

NAN = float("nan")


def master_cpu(iv: Interval) -> str | None:
    """The master processor's address in *iv* (``00``), if the data says which it is."""
    return next(iter(iv.masters), None)


def _summary(iv: Interval) -> dict:
    master = master_cpu(iv)
    c = iv.masters.get(master, {}) if master else {}
    busy = {cpu: 100.0 * p["busy_us"] / p["elapsed_us"] for cpu, p in iv.cpus.items()}
    total_us = sum(p["busy_us"] for p in iv.cpus.values())
    alternates = [b for cpu, b in busy.items() if cpu != master]
    functions = c.get("vmcf", 0) + c.get("smsg", 0)
    hf = c.get("hf_samples", 0)
    runs = c.get("master_runs", 0)
    return {
        "vmcf_rate": c.get("vmcf", 0) / iv.seconds,
        "smsg_rate": c.get("smsg", 0) / iv.seconds,
        "cpu_per_vmcf_ms": total_us / 1000.0 / functions if functions else NAN,
        "pct_master": busy.get(master, NAN) if master else NAN,
        "pct_alt": sum(alternates) / len(alternates) if alternates else NAN,
        "master_pldv": c.get("hf_master_pldv", 0) / hf if hf else NAN,
        "pldv": c.get("hf_pldv", 0) / hf if hf else NAN,
        "moves_rate": c.get("moves", 0) / iv.seconds,
        "master_rate": runs / iv.seconds,
        "master_wait_ms": c.get("master_wait_us", 0) / 1000.0 / runs if runs else NAN,
        "refill_rate": c.get("migrations", 0) / iv.seconds,
        "pct_switch": (
            100.0 * (c.get("switch_us", 0) + c.get("refill_us", 0)) / total_us if total_us else NAN
        ),
    }


def _group(title: str, width: int) -> str:
    """A column group's heading over *width* characters: ``<--- Title --->``."""
    return "<" + f" {title} ".center(width - 2, "-") + ">"


def build_vmcflog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """VMCFLOG rows: the >>Mean>> row, then one row per interval (a note without VMCF data)."""
    columns = [col.key for col in VMCFLOG.columns]
    if not any(iv.masters for iv in intervals):
        frame = pd.DataFrame(columns=columns)
        frame.attrs["note"] = "No VMCF or master processor data (D5 R11) in this monitor data."
        return frame
    return pd.DataFrame(by_time_rows(intervals, _summary), columns=columns)


VMCFLOG = ReportSpec(
    fcx="VMCFLOG",
    own="Perfkit spreads VMCF and the master processor over several screens",
    name="VMCFLOG",
    title="VMCF Activity and the Master Processor, by Time",
    build=build_vmcflog,
    by_time=True,
    aliases=("VMCF",),
    groups=" ".join(
        [" " * 8, *(_group(t, w) for t, w in (("Messages", 20), ("%Busy", 12), ("PLDV", 11)))]
        + [_group("To Master", 20), _group("Switching", 13)]
    ),
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("vmcf_rate", ("VMCF", "/s"), 6, "r"),
        Column("smsg_rate", ("SMSG", "/s"), 6, "r"),
        Column("cpu_per_vmcf_ms", ("CPU/", "msg ms"), 6, "3"),
        Column("pct_master", ("", "Master"), 6, "1"),
        Column("pct_alt", ("", "Alt"), 5, "1"),
        Column("master_pldv", ("Mast", "only"), 5, "1"),
        Column("pldv", ("", "Other"), 5, "1"),
        Column("moves_rate", ("Moves", "/s"), 6, "r"),
        Column("master_rate", ("Runs", "/s"), 6, "r"),
        Column("master_wait_ms", ("Wait", "ms"), 6, "3"),
        Column("refill_rate", ("Refill", "/s"), 6, "r"),
        Column("pct_switch", ("%Busy", "Switch"), 6, "1"),
    ],
)
