"""FCX231 HIPSOCK — HiperSockets Channel Activity, from the D6 R32 records.

One row per IQD CHPID the z/VM partition uses, after a ``>>System<<`` row
that sums them: the frame size it is defined with, the messages (frames)
per second the partition sent and received, and the data they carried —
bytes per second and per message. Perfkit shows the traffic, not how long
each synchronous send took.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX231", "SYSTEM"]

SYSTEM = ">>System<<"
NAN = float("nan")


def _row(chpid: str, frame_kb: float, c: dict, seconds: float) -> dict:
    msgs = c.get("msgs_out", 0) + c.get("msgs_in", 0)
    nbytes = c.get("bytes_out", 0) + c.get("bytes_in", 0)
    return {
        "chpid": chpid,
        "frame_kb": frame_kb,
        "msgs_rate": msgs / seconds,
        "bytes_per_msg": nbytes / msgs if msgs else NAN,
        "out_msgs_rate": c.get("msgs_out", 0) / seconds,
        "in_msgs_rate": c.get("msgs_in", 0) / seconds,
        "bytes_rate": nbytes / seconds,
    }


def build_hipsock(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX231 rows: the system total, then one per IQD CHPID."""
    iv = intervals[0]
    columns = [col.key for col in FCX231.columns]
    chpids = sorted(iv.hipersockets)
    if not chpids:
        return pd.DataFrame(columns=columns)
    total: dict[str, float] = {}
    for c in chpids:
        for key, value in iv.hipersockets[c].items():
            if key != "frame_kb":
                total[key] = total.get(key, 0) + value
    rows = [_row(SYSTEM, NAN, total, iv.seconds)]
    rows += [
        _row(c, iv.hipersockets[c].get("frame_kb", NAN), iv.hipersockets[c], iv.seconds)
        for c in chpids
    ]
    return pd.DataFrame(rows, columns=columns)


FCX231 = ReportSpec(
    fcx="FCX231",
    name="HIPSOCK",
    title="HiperSockets Channel Activity",
    build=build_hipsock,
    aliases=("HIPSOCK",),
    groups=f"{'':17}<------ Messages ------>  <---- Data ---->",
    columns=[
        Column("chpid", ("", "CHPID"), 10, "s", left=True),
        Column("frame_kb", ("Frame", "KB"), 5, "i"),
        Column("msgs_rate", ("Total", "/s"), 7, "r"),
        Column("out_msgs_rate", ("Sent", "/s"), 7, "r"),
        Column("in_msgs_rate", ("Rcvd", "/s"), 7, "r"),
        Column("bytes_per_msg", ("Bytes", "/Msg"), 7, "i"),
        Column("bytes_rate", ("Bytes", "/s"), 8, "i"),
    ],
)
