"""A health-check dashboard for any scenario: pick one, set its knobs, read the verdicts."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..scenario import scenario_names
from .dashboard import Dashboard

__all__ = ["HealthBoard", "health_dashboard"]


class HealthBoard:
    """A scenario picker above a dashboard that shows the health check of the chosen run."""

    def __init__(self, scenario: str = "fine", reports: tuple[str, ...] = (), seed: int = 1):
        self.reports = list(reports)
        self.seed = seed
        self.picker = widgets.Dropdown(
            options=scenario_names(), value=scenario, description="scenario"
        )
        self.board = self._board(scenario)
        self.widget = widgets.VBox([self.picker, self.board.widget])
        self.picker.observe(self._picked, names="value")

    def _board(self, scenario: str) -> Dashboard:
        return Dashboard(scenario, self.reports, seed=self.seed, extras=("health",))

    def _picked(self, change: dict) -> None:
        self.board = self._board(change["new"])
        self.widget.children = [self.picker, self.board.widget]

    @property
    def text(self) -> str:
        """What the board shows now."""
        return self.board.text

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)


def health_dashboard(scenario: str = "fine", seed: int = 1) -> HealthBoard:
    """The health check as a widget: any scenario, any knob settings."""
    return HealthBoard(scenario, seed=seed)
