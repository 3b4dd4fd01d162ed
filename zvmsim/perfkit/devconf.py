"""FCX131 DEVCONF — I/O Device Configuration, from the D1 R6 device records.

Which devices there are and how they are reached. Devices are grouped into
ranges the way Perfkit prints them: consecutive device numbers (and
subchannel numbers) with the same type-model, the same channel paths, the
same control unit and the same PAV role fall into one row. Each row lists
up to eight CHPIDs (dots for unused path slots) and the channel type they
are, taken from the channel measurement records (D0 R20): two ESCON CHPIDs
in front of two dozen paging volumes is what this report makes visible.
A PAV alias range names its base.
"""

from __future__ import annotations

import pandas as pd

from ..monitor.records import MRMTRDEV
from .reduce import Interval, RunData
from .render import Column
from .report import ReportSpec

__all__ = ["FCX131", "PATH_SLOTS"]

PATH_SLOTS = 8  # a device has at most eight channel paths


def _key(dev: MRMTRDEV) -> tuple:
    """What devices of one range have in common."""
    return (dev.devtype, dev.chpids, dev.control_unit, dev.cu_model, dev.base, dev.usage)


def _ranges(run: RunData) -> list[list[MRMTRDEV]]:
    """The devices in device-number order, cut into ranges of alike consecutive ones."""
    devs = sorted(run.devices.values(), key=lambda d: int(d.rdev, 16))
    out: list[list[MRMTRDEV]] = []
    for dev in devs:
        last = out[-1][-1] if out else None
        if (
            last is not None
            and int(dev.rdev, 16) == int(last.rdev, 16) + 1
            and dev.subchannel == last.subchannel + 1
            and _key(dev) == _key(last)
        ):
            out[-1].append(dev)
        else:
            out.append([dev])
    return out


def _span(first: str, last: str) -> str:
    return first if first == last else f"{first}-{last}"


def _row(run: RunData, devs: list[MRMTRDEV]) -> dict:
    first, last = devs[0], devs[-1]
    chpids = [c for c in first.chpids.split(",") if c]
    kinds = sorted({run.channel_info[c].chpid_type for c in chpids if c in run.channel_info})
    slots = {f"chpid_{i + 1}": c for i, c in enumerate(chpids[:PATH_SLOTS])}
    volsers = [d.volser for d in devs]
    return {
        "addr": _span(first.rdev, last.rdev),
        "subchannel": _span(f"{first.subchannel:04X}", f"{last.subchannel:04X}"),
        "devices": len(devs),
        "type": first.devtype,
        "pav": "Alias" if first.base else "",
        "base_addr": first.base,
        "volser": _span(volsers[0], volsers[-1]),
        **{f"chpid_{i}": slots.get(f"chpid_{i}", ".") for i in range(1, PATH_SLOTS + 1)},
        "chpid_type": "/".join(kinds),
        "paths": len(chpids),
        "control_unit": first.cu_model or first.control_unit,
        "usage": first.usage,
        "status": "Online",
    }


def build_devconf(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX131 rows: one per range of alike devices, in device-number order."""
    rows = [_row(run, devs) for devs in _ranges(run)]
    frame = pd.DataFrame(rows, columns=[c.key for c in FCX131.columns])
    frame["devices"] = frame["devices"].astype("Int64")
    frame["paths"] = frame["paths"].astype("Int64")
    return frame


FCX131 = ReportSpec(
    fcx="FCX131",
    name="DEVCONF",
    title="I/O Device Configuration",
    build=build_devconf,
    aliases=("DEVCONF",),
    groups=f"{'':53}<{' CHPIDs ':-^21}>",
    columns=[
        Column("addr", ("Device", "Range"), 9, "s", left=True),
        Column("subchannel", ("Subchan", "Range"), 9, "s", left=True),
        Column("devices", ("", "Devs"), 4, "i"),
        Column("type", ("Device", "Type"), 7, "s", left=True),
        Column("pav", ("PAV", "Role"), 5, "s", left=True),
        Column("volser", ("Volume", "Serials"), 13, "s", left=True),
        *[Column(f"chpid_{i}", ("", ""), 2, "s", left=True) for i in range(1, PATH_SLOTS + 1)],
        Column("chpid_type", ("Chan", "Type"), 5, "s", left=True),
        Column("control_unit", ("Ctl Unit", "Type"), 10, "s", left=True),
        Column("usage", ("", "Use"), 4, "s", left=True),
        Column("status", ("", "Status"), 6, "s", left=True),
        Column("base_addr", ("PAV", "Base"), 4, "s", left=True),
        Column("paths", ("", "Paths"), 5, "i"),
    ],
)
