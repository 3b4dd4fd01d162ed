"""The healthy system: every basic thing to check is fine, and the reports agree."""

from __future__ import annotations

import copy

import pytest

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.lab import health_check, health_dashboard
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario, load_scenario

MEAN = ">>Mean>>"


@pytest.fixture(scope="module")
def fine(run_data):
    return run_data("fine")


def test_the_health_check_finds_nothing_wrong(fine) -> None:
    checks = health_check(fine)
    assert set(checks["topic"]) == {"CPU", "Storage", "CP", "Paging", "I/O", "Network"}
    assert "look closer" not in set(checks["verdict"])
    assert (checks["verdict"] == "not modelled").sum() <= 1  # only SXS


def test_cpu_time_adds_up_on_every_processor(fine) -> None:
    cpu = zvmsim.report(fine, "FCX100").frame
    rows = cpu[cpu["cpu"] != ">>Total<<"]
    for r in rows.itertuples():
        assert r.pct_cpu + r.pct_wt + r.pct_susp == pytest.approx(100, abs=0.01)
        assert r.pct_usr + r.pct_sys == pytest.approx(r.pct_cpu, abs=0.01)
        assert r.pct_emu <= r.pct_usr
    total = cpu[cpu["cpu"] == ">>Total<<"].iloc[0]
    sysum = zvmsim.report(fine, "FCX225").frame
    busy = sysum[sysum["interval_end"] == MEAN].iloc[0]["pct_busy"]
    assert total["pct_cpu"] == pytest.approx(2 * busy, rel=1e-6)


def test_lpar_report_shows_both_partitions(fine) -> None:
    lpar = zvmsim.report(fine, "FCX126")
    assert set(lpar.frame["partition"]) == {"LMRHA", "LMRPROD"}
    own = lpar.frame[lpar.frame["partition"] == "LMRPROD"]
    # suspended only while PR/SM dispatches a logical CP again after each wait (the
    # seed's .2): no other partition ever takes a physical CP from it
    assert len(own) == 2 and own["pct_susp"].between(0.05, 0.35).all()
    assert (own["pct_busy"] >= own["pct_vmld"]).all()  # PR/SM overhead on top
    assert "LMRHA" in lpar.text


def test_sysconf_describes_the_machine(fine) -> None:
    conf = zvmsim.report(fine, "FCX180")
    row = conf.frame.iloc[0]
    assert row["cpu_model"] == "2086-A04" and row["pus_cp"] == 2 and row["logical_cpus"] == 2
    assert row["central_mb"] == 12288
    assert "Physical CPs configured" in conf.text


def test_the_vswitch_carries_the_applications_traffic(fine) -> None:
    vsw = zvmsim.report(fine, "FCX240").frame
    txn = zvmsim.report(fine, "TXN").frame
    apps = txn[txn["userid"] == ">>All<<"].set_index("workload")["etr"]
    per_txn_kb = {"DB2": 1.0, "WAS": 8.0, "DOMINO": 5.0}
    sent = sum(apps[w] * kb * 1024 for w, kb in per_txn_kb.items())
    assert vsw.iloc[0]["out_bytes_rate"] == pytest.approx(sent, rel=0.05)


def test_the_health_board_points_at_any_scenario() -> None:
    board = health_dashboard()
    assert "Health check" in board.text and not board.board.controls
    board.picker.value = "thrasher"
    assert list(board.board.controls) == ["thrashers", "paging_volumes", "hfs_interval"]
    assert "look closer" in board.text  # LIN102 in page wait


def test_the_health_check_builds_each_report_once_as_report_would(fine, monkeypatch) -> None:
    from zvmsim.perfkit import find_report
    from zvmsim.perfkit.report import ReportSpec

    built: list[str] = []
    frame = ReportSpec.frame

    def counted(self, run, **kw):
        built.append(self.fcx)
        return frame(self, run, **kw)

    monkeypatch.setattr(ReportSpec, "frame", counted)
    health_check(fine)
    assert sorted(built) == sorted(set(built))  # FCX225 and FCX109 are read by several checks
    assert {"FCX225", "FCX109", "FCX126"} <= set(built)
    for code in ("FCX109", "FCX126", "FCX225"):
        assert zvmsim.report(fine, code).frame.equals(find_report(code).frame(fine))


def _fine_with(**params) -> zvmsim.MonitorData:
    """Fine for 60 s with LMRWASP's parameters changed."""
    raw = copy.deepcopy(load_scenario("fine")._raw)
    raw["guests"]["LMRWASP"]["params"].update(params)
    return Machine(Scenario("fine", raw).config(duration=60), seed=1).run()


def test_an_application_spreads_its_io_as_its_disks_rates_say() -> None:
    run = _fine_with(disk_rates="1,0", read_shares="0,1", disk_blocks="6,4")
    frame = zvmsim.report(run, "FCX108").frame.set_index("addr")
    assert frame.loc["0E22", "io_rate"] > 1.0 and frame.loc["0E22", "pct_read"] == 0
    assert frame.loc["0E23", "io_rate"] == 0  # no I/O goes to LPLQM2


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"disk_rates": "1"}, "disk_rates needs one figure per disk"),
        ({"read_shares": "0.5,1.5"}, "read_shares needs one figure per disk .* 0 to 1"),
        ({"disk_blocks": "0,4"}, "disk_blocks needs one figure per disk"),
        ({"disk_rates": "1,x"}, "disk_rates must be numbers"),
    ],
)
def test_per_disk_figures_are_checked(params, message) -> None:
    with pytest.raises(ZvmsimError, match=message):
        _fine_with(**params)
