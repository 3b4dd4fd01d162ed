"""Storage, configuration and monitor-settings reports on the thrasher scenario."""

from __future__ import annotations

import csv
import io

import pandas as pd
import pytest

import zvmsim
from zvmsim.cli import main
from zvmsim.perfkit import RunData, reduce
from zvmsim.perfkit.reduce import merge
from zvmsim.perfkit.report import MEAN

DURATION = 20


@pytest.fixture(scope="module")
def thrasher() -> RunData:
    return reduce(zvmsim.simulate("thrasher", duration=DURATION))


@pytest.fixture(scope="module")
def no_storage() -> RunData:
    return reduce(zvmsim.simulate("pav-mdc", duration=DURATION))


def _by_time(frame: pd.DataFrame, run: RunData) -> None:
    """One >>Mean>> row first, then one row per monitor interval."""
    assert list(frame["interval_end"]) == [MEAN] + [
        iv.end.strftime("%H:%M:%S") for iv in run.intervals
    ]


def test_storage_summary(thrasher) -> None:
    row = zvmsim.report(thrasher, "FCX103").frame.iloc[0]
    assert 0 <= row["frames_available"] <= row["frames_total"]
    assert row["frames_in_use"] == pytest.approx(row["frames_total"] - row["frames_available"])
    assert row["central_mb"] == 3072
    assert row["xstore_used"] <= row["xstore_total"]
    assert row["slots_used"] <= row["slots_total"]
    assert row["low_threshold"] < row["high_threshold"]
    taken = row["pass1_frames"] + row["pass2_frames"] + row["emergency_frames"]
    assert row["frames_taken"] == pytest.approx(taken)
    assert row["scans"] > 0 and row["frames_needed"] > 0
    text = zvmsim.report(thrasher, "STORAGE").text
    assert "General Storage Utilization" in text and "Page slots in use" in text


def test_auxlog_used_within_total(thrasher) -> None:
    frame = zvmsim.report(thrasher, "FCX146").frame
    _by_time(frame, thrasher)
    assert (frame["slots_used"] <= frame["slots_total"]).all()
    assert (frame["slots_total"] > 0).all()
    pct = 100.0 * frame["slots_used"] / frame["slots_total"]
    assert frame["pct_slots_used"].to_numpy() == pytest.approx(pct.to_numpy())
    assert (frame["xstore_used"] <= frame["xstore_total"]).all()
    assert ((frame["pct_xstore_used"] >= 0) & (frame["pct_xstore_used"] <= 100)).all()


def test_vdisks_empty_with_columns(thrasher) -> None:
    frame = zvmsim.report(thrasher, "VDISKS").frame
    columns = "owner name size resident xstor dasd page_reads page_writes steals".split()
    assert list(frame.columns) == columns
    assert frame.empty
    assert thrasher.spaces and all(rec.kind == "GUEST" for rec in thrasher.spaces.values())


def test_monset_shows_the_profile(thrasher) -> None:
    row = zvmsim.report(thrasher, "FCX149").frame.iloc[0]
    assert row["sample_interval_s"] == 10
    assert row["hfs_interval_s"] == 2
    assert "STORAGE" in row["sample_domains"].split()
    assert row["event_domains"] == "SCHEDULER"
    text = zvmsim.report(thrasher, "MONSET").text
    assert "High-frequency sampling rate" in text and "2.00 sec" in text


def test_uconf_lists_every_user(thrasher) -> None:
    frame = zvmsim.report(thrasher, "FCX226").frame
    assert len(frame) == 30 and frame["userid"].is_unique
    lin = frame.set_index("userid").loc["LIN102"]
    assert lin["storage_mb"] == 768 and lin["virtual_cpus"] == 1
    assert lin["reserved"] == 0 and lin["share_relative"] == 100
    assert not lin["quickdsp"] and not lin["nomdcfs"]
    one = zvmsim.report(thrasher, "UCONF", user="lin102").frame
    assert list(one["userid"]) == ["LIN102"]


def test_availlog(thrasher) -> None:
    frame = zvmsim.report(thrasher, "FCX254").frame
    _by_time(frame, thrasher)
    assert (frame["frames_available"] >= 0).all()
    assert (frame["low_threshold"] < frame["high_threshold"]).all()
    assert (frame["scans"] > 0).all()


def test_demndlog_shares_sum_to_100(thrasher) -> None:
    frame = zvmsim.report(thrasher, "FCX259").frame
    _by_time(frame, thrasher)
    needed = frame[frame["frames_needed"] > 0]
    assert len(needed) == len(frame)
    shares = needed[["pct_pass1", "pct_pass2", "pct_emergency"]].sum(axis=1)
    assert shares.to_numpy() == pytest.approx(100.0)
    whole = merge(thrasher.intervals).storage
    mean = frame.iloc[0]
    assert mean["frames_needed"] == pytest.approx(whole["frames_needed"] / DURATION)
    assert mean["pct_pass1"] == pytest.approx(
        100.0 * whole["pass1"] / (whole["pass1"] + whole["pass2"] + whole["emergency"])
    )


def test_mean_row_averages_gauges(thrasher) -> None:
    frame = zvmsim.report(thrasher, "AUXLOG").frame
    assert frame.iloc[0]["slots_used"] == pytest.approx(frame.iloc[1:]["slots_used"].mean())


@pytest.mark.parametrize("code", ["FCX103", "FCX146", "FCX147", "FCX254", "FCX259"])
def test_no_storage_gives_empty_frames(no_storage, code) -> None:
    rep = zvmsim.report(no_storage, code)
    assert rep.frame.empty and len(rep.frame.columns) > 0
    assert rep.text


def test_new_reports_from_saved_bytes(thrasher) -> None:
    data = zvmsim.simulate("thrasher", duration=10)
    back = zvmsim.MonitorData.from_bytes(data.to_bytes())
    codes = ("FCX103", "FCX146", "FCX147", "FCX149", "FCX226", "FCX254", "FCX259")
    assert [r.text for r in zvmsim.reports(back, *codes)] == [
        r.text for r in zvmsim.reports(data, *codes)
    ]


def test_cli_demndlog_csv_header(capsys) -> None:
    code = main(["report", "thrasher", "FCX259", "--duration", "20", "--format", "csv"])
    out = capsys.readouterr().out
    assert code == 0
    header = "interval_end,frames_needed,pct_pass1,pct_pass2,pct_emergency"
    assert out.splitlines()[0].startswith(header)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["interval_end"] == MEAN and len(rows) == 3
