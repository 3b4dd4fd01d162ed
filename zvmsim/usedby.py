"""Which scenarios use each fitted calibration constant: measured, not asserted.

Issue 18: a constant fitted on one case alone must be used by at least two
scenarios. :func:`used_by` measures it on brief runs (:data:`BRIEF_S`
simulated seconds, at least one monitor interval) of every scenario variant
(:func:`variants`: each scenario's defaults, each knob set of a target row,
each value of a knob that changes the hardware or the release, each end of
the range of a knob that sets how many paging volumes there are), in two steps:

1. Reads. The variant is built and run with a :class:`Calibration` that notes
   what the simulator looks up in it: a ``path_us`` key, a control-unit or
   channel type (looked up when a device or channel of that type is made),
   a field of PR/SM's costs or of the Linux stack, any other field
   (``read_pages_max``). The files are parsed whole up front: no read.
2. Effect. A constant whose place the variant read is doubled (a whole
   number: one more) in a private copy of ``data/`` (:class:`~zvmsim.
   calibrate.Trial`, which moves ``ties`` with it) and the variant runs again:
   the scenario uses the constant when its monitor records change. A value
   read but never used (a path that does not run) changes nothing.

The noting tables are dict subclasses. A module compiled by
:mod:`zvmsim.native` reads a table's entries past a subclass's ``get`` (mypyc
calls dict's own), so those modules read calibration tables by subscript
(``cp.storage._optional``); the compiled CI run checks that every fitted
constant is still found read.

A constant of a scenario file (a workload parameter) is a candidate for that
scenario only; step 2 decides as for the others.

Why the paging volumes' range ends: CP's allocator (``page_alloc_free``)
passes over a volume only once less than that share of it is free, and a
scenario's defaults give its paging space room to spare. How full the
volumes get is what a student turns with the number of paging volumes:
at the fewest the knob allows, undersized-lpar's sixteen 3390-3s are 81%
full and thrasher's two 3390-9s 77.5% (93% with eight thrashers), past the
77.4% at which the fitted share begins to pass volumes over; at the most
they are nearly empty. Without those variants the measure would find the
rule used by the scenario it is fitted on alone, where a student meets it
in two more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import cache
from typing import Any

from .calibrate import Constant, Registry, Trial, load_registry
from .calibration import Calibration, load_calibration
from .config import SystemConfig
from .errors import ZvmsimError
from .fidelity import knobs_of, load_targets
from .machine import Machine
from .scenario import load_scenario, scenario_names

__all__ = [
    "BRIEF_S",
    "HARDWARE_KNOBS",
    "SPACE_SETTING",
    "place_read",
    "used_by",
    "uses",
    "variants",
]

BRIEF_S = 30.0  # simulated seconds a variant runs (at least one monitor interval)
# knobs whose every value is a variant of its own: they change the hardware or the release
HARDWARE_KNOBS = ("release", "chpid_type", "phase", "transport", "path")
# the setting of a knob whose range ends are variants: how full the paging volumes get
SPACE_SETTING = "paging.volumes"

Read = tuple[str, str]  # ("path_us", key), ("control_units", type), ("channels", type), ...
Variant = tuple[str, tuple[tuple[str, str], ...]]  # (scenario, sorted knobs)
_LOOKUPS = ("path_us", "control_units", "channels")
_MODELS = ("prsm_costs", "linux_stack")  # constants whose every field is noted apart
_OLD = "_52"  # cp.toml's suffix of a constant for z/VM levels before 5.3


class _Lookups(dict):
    """A table of the calibration that notes each key looked up in it.

    Copying it (``{**table}``) looks every key up: a copy may use any of them.
    """

    def __init__(
        self, data: dict, kind: str, log: set[Read], old: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(data)
        self._kind, self._log, self._old = kind, log, old

    def _note(self, key: str) -> None:
        # a key whose value is the release's ``*_52`` one is that constant's read
        self._log.add((self._kind, f"{key}{_OLD}" if key in self._old else key))

    def __getitem__(self, key: str) -> Any:
        self._note(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._note(key)
        return super().get(key, default)

    def __iter__(self):  # makes ``{**table}`` and ``dict(table)`` go through __getitem__
        return super().__iter__()


def _plain(cal: Calibration) -> dict[str, Any]:
    """*cal*'s fields, without noting a read (its tables as plain dicts)."""
    own = vars(cal)
    out = {f.name: own[f.name] for f in dataclasses.fields(Calibration)}
    for name in _LOOKUPS:
        out[name] = {k: v for k, v in out[name].items()}
    return out


