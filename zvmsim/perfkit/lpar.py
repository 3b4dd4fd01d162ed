"""FCX126 LPAR — Logical Partition Activity, as PR/SM reports it to z/VM.

Above the table, as in Perfkit: the partition the data was collected in,
the processor type and model, the number of configured partitions, of
physical PUs (all types together) and PR/SM's dispatch interval (zvmsim's
PR/SM, like PR/SM's default, determines it dynamically).

Every partition on the CEC, with a row per logical PU: its number, user
partition ID (Upid, from the image profile; dots where the scenario does
not give it), logical PUs, weight, WAIT COMPLETION and capping settings;
how much of the time each logical PU was dispatched on a physical PU
(%Busy) and PR/SM's overhead for it (%Ovhd). A logical PU is named by its
CPU address (a z/OS partition's zIIPs by theirs, 6, 7, 22, 23 ...). For the
partition z/VM runs in there is more: the load z/VM itself saw (%VMLd),
the time its logical PU was ready but not dispatched (%Susp) and the load
corrected for that (%LogLd = %VMLd x 100 / (100 - %Susp)). %Load is the
partition's %Busy summed over its logical PUs, divided by the CEC's
physical PUs. Below the table, the general LPAR management overhead and
the overall physical load.

Like IBM's report, it does not say how full each pool of physical PUs is:
the logical PUs of a type have to be added up for that, interval by
interval — zvmsim's own CECLOG does it. zvmsim's PR/SM charges all its time
to logical PUs (%Ovhd); the time Perfkit's footer calls general LPAR
management overhead, charged to no logical PU, is not simulated and shows
dots.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData, collected_in
from .render import Column, table
from .report import ReportSpec

__all__ = ["FCX126"]

COLUMNS = [
    "partition", "number", "upid", "logical", "weight", "wait_c", "capped", "pct_load",
    "cpu", "pct_busy", "pct_ovhd", "pct_susp", "pct_vmld", "pct_logld", "pu_type",
]  # fmt: skip
NAN = float("nan")


def build_lpar(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """One row per logical PU of every partition (dots for a partition with none)."""
    iv = intervals[0]
    elapsed = iv.seconds * 1e6
    physical = sum(c["count"] for c in iv.pus.values()) or 1
    own_cpus = sorted(iv.cpus)
    rows = []
    by_part: dict[str, list[str]] = {}
    for lpu in sorted(iv.lpus, key=lambda k: (run.lpars[k].number, run.lpars[k].cpu)):
        by_part.setdefault(run.lpars[lpu].partition, []).append(lpu)
    for name, lpus in by_part.items():
        desc = run.lpars[lpus[0]]
        logical = desc.logical
        busy = [iv.lpus[k]["dispatched_us"] + iv.lpus[k]["overhead_us"] for k in lpus]
        load = 100.0 * sum(busy) / elapsed / physical if logical else NAN
        for k, lpu in enumerate(lpus):
            c = iv.lpus[lpu]
            row = {
                "partition": name if k == 0 else "",
                "number": desc.number,
                "upid": desc.upid or "..",
                "logical": logical,
                "weight": desc.weight if logical else NAN,
                "wait_c": "YES" if desc.wait_completion else "NO",
                "capped": "YES" if desc.capped else "NO",
                "pct_load": load if k == 0 else NAN,
                "cpu": run.lpars[lpu].cpu if logical else NAN,
                "pct_busy": 100.0 * busy[k] / elapsed if logical else NAN,
                "pct_ovhd": 100.0 * c["overhead_us"] / elapsed if logical else NAN,
                "pct_susp": NAN,
                "pct_vmld": NAN,
                "pct_logld": NAN,
                "pu_type": run.lpars[lpu].pu_type if logical else "",
            }
            if desc.own and logical and k < len(own_cpus):
                cpu = iv.cpus[own_cpus[k]]
                susp = 100.0 * cpu.get("susp_us", 0) / elapsed
                vmld = 100.0 * cpu["busy_us"] / elapsed
                row.update(pct_susp=susp, pct_vmld=vmld, pct_logld=vmld * 100 / (100 - susp))
            rows.append(row)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["partition"] = frame["partition"].replace("", pd.NA).ffill().fillna("")
    frame.attrs["partitions"] = len(by_part)
    frame.attrs["physical"] = int(sum(c["count"] for c in iv.pus.values()))
    frame.attrs["collected_in"] = collected_in(run)
    frame.attrs["model"] = run.system.cpu_model
    fixed = {int(c.get("dispatch_interval_ms", 0)) for c in iv.pus.values()} - {0}
    frame.attrs["dispatch"] = str(min(fixed)) if fixed else "dynamic"
    return frame


_COLUMNS = [
    Column("partition", ("", "Partition"), 9, "s", left=True),
    Column("number", ("", "Nr."), 3, "i"),
    Column("upid", ("", "Upid"), 4, "s"),
    Column("logical", ("", "#Proc"), 5, "i"),
    Column("weight", ("", "Weight"), 6, "i"),
    Column("wait_c", ("", "Wait-C"), 6, "s"),
    Column("capped", ("", "Cap"), 3, "s"),
    Column("pct_load", ("", "%Load"), 5, "1"),
    Column("cpu", ("", "CPU"), 3, "i"),
    Column("pct_busy", ("", "%Busy"), 5, "1"),
    Column("pct_ovhd", ("", "%Ovhd"), 5, "1"),
    Column("pct_susp", ("", "%Susp"), 5, "1"),
    Column("pct_vmld", ("", "%VMLd"), 5, "1"),
    Column("pct_logld", ("", "%LogLd"), 6, "1"),
    Column("pu_type", ("", "Type"), 4, "s", left=True),
]


def _text(frame: pd.DataFrame) -> list[str]:
    """The partition counts, the partition table, the overall load: Perfkit's layout."""
    shown = frame.copy()
    repeat = shown["partition"].eq(shown["partition"].shift())
    for col in ("partition", "number", "upid", "logical", "wait_c", "pct_load"):
        shown[col] = shown[col].astype(object).where(~repeat, "")
    lines = [
        f"LPAR Data, Collected in Partition {frame.attrs.get('collected_in', '')}",
        "",
        f"Processor type and model   : {frame.attrs.get('model', '')}",
        f"Nr. of configured partitions: {frame.attrs.get('partitions', 0):4d}",
        f"Nr. of physical processors  : {frame.attrs.get('physical', 0):4d}",
        f"Dispatch interval (msec)    : {frame.attrs.get('dispatch', '...')}",
        "",
    ]
    lines += table(shown, _COLUMNS, "")
    load = frame["pct_load"].sum()  # each partition's busy over the physical PUs
    lines += [
        "",
        f"General LPAR mgmt overhead {'...':>8}",
        f"Overall physical load      {load:8.1f}",
    ]
    return lines


FCX126 = ReportSpec(
    fcx="FCX126",
    name="LPAR",
    title="Logical Partition Activity",
    build=build_lpar,
    aliases=("LPAR",),
    columns=_COLUMNS,
    body=_text,
)
