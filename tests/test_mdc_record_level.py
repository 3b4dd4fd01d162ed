"""Record-level or track MDC for a large CMS database job (seed 004, APAR VM61045).

The seed gives directions, not figures, so they are tested as
counterfactuals: for the database access pattern record-level MDC beats
track MDC, and track MDC is worse than no MDC at all; for a sequential scan
track MDC is the best; a file that fits in the cache makes the two equal.
Then the mechanisms (full-track reads and their connect time, record
inserts, MDC counts against FCX108), the laws on the database volume,
determinism and bad input.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest
from conftest import cli_error, untimed_queued

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.lab import knob_sweep, mdc_record_level_dashboard
from zvmsim.machine import Machine
from zvmsim.perfkit import RunData, reduce
from zvmsim.scenario import Scenario

SCENARIO = "mdc-record-level"
SECONDS = 10  # long enough for hundreds of requests; short enough to keep the suite quick


@cache
def _run(seed: int = 1, **knobs: object) -> RunData:
    return reduce(zvmsim.simulate(SCENARIO, knobs, seed=seed, duration=SECONDS))


def run(seed: int = 1, **knobs: object) -> RunData:
    return _run(seed, **dict(sorted(knobs.items())))


def resp_ms(data: RunData) -> float:
    """The jobs' mean response time per request (TXN >>All<<)."""
    return float(zvmsim.report(data, "TXN").frame.iloc[0]["resp_ms"])


def mdc_row(data: RunData) -> dict:
    return zvmsim.report(data, "FCX138").frame.iloc[0].to_dict()


def device(data: RunData) -> dict:
    frame = zvmsim.report(data, "FCX108").frame
    return frame[frame["addr"] == "0310"].iloc[0].to_dict()


def test_database_runs_best_with_record_mdc_and_worst_with_track() -> None:
    """The seed: track MDC can make a large database job worse; record level does better."""
    off = resp_ms(run(mdc="off"))
    track = resp_ms(run(mdc="track"))
    record = resp_ms(run(mdc="record"))
    assert record < 0.5 * off
    assert track > 1.3 * off


def test_sequential_scan_runs_best_with_track_mdc() -> None:
    """The seed: for a file read sequentially track MDC remains the better performer."""
    off = resp_ms(run(mdc="off", workload="sequential"))
    track = resp_ms(run(mdc="track", workload="sequential"))
    record = resp_ms(run(mdc="record", workload="sequential"))
    assert track < 0.5 * record
    assert record == pytest.approx(off, rel=0.1)  # a scan never reads a record twice in time


def test_hit_ratios_come_from_the_access_pattern() -> None:
    """Records keep the scattered busy records; tracks keep a scan's next eleven records."""
    assert mdc_row(run(mdc="record"))["pct_hits"] > 70
    assert mdc_row(run(mdc="track"))["pct_hits"] < 40
    assert mdc_row(run(mdc="track", workload="sequential"))["pct_hits"] > 85
    assert mdc_row(run(mdc="record", workload="sequential"))["pct_hits"] < 5


def test_a_file_that_fits_in_the_cache_makes_the_levels_equal() -> None:
    """20 cylinders (14 MB) fit in 32 MB either way: nearly every read is a hit."""
    track = run(mdc="track", file_cyl=20)
    record = run(mdc="record", file_cyl=20)
    assert mdc_row(track)["pct_hits"] > 98 and mdc_row(record)["pct_hits"] > 98
    assert resp_ms(track) == pytest.approx(resp_ms(record), rel=0.1)


def test_more_mdc_storage_rescues_track_mdc() -> None:
    """256 MB holds the busy records' tracks: the cost of caching tracks is storage."""
    small = run(mdc="track")
    big = run(mdc="track", mdc_mb=256)
    assert mdc_row(big)["pct_hits"] > mdc_row(small)["pct_hits"] + 40
    assert resp_ms(big) < 0.3 * resp_ms(small)


