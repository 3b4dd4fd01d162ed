"""FCX161 LCHANNEL and FCX215 FCHANNEL — channel load, from the D0 R20 records.

**FCX161 LCHANNEL** (Channel Load and Channel Busy Distribution): one row
per CHPID, busiest first: its type (Chan-Group Descr: FICON, ESCON, OSD),
whether it is shared, its busy % at the last high-frequency sample (*Cur*)
and over the period (*Ave*), and the share of high-frequency samples whose
busy % fell in each band 0-10, 11-20, ... 91-100 (they sum to 100).

**FCX215 FCHANNEL** (FICON Channel Load): one row per FICON or OSA channel,
the most bytes first: work-unit (channel processor and link) utilisation,
data-unit utilisation for writes and reads (bytes per second against the
channel's data rate), the same for our own partition — which, with no other
partition's I/O simulated, is the total — and bytes written and read per
second. Bus-cycle utilisation is not modelled (dots).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column, table
from .report import ReportSpec

__all__ = ["BANDS", "FCX161", "FCX215"]

BANDS = ("0_10", "11_20", "21_30", "31_40", "41_50", "51_60", "61_70", "71_80", "81_90", "91_100")
_FICON_LIKE = ("FICON", "FC", "OSD")  # channels with extended measurement data


def _busy_pct(c: dict, seconds: float) -> float:
    return min(100.0, 100.0 * c.get("busy_us", 0) / 1e6 / seconds)


def build_lchannel(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX161 rows, one per CHPID, busiest first."""
    iv = intervals[0]
    rows = []
    for chpid, c in iv.channels.items():
        rec = run.channel_info[chpid]
        samples = c.get("hf_samples", 0)
        dist = {
            f"dist_{b}": 100.0 * c.get(f"hf_band{i}", 0) / samples if samples else float("nan")
            for i, b in enumerate(BANDS)
        }
        rows.append(
            {
                "chpid": chpid,
                "chpid_type": rec.chpid_type,
                "qual": "00",
                "shared": "Yes" if c.get("shared", 1) else "No",
                "pct_busy_cur": float(c.get("cur_pct", 0)),
                "pct_busy": _busy_pct(c, iv.seconds),
                **dist,
            }
        )
    rows.sort(key=lambda r: (-round(r["pct_busy"], 6), r["chpid"]))
    frame = pd.DataFrame(rows, columns=[col.key for col in FCX161.columns])
    frame.attrs["span"] = f"{iv.start:%H:%M:%S}-{iv.end:%H:%M:%S}"
    return frame


def _lchannel_body(frame: pd.DataFrame) -> list[str]:
    span = frame.attrs.get("span", "")
    groups = f"{'':27}<%Busy>  <----- Channel %Busy Distribution {span} ----->"
    return table(frame, FCX161.columns, groups)


FCX161 = ReportSpec(
    fcx="FCX161",
    name="LCHANNEL",
    title="Channel Load and Channel Busy Distribution",
    build=build_lchannel,
    aliases=("LCHANNEL",),
    body=_lchannel_body,
    columns=[
        Column("chpid", ("CHPID", "(Hex)"), 5, "s", left=True),
        Column("chpid_type", ("Chan-Group", "Descr"), 10, "s", left=True),
        Column("qual", ("", "Qual"), 4, "s", left=True),
        Column("shared", ("", "Shrd"), 4, "s", left=True),
        Column("pct_busy_cur", ("", "Cur"), 3, "i"),
        Column("pct_busy", ("", "Ave"), 3, "i"),
        *[Column(f"dist_{b}", ("", b.replace("_", "-")), max(5, len(b)), "i") for b in BANDS],
    ],
)


def build_fchannel(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX215 rows, one per FICON or OSA channel, the most bytes moved first."""
    iv = intervals[0]
    rows = []
    for chpid, c in iv.channels.items():
        rec = run.channel_info[chpid]
        if not rec.chpid_type.startswith(_FICON_LIKE):
            continue
        rate = c.get("data_rate_kb_s", 0) * 1000.0
        write, read = c.get("write_bytes", 0) / iv.seconds, c.get("read_bytes", 0) / iv.seconds
        work = _busy_pct(c, iv.seconds)
        duw = min(100.0, 100.0 * write / rate) if rate else float("nan")
        dur = min(100.0, 100.0 * read / rate) if rate else float("nan")
        rows.append(
            {
                "chpid": chpid,
                "shared": "Yes" if c.get("shared", 1) else "No",
                "pct_bus_cycles": float("nan"),
                "pct_work_units": work,
                "pct_data_write": duw,
                "pct_data_read": dur,
                "own_pct_work_units": work,
                "own_pct_data_write": duw,
                "own_pct_data_read": dur,
                "write_bytes_rate": write,
                "read_bytes_rate": read,
            }
        )
    rows.sort(key=lambda r: (-(r["write_bytes_rate"] + r["read_bytes_rate"]), r["chpid"]))
    return pd.DataFrame(rows, columns=[col.key for col in FCX215.columns])


FCX215 = ReportSpec(
    fcx="FCX215",
    name="FCHANNEL",
    title="FICON Channel Load",
    build=build_fchannel,
    aliases=("FCHANNEL",),
    groups=(
        f"{'':12}<------------- FICON Channel Utilization % ------------->\n"
        f"{'':12}<--- Total for System ---> <--Own Partition-->  <---Total Data--->\n"
        f"{'':12}  Bus  Work <Data Units>  Work <Data Units>  <-- (Bytes/s) -->"
    ),
    columns=[
        Column("chpid", ("Channel", "Path ID"), 7, "s", left=True),
        Column("shared", ("", "Shrd"), 4, "s", left=True),
        Column("pct_bus_cycles", ("", "T_BCy"), 5, "i"),
        Column("pct_work_units", ("", "T_WUn"), 5, "i"),
        Column("pct_data_write", ("", "T_DUW"), 5, "i"),
        Column("pct_data_read", ("", "T_DUR"), 5, "i"),
        Column("own_pct_work_units", ("", "L_WUn"), 5, "i"),
        Column("own_pct_data_write", ("", "L_DUW"), 5, "i"),
        Column("own_pct_data_read", ("", "L_DUR"), 5, "i"),
        Column("write_bytes_rate", ("", "Write/s"), 9, "i"),
        Column("read_bytes_rate", ("", "Read/s"), 9, "i"),
    ],
)
