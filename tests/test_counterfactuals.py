"""Cases nobody measured must behave as a real PAV volume would."""

from __future__ import annotations

import pytest

import zvmsim


def _device(run_data, **knobs):
    return zvmsim.report(run_data("pav-mdc", **knobs), "FCX108").frame.set_index("addr")


def _users(run_data, **knobs):
    frame = zvmsim.report(run_data("pav-mdc", **knobs), "FCX112").frame
    return frame[frame["userid"].str.startswith("SQPERF")].set_index("userid")


def _volume_rate(dev) -> float:
    rows = dev[dev["volser"] == "LDB307"]
    return float(rows["io_rate"].sum() + rows["avoid_rate"].sum())


def test_no_aliases_means_one_exposure_and_the_fix_is_moot(run_data) -> None:
    off = _device(run_data, aliases=0)
    assert list(off.index) == [">>All DASD<<", "E700"]
    assert off.loc["E700", "req_qued"] > 2.0  # four users, one exposure
    assert off.loc["E700", "pct_busy"] > 90
    without = zvmsim.report(run_data("pav-mdc", aliases=0, mdc="on"), "FCX108").text
    fixed = zvmsim.report(run_data("pav-mdc", aliases=0, mdc="on", vm64199="on"), "FCX108").text
    assert without == fixed  # with nothing to fan out to, PAV eligibility changes nothing


def test_more_aliases_than_users_adds_nothing(run_data) -> None:
    three, seven = _device(run_data, aliases=3), _device(run_data, aliases=7)
    assert _volume_rate(seven) == pytest.approx(_volume_rate(three), rel=0.05)
    idle = seven[(seven["type"] == "->E700")].sort_values("io_rate")
    assert (idle["io_rate"].iloc[:3] < 5).all()  # four users keep at most four exposures busy


def test_aliases_only_help_up_to_the_number_of_users(run_data) -> None:
    rates = [_volume_rate(_device(run_data, users=8, aliases=n)) for n in (0, 1, 3, 7)]
    assert rates == sorted(rates)
    assert rates[1] == pytest.approx(2 * rates[0], rel=0.12)
    assert rates[3] == pytest.approx(8 * rates[0], rel=0.15)


def test_one_user_gains_from_mdc_even_without_the_fix(run_data) -> None:
    off = _users(run_data, users=1).loc["SQPERF1", "vio_rate"]
    on = _users(run_data, users=1, mdc="on").loc["SQPERF1", "vio_rate"]
    assert on > off * 1.05  # one user never needed the aliases


def test_eight_users_without_the_fix_queue_behind_one_exposure(run_data) -> None:
    dev = _device(run_data, users=8, mdc="on")
    assert dev.loc["E700", "req_qued"] > 6
    aliases = dev[dev["type"] == "->E700"]
    assert aliases["io_rate"].max() < 25
    fixed = _device(run_data, users=8, mdc="on", vm64199="on")
    assert _volume_rate(fixed) > 3 * _volume_rate(dev)


def test_mdc_with_fix_spreads_io_and_avoids_about_a_fifth(run_data) -> None:
    dev = _device(run_data, mdc="on", vm64199="on")
    exposures = dev[dev["volser"] == "LDB307"]
    share = exposures["io_rate"] / exposures["io_rate"].sum()
    assert share.min() > 0.2
    avoided = dev.loc["E700", "avoid_rate"] / _volume_rate(dev)
    assert 0.1 < avoided < 0.3


def test_volume_rate_drops_with_mdc_on_unless_fixed(run_data) -> None:
    off = _volume_rate(_device(run_data, mdc="off"))
    broken = _volume_rate(_device(run_data, mdc="on"))
    fixed = _volume_rate(_device(run_data, mdc="on", vm64199="on"))
    assert broken < off / 2
    assert fixed == pytest.approx(off, rel=0.15)
