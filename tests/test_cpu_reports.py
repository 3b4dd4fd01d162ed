"""FCX112 USER, FCX144 PROCLOG, FCX162 USERLOG and FCX264 SXSUTIL: their laws."""

from __future__ import annotations

import csv
import io

import pytest

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cli import main
from zvmsim.machine import Machine
from zvmsim.monitor.records import MRSYTSXG, decode
from zvmsim.monitor.stream import MonitorData
from zvmsim.perfkit import reduce
from zvmsim.scenario import Scenario

MEAN = ">>Mean>>"


def test_proclog_rows_per_interval_per_cpu_average_to_fcx100(run_data) -> None:
    run = run_data("fine")
    log = zvmsim.report(run, "FCX144").frame
    cpu = zvmsim.report(run, "FCX100").frame.set_index("cpu")
    cpus = sorted(run.intervals[0].cpus)
    assert len(log) == (len(run.intervals) + 1) * len(cpus)
    assert list(log["interval_end"][: len(cpus)]) == [MEAN] * len(cpus)
    seconds = [iv.seconds for iv in run.intervals]
    for name in cpus:
        rows = log[log["cpu"] == name]
        mean, per_interval = rows.iloc[0], rows.iloc[1:]
        assert len(per_interval) == len(run.intervals)
        for key in ("pct_cpu", "pct_usr", "pct_sys", "pct_emu", "pct_susp"):
            assert mean[key] == pytest.approx(cpu.at[name, key])
            weighted = sum(s * v for s, v in zip(seconds, per_interval[key], strict=True))
            assert weighted / sum(seconds) == pytest.approx(cpu.at[name, key])
        assert (per_interval["pct_usr"] + per_interval["pct_sys"]).to_list() == pytest.approx(
            per_interval["pct_cpu"].to_list()
        )


def test_user_tv_and_pct_cpu_laws(run_data) -> None:
    run = run_data("pav-mdc", mdc="off")
    frame = zvmsim.report(run, "FCX112").frame
    contract = "userid pct_cpu tcpu_s vcpu_s tv_ratio vio_rate vio_dasd vio_avoid"
    assert set(contract.split()) | {"pg_s", "wss", "resident"} <= set(frame.columns)
    seconds = run.whole.seconds
    assert frame.iloc[0]["userid"] == ">System<"
    for row in frame.to_dict("records"):
        assert row["pct_cpu"] == pytest.approx(row["tcpu_s"] / seconds * 100)
        if row["vcpu_s"]:
            assert row["tv_ratio"] == pytest.approx(row["tcpu_s"] / row["vcpu_s"])
    users = frame.iloc[1:]
    assert frame.iloc[0]["tcpu_s"] == pytest.approx(users["tcpu_s"].mean())  # average per user


def test_user_paging_and_storage_agree_with_upage(run_data) -> None:
    run = run_data("thrasher")
    user = zvmsim.report(run, "FCX112").frame.set_index("userid")
    upage = zvmsim.report(run, "FCX113").frame.set_index("userid")
    assert user["pg_s"].max() > 100  # the thrasher faults hundreds of pages a second
    for uid in upage.index:
        page_ins = upage.at[uid, "page_reads"] + upage.at[uid, "x_to_ms"]
        assert user.at[uid, "pg_s"] == pytest.approx(page_ins)
        assert user.at[uid, "wss"] == pytest.approx(upage.at[uid, "wss"])
        assert user.at[uid, "resident"] == pytest.approx(upage.at[uid, "resident"])


