"""PR/SM: pools shared by weight, capped partitions, suspension, CPU conservation."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import lpar_raw

import zvmsim
from zvmsim.hardware.prsm import PartitionConfig, Prsm, share_pool
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario


def test_share_pool_by_weight_and_redistribution() -> None:
    w = {"A": 300, "B": 100}
    assert share_pool(2.0, {"A": 2.0, "B": 2.0}, w, set()) == pytest.approx({"A": 1.5, "B": 0.5})
    # A wants little: B may use what A leaves (uncapped)
    assert share_pool(2.0, {"A": 0.2, "B": 2.0}, w, set()) == pytest.approx({"A": 0.2, "B": 1.8})
    # capped B never exceeds its weight's share of the pool
    assert share_pool(2.0, {"A": 0.2, "B": 2.0}, w, {"B"}) == pytest.approx({"A": 0.2, "B": 0.5})
    assert share_pool(2.0, {"A": 0.0, "B": 0.0}, w, set()) == {"A": 0.0, "B": 0.0}


def _raw(sibling_busy: float, capped: bool = False) -> dict:
    linux = {"cpu_ms_per_s": 450.0, "tick_s": 0.05}
    raw = lpar_raw("cpu-test", "CPU test", "CP", "ZOS1", sibling_busy, 2, 20, linux)
    raw["partitions"]["TESTVM"]["capped"] = capped
    return raw


def _run(sibling_busy: float, capped: bool = False):
    machine = Machine(Scenario("cpu-test", _raw(sibling_busy, capped)).config(), seed=1)
    data = machine.run()
    frame = zvmsim.report(data, "FCX126").frame
    return machine, frame


def test_an_idle_sibling_leaves_us_the_whole_pool() -> None:
    _, frame = _run(0.0)
    own = frame[frame["partition"] == "TESTVM"]
    assert own["pct_busy"].sum() > 110  # more than one engine's worth: the work it wants
    assert own["pct_susp"].max() < 0.5


def test_a_busy_sibling_takes_its_weights_share() -> None:
    machine, frame = _run(1.0)
    own = frame[frame["partition"] == "TESTVM"]
    other = frame[frame["partition"] == "ZOS1"]
    assert own["pct_busy"].sum() == pytest.approx(100, rel=0.1)  # half the CEC, by weight
    assert other["pct_busy"].sum() == pytest.approx(100, rel=0.1)
    assert own["pct_susp"].min() > 20  # ready but not dispatched
    # CPU conservation per logical PU: z/VM busy + suspended + idle = elapsed
    procs, now = machine.processors, machine.env.now
    for cpu in range(procs.count):
        assert procs.busy(cpu) + procs.suspended(cpu) <= now + 1e-6
    # and on the CEC: what the partitions were dispatched fits in the physical PUs
    total = frame["pct_busy"].sum()
    assert total <= 200 * 1.01


def _own_busy(frame) -> float:
    return float(frame[frame["partition"] == "TESTVM"]["pct_busy"].sum())


def test_an_uncapped_partition_uses_what_a_quiet_sibling_leaves() -> None:
    alone, shared = _run(0.0)[1], _run(0.25)[1]
    assert _own_busy(shared) == pytest.approx(_own_busy(alone), rel=0.03)  # 1.5 PUs is enough
    other = shared[shared["partition"] == "ZOS1"]
    assert other["pct_busy"].sum() == pytest.approx(50, rel=0.1)


def test_a_capped_partition_stays_within_its_share() -> None:
    _, frame = _run(0.25, capped=True)
    assert _own_busy(frame) == pytest.approx(100, rel=0.05)  # its weight's share, no more


def test_ceclog_adds_up_the_partitions_pool_the_lpar_report_does_not() -> None:
    """FCX126, like IBM's, gives only the number of physical PUs; CECLOG adds up the pool."""
    sim, frame = _run(1.0)
    cec = zvmsim.report(sim.monitor.data, "CECLOG").frame
    ((_, pu_type, count, logical, busy, busy_pus, ovhd),) = cec[
        cec["interval_end"] == ">>Mean>>"
    ].itertuples(index=False)
    assert (pu_type, count, logical) == ("CP", 2, frame["cpu"].notna().sum())
    assert busy * count == pytest.approx(frame["pct_busy"].sum(), rel=1e-6)
    assert busy_pus == pytest.approx(busy * count / 100, rel=1e-9)
    assert ovhd * count == pytest.approx(frame["pct_ovhd"].sum(), rel=1e-6)
    text = zvmsim.report(sim.monitor.data, "FCX126").text
    assert "Nr. of configured partitions:    2" in text
    assert "Nr. of physical processors  :    2" in text
    assert "%Busy" in text and "Physical PUs by type" not in text


def test_prsm_time_for_a_logical_pu_falls_between_its_dispatches() -> None:
    """A logical PU dispatched a whole interval leaves PR/SM no time for it then:
    its %Busy (dispatched + %Ovhd) stays at 100, where a part-busy one pays its share."""

    class Sampling(Prsm):  # only the sampling: overhead stands in
        def __init__(self) -> None:
            self._sampled = {}

        def overhead(self, part: Any, now: float, busy: list[float] | None = None) -> list[float]:
            return [x * 0.004 for x in busy or []]

    prsm = Sampling()
    part = PartitionConfig("VM1", 1, "IFL", 2, 10)
    busy = {10.0: [5.0, 10.0], 20.0: [10.0, 20.0]}  # PU 0 half busy, PU 1 saturated
    assert prsm.sampled_overhead(part, 10.0, busy[10.0]) == pytest.approx([0.02, 0.0])
    assert prsm.sampled_overhead(part, 20.0, busy[20.0]) == pytest.approx([0.04, 0.0])
    again = prsm.sampled_overhead(part, 20.0, busy[20.0])
    assert again == pytest.approx([0.04, 0.0])  # a second look at the same moment adds nothing
