"""A first dashboard: any scenario, one of its knobs, any report.

The case-study dashboards show every knob of one scenario and the reports
that case needs. This one, for the start-here notebook, goes the other way:
pick a scenario, pick *one* knob and set it, pick a report, and read it. The
other knobs keep their defaults. Runs are shared with the other dashboards'
cache, so coming back to a setting is instant.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..api import report as build_report
from ..perfkit.catalog import REPORTS, find_report
from ..scenario import load_scenario, scenario_names
from .controls import control_for
from .dashboard import _progress_bar, _run, _show_run

__all__ = ["StarterBoard", "starter_dashboard"]


def _report_label(code: str) -> str:
    spec = find_report(code)
    return f"{spec.fcx} {spec.name}"


class StarterBoard:
    """Scenario, knob, value and report pickers above one report."""

    def __init__(
        self,
        scenario: str = "pav-mdc",
        knob: str | None = None,
        report: str = "FCX225",
        seed: int = 1,
    ) -> None:
        self.seed = seed
        self._quiet = False  # while the pickers are being refilled
        self.picker = widgets.Dropdown(
            options=scenario_names(), value=load_scenario(scenario).name, description="scenario"
        )
        self.knob_picker = widgets.Dropdown(options=[], description="knob")
        labels = list(dict.fromkeys(f"{s.fcx} {s.name}" for s in REPORTS.values()))
        self.report_picker = widgets.Dropdown(
            options=labels, value=_report_label(report), description="report"
        )
        self.control: widgets.ValueWidget | None = None
        self.status = widgets.HTML()
        self.progress = _progress_bar()
        self.output = widgets.HTML()
        self.widget = widgets.VBox()
        self.text = ""
        self.error = ""
        self.picker.observe(lambda _: self._scenario_picked(), names="value")
        self.knob_picker.observe(lambda _: self._knob_picked(), names="value")
        self.report_picker.observe(lambda _: self.refresh(), names="value")
        self._scenario_picked(knob)

    @property
    def scenario(self) -> Any:
        return load_scenario(self.picker.value)

    def _scenario_picked(self, knob: str | None = None) -> None:
        """Offer the new scenario's knobs (the first, or *knob*) and re-run."""
        names = list(self.scenario.knobs)
        self._quiet = True
        try:
            self.knob_picker.options = names
            self.knob_picker.disabled = not names
            if names:
                self.knob_picker.value = knob if knob in names else names[0]
        finally:
            self._quiet = False
        self._knob_picked()

    def _knob_picked(self) -> None:
        """Put the chosen knob's control, at its default, on the board and re-run."""
        if self._quiet:
            return
        name = self.knob_picker.value
        if name:
            knob = self.scenario.knobs[name]
            self.control = control_for(knob, knob.default)
            self.control.observe(lambda _: self.refresh(), names="value")
        else:
            self.control = None
        rows = [self.picker, self.knob_picker]
        rows += [self.control] if self.control is not None else []
        rows += [self.report_picker, self.status, self.progress, self.output]
        self.widget.children = rows
        self.refresh()

    def values(self) -> dict[str, Any]:
        """The one knob set on the board (empty for a scenario without knobs)."""
        if self.control is None:
            return {}
        return {self.knob_picker.value: self.control.value}

    def refresh(self) -> None:
        """Run the chosen setting (or take it from the cache) and show the report."""
        code = self.report_picker.value.split()[0]
        scenario = self.scenario

        def compute() -> str:
            chosen = tuple(sorted(scenario.resolve(self.values()).items()))
            run = _run(scenario.name, chosen, self.seed)
            return build_report(run, code).text

        shown = " ".join(f"--set {k}={scenario.knobs[k].show(v)}" for k, v in self.values().items())
        _show_run(self, compute, f"zvmsim report {scenario.name} {code} {shown}".strip())

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)


def starter_dashboard(
    scenario: str = "pav-mdc", knob: str | None = "mdc", report: str = "FCX108", seed: int = 1
) -> StarterBoard:
    """A first dashboard: pick a scenario, one of its knobs and a report (notebook 00)."""
    return StarterBoard(scenario, knob, report, seed)
