"""Available lists by time (z/VM 6.3): FCX294 AVLB2GLG and FCX295 AVLA2GLG.

z/VM 6.3 keeps free frames below and above the 2 GB line, each as *singles*
(free frames whose neighbours are in use) and *contigs* (free frames in runs
of two or more). Per monitor interval: the frames available on each list
(mean of the high-frequency samples; bytes with a suffix in the text), the
frames requested by singles and contigs requests and returned to each list
per second, how often a request found a list empty, and the thresholds: the
singles low threshold, the contigs low threshold, and *Prot*, the contig
frames a singles request must leave alone. 6.3 uses the frames below 2 GB
last, so AVLB2GLG usually shows them idle.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec, by_time_rows
from .zvm63 import note_frame, release_note

__all__ = ["FCX294", "FCX295"]

KEYS = [
    "interval_end",
    "avail_sing",
    "avail_cont",
    "req_sing",
    "req_cont",
    "ret_sing",
    "ret_cont",
    "empty_sing",
    "empty_cont",
    "sing_low",
    "cont_low",
    "cont_protect",
]


def _lists(side: str):  # noqa: ANN202 - a row builder for one side of the 2 GB line
    def row(iv: Interval) -> dict:
        st, secs = iv.storage63, iv.seconds
        n = iv.storage.get("hf_samples", 0)

        def mean(kind: str) -> float:
            return st[f"hf_{side}_{kind}"] / n if n else float(st[f"free_{side}_{kind}"])

        return {
            "avail_sing": mean("sing"),
            "avail_cont": mean("cont"),
            **{
                f"{what}_{kind}": st[f"{what}_{side}_{kind}"] / secs
                for what in ("req", "ret", "empty")
                for kind in ("sing", "cont")
            },
            "sing_low": st["sing_low"],
            "cont_low": st["cont_low"],
            "cont_protect": st["cont_protect"],
        }

    return row


def _build(fcx: str, name: str, side: str):  # noqa: ANN202
    def build(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
        note = release_note(run, fcx, name, wanted_63=True)
        if note:
            return note_frame(KEYS, note)
        if not any(iv.storage63 for iv in intervals):
            return pd.DataFrame(columns=KEYS)
        return pd.DataFrame(by_time_rows(intervals, _lists(side), mean_gauges=True), columns=KEYS)

    return build


_COLUMNS = [
    Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
    Column("avail_sing", ("", "Sing"), 6, "p"),
    Column("avail_cont", ("", "Cont"), 6, "p"),
    Column("req_sing", ("", "Sing"), 7, "r"),
    Column("req_cont", ("", "Cont"), 7, "r"),
    Column("ret_sing", ("", "Sing"), 7, "r"),
    Column("ret_cont", ("", "Cont"), 7, "r"),
    Column("empty_sing", ("", "Sing"), 5, "1"),
    Column("empty_cont", ("", "Cont"), 5, "1"),
    Column("sing_low", ("Sing", "Low"), 6, "i"),
    Column("cont_low", ("Cont", "Low"), 5, "i"),
    Column("cont_protect", ("Cont", "Prot"), 5, "i"),
]
_GROUPS = (
    "         <-Available-> <Frames requested/s> <-Frames returned/s> <Empty/s-> <-Frame Thresh-->"
)

FCX294 = ReportSpec(
    fcx="FCX294",
    name="AVLB2GLG",
    title="Available List Data Below 2G, by Time",
    build=_build("FCX294", "AVLB2GLG", "b2g"),
    by_time=True,
    aliases=("AVLB2GLG",),
    groups=_GROUPS,
    columns=_COLUMNS,
)

FCX295 = ReportSpec(
    fcx="FCX295",
    name="AVLA2GLG",
    title="Available List Data Above 2G, by Time",
    build=_build("FCX295", "AVLA2GLG", "a2g"),
    by_time=True,
    aliases=("AVLA2GLG",),
    groups=_GROUPS,
    columns=_COLUMNS,
)
