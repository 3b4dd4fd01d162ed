"""Excessive PR/SM overhead: PR/SM's cost per logical-PU dispatch, CP's scheduler
spin lock held by logical PUs PR/SM may take away, Diag x'44' against Diag x'9C',
FCX265 LOCKLOG.

Counterfactuals: logical PUs matching demand, logical = physical, Diag x'9C'.
"""

from __future__ import annotations

import copy
import random

import pandas as pd
import pytest
from conftest import cli_error

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cli import main
from zvmsim.cp.spinlock import PoolState, SpinLock
from zvmsim.errors import ZvmsimError
from zvmsim.scenario import Scenario, _load_raw, load_scenario

SHORT = 4.0  # seconds: the figures settle within a couple of monitor intervals


def _run(seed: int = 1, **knobs: object):
    return zvmsim.simulate("prsm-overhead", knobs, seed=seed, duration=SHORT)


def _pool_ovhd(run) -> float:
    """PR/SM's overhead on the IFL pool, in % of one IFL (summed over the PUs)."""
    pool = _pool(run)
    return float(pool["pct_ovhd"] * pool["count"])


def _pool(run) -> pd.Series:
    """CECLOG's >>Mean>> row for the IFL pool."""
    frame = zvmsim.report(run, "CECLOG").frame
    return frame[(frame["interval_end"] == ">>Mean>>") & (frame["pu_type"] == "IFL")].iloc[0]


def _own(run, column: str) -> float:
    frame = zvmsim.report(run, "FCX126").frame
    return float(frame[frame["partition"] == "VMPRD1"][column].sum())


def _lock(run) -> dict:
    frame = zvmsim.report(run, "FCX265").frame
    return frame[frame["interval_end"] == ">>Mean>>"].iloc[0].to_dict()


@pytest.fixture(scope="module")
def default_run():
    return _run()


# ---- the spin lock on its own ------------------------------------------------


def _lock_alone(policy: str, state: PoolState, requests: int = 4000) -> SpinLock:
    calls: list[int] = []
    lock = SpinLock(
        "SRMSLOCK",
        policy,
        load_calibration().prsm_costs,
        lambda: state,
        0.0125,
        random.Random(3),
        lambda cpu, n: calls.append(n),
    )
    rnd = random.Random(5)
    t = 0.0
    for _ in range(requests):  # requests from 16 logical PUs, 60 us apart on average
        t += rnd.expovariate(1 / 60e-6)
        lock.take(t, rnd.randrange(16))
    return lock


def test_an_uncontended_pool_never_preempts_a_holder() -> None:
    lock = _lock_alone("diag9c", PoolState(10.0, 2.0, 16.0, 64.0, 20e-6))
    assert lock.preempted == 0 and lock.diag9c == 0
    assert 0 < lock.collisions < lock.requests
    # holder running: the spinner just spins, the whole wait is processor time
    assert lock.spin_s == pytest.approx(lock.wait_s, rel=0.05)


def test_diag44_calls_pr_sm_diag9c_stays_out() -> None:
    state = PoolState(10.0, 2.0, 16.0, 64.0, 20e-6)
    old, new = _lock_alone("diag44", state), _lock_alone("diag9c", state)
    assert old.diag44 > 0 and old.collisions > 0 and old.sense == 0
    assert new.diag44 == 0 and new.sense >= new.collisions


def test_an_oversubscribed_pool_preempts_holders_and_diag9c_cuts_the_wait() -> None:
    state = PoolState(70.0, 6.0, 128.0, 60.0, 20e-6)  # 10 more want a PU than there are
    old, new = _lock_alone("diag44", state), _lock_alone("diag9c", state)
    assert old.preempted > 0 and new.preempted > 0 and new.diag9c > 0
    assert new.wait_s / new.collisions < old.wait_s / old.collisions


# ---- the scenario ------------------------------------------------------------


def test_knobs_have_help_and_bad_values_are_one_line(capsys) -> None:
    scen = load_scenario("prsm-overhead")
    for name in ("logical_pus", "other_logical", "physical_pus", "lock_yield", "demand_ifls"):
        assert scen.knobs[name].help
    for knob, value in (("lock_yield", "diag45"), ("logical_pus", "0"), ("demand_ifls", "-1")):
        cli_error(capsys, "report", "prsm-overhead", "FCX126", "--set", f"{knob}={value}")


def test_impossible_configurations_are_one_line_errors() -> None:
    raw = copy.deepcopy(_load_raw("prsm-overhead"))
    del raw["knobs"]["lock_yield"]
    raw["cp"]["lock_yield"] = "spin"
    with pytest.raises(ZvmsimError, match="lock_yield"):
        Scenario("bad", raw).config()
    raw = copy.deepcopy(_load_raw("prsm-overhead"))
    raw["knobs"]["logical_pus"]["default"] = 65  # more logical IFLs than the CEC has
    with pytest.raises(ZvmsimError):
        Scenario("bad", raw).config()


def test_overhead_and_spin_show_where_perfkit_shows_them(default_run) -> None:
    # PR/SM's time in FCX126, CP's (spin and the lock's hold) in FCX100 %SYS
    assert _pool_ovhd(default_run) > 50
    cpu = zvmsim.report(default_run, "FCX100").frame.iloc[0]
    lock = _lock(default_run)
    assert cpu["pct_sys"] > lock["pct_spin"] > 0
    assert lock["diag44_rate"] > 0 and lock["diag9c_rate"] == 0
    log = zvmsim.report(default_run, "FCX144").frame
    assert (log["pct_sys"] > 0).all()
    assert zvmsim.report(default_run, "FCX225").frame.iloc[0]["pct_busy"] > 0


