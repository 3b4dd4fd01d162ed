"""FCX131 DEVCONF, FCX168 DEVLOG and INTERIM device reports agree with FCX108.

DEVLOG's ``>>Mean>>`` rows are FCX108 over the whole run; each of its
interval rows is the INTERIM FCX108 of that interval; and the intervals'
I/O counts add up to the whole run's. DEVCONF describes every device once.
"""

from __future__ import annotations

import pandas as pd
import pytest

import zvmsim
from zvmsim.perfkit.report import MEAN

SCENARIO = "paging-difficulties"
FIGURES = ["io_rate", "pend_ms", "disc_ms", "conn_ms", "serv_ms", "resp_ms", "req_qued"]
FIGURES += ["pct_busy", "pct_read"]


@pytest.fixture(scope="module")
def run(run_data):
    return run_data(SCENARIO, 1)


def test_devlog_mean_is_fcx108(run) -> None:
    device = zvmsim.report(run, "FCX108").frame.set_index("addr").drop(index=">>All DASD<<")
    log = zvmsim.report(run, "FCX168").frame
    mean = log[log["interval_end"] == MEAN].set_index("addr")
    assert list(mean.index) == list(device.index)
    for key in FIGURES:
        assert mean[key].tolist() == pytest.approx(device[key].tolist(), rel=1e-12, abs=1e-12)


def test_devlog_intervals_are_the_interim_reports(run) -> None:
    log = zvmsim.report(run, "FCX168").frame
    assert len(log) == len(run.devices) * (len(run.intervals) + 1)
    for k in (0, 3):
        interim = zvmsim.report(run, "FCX108", interval=k)
        assert "INTERIM DEVICE" in interim.text.splitlines()[0]
        frame = interim.frame.set_index("addr").drop(index=">>All DASD<<")
        end = run.intervals[k].end.strftime("%H:%M:%S")
        rows = log[log["interval_end"] == end].set_index("addr")
        for key in FIGURES:
            assert rows[key].tolist() == pytest.approx(frame[key].tolist(), abs=1e-12)


def test_devlog_io_counts_add_up(run) -> None:
    log = zvmsim.report(run, "FCX168").frame
    seconds = [iv.seconds for iv in run.intervals]
    for _, rows in log.groupby("addr"):
        mean = rows[rows["interval_end"] == MEAN].iloc[0]
        parts = rows[rows["interval_end"] != MEAN]
        total = sum(r * s for r, s in zip(parts["io_rate"], seconds, strict=True))
        assert total == pytest.approx(mean["io_rate"] * sum(seconds))
        busy = sum(r * s for r, s in zip(parts["pct_busy"], seconds, strict=True))
        assert busy == pytest.approx(mean["pct_busy"] * sum(seconds))


def test_interim_lchannel_averages_to_the_whole_run(run) -> None:
    whole = zvmsim.report(run, "FCX161").frame.set_index("chpid")["pct_busy"]
    parts = [
        zvmsim.report(run, "FCX161", interval=k).frame.set_index("chpid")["pct_busy"]
        for k in range(len(run.intervals))
    ]
    seconds = [iv.seconds for iv in run.intervals]
    mean = sum(p * s for p, s in zip(parts, seconds, strict=True)) / sum(seconds)
    pd.testing.assert_series_equal(mean.loc[whole.index], whole, check_names=False)
    assert max(p["67"] for p in parts) > whole["67"]  # the paging comes in bursts


def test_devconf_lists_every_device_once(run_data) -> None:
    for scenario in (SCENARIO, "pav-mdc", "fine"):
        run = run_data(scenario, 1)
        frame = zvmsim.report(run, "FCX131").frame
        assert frame["devices"].sum() == len(run.devices)
        assert (frame["status"] == "Online").all()
        assert (frame["paths"] >= 1).all()
