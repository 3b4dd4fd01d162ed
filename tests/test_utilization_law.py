"""The utilization law in every report: nothing is more than 100% busy.

A processor, a logical PU or a device can be busy at most all of the time.
CP's own work (a demand scan, page-outs, spins on a lock) runs on a
processor like any guest's, so it takes capacity from the guests rather than
adding to it. Checked for every scenario at its defaults, with each numeric
knob at its minimum and at its maximum, and with each other value of a
choice or on/off knob (the other knobs at their defaults), in the knob laws'
runs (tests/data/knob_laws.toml's window for the scenario, seed 1): the knob
laws walk the same values, so a run is simulated once for both (conftest's
``run_data``). These runs also walk every knob's advertised range: a value
inside it must run, so a run that fails fails the test (a report whose
monitor domain the knobs turned off is not checked). FCX126's logical PUs
are checked on their %Busy, PR/SM's %Ovhd included (PR/SM's time for a
logical PU falls between its dispatches), FCX108's devices allowing for the
one I/O that was already running when the window opened.
"""

from __future__ import annotations

import math

import pytest
from conftest import law_book

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.scenario import knob_text, load_scenario, scenario_names

ROUNDING = 0.051  # the reports carry one decimal

# the cases that found the law broken: z/VM 6.2's demand scan in little storage
EXTRA = [
    ("memory63", {"release": "6.2", "central_gb": 8}),
    ("memory63", {"release": "6.2", "central_gb": 24}),
]


def _cases() -> list[tuple[str, dict]]:
    cases: list[tuple[str, dict]] = []
    for name in scenario_names():
        cases.append((name, {}))
        for kname, knob in load_scenario(name).knobs.items():
            if knob.kind in ("int", "float"):
                values = [knob.minimum, knob.maximum]
            else:  # every other choice, or the other of on/off
                values = [v for v in knob.choices or (True, False) if v != knob.default]
            cases.extend((name, {kname: value}) for value in values)
    return cases + EXTRA


def _id(case: tuple[str, dict]) -> str:
    name, knobs = case
    return name + "".join(f",{k}={knob_text(v)}" for k, v in knobs.items())


def _at_most_100(values, what: str) -> None:
    for value in values:
        if not math.isnan(value):
            assert value <= 100.0 + ROUNDING, f"{what}: {value:.1f}% busy"


@pytest.mark.parametrize("case", _cases(), ids=_id)
def test_nothing_is_more_than_100_percent_busy(case: tuple[str, dict], run_data) -> None:
    name, knobs = case
    seconds = law_book().durations.get(name)  # None: the scenario's own
    reduced = run_data(name, 1, seconds, **knobs)  # inside the ranges: runs
    try:
        cpu = zvmsim.report(reduced, "FCX100").frame
    except ZvmsimError:  # its domain was not collected
        cpu = None
    if cpu is not None:
        _at_most_100(cpu["pct_cpu"].iloc[1:], "FCX100 %CPU of a processor")
    try:
        lpar = zvmsim.report(reduced, "FCX126").frame
    except ZvmsimError:  # its domain was not collected
        lpar = None
    if lpar is not None:  # dispatched time and PR/SM's time for the logical PU
        _at_most_100(lpar["pct_busy"], "FCX126 %Busy of a logical PU")
        cec = zvmsim.report(reduced, "CECLOG").frame
        for _, pool in cec.iterrows():
            _at_most_100([pool["pct_busy"]], f"CECLOG %Busy of the {pool['pu_type']} pool")
    try:
        dev = zvmsim.report(reduced, "FCX108").frame
    except ZvmsimError:
        return
    # a device's busy time is counted when an I/O ends (%Busy = rate x service
    # time), so an I/O already running when the window opened counts whole: a
    # saturated device may show up to one service time over the window's length
    edge = 100.0 * dev["serv_ms"].fillna(0.0) / 1000.0 / reduced.whole.seconds
    _at_most_100(dev["pct_busy"] - edge, "FCX108 %Busy of a device (less one I/O)")
