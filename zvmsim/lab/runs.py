"""Runs and sweeps of runs for notebooks, with a progress bar while they go.

``run_data(scenario, knobs)`` simulates one setting and reduces its monitor
records (what ``reduce(simulate(...))`` gives), showing a progress bar in a
notebook. ``sweep(fn, values)`` calls ``fn(value)`` for each value and gives
back ``{value: result}`` in order; ``sweep(fn, {label: argument, ...})``
calls ``fn(argument)`` and keys the results by label (for settings that are
dictionaries of knobs). Its bar counts the runs, names the one going now and
moves within each run that ``fn`` makes through :func:`run_data`.

A finished bar stays ("done, 6 of 6 runs"). Put a run or sweep in a cell of
its own marked ``# NBVAL_IGNORE_OUTPUT`` and print its results in the next
cell, so the stored outputs stay the same from run to run. Outside a notebook
nothing is shown (``progress`` may also be a function that is told
``(done, total)`` after each run of a sweep).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import ipywidgets as widgets

from ..api import reduced_run
from ..perfkit.reduce import RunData

__all__ = ["SweepBar", "run_data", "sweep", "sweep_list"]

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
T = TypeVar("T")

# the bar of the sweep going now: run_data feeds it instead of showing its own
_ACTIVE: list[SweepBar] = []


def _in_kernel() -> bool:
    """True inside a Jupyter kernel (a notebook, JupyterLab, Voilà), where widgets show."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


class SweepBar:
    """A progress bar for *total* runs with a line naming the current one."""

    def __init__(self, total: int, what: str = "run") -> None:
        self.total = total
        self.what = what
        self.done = 0
        self.bar = widgets.FloatProgress(
            value=0.0, min=0.0, max=float(max(total, 1)), description="simulating"
        )
        self.label = widgets.HTML()
        self.widget = widgets.HBox([self.bar, self.label])

    def start(self, done: int, value: Any) -> None:
        """Say that run *done* + 1 (for *value*) is going now."""
        self.done = done
        self.bar.value = float(done)
        text = f"{self.what} {value}".strip()
        if self.total > 1:
            text += f" ({done + 1} of {self.total})"
        self.label.value = html.escape(text)

    def step(self, fraction: float) -> None:
        """Move the bar to *fraction* (0 to 1) of the current run (never back)."""
        self.bar.value = max(self.bar.value, self.done + min(max(fraction, 0.0), 1.0))

    def finish(self) -> None:
        """Fill the bar and say how many runs were made."""
        self.bar.value = self.bar.max
        self.bar.bar_style = "success"
        self.bar.description = "done"
        runs = "1 run" if self.total == 1 else f"{self.total} of {self.total} runs"
        self.label.value = html.escape(runs)


def _shown(bar: SweepBar) -> SweepBar:
    from IPython.display import display

    display(bar.widget)
    return bar


def run_data(
    scenario: str,
    knobs: dict[str, Any] | None = None,
    *,
    seed: int = 1,
    duration: float | None = None,
    progress: bool = True,
    label: str | None = None,
) -> RunData:
    """Simulate *scenario* with *knobs* and reduce its records, with a progress bar.

    The same data as ``reduce(simulate(scenario, knobs, seed=..., duration=...))``.
    Inside a :func:`sweep` the sweep's bar moves instead; *progress* False
    shows nothing. *label* replaces the bar's text (the scenario and knobs),
    for a run whose setting should stay hidden.
    """
    bar = None
    if _ACTIVE:
        told = _ACTIVE[-1].step
    elif progress and _in_kernel():
        bar = _shown(SweepBar(1, ""))
        shown = ", ".join(f"{k}={v}" for k, v in (knobs or {}).items())
        bar.start(0, label if label is not None else f"{scenario} {shown}".strip())
        told = bar.step
    else:
        told = None
    data = reduced_run(scenario, knobs, seed=seed, duration=duration, progress=told)
    if bar is not None:
        bar.finish()
    return data


def sweep(
    fn: Callable[[Any], R],
    values: Iterable[K] | Mapping[K, Any],
    *,
    progress: bool | Callable[[int, int], object] = True,
    what: str = "run",
) -> dict[K, R]:
    """``{value: fn(value)}`` for each of *values*, with a progress bar in a notebook.

    With a mapping ``{label: argument}``, ``fn(argument)`` is called and the
    results are keyed by label.

    *what* names the swept quantity on the bar ("ESCON CHPIDs" shows
    "ESCON CHPIDs 3 (3 of 6)"). *progress* False shows nothing; a function
    is called with ``(done, total)`` after each run instead of a bar.
    """
    todo = list(values.items()) if isinstance(values, Mapping) else [(v, v) for v in values]
    bar = _shown(SweepBar(len(todo), what)) if progress is True and _in_kernel() else None
    results: dict[K, R] = {}
    if bar is not None:
        _ACTIVE.append(bar)
    try:
        for done, (key, argument) in enumerate(todo):
            if bar is not None:
                bar.start(done, key)
            results[key] = fn(argument)
            if callable(progress):
                progress(done + 1, len(todo))
    finally:
        if bar is not None:
            _ACTIVE.remove(bar)
    if bar is not None:
        bar.finish()
    return results


def sweep_list(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    progress: bool | Callable[[float], object] = True,
) -> list[R]:
    """``[fn(item) for item in items]`` with :func:`sweep`'s progress bar ("run 2 (2 of 6)").

    Items may repeat. *progress* False shows nothing; a function is told the
    share of the runs done (0 to 1) after each run instead of a bar.
    """
    told = (lambda done, total: progress(done / total)) if callable(progress) else progress
    results = sweep(lambda i: fn(items[i - 1]), range(1, len(items) + 1), progress=told)
    return list(results.values())
