"""Sweeps: one knob across values, for several settings of the others, with a progress bar.

``knob_sweep`` runs a scenario once per (series, value), reduces each run and
hands it to a *measure* function that picks the figures of interest from the
reports, giving one tidy DataFrame row per run. In a notebook a progress bar
shows the share of all the runs done while they go and is closed afterwards,
so it leaves no output behind (stored notebooks stay the same run to run).
``sweep_plot`` draws one figure against the knob, a line per series.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ..api import simulate
from ..perfkit.reduce import RunData, reduce

__all__ = ["knob_sweep", "sweep_plot"]

Measure = Callable[[RunData], dict[str, float]]


def _bar(total: int) -> Any:
    """A progress bar shown in the notebook (None outside one)."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with the notebooks
        return None
    if get_ipython() is None:
        return None
    import ipywidgets as widgets

    bar = widgets.FloatProgress(value=0.0, min=0.0, max=float(total), description="runs")
    display(bar)
    return bar


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
    total = len(series) * len(values)
    bar = _bar(total) if progress else None
    rows = []
    try:
        for label, knobs in series.items():
            for value in values:
                done = len(rows)

                def tick(share: float, done: int = done) -> None:
                    if bar is not None:
                        bar.value = done + share

                data = simulate(
                    scenario, {**knobs, knob: value}, seed=seed, duration=duration, progress=tick
                )
                rows.append({"series": label, knob: value, **measure(reduce(data))})
    finally:
        if bar is not None:
            bar.close()
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
