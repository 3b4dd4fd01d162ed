"""VSWITCH and channel reports: FCX240 VSWITCH, FCX161 LCHANNEL, FCX215 FCHANNEL."""

from __future__ import annotations

import csv
import io
import math

import pytest
from conftest import network_raw

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.channels import band
from zvmsim.monitor.records import MRIODVSW, MRSYTEPM
from zvmsim.scenario import Scenario

BANDS = ["dist_0_10", "dist_11_20", "dist_21_30", "dist_31_40", "dist_41_50"]
BANDS += ["dist_51_60", "dist_61_70", "dist_71_80", "dist_81_90", "dist_91_100"]


def _guests() -> list[dict]:
    """The linux_network guests of the test scenario: their parameters."""
    return [g["params"] for g in network_raw()["guests"].values() if "params" in g]


def _sent(direction: str) -> tuple[float, float]:
    """(bytes per second, packets per second) the guests move in *direction* (out/in)."""
    mtu = load_calibration().vswitch.mtu_bytes
    nbytes = packets = 0.0
    for p in _guests():
        per_tick = round(p[f"{direction}_kb_per_s"] * 1000.0 * p["tick_s"])
        nbytes += per_tick / p["tick_s"]
        packets += math.ceil(per_tick / mtu) / p["tick_s"]
    return nbytes, packets


def test_fcx240_counts_what_the_guests_sent(network_data) -> None:
    frame = zvmsim.report(network_data, "FCX240").frame
    assert list(frame.columns[:7]) == [
        "addr", "name", "controller", "out_bytes_rate", "out_packets_rate",
        "out_discards_rate", "in_bytes_rate",
    ]  # fmt: skip
    assert frame.iloc[0]["addr"] == ">>System<<"
    row = frame.iloc[1]
    assert (row["addr"], row["name"], row["controller"]) == ("02F2", "VSW1", "DTCVSW2")
    for direction, prefix in (("out", "out"), ("in", "in")):
        nbytes, packets = _sent(direction)
        assert row[f"{prefix}_bytes_rate"] == pytest.approx(nbytes, rel=0.05)
        assert row[f"{prefix}_packets_rate"] == pytest.approx(packets, rel=0.05)
        # packets follow the bytes exactly: one per MTU, rounded up per transfer
        ratio = row[f"{prefix}_packets_rate"] / row[f"{prefix}_bytes_rate"]
        assert ratio == pytest.approx(packets / nbytes, rel=0.05)
        assert row[f"{prefix}_discards_rate"] == 0
    system = frame.iloc[0]
    for key in ("out_bytes_rate", "out_packets_rate", "in_bytes_rate", "in_packets_rate"):
        assert system[key] == pytest.approx(frame.iloc[1:][key].sum())


def test_osa_busy_is_bytes_over_bandwidth_plus_packet_and_signal_cost(network_data) -> None:
    cal = load_calibration().channels["OSD"]
    vsw = zvmsim.report(network_data, "FCX240").frame.iloc[0]
    lch = zvmsim.report(network_data, "FCX161").frame.set_index("chpid")
    nbytes = vsw["out_bytes_rate"] + vsw["in_bytes_rate"]
    packets = vsw["out_packets_rate"] + vsw["in_packets_rate"]
    # every transfer (LINWEB's each 0.1 s, LINDB's each 0.05 s) moves data both ways:
    # a SIGA for its frames out, an interrupt for its frames in
    signals = 2 * (1 / 0.1 + 1 / 0.05)
    expect = 100.0 * (
        nbytes / (cal.data_rate_mb_s * 1e6)
        + packets * cal.packet_us / 1e6
        + signals * cal.signal_us / 1e6
    )
    assert lch.loc["11", "pct_busy"] == pytest.approx(expect, rel=0.02)
    assert lch.loc["11", "chpid_type"] == "OSD" and lch.loc["11", "shared"] == "Yes"
    assert lch.loc["40", "pct_busy"] == 0  # a FICON channel nothing uses
    for _, row in lch.iterrows():
        assert sum(row[b] for b in BANDS) == pytest.approx(100.0)
    assert lch.loc["11", "dist_0_10"] == pytest.approx(100.0)  # a few % busy throughout


def test_fcx215_bytes_match_fcx240(network_data) -> None:
    vsw = zvmsim.report(network_data, "FCX240").frame.iloc[0]
    fch = zvmsim.report(network_data, "FCX215").frame.set_index("chpid")
    assert fch.loc["11", "write_bytes_rate"] == pytest.approx(vsw["out_bytes_rate"])
    assert fch.loc["11", "read_bytes_rate"] == pytest.approx(vsw["in_bytes_rate"])
    lch = zvmsim.report(network_data, "FCX161").frame.set_index("chpid")
    assert fch.loc["11", "pct_work_units"] == pytest.approx(lch.loc["11", "pct_busy"])


