"""Storage configured as real vs. expanded (seed 004, with seed 002's 2014 advice).

The seed gives advice, not figures, so it is tested as directions: with
enough CMS users and storage pressure a little XSTORE for paging cuts the
response time against all central storage (the users back from a short idle
find their pages in XSTORE instead of on DASD); XSTORE used only for the
minidisk cache is worse than all central storage; with few users the split
makes no difference. Then the mechanism's books (MDC's storage where the
configuration puts it, every page in one place), the laws on the paging
volumes, determinism, the dashboard and bad input.
"""

from __future__ import annotations

from functools import cache

import pytest
from conftest import cli_error, untimed_queued

import zvmsim
from zvmsim.lab import real_vs_expanded_dashboard, txn_summary
from zvmsim.machine import Machine
from zvmsim.perfkit import RunData, reduce
from zvmsim.scenario import load_scenario

SCENARIO = "real-vs-expanded"
SECONDS = 40


@cache
def _run(seed: int, knobs: tuple) -> RunData:
    return reduce(zvmsim.simulate(SCENARIO, dict(knobs), seed=seed, duration=SECONDS))


def run(seed: int = 1, **knobs: object) -> RunData:
    return _run(seed, tuple(sorted(knobs.items())))


def resp(data: RunData) -> float:
    frame = zvmsim.report(data, "TXN").frame
    return float(frame.loc[frame["userid"] == ">>All<<", "resp_ms"].iloc[0])


def storage(data: RunData) -> dict:
    return zvmsim.report(data, "FCX103").frame.iloc[0].to_dict()


def test_a_little_xstore_for_paging_beats_all_real_with_many_users() -> None:
    """600 users: XSTORE catches the pages of users back from a short idle."""
    real, some = run(), run(xstore_mb=128)
    assert resp(some) < 0.5 * resp(real)
    st_real, st_some = storage(real), storage(some)
    assert st_some["xstore_in"] > 1000  # users coming back find their pages in XSTORE
    assert st_some["dasd_reads"] < 0.6 * st_real["dasd_reads"]


def test_xstore_only_for_mdc_is_worse_than_all_real() -> None:
    """All of XSTORE given to MDC: less central storage, none of it paging's second level."""
    real, for_mdc = run(), run(xstore_mb=128, mdc_home="xstore")
    assert resp(for_mdc) > 1.5 * resp(real)
    st = storage(for_mdc)
    # the 128 MB stay configured XSTORE (FCX103's total) but none of it pages
    assert st["xstore_in"] == 0 and st["xstore_used"] == 0
    assert st["xstore_total"] == 128 * 256
    assert st["mdc_home"] == "XSTORE" and st["mdc_xstore_mb"] > 10
    assert st["mdc_central_mb"] == 0


def test_with_few_users_the_split_makes_no_difference() -> None:
    few = [resp(run(users=200, xstore_mb=x)) for x in (0, 64, 128, 256)]
    assert max(few) == pytest.approx(min(few), rel=0.05)
    assert storage(run(users=200))["dasd_reads"] == 0


def test_more_users_more_pressure() -> None:
    assert resp(run(users=200)) < resp(run(users=400)) < resp(run())


def test_mdc_in_central_gives_frames_back_under_pressure() -> None:
    """The arbiter takes frames from MDC for the demand scan; a higher bias keeps more."""
    st = storage(run())
    assert st["mdc_home"] == "Central" and st["mdc_given_back"] > 0
    assert 0 < st["mdc_central_mb"] < 64
    assert storage(run(mdc_bias=10.0))["mdc_central_mb"] > st["mdc_central_mb"]


def test_counterfactual_no_mdc_frees_central_storage_for_paging() -> None:
    """Without MDC its frames go to the users' working sets: fewer page reads from DASD."""
    with_mdc, without = run(), run(mdc_home="off")
    assert storage(without)["dasd_reads"] < storage(with_mdc)["dasd_reads"]
    assert "no minidisk cache" in zvmsim.report(without, "FCX138").text
    assert "Minidisk cache:" not in zvmsim.report(without, "FCX103").text


def test_every_page_is_in_one_place_and_mdc_frames_are_booked() -> None:
    cfg = load_scenario(SCENARIO).config({"xstore_mb": 64}, duration=20)
    machine = Machine(cfg, seed=3)
    machine.run()
    st = machine.storage
    assert st is not None and machine.mdc_home is not None
    guests = [s for s in st.spaces if s.kind == "guest"]
    for space in guests:
        assert space.resident + space.xstor + space.dasd + space.moving + space.untouched == (
            space.pages
        )
    in_flight = sum(s.moving for s in guests)
    held = sum(s.resident for s in guests) + machine.mdc_home.frames + in_flight + st.cp_frames
    assert held + st.available == st.frames
    assert machine.mdc_home.frames == machine.mdc.cached_pages
    assert sum(s.xstor for s in guests) == st.xstore_used <= st.xstore_pages


def test_laws_hold_on_the_paging_volumes() -> None:
    data = run(xstore_mb=64)
    frame = zvmsim.report(data, "FCX108").frame
    for dev in frame.iloc[1:].to_dict("records"):
        assert dev["pct_busy"] == pytest.approx(dev["io_rate"] * dev["serv_ms"] / 10.0, rel=1e-9)
        queued = dev["io_rate"] * (dev["resp_ms"] - dev["serv_ms"]) / 1000.0
        queued += untimed_queued(data, dev["addr"])  # MDC's own I/Os, queued untimed
        assert dev["req_qued"] == pytest.approx(queued, rel=0.5, abs=0.2)


def test_same_seed_same_reports_other_seed_differs() -> None:
    again = reduce(zvmsim.simulate(SCENARIO, {"xstore_mb": 64}, seed=1, duration=SECONDS))
    codes = ("TXN", "FCX103", "FCX225", "FCX138")
    first = [r.text for r in zvmsim.reports(run(xstore_mb=64), *codes)]
    assert [r.text for r in zvmsim.reports(again, *codes)] == first
    assert zvmsim.report(run(seed=2, xstore_mb=64), "TXN").text != first[0]


def test_mdc_record_round_trips_with_its_home() -> None:
    data = zvmsim.simulate(SCENARIO, {"mdc_home": "xstore", "xstore_mb": 64}, duration=20)
    back = zvmsim.MonitorData.from_bytes(data.to_bytes())
    assert back.records == data.records
    assert reduce(back).mdc_home == "XSTORE"


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "xstore_mb=512"],
        ["--set", "xstore_mb=-1"],
        ["--set", "mdc_home=both"],
        ["--set", "users=5000"],
        ["--set", "mdc_bias=0"],
    ],
)
def test_bad_knob_values_give_one_line(args: list[str], capsys) -> None:
    cli_error(capsys, "report", SCENARIO, "FCX103", *args)


def test_txn_summary_keeps_only_the_all_rows() -> None:
    text = txn_summary(run(users=200))
    assert ">>All<<" in text and "CMS1 " not in text


def test_dashboard_turns_each_knob() -> None:
    board = real_vs_expanded_dashboard()
    assert set(board.controls) == {"xstore_mb", "mdc_home", "users", "mdc_bias"}
    assert "STORAGE" in board.text and "SYSSUMLG" in board.text and ">>All<<" in board.text
    for name, value in (("xstore_mb", 128), ("mdc_home", "xstore"), ("users", 300)):
        before = board.text
        board.controls[name].value = value
        assert not board.error and board.text != before, name
    board.controls["mdc_bias"].value = 5.0
    assert not board.error
