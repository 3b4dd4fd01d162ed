"""The reorder case (seed 001): counterfactuals, the mitigations, and REORDMON's laws."""

from __future__ import annotations

import copy

import pytest

import zvmsim
from zvmsim.perfkit import reduce
from zvmsim.scenario import Scenario, _load_raw

SHORT = {"duration": 60, "interval": 10}
BIG = ("LXBIG1", "LXBIG2")


def _short(seed: int = 1, **knobs: object):
    return reduce(zvmsim.simulate("reorder", knobs, seed=seed, **SHORT))


def _reordmon(run) -> dict:
    return zvmsim.report(run, "REORDMON").frame.set_index("userid").to_dict("index")


def _cfw(run) -> dict[str, float]:
    frame = zvmsim.report(run, "FCX114").frame.set_index("userid")
    return frame["pct_cfw"].to_dict()


def _resp(run, workload: str = "BIGAPP") -> float:
    frame = zvmsim.report(run, "TXN").frame
    return float(
        frame[(frame["workload"] == workload) & (frame["userid"] == ">>All<<")]["resp_ms"].iloc[0]
    )


def test_set_reorder_off_for_the_big_guests_removes_their_cfw(run_data) -> None:
    on = run_data("reorder")
    off = _short(set_reorder="off-big")
    mon_on, mon_off = _reordmon(on), _reordmon(off)
    for user in BIG:
        assert mon_on[user]["reorder"] == "ON" and mon_on[user]["reorders"] >= 5
        assert _cfw(on)[user] > 8.0  # stopped for a second every few seconds
        assert mon_off[user]["reorder"] == "OFF" and mon_off[user]["reorders"] == 0
        assert _cfw(off)[user] == 0.0
    # the small guests are still reordered (SET REORDER OFF was for the big ones only)
    assert sum(mon_off[u]["reorders"] for u in mon_off if u.startswith("LXSML")) > 0
    # the requests no longer queue behind the stops
    assert _resp(off) < _resp(on) / 3


def test_set_reorder_off_system_wide_stops_every_reorder() -> None:
    run = _short(set_reorder="off")
    mon = _reordmon(run)
    assert all(row["reorder"] == "OFF" and row["reorders"] == 0 for row in mon.values())
    assert max(_cfw(run).values()) == 0.0


def test_cfw_and_reorder_time_grow_with_the_guests_size(run_data) -> None:
    small, big = _short(guest_gb=4), _short(guest_gb=10)
    mon_small, mon_big = _reordmon(small), _reordmon(big)
    for user in BIG:
        assert _cfw(big)[user] > 1.5 * _cfw(small)[user]
        ratio = mon_big[user]["avg_ms"] / mon_small[user]["avg_ms"]
        assert 2.5 * 0.7 < ratio < 2.5 * 1.3  # in proportion to the GB resident
        assert mon_big[user]["resident_gb"] == pytest.approx(10.0, abs=0.01)
    assert _resp(big) > _resp(small)


def test_z_vm_63_has_no_reorder_and_says_so_in_reordmon() -> None:
    run = _short(release="6.3")
    text = zvmsim.report(run, "REORDMON").text
    assert "z/VM 6.3 has no page reorder" in text
    assert max(_cfw(run).values()) == 0.0


def test_reordmon_times_add_up(run_data) -> None:
    """Time stopped = reorders x mean time; the log adds up to the whole run."""
    run = run_data("reorder")
    for row in _reordmon(run).values():
        if not row["reorders"]:
            continue
        stopped = row["per_min"] / 60.0 * row["avg_ms"] / 1000.0 * 100.0
        assert row["pct_stopped"] == pytest.approx(stopped, rel=1e-9)
        assert row["ms_per_gb_resident"] == pytest.approx(row["avg_ms"] / row["resident_gb"])
    log = zvmsim.report(run, "REORDLOG", user="LXBIG1").frame
    mean, rows = log.iloc[0], log.iloc[1:]
    assert mean["interval_end"] == ">>Mean>>"
    assert rows["reorders"].sum() == _reordmon(run)["LXBIG1"]["reorders"]


