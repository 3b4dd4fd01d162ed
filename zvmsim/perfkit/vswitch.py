"""FCX240 VSWITCH — VSWITCH Activity, from the D6 R21 records.

One row per VSWITCH, after a ``>>System<<`` row that sums them: the uplink
OSA's device number, the switch's name and controller virtual machine, and
per second the bytes, packets and discarded packets sent out to the LAN
(T_) and received from it (R_). No VSWITCH, no rows.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX240", "SYSTEM"]

SYSTEM = ">>System<<"
_RATES = (
    ("out_bytes_rate", "out_bytes"),
    ("out_packets_rate", "out_packets"),
    ("out_discards_rate", "out_discards"),
    ("in_bytes_rate", "in_bytes"),
    ("in_packets_rate", "in_packets"),
    ("in_discards_rate", "in_discards"),
)


def build_vswitch(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX240 rows: the system total, then one per VSWITCH by name."""
    iv = intervals[0]
    rows = []
    for name in sorted(iv.vswitches):
        c, rec = iv.vswitches[name], run.vswitch_info[name]
        row = {"addr": rec.rdev, "name": name, "controller": rec.controller}
        row.update({key: c.get(field, 0) / iv.seconds for key, field in _RATES})
        rows.append(row)
    columns = [col.key for col in FCX240.columns]
    if not rows:
        return pd.DataFrame(columns=columns)
    total = {"addr": SYSTEM, "name": "", "controller": ""}
    total.update({key: sum(r[key] for r in rows) for key, _ in _RATES})
    return pd.DataFrame([total, *rows], columns=columns)


FCX240 = ReportSpec(
    fcx="FCX240",
    name="VSWITCH",
    title="VSWITCH Activity",
    build=build_vswitch,
    aliases=("VSWITCH",),
    groups=(
        f"{'':28}<----- Outbound/s ------>  <------ Inbound/s ------>\n"
        f"{'':28}   Bytes  <--Packets-->     Bytes  <--Packets-->"
    ),
    columns=[
        Column("addr", ("", "Addr"), 10, "s", left=True),
        Column("name", ("", "Name"), 8, "s", left=True),
        Column("controller", ("", "Controlr"), 8, "s", left=True),
        Column("out_bytes_rate", ("", "T_Byte"), 8, "i"),
        Column("out_packets_rate", ("", "T_Pack"), 7, "1"),
        Column("out_discards_rate", ("", "T_Disc"), 6, "1"),
        Column("in_bytes_rate", ("", "R_Byte"), 9, "i"),
        Column("in_packets_rate", ("", "R_Pack"), 7, "1"),
        Column("in_discards_rate", ("", "R_Disc"), 6, "1"),
    ],
)
