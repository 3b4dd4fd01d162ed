"""The emergency-scan case: VDISK swap makes emergency scan supply the frames,
yet the applications run well; minidisk swap makes it fall away, and the
customer's experiment VDISKs bring it back."""

from __future__ import annotations

import math

import pytest

import zvmsim
from zvmsim.lab import duress_checklist

MEAN = ">>Mean>>"


def _demand(run) -> dict:
    frame = zvmsim.report(run, "FCX259").frame
    return frame[frame["interval_end"] == MEAN].iloc[0].to_dict()


def _app(run) -> dict:
    frame = zvmsim.report(run, "TXN").frame
    return frame[(frame["workload"] == "APP") & (frame["userid"] == ">>All<<")].iloc[0].to_dict()


@pytest.mark.parametrize("seed", [1, 2])
def test_vdisk_swap_leaves_the_frames_to_emergency_scan(run_data, seed) -> None:
    run = run_data("emergency-scan", seed)
    demand = _demand(run)
    assert demand["frames_needed"] > 0
    assert demand["pct_emergency"] > 50
    assert demand["pct_pass1"] + demand["pct_pass2"] + demand["pct_emergency"] == pytest.approx(100)
    app = _app(run)
    assert app["etr"] == pytest.approx(16 * 10.0, rel=0.1)  # every request is served
    assert app["resp_ms"] < 10  # and quickly: emergency scan alone is not duress


def test_minidisk_swap_makes_emergency_scan_fall_away(run_data) -> None:
    run = run_data("emergency-scan", linux_swap="minidisk")
    demand = _demand(run)
    assert demand["frames_needed"] == 0 or demand["pct_emergency"] < 10
    assert zvmsim.report(run, "FCX147").frame.empty  # no VDISKs at all
    assert _app(run)["resp_ms"] < 20


def test_the_experiment_vdisks_bring_emergency_scan_back(run_data) -> None:
    run = run_data("emergency-scan", linux_swap="minidisk", experiment_vdisk_gb=4)
    assert _demand(run)["pct_emergency"] > 50
    vdisks = zvmsim.report(run, "FCX147").frame
    assert list(vdisks["owner"]) == ["VDEXP", "VDEXP"]
    assert vdisks["size"].sum() == 4 * 1024 * 256


def test_every_linux_server_has_its_vdisk(run_data) -> None:
    vdisks = zvmsim.report(run_data("emergency-scan"), "FCX147").frame
    assert len(vdisks) == 16 and set(vdisks["size"]) == {288 * 256}
    assert (vdisks["resident"] > 0).all()


def test_the_duress_checklist_finds_nothing_wrong_in_the_customer_system(run_data) -> None:
    checks = duress_checklist(run_data("emergency-scan"))
    assert len(checks) == 13
    verdicts = dict(zip(checks["question"], checks["verdict"], strict=True))
    assert "look closer" not in verdicts.values()
    assert list(verdicts.values()).count("not modelled") == 1  # spin locks
    assert verdicts["Is there plenty of system execution space?"] == "ok"


def test_the_checklist_points_at_the_thrasher(run_data) -> None:
    checks = duress_checklist(run_data("thrasher"))
    flagged = checks[checks["verdict"] == "look closer"]
    assert "Does USTAT show users in page wait?" in set(flagged["question"])
    assert "LIN102" in flagged.iloc[0]["observed"] or "LIN102" in " ".join(flagged["observed"])


def test_no_dasd_paging_while_the_system_is_fine(run_data) -> None:
    frame = zvmsim.report(run_data("emergency-scan"), "FCX143").frame
    mean = frame[frame["interval_end"] == MEAN].iloc[0]
    assert mean["dasd_total"] == 0 and mean["xstore_in"] > 0
    assert not math.isnan(mean["xstore_out"])
