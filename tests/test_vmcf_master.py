"""The master processor and VMCF (seed 004, "Move VMCF off Master").

Counterfactuals the seed did not measure but the real machine would show,
the queueing laws on the VMCFLOG report, the master marker in FCX100, and
the dispatcher's master-only queue on its own.
"""

from __future__ import annotations

import dataclasses

import pytest
import simpy

import zvmsim
from zvmsim.cp.dispatch import Processors
from zvmsim.cp.vmdbk import Vmdbk
from zvmsim.errors import ZvmsimError
from zvmsim.machine import Machine
from zvmsim.scenario import load_scenario


def _mean(run, column: str) -> float:
    frame = zvmsim.report(run, "VMCFLOG").frame
    return float(frame[frame["interval_end"] == ">>Mean>>"].iloc[0][column])


def _messages(run) -> float:
    """VMCF functions and SMSG commands per second."""
    return _mean(run, "vmcf_rate") + _mean(run, "smsg_rate")


def _gain(run_data, **knobs: object) -> float:
    """Messages per second on VM/ESA 2.2.0 over 2.1.0."""
    new = run_data("vmcf-master", release="2.2", **knobs)
    old = run_data("vmcf-master", release="2.1", **knobs)
    return _messages(new) / _messages(old)


def test_the_4way_gain_is_far_beyond_capacity(run_data) -> None:
    """+82% in the seed, where capacity alone (idle alternates) would give 10-15%."""
    old = run_data("vmcf-master", release="2.1")
    capacity = 400.0 / (_mean(old, "pct_master") + 3 * _mean(old, "pct_alt"))
    assert capacity - 1 < 0.2
    assert _gain(run_data) > 1.6
    assert _mean(old, "master_pldv") > 5 * _mean(old, "pldv")  # the queue is the master's


def test_6way_2_1_is_flat_and_2_2_grows(run_data) -> None:
    four = run_data("vmcf-master", release="2.1")
    six = run_data("vmcf-master", release="2.1", processors=6)
    assert _messages(six) == pytest.approx(_messages(four), rel=0.05)
    assert _mean(six, "pct_alt") < 60.0  # more idle alternates, the same master
    four = run_data("vmcf-master", release="2.2")
    six = run_data("vmcf-master", release="2.2", processors=6)
    assert _messages(six) > 1.3 * _messages(four)


def test_2way_without_dominant_vmcf_sees_little_difference(run_data) -> None:
    assert abs(_gain(run_data, processors=2, client_us=5000.0) - 1.0) < 0.08


def test_uniprocessor_has_no_master_to_move_to(run_data) -> None:
    assert _gain(run_data, processors=1) == pytest.approx(1.0, abs=0.05)


def test_smsg_heavy_2_2_loses_the_gain(run_data) -> None:
    assert _gain(run_data, smsg_share=1.0) < 1.1
    run = run_data("vmcf-master", release="2.2", smsg_share=1.0)
    assert _mean(run, "pct_master") > 99.0
    assert _mean(run, "pct_alt") < 50.0


def test_littles_and_utilization_laws(run_data) -> None:
    for release in ("2.1", "2.2"):
        run = run_data("vmcf-master", release=release)
        frame = zvmsim.report(run, "VMCFLOG").frame
        cpu = zvmsim.report(run, "FCX100").frame
        busy = float(cpu[cpu["cpu"] == ">>Total<<"].iloc[0]["pct_cpu"]) / 100.0
        row = frame.iloc[0]
        rate = row["vmcf_rate"] + row["smsg_rate"]
        assert busy == pytest.approx(rate * row["cpu_per_vmcf_ms"] / 1000.0, rel=1e-9)
        if release == "2.1":  # the master-only PLDV: sampled length = arrivals x wait
            little = row["master_rate"] * row["master_wait_ms"] / 1000.0
            assert row["master_pldv"] == pytest.approx(little, rel=0.1)


def test_fcx100_marks_the_master_only_when_the_data_names_it(run_data) -> None:
    run = run_data("vmcf-master")
    frame = zvmsim.report(run, "FCX100").frame
    assert list(frame["role"]) == ["", "Master", "Alternate", "Alternate", "Alternate"]
    assert "Master" in zvmsim.report(run, "PROCLOG").text
    other = zvmsim.report(run_data("fine"), "FCX100")
    assert "role" not in other.frame and "Role" not in other.text
    assert "No VMCF" in zvmsim.report(run_data("fine"), "VMCFLOG").text


