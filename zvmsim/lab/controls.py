"""One ipywidgets control per scenario knob, built from the knob's metadata."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from ..scenario import Knob

__all__ = ["control_for"]

_LAYOUT = {"width": "auto"}
_STYLE = {"description_width": "initial"}


def control_for(knob: Knob, value: Any) -> widgets.ValueWidget:
    """A widget for *knob*, set to *value*; its tooltip is the knob's help."""
    common = {"description": knob.name, "tooltip": knob.help, "style": _STYLE}
    if knob.kind == "bool":
        return widgets.ToggleButtons(
            options=[("off", False), ("on", True)], value=bool(value), **common
        )
    if knob.kind == "choice":
        return widgets.ToggleButtons(options=list(knob.choices), value=value, **common)
    if knob.kind == "int":
        return widgets.IntSlider(
            min=int(knob.minimum),
            max=int(knob.maximum),
            value=int(value),
            continuous_update=False,
            layout=_LAYOUT,
            **common,
        )
    span = float(knob.maximum) - float(knob.minimum)
    return widgets.FloatSlider(
        min=float(knob.minimum),
        max=float(knob.maximum),
        value=float(value),
        step=span / 100 if span > 0 else 1.0,
        continuous_update=False,
        layout=_LAYOUT,
        **common,
    )
