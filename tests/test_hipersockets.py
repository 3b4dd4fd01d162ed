"""HiperSockets in a CPU-constrained CEC: PR/SM's other pools, the rendezvous wait,
z/OS partitions with CPs and zIIPs, FCX231 HIPSOCK, the CEC view (CECLOG).

Counterfactuals: OSA instead of HiperSockets, more standard CPs, less z/OS load.
"""

from __future__ import annotations

import copy
import random

import pytest

import zvmsim
from zvmsim.calibration import PrsmCosts, load_calibration
from zvmsim.errors import ZvmsimError
from zvmsim.hardware.channels import Chpid
from zvmsim.hardware.hipersockets import HiperSockets
from zvmsim.hardware.pools import OtherPools
from zvmsim.hardware.prsm import PoolShare
from zvmsim.lab import cec_view, cec_view_plot, hipersockets_dashboard
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario, load_scenario


def _txn(run, workload: str = "DBTXN") -> float:
    frame = zvmsim.report(run, "TXN").frame
    row = frame[(frame["workload"] == workload) & (frame["userid"] == ">>All<<")]
    return float(row.iloc[0]["resp_ms"])


# ---- the wait for a physical PU ---------------------------------------------


def _mean_wait(share: PoolShare, n: int, any_of: bool = False, draws: int = 20000) -> float:
    cec = load_scenario("hipersockets").config().cec
    pools = OtherPools(None, cec, PrsmCosts(), 0.0125, random.Random(1))  # type: ignore[arg-type]
    rnd = random.Random(7)
    return sum(pools.wait(share, n, rnd, any_of) for _ in range(draws)) / draws


def test_no_wait_when_the_pool_has_room() -> None:
    assert _mean_wait(PoolShare(0.3, 0.3), 4) == 0.0


def test_the_wait_follows_littles_law_and_grows_with_oversubscription() -> None:
    # a logical PU dispatched 29 % of the time that wants 45 %: (1 - d) s (w - d) / d
    expect = 0.71 * 0.0125 * (0.45 - 0.29) / 0.29
    assert _mean_wait(PoolShare(0.29, 0.45), 4) == pytest.approx(expect, rel=0.05)
    waits = [_mean_wait(PoolShare(0.29, w), 4) for w in (0.35, 0.45, 0.6)]
    assert waits == sorted(waits) and waits[0] > 0


def test_any_logical_pu_is_found_dispatched_far_sooner_than_one_in_particular() -> None:
    share = PoolShare(0.29, 0.45)
    one, any_of = _mean_wait(share, 4), _mean_wait(share, 4, any_of=True)
    assert any_of == pytest.approx(one * 0.71**3 / 4, rel=0.1)  # (1-d)^n / n against (1-d)


def test_a_hipersockets_send_counts_frames_and_bytes() -> None:
    cal = load_calibration()
    hs = HiperSockets(Chpid("F4", "IQD", cal.channels["IQD"]), cal.hipersockets)
    assert hs.mtu == 8 * 1024  # a 16 KB frame less 8 KB
    assert (hs.frames(600), hs.frames(8192), hs.frames(8193)) == (1, 1, 2)


# ---- the case ---------------------------------------------------------------


def test_fcx126_shows_z_os_cps_and_ziips_on_one_partition(run_data) -> None:
    frame = zvmsim.report(run_data("hipersockets"), "FCX126").frame
    yyya = frame[frame["partition"] == "YYYA"]
    # by CPU address, as the seed shows them: CPs 0-3 and 6, zIIPs 4, 5, 22 and 23
    assert list(yyya["pu_type"]) == ["CP"] * 4 + ["ZIIP"] * 2 + ["CP"] + ["ZIIP"] * 2
    assert list(yyya["cpu"]) == [0, 1, 2, 3, 4, 5, 6, 22, 23] and set(yyya["logical"]) == {9}
    cps = frame[frame["pu_type"] == "CP"]
    assert cps["logical"].notna().all() and len(cps) == 14  # 14 logical CPs ...
    # ... sharing 6 physical ones by weight: 600/980 and 190/980 of the pool
    assert yyya[yyya["pu_type"] == "CP"]["pct_busy"].mean() == pytest.approx(73.5, abs=3)
    xxxa = frame[(frame["partition"] == "XXXA") & (frame["pu_type"] == "CP")]
    assert xxxa["pct_busy"].mean() == pytest.approx(29.1, abs=2)
    # %Load: the partition's busy over all 26 physical PUs
    load = frame[frame["partition"] == "YYYA"].iloc[0]["pct_load"]
    assert load == pytest.approx(yyya["pct_busy"].sum() / 26, rel=1e-6)


def test_the_cec_view_shows_the_standard_cps_saturated(run_data) -> None:
    run = run_data("hipersockets")
    view = zvmsim.report(run, "CECLOG").frame
    mean = view[view["interval_end"] == ">>Mean>>"].set_index("pu_type")
    assert mean.loc["CP", "pct_busy"] > 99  # saturated, though no z/OS LPU is over 74 %
    assert mean.loc["IFL", "pct_busy"] < 30 and mean.loc["ZIIP", "pct_busy"] < 95
    assert mean.loc["CP", "logical"] == 14 and mean.loc["CP", "count"] == 6
    # the pool's busy is the partitions' busy added up (FCX126 over the same period)
    lpar = zvmsim.report(run, "FCX126").frame
    for pu_type, row in mean.iterrows():
        busy = lpar[lpar["pu_type"] == pu_type]["pct_busy"].sum()
        assert row["busy_pus"] == pytest.approx(busy / 100, rel=1e-6)
    intervals = view[view["interval_end"] != ">>Mean>>"]
    assert len(intervals) == 4 * len(run.intervals)


