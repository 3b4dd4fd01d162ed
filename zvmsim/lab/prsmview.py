"""Where the processor time went — guests, CP, PR/SM — and a sweep of one knob.

Seed 001 sorts a partition's CPU time into three categories: what the
guests used and what z/VM's Control Program used (FCX100/FCX144: %EMU and
the rest of %CPU), and what the PR/SM hypervisor spent managing the
partition's logical PUs (FCX126 %Ovhd). :func:`cpu_categories` adds them up
from the reports, in PUs' worth (100 % of one PU = 1.0), with PR/SM's time
for the whole pool beside it (CECLOG). :func:`overhead_sweep` runs the
prsm-overhead scenario once per value of a knob and tabulates the same
figures with the spin lock's, for a plot (:func:`overhead_sweep_plot`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from ..api import report
from ..monitor.stream import MonitorData
from ..perfkit.reduce import RunData
from ..perfkit.report import MEAN
from .runs import run_data, sweep_list

__all__ = ["cpu_categories", "cpu_categories_text", "overhead_sweep", "overhead_sweep_plot"]


def cpu_categories(run: MonitorData | RunData) -> dict[str, float]:
    """The three categories of processor time of the z/VM partition, in PUs' worth,
    plus PR/SM's time for every partition of its pool (``prsm_pool``)."""
    cpu = report(run, "FCX100").frame.iloc[0]
    lpar = report(run, "FCX126").frame
    own_type = str(cpu["pu_type"]) or str(report(run, "FCX100").frame.iloc[1]["pu_type"])
    own = lpar[lpar["pct_susp"].notna()]  # only z/VM's own partition has %Susp
    cec = report(run, "CECLOG").frame
    pool = cec[(cec["interval_end"] == MEAN) & (cec["pu_type"] == own_type)]
    pool_pus = float(pool["pct_ovhd"].iloc[0] * pool["count"].iloc[0]) if len(pool) else 0.0
    return {
        "guests": float(cpu["pct_emu"]) / 100.0,
        "cp": float(cpu["pct_cpu"] - cpu["pct_emu"]) / 100.0,
        "prsm": float(own["pct_ovhd"].sum()) / 100.0,
        "prsm_pool": pool_pus / 100.0,
    }


def cpu_categories_text(run: MonitorData | RunData) -> str:
    """:func:`cpu_categories` as a few lines of text (a dashboard extra)."""
    c = cpu_categories(run)
    lock = report(run, "FCX265").frame
    lines = [
        "Where the processor time went (PUs' worth: 1.00 = one PU busy all the time)",
        f"  guests (FCX100 %EMU)                         {c['guests']:6.2f}",
        f"  z/VM CP (FCX100 %CPU - %EMU)                 {c['cp']:6.2f}",
        f"  PR/SM for this partition (FCX126 %Ovhd)      {c['prsm']:6.2f}",
        f"  PR/SM for all partitions of the pool         {c['prsm_pool']:6.2f}",
    ]
    mean = lock[lock["interval_end"] == MEAN]
    if len(mean):
        row = mean.iloc[0]
        lines.append(
            f"  scheduler lock: {row['pct_coll']:.2f} % of requests collide, "
            f"{row['avg_spin_us']:.1f} us spin each, {row['diag44_rate']:.0f} Diag x'44' "
            f"and {row['diag9c_rate']:.0f} Diag x'9C' a second"
        )
    return "\n".join(lines)


def overhead_sweep(
    values: Iterable[Any],
    knob: str = "logical_pus",
    *,
    knobs: dict[str, Any] | None = None,
    seed: int = 1,
    duration: float = 6.0,
    progress: bool | Callable[[float], object] = True,
) -> pd.DataFrame:
    """Run prsm-overhead once per value of *knob* (other knobs as *knobs*).

    One row per value: the three categories (PUs' worth), PR/SM's time for the
    pool, the lock's spin per collision and Diag calls a second, the guests'
    suspended time. A progress bar shows in a notebook; *progress* False shows
    nothing, a function is told the share done (0 to 1) as runs finish.
    """

    def one(value: Any) -> dict[str, Any]:
        setting = {**(knobs or {}), knob: value}
        run = run_data("prsm-overhead", setting, seed=seed, duration=duration)
        lock = report(run, "FCX265").frame.iloc[0]
        cpu = report(run, "FCX100").frame.iloc[0]
        return {
            knob: value,
            **cpu_categories(run),
            "susp": float(cpu["pct_susp"]) / 100.0,
            "avg_spin_us": float(lock["avg_spin_us"]),
            "diag44_rate": float(lock["diag44_rate"]),
            "diag9c_rate": float(lock["diag9c_rate"]),
        }

    rows = sweep_list(one, list(values), progress=progress)
    return pd.DataFrame(rows)


def overhead_sweep_plot(frame: pd.DataFrame, title: str = "", ax: Any = None) -> Any:
    """PR/SM's time (the partition's and the pool's) and CP's against the swept knob."""
    knob = frame.columns[0]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.2))
    x = frame[knob]
    ax.plot(x, frame["prsm_pool"], marker="o", label="PR/SM, all partitions (CECLOG)")
    ax.plot(x, frame["prsm"], marker="s", label="PR/SM, this partition")
    ax.plot(x, frame["cp"], marker="^", label="z/VM CP (FCX100 %CPU - %EMU)")
    ax.set_xlabel(knob)
    ax.set_ylabel("PUs' worth")
    ax.set_ylim(bottom=0)
    ax.set_title(title or f"Processor time by category against {knob}")
    ax.legend(fontsize=8)
    return ax