class _Recording(Calibration):
    """A :class:`Calibration` that notes the fields and table keys the simulator reads."""

    def __getattribute__(self, name: str) -> Any:
        if name in _FIELDS and name not in _LOOKUPS + _MODELS:
            object.__getattribute__(self, "_log").add(("field", name))
        return object.__getattribute__(self, name)

    def at_level(self, zvm_level: str) -> Calibration:
        """As :meth:`Calibration.at_level`, still noting reads."""
        log = vars(self)["_log"]
        plain = Calibration(**_plain(self))  # (its models still note their reads)
        out = plain.at_level(zvm_level)
        return _recording(out, log, frozenset() if out is plain else frozenset(self.before_53))

    def on_processor(self, cpu_model: str) -> Calibration:
        """As :meth:`Calibration.on_processor`, still noting reads (the scaling reads none)."""
        plain = Calibration(**_plain(self))
        out = plain.on_processor(cpu_model)
        if out is plain:
            return self
        return _recording(out, vars(self)["_log"], vars(self)["path_us"]._old)


_FIELDS = frozenset(f.name for f in dataclasses.fields(Calibration))


def _note_field(self: Any, name: str) -> Any:
    own = object.__getattribute__(self, "__dict__")
    if name in own and not name.startswith("_"):
        own["_log"].add((own["_kind"], name))
    return object.__getattribute__(self, name)


_NOTING: dict[type, type] = {}


def _noting(model: Any, kind: str, log: set[Read]) -> Any:
    """A copy of the frozen dataclass *model* that notes each field read as (kind, field)."""
    cls = type(model).__mro__[1] if type(model) in _NOTING.values() else type(model)
    sub = _NOTING.setdefault(cls, type(cls.__name__, (cls,), {"__getattribute__": _note_field}))
    out = sub(**{f.name: vars(model)[f.name] for f in dataclasses.fields(model)})
    object.__setattr__(out, "_kind", kind)
    object.__setattr__(out, "_log", log)
    return out


def _recording(cal: Calibration, log: set[Read], old: frozenset[str] = frozenset()) -> Calibration:
    """*cal* noting its reads into *log* (*old*: ``path_us`` keys that hold ``*_52`` values)."""
    values = _plain(cal)
    for name in _LOOKUPS:
        values[name] = _Lookups(values[name], name, log, old if name == "path_us" else frozenset())
    for name in _MODELS:
        values[name] = _noting(values[name], name, log)
    out = _Recording(**values)
    object.__setattr__(out, "_log", log)
    return out


def place_read(c: Constant) -> set[Read]:
    """What a run reads when it can use *c* (its place and every tie's)."""
    out: set[Read] = set()
    for table, key in c.places:
        if c.file.startswith("scenarios/"):
            out.add(("scenario", c.file.removeprefix("scenarios/").removesuffix(".toml")))
        elif table.startswith(("control_units.", "channels.")):
            kind, _, name = table.partition(".")
            out.add((kind, name.strip('"')))
        elif c.file == "calibration/cp.toml" and table == "path_lengths":
            out.add(("path_us", key))  # a *_52 key: read as its 5.3 name, before 5.3
        elif c.file == "calibration/prsm.toml":
            out.add(("prsm_costs", key))
        elif table in _MODELS:  # network.toml [linux_stack]
            out.add((table, key))
        else:  # cp.toml [paging] read_pages_max: the field
            name = key if table == "paging" else table
            if name not in _FIELDS:
                raise ZvmsimError(f"{c.name}: no Calibration field reads [{table}] {key}")
            out.add(("field", name))
    return out


def variants() -> list[Variant]:
    """Every scenario's defaults, every knob set of a target row, every value
    of a knob in :data:`HARDWARE_KNOBS`, both ends of the range of a knob that
    sets :data:`SPACE_SETTING`; one of each set of knobs that resolve alike."""
    found: list[Variant] = [(name, ()) for name in scenario_names()]
    for row in load_targets():
        found.append((row["scenario"], tuple(sorted(knobs_of(row["knobs"]).items()))))
    for name in scenario_names():
        scen = load_scenario(name)
        for kname, knob in scen.knobs.items():
            if kname in HARDWARE_KNOBS:
                found.extend((name, ((kname, str(value)),)) for value in knob.choices)
            elif knob.minimum is not None and SPACE_SETTING in scen.settings(kname):
                ends = (knob.minimum, knob.maximum)
                found.extend((name, ((kname, knob.show(end)),)) for end in ends)
    out: dict[tuple, Variant] = {}
    for name, knobs in found:
        resolved = load_scenario(name).resolve(dict(knobs))
        out.setdefault((name, tuple(sorted(resolved.items()))), (name, knobs))
    return list(out.values())


