"""FCX144 PROCLOG — Processor Activity, by Time.

FCX100's split of each logical processor's time (%CPU, %USR, %SYS, %EMU,
%WT, %SUSP, from its D0 R2 and D5 R3 records), interval by interval: first a
``>>Mean>>`` row per processor over the whole period, then, for every
monitor interval, one row per processor. Where the guests' time
(%EMU) and CP's (%CPU − %EMU) go, interval by interval. When the data names
the master processor (D5 R11), a Role column marks it and the alternates.
"""

from __future__ import annotations

import pandas as pd

from .processor import KEYS, cpu_split, role_table, with_roles
from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label

__all__ = ["FCX144"]


def _rows(label: str, iv: Interval) -> list[dict]:
    return [
        {"interval_end": label, "cpu": cpu, **cpu_split(c, iv.seconds)}
        for cpu, c in sorted(iv.cpus.items())
    ]


def build_proclog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX144 rows: >>Mean>> per processor, then each interval's processors."""
    rows = _rows(MEAN, merge(intervals))
    for iv in intervals:
        rows += _rows(interval_label(iv), iv)
    return with_roles(pd.DataFrame(rows, columns=["interval_end", "cpu", *KEYS]), intervals[0])


_GROUPS = f"{'':13}<{' Percent Busy ':-^33}>"
_COLUMNS = [
    Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
    Column("cpu", ("", "CPU"), 3, "s", left=True),
    Column("pct_cpu", ("", "Total"), 5, "1"),
    Column("pct_usr", ("", "User"), 5, "1"),
    Column("pct_sys", ("", "Syst"), 5, "1"),
    Column("pct_emu", ("", "Emul"), 5, "1"),
    Column("pct_wt", ("", "Wait"), 5, "1"),
    Column("pct_susp", ("", "Susp"), 5, "1"),
]
FCX144 = ReportSpec(
    fcx="FCX144",
    name="PROCLOG",
    title="Processor Activity, by Time",
    build=build_proclog,
    by_time=True,
    aliases=("PROCLOG",),
    groups=_GROUPS,
    columns=_COLUMNS,
    body=role_table(_COLUMNS, _GROUPS),
)