def test_track_misses_are_full_track_reads_with_long_connect_times() -> None:
    """A track MDC miss moves 48 KB over ESCON; a record miss or an uncached read 4 KB."""
    track, record, off = (device(run(mdc=m)) for m in ("track", "record", "off"))
    assert track["conn_ms"] > 2.5 * record["conn_ms"]
    assert record["conn_ms"] == pytest.approx(off["conn_ms"], rel=0.15)


def test_mdc_counts_agree_with_the_device_report() -> None:
    """Every MDC hit is an avoided I/O on the volume; every miss a real read (plus writes)."""
    for level in ("track", "record"):
        data = run(mdc=level)
        mdc, dev = mdc_row(data), device(data)
        assert dev["avoid_rate"] == pytest.approx(mdc["hit_rate"], rel=1e-9)
        misses = mdc["read_rate"] - mdc["hit_rate"]
        assert dev["io_rate"] == pytest.approx(misses + mdc["write_rate"], rel=0.02)
        assert mdc["size_mb"] <= mdc["max_mb"] + 1e-9
        assert mdc["level"] == level.capitalize()


@pytest.mark.parametrize("level", ["track", "record", "off"])
def test_laws_hold_on_the_database_volume(level: str) -> None:
    """Utilization law and Little's law on the RDEV (with the wait of MDC's own
    I/Os, which CP queues without timing)."""
    data = run(mdc=level)
    dev = device(data)
    assert dev["pct_busy"] == pytest.approx(dev["io_rate"] * dev["serv_ms"] / 10.0, rel=1e-9)
    queued = dev["io_rate"] * (dev["resp_ms"] - dev["serv_ms"]) / 1000.0
    queued += untimed_queued(data, dev["addr"])
    assert dev["req_qued"] == pytest.approx(queued, rel=0.35, abs=0.15)


def test_same_seed_same_reports() -> None:
    again = reduce(zvmsim.simulate(SCENARIO, {"mdc": "record"}, seed=1, duration=SECONDS))
    codes = ("TXN", "FCX138", "FCX108")
    assert [r.text for r in zvmsim.reports(again, *codes)] == [
        r.text for r in zvmsim.reports(run(mdc="record"), *codes)
    ]


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "mdc=records"],
        ["--set", "workload=oltp"],
        ["--set", "file_cyl=5000"],
        ["--set", "mdc_mb=0"],
    ],
)
def test_bad_knob_values_give_one_line(args: list[str], capsys) -> None:
    cli_error(capsys, "report", SCENARIO, "TXN", *args)


def test_a_file_bigger_than_its_minidisk_is_refused() -> None:
    raw = copy.deepcopy(zvmsim.load_scenario(SCENARIO)._raw)
    raw["minidisks"]["DBDATA 0200"]["cylinders"] = 100  # the file stays 300 cylinders
    with pytest.raises(ZvmsimError, match="does not fit minidisk DBDATA 0200"):
        Machine(Scenario(SCENARIO, raw).config(), 1)


def test_dashboard_turns_every_knob() -> None:
    board = mdc_record_level_dashboard()
    first = board.text
    assert "MDCACHE" in first and "TXN" in first
    board.controls["mdc"].value = "record"
    assert "Record" in board.text and board.text != first
    board.controls["file_cyl"].value = 20  # the file fits: nearly every read is a hit
    assert not board.error and "Record" in board.text
    assert set(board.controls) == {"mdc", "workload", "file_cyl", "mdc_mb"}


def test_knob_sweep_gives_one_row_per_run() -> None:
    frame = knob_sweep(
        SCENARIO,
        "file_cyl",
        [20, 40],
        lambda data: {"hits": mdc_row(data)["pct_hits"]},
        {"record": {"mdc": "record"}},
        duration=SECONDS,
    )
    assert list(frame.columns) == ["series", "file_cyl", "hits"]
    assert list(frame["file_cyl"]) == [20, 40]