def test_guests_pay_cp_time_and_the_controller_works(network_data) -> None:
    cal = load_calibration().vswitch
    users = zvmsim.report(network_data, "FCX112").frame.set_index("userid")
    vsw = zvmsim.report(network_data, "FCX240").frame.iloc[0]
    seconds = 20.0
    packets = (vsw["out_packets_rate"] + vsw["in_packets_rate"]) * seconds
    ctl = users.loc["DTCVSW2"]
    assert ctl["vcpu_s"] == pytest.approx(packets * cal.controller_us_per_packet / 1e6, rel=0.1)
    guests = users.loc[["LINWEB", "LINDB"]]
    cp_s = (guests["tcpu_s"] - guests["vcpu_s"]).sum()
    assert cp_s == pytest.approx(packets * cal.cp_us_per_packet / 1e6, rel=0.1)
    assert "DTCVSW2" in set(zvmsim.report(network_data, "FCX114").frame["userid"])


def test_network_records_round_trip(network_data) -> None:
    back = zvmsim.MonitorData.from_bytes(network_data.to_bytes())
    assert back.records == network_data.records
    kinds = {type(r) for r in network_data.records}
    assert {MRIODVSW, MRSYTEPM} <= kinds
    assert zvmsim.report(back, "FCX240").text == zvmsim.report(network_data, "FCX240").text


def test_ficon_channels_carry_the_dasd_io(run_data) -> None:
    run = run_data("pav-mdc")
    lch = zvmsim.report(run, "FCX161").frame
    assert set(lch["chpid_type"]) == {"FICON"}
    assert (lch["pct_busy"] > 5).all()  # 2000+ I/Os per second over four paths
    for _, row in lch.iterrows():
        assert sum(row[b] for b in BANDS) == pytest.approx(100.0)
    # every byte the volume moved crossed one of its channels
    dev = zvmsim.report(run, "FCX108").frame
    ios = dev[dev["addr"] != ">>All DASD<<"]["io_rate"].sum()
    fch = zvmsim.report(run, "FCX215").frame
    moved = (fch["write_bytes_rate"] + fch["read_bytes_rate"]).sum()
    assert moved / ios == pytest.approx(8 * 4096, rel=0.05)  # COPYFILE's 32 KB I/Os


def test_lchannel_csv_has_contract_columns(capsys) -> None:
    code = main(["report", "pav-mdc", "FCX161", "--format", "csv"])
    out, _ = capsys.readouterr()
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {"chpid", "chpid_type", "shared", "pct_busy"} <= set(rows[0])
    assert {r["chpid"] for r in rows} == {"30", "31", "32", "33"}
    assert all(r["shared"] == "Yes" for r in rows)


def test_busy_bands() -> None:
    assert [band(p) for p in (0, 10.4, 10.6, 20, 21, 55, 90, 91, 100)] == [
        0, 0, 1, 1, 2, 5, 8, 9, 9,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("vswitches", "message"),
    [
        ({"V": {"rdev": "02F2", "controller": "NOBODY", "osa_chpid": "11"}}, "not a guest"),
        ({"V": {"rdev": "02F2", "controller": "LINWEB", "osa_chpid": "11"}}, "vswitch_controller"),
        ({"V": {"rdev": "02F2", "controller": "DTCVSW2", "osa_chpid": "40"}}, "not an OSA"),
        ({"V": {"rdev": "02F2", "controller": "DTCVSW2", "osa_chpid": "99"}}, "unknown CHPID"),
        ({"V": {"rdev": "2F2", "controller": "DTCVSW2", "osa_chpid": "11"}}, "device number"),
        ({"V": {"rdev": "02F2", "controller": "DTCVSW2"}}, "missing 'osa_chpid'"),
    ],
)
def test_bad_vswitch_is_one_line(vswitches: dict, message: str) -> None:
    raw = network_raw(vswitches=vswitches)
    with pytest.raises(ZvmsimError, match=message) as err:
        Scenario("net-test", raw).config()
    assert "\n" not in str(err.value)


def test_unknown_vswitch_in_a_guest_is_one_line() -> None:
    from zvmsim.machine import Machine

    raw = network_raw(vswitches={})
    with pytest.raises(ZvmsimError, match="no VSWITCH 'VSW1'"):
        Machine(Scenario("net-test", raw).config(), seed=1)


def test_network_run_is_deterministic(network_data) -> None:
    from zvmsim.machine import Machine

    again = Machine(Scenario("net-test", network_raw()).config(), seed=1).run()
    assert again.to_bytes() == network_data.to_bytes()
