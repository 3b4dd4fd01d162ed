"""PR/SM dispatch by dispatch: the others in z/VM's pool hold physical PUs now and then
(zvmsim.hardware.occupancy), and PR/SM's time per dispatch (%Ovhd)."""

from __future__ import annotations

import random

import pytest
from conftest import lpar_raw

import zvmsim
from zvmsim.hardware.occupancy import Occupancy
from zvmsim.hardware.prsm import dispatch_rate
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario


def _held_share(occ: Occupancy, until: float) -> float:
    occ.held(until)
    held = 0.0
    times, counts = occ.times, occ.counts
    for i, t in enumerate(times):
        end = times[i + 1] if i + 1 < len(times) else until
        if t < until:
            held += counts[i] * (min(end, until) - t)
    return held / until


def test_the_others_hold_physical_pus_their_share_of_the_time() -> None:
    occ = Occupancy(2, [("VMLNX3", 2, 0.05)], 0.002, random.Random(3))
    assert _held_share(occ, 200.0) == pytest.approx(0.10, rel=0.05)  # 2 logical PUs x 5%
    assert occ.held_s("VMLNX3", 200.0) == pytest.approx([10.0, 10.0], rel=0.05)
    assert min(occ.counts) == 0 and max(occ.counts) == 2


def test_a_burst_waits_while_every_physical_pu_is_held() -> None:
    occ = Occupancy(2, [("OTHER", 1, 0.5)], 0.002, random.Random(1))
    # find a moment the other holds its physical PU, and put our other logical PU on the other
    held, nxt = 0, 0.0
    t = 1.0
    while not held:
        held, nxt = occ.held(t)
        t = nxt if not held else t
    segs = occ.place(t, 0.001, [(t - 1.0, t + 1.0)])
    assert segs[0] == (t, nxt, 0.0)  # suspended until the other lets go
    ran = sum(e - s for s, e, speed in segs if speed == 1.0)
    assert ran == pytest.approx(0.001)
    # with a physical PU to spare (z/VM's other logical PU idle), it runs at once
    assert occ.place(t, 0.001, []) == [(t, t + 0.001, 1.0)]


def test_a_dispatch_per_busy_period_and_per_dispatch_interval_pr_sm_ends() -> None:
    # a logical PU in a pool with room: one dispatch per busy period of its own
    assert dispatch_rate(0.3, 0.3, 0.002, 0.0125) == pytest.approx(0.3 * 0.7 / 0.002)
    # one wanting more than it gets is also cut off every dispatch interval
    assert dispatch_rate(0.3, 0.45, 0.002, 0.0125) == pytest.approx(
        0.3 * 0.55 / 0.002 + 0.3 / 0.0125
    )
    # a busy one waits seldom: fewer dispatches, less PR/SM time than a less busy one
    assert dispatch_rate(0.7, 0.95, 0.002, 0.0125) < dispatch_rate(0.3, 0.45, 0.002, 0.0125)


def _raw(sibling_busy: float, physical: int, occupancy: bool = True) -> dict:
    linux = {"cpu_ms_per_s": 200.0, "tick_s": 0.01}
    raw = lpar_raw(
        "occ-test", "Occupancy test", "IFL", "SIBLING", sibling_busy, physical, 30, linux
    )
    raw["cec"]["occupancy"] = occupancy
    return raw


def _lpar(sibling_busy: float, physical: int = 2, occupancy: bool = True):
    config = Scenario("occ-test", _raw(sibling_busy, physical, occupancy)).config()
    machine = Machine(config, seed=1)
    frame = zvmsim.report(machine.run(), "FCX126").frame
    return machine, frame


def _susp(frame) -> float:
    return float(frame[frame["partition"] == "TESTVM"]["pct_susp"].mean())


def test_a_sibling_holding_physical_pus_suspends_us() -> None:
    quiet, busy = _susp(_lpar(0.0)[1]), _susp(_lpar(0.05)[1])
    assert busy > quiet + 0.3  # ready, but the sibling held a physical PU we needed
    # a physical PU for every logical one of ours: the sibling never stands in our way
    assert _susp(_lpar(0.05, physical=4)[1]) == pytest.approx(quiet, abs=0.1)
    # without occupancy PR/SM's tick sees a pool with room, and no more suspension
    assert _susp(_lpar(0.05, occupancy=False)[1]) == pytest.approx(quiet, abs=0.1)


def test_the_siblings_busy_is_the_time_it_held_physical_pus() -> None:
    machine, frame = _lpar(0.05)
    other = frame[frame["partition"] == "SIBLING"]
    assert other["pct_busy"].mean() == pytest.approx(5.0, rel=0.2)
    procs, now = machine.processors, machine.env.now
    for cpu in range(procs.count):  # busy + suspended fit in the time elapsed
        assert procs.busy(cpu) + procs.suspended(cpu) <= now + 1e-6
    assert frame["pct_busy"].sum() <= 200 * 1.01  # the pool's two physical PUs


def test_a_sibling_wanting_everything_gets_its_weights_share() -> None:
    _, frame = _lpar(1.0)
    other = frame[frame["partition"] == "SIBLING"]
    assert other["pct_busy"].sum() == pytest.approx(100, rel=0.1)  # weight 100 of 200
    assert frame["pct_busy"].sum() <= 200 * 1.01
