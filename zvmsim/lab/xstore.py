"""Storage configured as real vs. expanded: the dashboard, a sweep and its plot.

The dashboard turns the case's knobs (how much of the 512 MB is XSTORE, where
the minidisk cache lives, how many CMS users) and shows the CMS users'
response time as the workload measures it (the ``>>All<<`` rows of TXN: one
row per user would be hundreds of lines), FCX103 STORAGE (paging to XSTORE and
to DASD, the minidisk cache's section) and the system summary FCX225.
:func:`xstore_sweep` measures response time over XSTORE sizes for a few user
counts (a :func:`~zvmsim.lab.knobsweep.knob_sweep`, with one progress bar).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..api import reports as build_reports
from ..perfkit.reduce import RunData
from .dashboard import EXTRAS, Dashboard, dashboard
from .knobsweep import knob_sweep, sweep_plot

__all__ = ["real_vs_expanded_dashboard", "txn_summary", "xstore_plot", "xstore_sweep"]

SCENARIO = "real-vs-expanded"


def txn_summary(run: RunData) -> str:
    """The TXN report with only its ``>>All<<`` rows (one per workload)."""
    lines = build_reports(run, "TXN")[0].text.splitlines()
    head = next((i for i, line in enumerate(lines) if line.startswith("Workload")), len(lines))
    return "\n".join(lines[: head + 1] + [line for line in lines[head + 1 :] if ">>All<<" in line])


EXTRAS.setdefault("txn_summary", txn_summary)


def real_vs_expanded_dashboard(seed: int = 1) -> Dashboard:
    """Storage configured as real vs. expanded: XSTORE size, MDC's home, users.

    Shows the CMS users' transaction rate and response time (TXN, all users),
    FCX103 STORAGE and FCX225 SYSSUMLG over the dashboard's window
    (:data:`~zvmsim.lab.dashboard.WINDOWS`).
    """
    return dashboard(SCENARIO, ["FCX103", "FCX225"], extras=("txn_summary",), seed=seed)


def response_ms(run: RunData) -> float:
    """The CMS users' mean response time in the run (TXN ``>>All<<``), in ms."""
    frame = build_reports(run, "TXN")[0].frame
    return float(frame.loc[frame["userid"] == ">>All<<", "resp_ms"].iloc[0])


def xstore_sweep(
    users: list[int], xstore_mb: list[int], *, seed: int = 1, **knobs: Any
) -> pd.DataFrame:
    """Response time (``resp_ms``) for each XSTORE size, one series per user count
    (``"600 users"``), other knobs as given: a :func:`knob_sweep` frame."""
    series = {f"{u} users": {**knobs, "users": u} for u in users}
    measure = lambda run: {"resp_ms": response_ms(run)}  # noqa: E731
    return knob_sweep(SCENARIO, "xstore_mb", xstore_mb, measure, series, seed=seed)


def xstore_plot(results: pd.DataFrame) -> Any:
    """Response time against XSTORE size, one line per user count (log scale)."""
    ax = sweep_plot(
        results,
        "xstore_mb",
        "resp_ms",
        xlabel="XSTORE configured (MB of 512)",
        ylabel="CMS response time (ms)",
    )
    ax.set_yscale("log")
    ax.set_title("Real vs. expanded: response time by XSTORE size")
    ax.figure.tight_layout()
    return ax.figure
