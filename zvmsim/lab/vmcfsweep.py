"""Amdahl on one processor: the VMCF rate against the number of processors, per release.

:func:`vmcf_sweep` runs the vmcf-master scenario for each release and
processor count and reads VMCFLOG's ``>>Mean>>`` row; :func:`vmcf_sweep_plot`
draws the rates beside the "capacity only" line: what the processors would
give if each ran 100 % busy at one run's processor time per VMCF, with
nothing serialised.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from ..api import report, simulate
from .runs import sweep_list

__all__ = ["vmcf_sweep", "vmcf_sweep_plot"]

COLUMNS = ("vmcf_rate", "cpu_per_vmcf_ms", "pct_master", "pct_alt")


def vmcf_sweep(
    processors: Iterable[int] = range(1, 7),
    releases: Iterable[str] = ("2.1", "2.2"),
    *,
    knobs: dict[str, Any] | None = None,
    seed: int = 1,
    duration: float = 1.0,
    progress: bool | Callable[[float], object] = True,
) -> pd.DataFrame:
    """One row per (release, processors): VMCFLOG's whole-run figures (COLUMNS).

    A progress bar shows in a notebook; *progress* False shows nothing, a
    function is told the share done (0 to 1) as runs finish.
    """

    def one(case: tuple[str, int]) -> dict[str, Any]:
        release, count = case
        chosen = {**(knobs or {}), "release": release, "processors": count}
        data = simulate("vmcf-master", chosen, seed=seed, duration=duration, interval=duration)
        mean = report(data, "VMCFLOG").frame.iloc[0]
        return {"release": release, "processors": count, **{c: mean[c] for c in COLUMNS}}

    cases = [(r, n) for r in releases for n in processors]
    rows = sweep_list(one, cases, progress=progress)
    return pd.DataFrame(rows, columns=["release", "processors", *COLUMNS])


def vmcf_sweep_plot(
    frame: pd.DataFrame, *, capacity: tuple[str, int] = ("2.1", 4), ax: Any = None
) -> Any:
    """VMCF rate against processors for each release, and the capacity-only line; the axes.

    The capacity-only line takes the processor time per VMCF of the run named by
    *capacity* (release, processors; that release's largest run if it is missing)
    and lets every processor run at 100 % with it.
    """
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    for release, part in frame.groupby("release", sort=True):
        ax.plot(part["processors"], part["vmcf_rate"], marker="o", label=f"VM/ESA {release}.0")
    release, count = capacity
    base = frame[frame["release"] == release]
    if len(base):
        chosen = base[base["processors"] == count]
        row = (chosen if len(chosen) else base).iloc[-1]
        counts = frame["processors"].drop_duplicates().sort_values()
        ax.plot(
            counts,
            counts * 1000.0 / row["cpu_per_vmcf_ms"],
            linestyle="--",
            color="grey",
            label=f"capacity only ({release}.0 CPU/VMCF on {int(row['processors'])})",
        )
    ax.set_xlabel("processors")
    ax.set_ylabel("VMCF functions / s")
    ax.set_title("VMCF rate against processors")
    ax.legend(fontsize=8)
    return ax