def test_same_seed_same_bytes() -> None:
    knobs = {"guest_gb": 6.0}
    first = zvmsim.simulate("reorder", knobs, duration=20, interval=10).to_bytes()
    again = zvmsim.simulate("reorder", knobs, duration=20, interval=10).to_bytes()
    assert first == again


def test_bad_knob_values_and_settings_are_one_line_errors() -> None:
    with pytest.raises(zvmsim.ZvmsimError, match="knob 'set_reorder' takes on/off-big/off"):
        zvmsim.simulate("reorder", {"set_reorder": "sometimes"})
    with pytest.raises(zvmsim.ZvmsimError, match="knob 'guest_gb' takes 1..12"):
        zvmsim.simulate("reorder", {"guest_gb": 64})
    raw = copy.deepcopy(_load_raw("reorder"))
    raw["guests"]["SMALL"]["reorder"] = "no"
    with pytest.raises(zvmsim.ZvmsimError, match="reorder"):
        Scenario("reorder", raw).config({})


def test_a_squeezed_small_guests_requests_wait_for_its_page_faults() -> None:
    # with reorder off nothing stops the small guests: what more large guests cost
    # them is the squeeze, their requests' touches of pages CP took (issue 18)
    roomy = _short(set_reorder="off", large_guests=1)
    squeezed = _short(set_reorder="off", large_guests=3)
    assert _resp(squeezed, "SMALLAPP") > _resp(roomy, "SMALLAPP") + 3.0

    def page_reads(run) -> float:
        frame = zvmsim.report(run, "FCX113").frame.set_index("userid")
        small = [u for u in frame.index if u.startswith("LXSML")]
        return float(frame.loc[small, "page_reads"].sum())

    assert page_reads(squeezed) > 2 * page_reads(roomy)  # the squeeze: their page faults


def test_a_request_share_of_the_cold_touches_outside_0_to_1_is_refused() -> None:
    from zvmsim.machine import Machine

    raw = copy.deepcopy(_load_raw("reorder"))
    raw["guests"]["SMALL"]["params"]["txn_cold_share"] = 1.5
    with pytest.raises(zvmsim.ZvmsimError, match="txn_cold_share"):
        Machine(Scenario("reorder", raw).config({}), 1)


# ---- dashboard and plot -----------------------------------------------------


def test_reorder_dashboard_follows_the_knobs() -> None:
    from zvmsim.lab import reorder_dashboard

    board = reorder_dashboard()
    assert board.error == "" and "REORDMON" in board.text and "BIGAPP" in board.text
    stopped = board.text
    board.controls["set_reorder"].value = "off-big"
    assert board.error == "" and board.text != stopped
    assert "LXBIG1     OFF     0" in board.text
    for name, value in (("guest_gb", 12.0), ("large_guests", 3), ("txn_rate", 60.0)):
        board.controls[name].value = value
        assert board.error == "", name
    board.controls["release"].value = "6.3"
    assert board.error == "" and "z/VM 6.3 has no page reorder" in board.text


def test_resident_against_cfw_puts_the_big_guests_apart(run_data) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from zvmsim.lab import resident_vs_cfw, resident_vs_cfw_plot

    run = run_data("reorder")
    table = resident_vs_cfw(run).set_index("userid")
    assert set(BIG) <= set(table.index) and "TCPIP" not in table.index
    small = table.drop(list(BIG))
    for user in BIG:
        assert table.loc[user, "resident_gb"] == pytest.approx(8.0, abs=0.01)
        assert table.loc[user, "pct_cfw"] > small["pct_cfw"].max()
    ax = resident_vs_cfw_plot(run)
    assert len(ax.collections[0].get_offsets()) == len(table)
