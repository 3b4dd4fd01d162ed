"""MDC and FlashCopy (seed 001): invalidations of whole targets as unexplained system time.

The seed gives the symptom and the mitigation, no figures, so they are tested
as counterfactuals: FlashCopy onto MDC-cached targets brings high system time
that no user is charged for (T/V up, capture ratio down) and slows the other
users; MDC off for the targets takes it away and keeps the cache for them;
MDC off altogether also takes it away but costs the CMS users their cache.
Then the mechanism's accounting (every establish looks up every track of its
target; the system time is what the lookups and frees cost), the laws,
determinism and bad input.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import cli_error

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.lab import mdc_flashcopy_dashboard
from zvmsim.perfkit import RunData, reduce

SCENARIO = "mdc-flashcopy"
SECONDS = 10
TARGET_TRACKS = 5000 * 15  # each target minidisk: 5000 cylinders


@cache
def _run(seed: int, knobs: tuple) -> RunData:
    return reduce(zvmsim.simulate(SCENARIO, dict(knobs), seed=seed, duration=SECONDS))


def run(seed: int = 1, **knobs: object) -> RunData:
    return _run(seed, tuple(sorted(knobs.items())))


def cms_resp(data: RunData) -> float:
    return float(zvmsim.report(data, "TXN").frame.iloc[0]["resp_ms"])


def pct_sys(data: RunData) -> float:
    return float(zvmsim.report(data, "FCX100").frame.iloc[0]["pct_sys"])


def summary(data: RunData) -> dict:
    return zvmsim.report(data, "FCX225").frame.iloc[0].to_dict()


def test_flashcopy_onto_cached_targets_is_unexplained_system_time() -> None:
    """The seed's symptom: very high system time that no user's T/V explains."""
    data = run()
    assert pct_sys(data) > 20  # of 200% for two processors
    total = summary(data)
    assert total["tv_ratio"] > 3 and total["capture_ratio"] < 0.4
    users = zvmsim.report(data, "FCX112").frame
    assert (users.iloc[1:]["tv_ratio"] < 1.2).all()  # every user's own T/V looks normal


def test_mdc_off_for_the_targets_cures_it() -> None:
    """The seed's mitigation: no invalidations, no system time, CMS users fast again."""
    sick, cured = run(), run(mdc_on_targets=False)
    assert pct_sys(cured) < 1
    assert summary(cured)["capture_ratio"] > 0.95
    assert cms_resp(cured) < 0.5 * cms_resp(sick)
    assert zvmsim.report(cured, "FCX138").frame.iloc[0]["inval_rate"] == 0


def test_no_flashcopy_no_problem() -> None:
    quiet = run(flashcopy_rate=0.0)
    assert pct_sys(quiet) < 1
    assert cms_resp(quiet) == pytest.approx(cms_resp(run(mdc_on_targets=False)), rel=0.2)


def test_system_time_grows_with_the_flashcopy_rate() -> None:
    low, high = pct_sys(run(flashcopy_rate=1.0)), pct_sys(run())
    assert high == pytest.approx(2 * low, rel=0.35)


def test_mdc_off_everywhere_also_cures_it_but_the_cms_users_lose_their_cache() -> None:
    none = run(mdc_mb=0.0)
    assert pct_sys(none) < 1
    assert cms_resp(none) > 2 * cms_resp(run(mdc_on_targets=False))
    assert "no minidisk cache" in zvmsim.report(none, "FCX138").text


def test_every_establish_looks_up_every_track_of_its_target() -> None:
    mdc = run().whole.mdc
    assert mdc["inval_calls"] > 0
    assert mdc["inval_units"] == mdc["inval_calls"] * TARGET_TRACKS
    assert mdc["inval_freed"] <= mdc["inval_units"]


def test_system_time_is_what_the_invalidations_cost() -> None:
    """FCX100's system time = lookups and frees at their path lengths + I/O interrupts."""
    data = run()
    whole = data.whole
    path = load_calibration().path_us
    mdc = whole.mdc
    expected_us = (
        mdc["inval_units"] * path["mdc_inval_us_per_track"]
        + mdc["inval_freed"] * 12 * path["mdc_free_us_per_page"]
        + sum(d["ssch"] for d in whole.devices.values()) * path["io_interrupt_system_us"]
    )
    measured_us = pct_sys(data) / 100.0 * whole.seconds * 1e6
    assert measured_us == pytest.approx(expected_us, rel=0.1)


def test_laws_hold_on_the_volumes() -> None:
    frame = zvmsim.report(run(), "FCX108").frame
    for dev in frame.iloc[1:].to_dict("records"):
        assert dev["pct_busy"] == pytest.approx(dev["io_rate"] * dev["serv_ms"] / 10.0, rel=1e-9)
        queued = dev["io_rate"] * (dev["resp_ms"] - dev["serv_ms"]) / 1000.0
        assert dev["req_qued"] == pytest.approx(queued, rel=0.5, abs=0.1)


def test_same_seed_same_reports() -> None:
    again = reduce(zvmsim.simulate(SCENARIO, {}, seed=1, duration=SECONDS))
    codes = ("TXN", "FCX225", "FCX138")
    assert [r.text for r in zvmsim.reports(again, *codes)] == [
        r.text for r in zvmsim.reports(run(), *codes)
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "flashcopy_rate=-1"],
        ["--set", "mdc_on_targets=maybe"],
        ["--set", "mdc_mb=5000"],
        ["--set", "flashcopies=2"],
    ],
)
def test_bad_knob_values_give_one_line(args: list[str], capsys) -> None:
    cli_error(capsys, "report", SCENARIO, "FCX225", *args)


def test_dashboard_turns_the_mitigation() -> None:
    board = mdc_flashcopy_dashboard()
    assert "MDCACHE" in board.text and "SYSSUMLG" in board.text
    before = board.text
    board.controls["mdc_on_targets"].value = False
    assert not board.error and board.text != before
    assert set(board.controls) == {"flashcopy_rate", "mdc_on_targets", "mdc_mb"}