def test_hipsock_counts_what_the_guests_sent(run_data) -> None:
    run = run_data("hipersockets")
    frame = zvmsim.report(run, "FCX231").frame
    system, f4 = frame.iloc[0], frame.iloc[1]
    assert (system["chpid"], f4["chpid"], f4["frame_kb"]) == (">>System<<", "F4", 16)
    # every call is a request out and a reply in
    assert f4["out_msgs_rate"] == pytest.approx(f4["in_msgs_rate"])
    txn = zvmsim.report(run, "TXN").frame.set_index(["workload", "userid"])
    calls = 4 * txn.loc[("DBTXN", ">>All<<"), "etr"] + txn.loc[("PING", ">>All<<"), "etr"]
    assert f4["out_msgs_rate"] == pytest.approx(calls, rel=0.05)
    # utilization law on the IQD CHPID: bytes over the copy rate
    lch = zvmsim.report(run, "FCX161").frame.set_index("chpid")
    rate = load_calibration().channels["IQD"].data_rate_mb_s * 1e6
    assert lch.loc["F4", "chpid_type"] == "IQD"
    assert lch.loc["F4", "pct_busy"] == pytest.approx(100 * f4["bytes_rate"] / rate, abs=0.01)


def test_saturated_cps_make_hipersockets_much_slower_than_osa(run_data) -> None:
    hs, osa = run_data("hipersockets"), run_data("hipersockets", transport="osa")
    assert _txn(hs) > 1.8 * _txn(osa)
    assert _txn(hs, "PING") > 5 * _txn(osa, "PING")  # the customer's long pings
    # over OSA nothing goes over the HiperSockets LAN, the VSWITCH carries the calls
    assert zvmsim.report(osa, "FCX231").frame.iloc[0]["msgs_rate"] == 0
    out = zvmsim.report(osa, "FCX240").frame.iloc[0]["out_packets_rate"]
    assert out > zvmsim.report(hs, "FCX240").frame.iloc[0]["out_packets_rate"]
    # z/VM itself is not constrained either way
    for run in (hs, osa):
        frame = zvmsim.report(run, "FCX126").frame
        assert frame[frame["partition"] == "XXX1"]["pct_susp"].max() < 0.5


def test_with_enough_cps_hipersockets_is_the_faster_path_again(run_data) -> None:
    hs = run_data("hipersockets", standard_cps=12)
    osa = run_data("hipersockets", standard_cps=12, transport="osa")
    assert _txn(hs) < _txn(osa)
    assert _txn(hs, "PING") < _txn(osa, "PING")
    assert _txn(hs) < 0.5 * _txn(run_data("hipersockets"))


def test_the_wait_shrinks_as_cps_are_added_or_z_os_wants_less(run_data) -> None:
    resp = [_txn(run_data("hipersockets", standard_cps=n)) for n in (6, 8, 12)]
    assert resp[0] > resp[1] > resp[2]
    assert _txn(run_data("hipersockets", zos_load=0.6)) < 0.5 * resp[0]


def test_bad_configurations_are_one_line_errors() -> None:
    scenario = load_scenario("hipersockets")
    with pytest.raises(ZvmsimError, match="standard_cps"):
        scenario.config({"standard_cps": 4})
    raw = scenario._raw
    bad = copy.deepcopy(raw)
    bad["zos_servers"]["DB2P"]["partition"] = "XXX1"
    with pytest.raises(ZvmsimError, match="not another partition with CPs"):
        Scenario("hipersockets", bad).config()
    bad = copy.deepcopy(raw)
    bad["guests"]["APPS"]["params"]["db_server"] = "NONE"
    with pytest.raises(ZvmsimError, match="no z/OS server"):
        Machine(Scenario("hipersockets", bad).config())


# ---- dashboard and plot -----------------------------------------------------


def test_hipersockets_dashboard_follows_the_knobs() -> None:
    board = hipersockets_dashboard()
    assert board.error == "" and "HIPSOCK" in board.text and "CECLOG" in board.text
    slow = board.text
    board.controls["transport"].value = "osa"
    assert board.error == "" and board.text != slow
    board.controls["standard_cps"].value = 16
    board.controls["zos_load"].value = 0.2
    assert board.error == "" and "CP      16" in board.text
    board.controls["standard_cps"].value = 5
    board.controls["zos_load"].value = 1.5
    assert board.error == ""


def test_the_cec_view_plot_draws_one_line_per_pu_type(run_data) -> None:
    import matplotlib

    matplotlib.use("Agg")
    run = run_data("hipersockets")
    table = cec_view(run)
    assert list(table.columns) == ["CP", "ICF", "IFL", "ZIIP"] and len(table) == len(run.intervals)
    ax = cec_view_plot(run)
    assert len(ax.get_lines()) == 4 + 1  # and the 100 % line


def test_same_seed_same_bytes_other_seed_differs() -> None:
    codes = ("FCX126", "FCX231", "TXN", "CECLOG")

    def texts(seed: int) -> list[str]:
        data = zvmsim.simulate("hipersockets", duration=30, seed=seed)
        return [r.text for r in zvmsim.reports(data, *codes)]

    first = texts(4)
    assert first == texts(4)
    assert first[2] != texts(5)[2]
