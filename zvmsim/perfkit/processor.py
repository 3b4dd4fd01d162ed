"""FCX100 CPU and FCX180 SYSCONF: the processors and the configuration.

FCX100 splits each logical processor's time, from CP's D0 R2 record
(MRSYTPRP's IBM fields; the suspended time from D5 R3): %CPU busy in all,
of which %USR was charged to users (their own instructions and CP's work
for them), %SYS was CP's own unchargeable work and %EMU the users'
instructions run in emulation (SIE); %WT is idle and %SUSP the time PR/SM
left the processor ready but not dispatched. A ``>>Total<<`` row adds them up.
When the data names the master processor (D5 R11), a Role column marks it
and the alternates.

FCX180 lists the configuration the monitor records describe: the machine
and its physical PUs (D1 R4, D0 R16), the partition and its logical PUs
(D0 R15, D0 R30), and real storage (D0 R3), with dots for what a run does not model.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .reduce import Interval, RunData, collected_in
from .render import Column, Item, labelled, table
from .report import ReportSpec

__all__ = ["FCX100", "FCX180", "KEYS", "cpu_split", "role_table", "with_roles"]

TOTAL = ">>Total<<"
KEYS = ("pct_cpu", "pct_usr", "pct_sys", "pct_emu", "pct_wt", "pct_susp")


def cpu_split(c: dict, seconds: float) -> dict:
    """One logical processor's time over *seconds* from its D0 R2 deltas, in % (KEYS)."""
    elapsed = seconds * 1e6
    busy, system = c["busy_us"], c["system_us"]
    susp = c.get("susp_us", 0)
    return {
        "pct_cpu": 100.0 * busy / elapsed,
        "pct_usr": 100.0 * (busy - system) / elapsed,
        "pct_sys": 100.0 * system / elapsed,
        "pct_emu": 100.0 * c["virtual_us"] / elapsed,
        "pct_wt": 100.0 * max(0.0, elapsed - busy - susp) / elapsed,
        "pct_susp": 100.0 * susp / elapsed,
    }


def build_cpu(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX100 rows: a total, then one row per logical processor."""
    iv = intervals[0]
    pu_type = _own_type(run)
    rows = [
        {"cpu": cpu, "pu_type": pu_type, **cpu_split(c, iv.seconds)}
        for cpu, c in sorted(iv.cpus.items())
    ]
    total = {"cpu": TOTAL, "pu_type": "", **{k: sum(r[k] for r in rows) for k in KEYS}}
    frame = pd.DataFrame([total, *rows], columns=["cpu", "pu_type", *KEYS])
    return with_roles(frame, iv)


def with_roles(frame: pd.DataFrame, iv: Interval) -> pd.DataFrame:
    """Add a ``role`` column (Master, Alternate) when the data names the master
    processor (D5 R11); other data keeps the columns it always had."""
    master = next(iter(iv.masters), None)
    if master is not None:
        cpus = frame["cpu"]
        frame["role"] = [
            "" if c == TOTAL else "Master" if c == master else "Alternate" for c in cpus
        ]
    return frame


ROLE = Column("role", ("", "Role"), 9, "s", left=True)


def role_table(columns: list[Column], groups: str) -> Callable[[pd.DataFrame], list[str]]:
    """A report body: the table, with the Role column when the frame has one."""

    def body(frame: pd.DataFrame) -> list[str]:
        return table(frame, [*columns, ROLE] if "role" in frame else columns, groups)

    return body


def _own_type(run: RunData) -> str:
    own = [d for d in run.lpars.values() if d.own]
    return own[0].pu_type if own else ""


_CPU_GROUPS = "               <----- Load ----->"
_CPU_COLUMNS = [
    Column("cpu", ("", "CPU"), 9, "s", left=True),
    Column("pu_type", ("", "Type"), 4, "s", left=True),
    Column("pct_cpu", ("", "%CPU"), 6, "1"),
    Column("pct_usr", ("", "%USR"), 6, "1"),
    Column("pct_sys", ("", "%SYS"), 6, "1"),
    Column("pct_emu", ("", "%EMU"), 6, "1"),
    Column("pct_wt", ("", "%WT"), 6, "1"),
    Column("pct_susp", ("", "%SUSP"), 6, "1"),
]
FCX100 = ReportSpec(
    fcx="FCX100",
    name="CPU",
    title="CPU Load and Transactions",
    build=build_cpu,
    aliases=("CPU",),
    groups=_CPU_GROUPS,
    columns=_CPU_COLUMNS,
    body=role_table(_CPU_COLUMNS, _CPU_GROUPS),
)


def build_sysconf(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX180: one row describing the configuration."""
    iv = intervals[-1]
    own = [d for d in run.lpars.values() if d.own]
    st = iv.storage
    nan = float("nan")
    row = {
        "cpu_model": run.system.cpu_model,
        "serial": run.system.serial,
        "zvm_level": run.system.zvm_level,
        **{f"pus_{t.lower()}": float(c["count"]) for t, c in sorted(iv.pus.items())},
        "partition": collected_in(run),
        "logical_cpus": float(len(iv.cpus)),
        "pu_type": own[0].pu_type if own else "",
        "central_mb": st["frames"] / 256 if "frames" in st else nan,
        "xstore_mb": st["xstore_pages"] / 256 if "xstore_pages" in st else nan,
    }
    return pd.DataFrame([row])


def _sysconf_text(frame: pd.DataFrame) -> list[str]:
    row = frame.iloc[0].to_dict()
    pus = [
        Item(k, f"Physical {k[4:].upper()}s configured", "i") for k in row if k.startswith("pus_")
    ]
    lines = [
        f"Processor type and model ...... {row['cpu_model']}",
        f"Serial number ................. {row['serial']}",
        f"z/VM level .................... {row['zvm_level']}",
        f"Partition ..................... {row['partition']} ({row['pu_type']})",
        "",
    ]
    return lines + labelled(
        row,
        [
            ("Processors:", [*pus, Item("logical_cpus", "Logical processors online", "i")]),
            (
                "Real storage:",
                [
                    Item("central_mb", "Central storage", "i", "MB"),
                    Item("xstore_mb", "Expanded storage", "i", "MB"),
                ],
            ),
        ],
    )


FCX180 = ReportSpec(
    fcx="FCX180",
    name="SYSCONF",
    title="System Configuration",
    build=build_sysconf,
    aliases=("SYSCONF",),
    columns=[],
    body=_sysconf_text,
)
