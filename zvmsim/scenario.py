"""Scenario files and their knobs.

A scenario is a TOML file in ``data/scenarios/``: the configuration of one
case study plus ``[knobs.*]`` tables. A knob has a name, a type (``bool``,
``int``, ``float`` or ``choice``), a default, an allowed range and help text,
and says which configuration settings it changes — either ``set = [paths]``
(the knob's value is written there, times ``scale`` if given, or into the
text ``format`` such as ``"RELATIVE {}"``) or
``values.<choice> = {path = value}``.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Any

from .calibration import Calibration, load_calibration
from .config import SystemConfig, build_config
from .errors import ZvmsimError
from .paths import data_dir

__all__ = ["Knob", "Scenario", "load_scenario", "scenario_names"]

_TRUE = {"on", "yes", "true", "1"}
_FALSE = {"off", "no", "false", "0"}


@dataclass(frozen=True)
class Knob:
    """One setting a student may turn."""

    name: str
    kind: str
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def allowed(self) -> str:
        """The allowed values as a short phrase, e.g. ``on/off`` or ``0..15``."""
        if self.kind == "bool":
            return "on/off"
        if self.kind == "choice":
            return "/".join(self.choices)
        return f"{self.minimum:g}..{self.maximum:g}"

    def show(self, value: Any) -> str:
        """A value written the way the command line takes it."""
        if self.kind == "bool":
            return "on" if value else "off"
        return f"{value:g}" if isinstance(value, float) else str(value)

    def parse(self, value: Any) -> Any:
        """Check *value* (a string from the command line, or a Python value)."""
        bad = f"knob '{self.name}' takes {self.allowed()}, not {value!r}"
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ZvmsimError(bad)
        if self.kind == "choice":
            text = str(value).strip().lower()
            if text not in self.choices:
                raise ZvmsimError(bad)
            return text
        if isinstance(value, bool):
            raise ZvmsimError(bad)
        try:
            number = float(value) if self.kind == "float" else _as_int(value)
        except (TypeError, ValueError):
            raise ZvmsimError(bad) from None
        if number != number or not self.minimum <= number <= self.maximum:
            raise ZvmsimError(bad)
        return number


def _as_int(value: Any) -> int:
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(value)
        return int(value)
    return int(str(value).strip())


class Scenario:
    """A loaded scenario file: its description, knobs and base configuration."""

    def __init__(self, name: str, raw: dict[str, Any]) -> None:
        self.name = name
        self._raw = raw
        head = raw.get("scenario", {})
        self.title: str = head.get("title", name)
        self.description: str = " ".join(str(head.get("description", "")).split())
        self.knobs: dict[str, Knob] = {}
        self._targets: dict[str, dict[str, Any]] = {}
        # knob -> (the knob whose value picks its default, {that value: default})
        self.defaults_by: dict[str, tuple[str, dict[str, Any]]] = {}
        for kname, body in raw.get("knobs", {}).items():
            self._add_knob(kname, dict(body))
        for kname, (other, table) in self.defaults_by.items():
            if other not in self.knobs or other == kname:
                raise ZvmsimError(f"scenario {self.name}: knob {kname}: default_by names no knob")
            for value in table.values():
                self.knobs[kname].parse(value)

    def _add_knob(self, name: str, body: dict[str, Any]) -> None:
        kind = body.pop("type")
        choices = tuple(body.pop("choices", ()))
        knob = Knob(
            name=name,
            kind=kind,
            default=body.pop("default"),
            help=" ".join(str(body.pop("help", "")).split()),
            minimum=body.pop("min", None),
            maximum=body.pop("max", None),
            choices=choices,
        )
        if kind not in {"bool", "int", "float", "choice"}:
            raise ZvmsimError(f"scenario {self.name}: knob {name} has unknown type '{kind}'")
        knob.parse(knob.default)
        self.knobs[name] = knob
        self._targets[name] = {
            "set": body.pop("set", []),
            "values": body.pop("values", {}),
            "scale": body.pop("scale", 1),  # e.g. 1024: a knob in GB sets a value in MB
            "format": body.pop("format", None),  # e.g. "RELATIVE {}": a number into a setting
        }
        by = body.pop("default_by", None)  # {knob = "release", values = {"6.2" = 32.0}}
        if by is not None:
            self.defaults_by[name] = (str(by["knob"]), {str(k): v for k, v in by["values"].items()})
        if body:
            raise ZvmsimError(f"scenario {self.name}: knob {name}: unknown key '{sorted(body)[0]}'")

    def resolve(self, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """All knob values: the defaults, overridden (and checked) by *values*."""
        chosen = {k: knob.default for k, knob in self.knobs.items()}
        for key, value in (values or {}).items():
            if key not in self.knobs:
                known = ", ".join(self.knobs) or "none"
                raise ZvmsimError(f"scenario {self.name} has no knob '{key}' (knobs: {known})")
            chosen[key] = self.knobs[key].parse(value)
        for key, (other, table) in self.defaults_by.items():
            if key not in (values or {}) and str(chosen[other]) in table:
                chosen[key] = self.knobs[key].parse(table[str(chosen[other])])
        return chosen

    def settings(self, name: str) -> tuple[str, ...]:
        """The configuration settings knob *name* sets with its value (its ``set``)."""
        return tuple(self._targets[name]["set"])

    def defaults_for(self, name: str, value: Any) -> dict[str, Any]:
        """The knobs whose default follows knob *name*, and their defaults when it is *value*."""
        return {
            key: self.knobs[key].parse(table[str(value)])
            for key, (other, table) in self.defaults_by.items()
            if other == name and str(value) in table
        }

    def config(
        self,
        values: dict[str, Any] | None = None,
        *,
        duration: float | None = None,
        interval: float | None = None,
        calibration: Calibration | None = None,
    ) -> SystemConfig:
        """The validated configuration with knobs applied (*calibration*: the
        constants to build it with, default the files' ones)."""
        chosen = self.resolve(values)
        raw = copy.deepcopy({k: v for k, v in self._raw.items() if k != "knobs"})
        for key, value in chosen.items():
            target = self._targets[key]
            for path in target["set"]:
                scale = target["scale"]
                if target["format"] is not None:  # the value written into a phrase
                    _assign(raw, path, str(target["format"]).format(knob_text(value)))
                    continue
                _assign(raw, path, value * scale if scale != 1 else value)
            for path, fixed in target["values"].get(str(value), {}).items():
                _assign(raw, path, fixed)
        if duration is not None:
            raw["scenario"]["duration"] = duration
        if interval is not None:
            raw["monitor"]["sample_interval"] = interval
        return build_config(raw, calibration or load_calibration())


def knob_text(value: Any) -> str:
    """A knob value as a setting's text: ``200``, ``12.5``, ``on``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _assign(raw: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    node = raw
    for part in parents:
        if not isinstance(node.get(part), dict):
            raise ZvmsimError(f"knob target '{path}' does not exist in the scenario")
        node = node[part]
    node[leaf] = value


def scenario_names() -> list[str]:
    """Names of the scenario files, sorted."""
    return sorted(p.stem for p in (data_dir() / "scenarios").glob("*.toml"))


@cache
def _load_raw(name: str) -> dict[str, Any]:
    path = data_dir() / "scenarios" / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(scenario_names())
        raise ZvmsimError(f"unknown scenario '{name}' (scenarios: {known})")
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ZvmsimError(f"scenario file {path.name} is not valid TOML: {exc}") from None


def load_scenario(name: str) -> Scenario:
    """Load ``data/scenarios/<name>.toml``."""
    return Scenario(name, _load_raw(name))