def test_same_seed_same_bytes() -> None:
    first = zvmsim.simulate("vmcf-master", {"release": "2.2"}, duration=1, interval=1)
    again = zvmsim.simulate("vmcf-master", {"release": "2.2"}, duration=1, interval=1)
    assert first.to_bytes() == again.to_bytes()


def test_vmcf_needs_path_lengths_for_the_processor() -> None:
    cfg = load_scenario("vmcf-master").config()
    cfg = dataclasses.replace(cfg, system=dataclasses.replace(cfg.system, cpu_model="2094-712"))
    with pytest.raises(ZvmsimError, match="no VMCF path lengths for processor 2094-712"):
        Machine(cfg, seed=1)


@pytest.mark.parametrize(
    "knob, value", [("release", "2.3"), ("processors", 7), ("smsg_share", 1.5), ("pairs", 0)]
)
def test_bad_knob_values_are_refused(knob: str, value: object) -> None:
    with pytest.raises(ZvmsimError, match=f"knob '{knob}' takes"):
        load_scenario("vmcf-master").config({knob: value})


def test_master_only_work_waits_for_the_master_while_alternates_idle() -> None:
    env = simpy.Environment()
    procs = Processors(env, 2)
    users = [Vmdbk(f"U{i}") for i in range(3)]
    ends: list[float] = []

    def work(vm: Vmdbk):
        yield procs.run(vm, 0.0, 0.001, master=True)
        ends.append(env.now)

    for vm in users:
        env.process(work(vm))
    env.run()
    assert ends == pytest.approx([0.001, 0.002, 0.003])  # one at a time, on the master
    assert procs.busy(0) == pytest.approx(0.003) and procs.busy(1) == 0.0
    assert procs.master_runs == 3 and procs.master_wait_s == pytest.approx(0.003)


def test_a_vmdbk_stays_on_the_master_until_it_waits() -> None:
    env = simpy.Environment()
    procs = Processors(env, 2)
    procs.set_switching(switch_us=10.0, refill_us=0.0)
    vm = Vmdbk("U1")
    cpus: list[int] = []

    def work():
        yield procs.run(vm, 0.001, 0.0, handoff=True)  # guest work, then the move
        yield procs.run(vm, 0.0, 0.0001, master=True)  # the function on the master
        yield procs.run(vm, 0.001, 0.0)  # goes on: stays on the master
        cpus.append(vm.burst[3])
        yield env.timeout(0.01)  # waits: a reason to move off
        procs.free_at[0] = env.now + 1.0  # (the master is busy with something else)
        yield procs.run(vm, 0.001, 0.0)
        cpus.append(vm.burst[3])

    env.process(work())
    env.run()
    assert cpus == [0, 1]
    assert procs.moves == 1 and procs.switch_time_s == pytest.approx(1e-5)


def _mean_row(text: str) -> list[str]:
    """The first ``>>Mean>>`` line of a dashboard's text (VMCFLOG's), split."""
    return next(line for line in text.splitlines() if line.startswith(">>Mean>>")).split()


def test_vmcf_master_dashboard_follows_the_knobs() -> None:
    from zvmsim.lab import vmcf_master_dashboard

    board = vmcf_master_dashboard()
    assert list(board.controls) == ["release", "processors", "smsg_share", "pairs", "client_us"]
    assert "VMCFLOG" in board.text and "Master" in board.text and not board.error
    old = float(_mean_row(board.text)[1])  # VMCF/s
    board.controls["release"].value = "2.2"
    new = float(_mean_row(board.text)[1])
    assert new > 1.6 * old
    board.controls["smsg_share"].value = 1.0
    assert float(_mean_row(board.text)[2]) > 0  # SMSG/s
    board.controls["processors"].value = 1
    assert "Alternate" not in board.text and not board.error
    board.controls["pairs"].value = 1
    board.controls["client_us"].value = 25000.0
    assert not board.error


def test_sweep_shows_amdahl_on_the_master() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from zvmsim.lab import vmcf_sweep, vmcf_sweep_plot

    seen: list[float] = []
    frame = vmcf_sweep([3, 5], duration=1.0, progress=seen.append)  # the shortest interval
    assert seen == [0.25, 0.5, 0.75, 1.0]
    rate = frame.set_index(["release", "processors"])["vmcf_rate"]
    assert rate["2.1", 5] == pytest.approx(rate["2.1", 3], rel=0.2)  # held by the master
    assert rate["2.2", 5] > 1.4 * rate["2.2", 3]
    ax = vmcf_sweep_plot(frame)
    assert len(ax.get_lines()) == 3