def test_userlog_intervals_add_up_to_user(run_data) -> None:
    run = run_data("thrasher")
    log = zvmsim.report(run, "FCX162").frame
    user = zvmsim.report(run, "FCX112").frame.set_index("userid")
    for uid, rows in log.groupby("userid"):
        mean, per_interval = rows.iloc[0], rows.iloc[1:]
        assert mean["interval_end"] == MEAN
        assert len(per_interval) == len(run.intervals)
        assert per_interval["tcpu_s"].sum() == pytest.approx(user.at[uid, "tcpu_s"])
        assert per_interval["vcpu_s"].sum() == pytest.approx(user.at[uid, "vcpu_s"])
        assert mean["tcpu_s"] == pytest.approx(user.at[uid, "tcpu_s"])
        assert mean["pct_cpu"] == pytest.approx(user.at[uid, "pct_cpu"])
        assert mean["tv_ratio"] == pytest.approx(user.at[uid, "tv_ratio"])
        assert mean["vio_rate"] == pytest.approx(user.at[uid, "vio_rate"])
    reads = log[log["interval_end"] == MEAN].set_index("userid")["page_reads"]
    upage = zvmsim.report(run, "FCX113").frame.set_index("userid")["page_reads"]
    assert reads.to_dict() == pytest.approx(upage.drop(">System<").to_dict())


def test_userlog_csv_for_one_user(capsys) -> None:
    code = main(["report", "pav-mdc", "FCX162", "--user", "sqperf1", "--format", "csv"])
    out, _ = capsys.readouterr()
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    needed = "userid interval_end pct_cpu tcpu_s vcpu_s tv_ratio vio_rate page_reads"
    assert set(needed.split()) <= set(rows[0])
    assert {r["userid"] for r in rows} == {"SQPERF1"}
    assert rows[0]["interval_end"] == MEAN and len(rows) == 4  # 30 s in 10 s intervals
    assert float(rows[0]["vio_rate"]) > 400


def test_sxs_used_plus_available_is_total_and_fits_the_seed(run_data) -> None:
    frame = zvmsim.report(run_data("fine"), "FCX264").frame
    parts = ["id_mapped", "cp_fixed", "user_pages", "device_pages", "table_pages", "io_pages"]
    for row in frame.to_dict("records"):
        assert row["total_pages"] == 524287
        assert row["used_pages"] + row["avail_pages"] == row["total_pages"]
        assert sum(row[p] for p in parts) == row["used_pages"]
    assert frame.iloc[0]["interval_end"] == MEAN
    assert frame.iloc[0]["used_pages"] == pytest.approx(10545, rel=0.02)  # seed 000, 22 users


def _raw(users: int) -> dict:
    return {
        "scenario": {"name": "sxs-test", "title": "SXS test", "duration": 20, "warmup": 2},
        "system": {
            "sysid": "TESTVM", "cpu_model": "2094-702", "serial": "00001",
            "zvm_level": "5.3.0", "start": "2008-01-01T00:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 1},
        "processors": {"count": 2, "type": "CP"},
        "storage": {"central_mb": 2048, "low_frames": 100, "high_frames": 300},
        "guests": {
            "LINUX": {
                "userid": "LINUX*", "count": users, "workload": "linux_server",
                "params": {
                    "virtual_mb": 64.0, "used_mb": 64.0, "wss_mb": 32.0,
                    "cold_touch_rate": 0.0, "cpu_ms_per_s": 50.0, "tick_s": 0.05,
                },
            }
        },
    }  # fmt: skip


def _sxs_mean(users: int) -> dict:
    data = Machine(Scenario("sxs-test", _raw(users)).config(), seed=1).run()
    return zvmsim.report(data, "FCX264").frame.iloc[0].to_dict()


def test_sxs_use_grows_with_logged_on_users() -> None:
    few, many = _sxs_mean(4), _sxs_mean(12)
    model = load_calibration().sxs
    assert many["user_pages"] - few["user_pages"] == 8 * model.user_pages
    assert many["table_pages"] > few["table_pages"]  # more guests, more resident storage
    assert many["used_pages"] > few["used_pages"] + 8 * model.user_pages
    assert many["avail_pages"] < few["avail_pages"]


def test_sxs_record_round_trips_and_old_data_gives_no_rows() -> None:
    data = zvmsim.simulate("pav-mdc")
    records = [r for r in data.records if type(r) is MRSYTSXG]
    assert records
    raw = records[-1].to_bytes()
    assert decode(raw)[0] == records[-1]
    without = MonitorData([r for r in data.records if type(r) is not MRSYTSXG])
    frame = zvmsim.report(reduce(without), "FCX264").frame
    assert frame.empty and "used_pages" in frame.columns