def test_locklog_obeys_littles_law(default_run) -> None:
    frame = zvmsim.report(default_run, "FCX265").frame
    for _, row in frame.iterrows():
        collisions = row["locks_rate"] * row["pct_coll"] / 100.0
        assert row["waiting"] == pytest.approx(collisions * row["avg_spin_us"] / 1e6, rel=1e-3)


def test_pool_busy_includes_the_overhead_and_stays_within_the_pus(default_run) -> None:
    frame = zvmsim.report(default_run, "FCX126").frame
    pool = _pool(default_run)
    count, busy, ovhd = pool["count"], pool["pct_busy"], pool["pct_ovhd"]
    ifl = frame[frame["pu_type"] == "IFL"]
    assert busy * count == pytest.approx(ifl["pct_busy"].sum(), rel=1e-6)
    assert ovhd * count == pytest.approx(ifl["pct_ovhd"].sum(), rel=1e-6)
    assert busy <= 100.0


def test_more_logical_pus_more_overhead(default_run) -> None:
    few = _run(logical_pus=8)
    assert _own(default_run, "pct_ovhd") > 1.2 * _own(few, "pct_ovhd")
    assert _pool_ovhd(default_run) > _pool_ovhd(few)


def test_just_enough_logical_pus_cut_the_overhead(default_run) -> None:
    right = _run(logical_pus=8, other_logical=8)
    assert _pool_ovhd(right) < 0.5 * _pool_ovhd(default_run)


def test_logical_equal_to_physical_leaves_little_overhead_and_no_preemption() -> None:
    run = _run(physical_pus=56, logical_pus=8, other_logical=8)  # 56 logical on 56
    assert _lock(run)["preempt_rate"] == 0
    assert _pool_ovhd(run) < 40
    # never preempted: its 8 logical IFLs are suspended only while PR/SM dispatches
    # each again after a wait (prsm.toml [redispatch]), a few percent of each at most
    assert _own(run, "pct_susp") < 8 * 3


def test_diag9c_spins_less_than_diag44_and_keeps_a_busy_pool_working() -> None:
    old, new = _run(physical_pus=54), _run(physical_pus=54, lock_yield="diag9c")
    assert _lock(new)["avg_spin_us"] <= _lock(old)["avg_spin_us"]
    assert _lock(new)["diag44_rate"] == 0
    # with Diag x'44' the spinners' yields leave the guests short of processor time
    emu = [zvmsim.report(r, "FCX100").frame.iloc[0]["pct_emu"] for r in (old, new)]
    assert emu[1] >= emu[0]


def test_same_seed_same_reports() -> None:
    texts = [
        "\n".join(zvmsim.report(_run(seed=2), r).text for r in ("FCX126", "FCX265"))
        for _ in range(2)
    ]
    assert texts[0] == texts[1]


# ---- the lab: categories, sweep, dashboard -------------------------------------


def test_cpu_categories_add_up_to_the_reports(default_run) -> None:
    from zvmsim.lab import cpu_categories, cpu_categories_text

    c = cpu_categories(default_run)
    cpu = zvmsim.report(default_run, "FCX100").frame.iloc[0]
    assert c["guests"] + c["cp"] == pytest.approx(cpu["pct_cpu"] / 100, rel=1e-9)
    assert c["prsm_pool"] == pytest.approx(_pool_ovhd(default_run) / 100, rel=1e-9)
    assert 0 < c["prsm"] < c["prsm_pool"]
    assert "PR/SM for all partitions" in cpu_categories_text(default_run)


def test_overhead_sweep_reports_progress_and_plots() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from zvmsim.lab import overhead_sweep, overhead_sweep_plot

    done: list[float] = []
    frame = overhead_sweep([8, 32], duration=2, progress=done.append)
    assert done == [0.5, 1.0] and list(frame["logical_pus"]) == [8, 32]
    assert frame["prsm_pool"].iloc[1] > frame["prsm_pool"].iloc[0]
    assert len(overhead_sweep_plot(frame).get_lines()) == 3


def test_prsm_dashboard_follows_the_knobs() -> None:
    from zvmsim.lab import prsm_dashboard

    board = prsm_dashboard()
    assert board.error == "" and "LOCKLOG" in board.text and "CECLOG" in board.text
    before = board.text
    board.controls["logical_pus"].value = 8
    assert board.error == "" and board.text != before
    board.controls["lock_yield"].value = "diag9c"
    assert board.error == "" and "0 Diag x'44'" in board.text


def test_locklog_from_a_monwrite_file_matches_the_live_run(capsys, tmp_path) -> None:
    path = tmp_path / "prsm.mon"
    assert main(["monwrite", "prsm-overhead", "-o", str(path), "--duration", "2"]) == 0
    capsys.readouterr()
    assert main(["report", "--from", str(path), "LOCKLOG", "FCX126"]) == 0
    from_file = capsys.readouterr().out
    assert main(["report", "prsm-overhead", "LOCKLOG", "FCX126", "--duration", "2"]) == 0
    assert capsys.readouterr().out == from_file and "SRMSLOCK" in from_file
