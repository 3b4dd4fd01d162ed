"""The memory63 dashboard (headless: set every control, read the text) and the frame-flow view."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from zvmsim.lab import frame_flow, frame_flow_plot, memory63_dashboard  # noqa: E402


@pytest.fixture(scope="module")
def board():
    return memory63_dashboard()


def test_one_control_per_knob(board) -> None:
    assert set(board.controls) == {
        "release", "workload", "central_gb", "xstore_gb", "agelist_pct", "early_writes", "reorder",
        "mondcss", "mondcss_reserved",
    }  # fmt: skip
    assert "AGELLOG" in board.text and not board.error


def test_release_brings_its_storage_and_the_63_reports_go(board) -> None:
    board.controls["release"].value = "6.2"
    assert board.controls["central_gb"].value == 32.0
    assert board.controls["xstore_gb"].value == 16.0
    assert "produced for z/VM 6.3 data only" in board.text
    assert "release=6.2" in board.status.value
    board.controls["release"].value = "6.3"
    assert board.controls["central_gb"].value == 48.0
    assert board.controls["xstore_gb"].value == 0.0
    assert "produced for z/VM 6.3 data only" not in board.text


def _spin(text: str) -> float:
    line = next(ln for ln in text.splitlines() if ln.startswith(">>Mean>> RSA2GLCK"))
    return float(line.split()[5])  # %Spin


def test_62_spins_on_the_available_list_lock(board) -> None:
    assert _spin(board.text) == 0.0  # 6.3 at 48 GB: nothing to scan
    board.controls["release"].value = "6.2"
    assert _spin(board.text) > 1.0  # the demand scan holds RSA2GLCK, others spin
    board.controls["release"].value = "6.3"


def test_agelist_and_early_writes_change_the_age_list_log(board) -> None:
    before = board.text
    board.controls["agelist_pct"].value = 5.0
    assert board.text != before and "5.0" in board.text
    board.controls["early_writes"].value = False
    assert " N " in board.text
    board.controls["agelist_pct"].value = 2.0
    board.controls["early_writes"].value = True


def test_storage_and_workload_controls_take_their_ranges(board) -> None:
    knobs = board.scenario.knobs
    assert board.controls["workload"].options == ("sweet-spot", "apache-paging")
    for name in ("central_gb", "xstore_gb", "agelist_pct"):
        control = board.controls[name]
        assert (control.min, control.max) == (knobs[name].minimum, knobs[name].maximum)


def test_frame_flow_conserves_and_plots(run_data) -> None:
    run = run_data("memory63", workload="sweet-spot", release="6.3")
    places, flows = frame_flow(run)
    frames = run.whole.storage["frames"]
    cp = run.intervals[-1].storage63["cp_frames"]
    # every frame is valid, invalid but resident, on the aging list, free or CP's
    assert (places.sum(axis=1) + cp).iloc[-1] == pytest.approx(frames, rel=0.001)
    assert (flows["revalidated"] <= flows["invalidated"] + flows["aged"] + 1e9).all()
    fig = frame_flow_plot(run)
    assert len(fig.axes) == 2
    old = run_data("memory63", workload="sweet-spot", release="6.2")
    assert frame_flow(old)[0].empty
