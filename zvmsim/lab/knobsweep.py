"""Sweeps: one knob across values, for several settings of the others, with a progress bar.

``knob_sweep`` runs a scenario once per (series, value), reduces each run and
hands it to a *measure* function that picks the figures of interest from the
reports, giving one tidy DataFrame row per run. In a notebook the progress
bar of :func:`~zvmsim.lab.runs.sweep` shows the runs done while they go.
``sweep_plot`` draws one figure against the knob, a line per series.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ..perfkit.reduce import RunData
from .runs import run_data, sweep_list

__all__ = ["knob_sweep", "sweep_plot"]

Measure = Callable[[RunData], dict[str, float]]


def knob_sweep(
    scenario: str,
    knob: str,
    values: Sequence[Any],
    measure: Measure,
    series: dict[str, dict[str, Any]] | None = None,
    *,
    seed: int = 1,
    duration: float | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Run *scenario* for each *value* of *knob* under each of *series* (label -> knobs).

    Returns columns ``series``, *knob* and whatever *measure* returns.
    """
    series = series or {"": {}}
    cases = [
        (label, value, {**knobs, knob: value})
        for label, knobs in series.items()
        for value in values
    ]

    def one(case: tuple[str, Any, dict[str, Any]]) -> dict[str, Any]:
        label, value, setting = case
        data = run_data(scenario, setting, seed=seed, duration=duration)
        return {"series": label, knob: value, **measure(data)}

    rows = sweep_list(one, cases, progress=progress)
    return pd.DataFrame(rows)


def sweep_plot(
    frame: pd.DataFrame,
    knob: str,
    figure: str,
    *,
    ax: Any = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    logx: bool = False,
) -> Any:
    """Plot *figure* against *knob*, one line per series of a :func:`knob_sweep` frame."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    for label, part in frame.groupby("series", sort=False):
        ax.plot(part[knob], part[figure], marker="o", label=str(label))
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel or knob)
    ax.set_ylabel(ylabel or figure)
    ax.grid(True, alpha=0.3)
    if frame["series"].nunique() > 1:
        ax.legend()
    return ax