def _config(variant: Variant, calibration: Calibration) -> SystemConfig:
    """The variant's configuration, run for :data:`BRIEF_S` (at least one interval)."""
    name, knobs = variant
    scen = load_scenario(name)
    config = scen.config(dict(knobs), calibration=calibration)
    brief = max(config.monitor.sample_interval, BRIEF_S)
    if brief < config.duration:
        config = scen.config(dict(knobs), duration=brief, calibration=calibration)
    return config


class _Moved(Exception):
    """A run's records left the baseline's."""


def _records(variant: Variant, log: set[Read]) -> list:
    """The variant's records, built with a calibration that notes what is read into *log*."""
    return Machine(_config(variant, _recording(load_calibration(), log)), seed=1).run().records


def _differs(variant: Variant, base: list) -> bool:
    """Whether the variant's records (the files' constants) differ from *base*.

    The run stops at the first monitor interval that differs.
    """
    done = 0

    def compare(records: list) -> None:
        nonlocal done
        if records != base[done : done + len(records)]:
            raise _Moved
        done += len(records)

    try:
        Machine(_config(variant, load_calibration()), seed=1).run(sink=compare)
    except _Moved:
        return True
    return done != len(base)


def _moved(c: Constant, value: float) -> float:
    return value + 1 if c.integer else value * 2


def _used(variant: Variant, base: list, group: list[Constant], trial: Trial) -> list[Constant]:
    """The constants of *group* whose move changes the variant's records.

    They move together first: nothing changes, none is used (one run for
    the lot); else each half is tried again, down to single constants.
    """
    trial.apply({c.name: _moved(c, trial.values[c.name]) for c in group})
    try:
        moved = _differs(variant, base)
    finally:
        trial.apply({})
    if not moved or len(group) == 1:
        return group if moved else []
    half = len(group) // 2
    return _used(variant, base, group[:half], trial) + _used(variant, base, group[half:], trial)


def uses(
    registry: Registry, chosen: Iterable[Variant] | None = None, enough: int | None = None
) -> dict[str, set[Variant]]:
    """{fitted constant: the variants whose records change when it moves}.

    Once a constant is found used by a scenario, the scenario's other
    variants are not tried for it (the first variant found is kept). A
    scenario's first variant, where most candidates are used, tries each
    constant alone; its other variants move them together first. With
    *enough*, a constant found used by that many scenarios is not tried
    again, and a variant is not run once no constant is left to try.
    """
    trial = Trial(registry)
    try:
        trial.apply({})
        out: dict[str, set[Variant]] = {c.name: set() for c in registry.fits}
        tried: set[str] = set()

        def open_for(c: Constant, scenario: str) -> bool:
            """Whether *scenario*'s variants may still find *c* used (a scenario
            file's constant: its own scenario's only, see :func:`place_read`)."""
            found = out[c.name]
            return (
                (enough is None or len(found) < enough)
                and all(v[0] != scenario for v in found)
                and (not c.file.startswith("scenarios/") or ("scenario", scenario) in place_read(c))
            )

        for variant in chosen if chosen is not None else variants():
            if not any(open_for(c, variant[0]) for c in registry.fits):
                continue
            log: set[Read] = {("scenario", variant[0])}
            base = _records(variant, log)
            group = [c for c in registry.fits if place_read(c) & log and open_for(c, variant[0])]
            parts = [group] if variant[0] in tried else [[c] for c in group]
            tried.add(variant[0])
            for c in [c for part in parts if part for c in _used(variant, base, part, trial)]:
                out[c.name].add(variant)
        return out
    finally:
        trial.close()


@cache
def used_by(enough: int | None = None) -> dict[str, frozenset[str]]:
    """{fitted constant of ``fits.toml``: the scenarios that use it} (cached).

    With *enough*, a constant's scenarios are sought only until that many are
    found (tests/test_calibrate.py asks for two: the rule is "at least two").
    """
    found = uses(load_registry(), enough=enough)
    return {name: frozenset(v[0] for v in users) for name, users in found.items()}
