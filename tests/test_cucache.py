"""The control-unit cache: hits and misses, DFW into NVS, D6 R4 records, FCX111 and FCX177."""

from __future__ import annotations

import csv
import io
import random

import pytest

import zvmsim
from zvmsim.calibration import CacheModel, load_calibration
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.hardware.cucache import ControlUnitCache
from zvmsim.hardware.nvs import OtherWrites
from zvmsim.machine import Machine
from zvmsim.monitor.records import MRIODCAD
from zvmsim.monitor.stream import MonitorData
from zvmsim.perfkit import reduce
from zvmsim.scenario import Scenario

TRACK = 56664


def _cache(cache_mb: float = 1.0, nvs_mb: float = 1.0, destage_mb_s: float = 1.0):
    model = CacheModel(cache_mb, nvs_mb, miss_disc_ms=5.0, destage_mb_s=destage_mb_s)
    return ControlUnitCache("CU", model, TRACK, jitter=0.0)


def test_lru_is_shared_by_the_volumes_of_one_control_unit() -> None:
    cu = _cache(cache_mb=4 * TRACK / 2**20)  # room for four tracks
    a, b = cu.volume("VOLA", random.Random(1)), cu.volume("VOLB", random.Random(2))
    assert cu.capacity == 4
    assert a.disconnect(10, True, 0.0, 0.0002) == pytest.approx(0.005)  # miss: staged
    assert a.disconnect(10, True, 0.0, 0.0002) == 0.0002  # hit
    assert b.disconnect(10, True, 0.0, 0.0002) == pytest.approx(0.005)  # same track, other volume
    for track in range(20, 24):  # B's four tracks push A's out
        b.disconnect(track, True, 0.0, 0.0002)
    assert a.disconnect(10, True, 0.0, 0.0002) == pytest.approx(0.005)
    assert (a.reads, a.read_hits, a.staged) == (3, 1, 2)
    assert (b.reads, b.read_hits, b.staged) == (5, 0, 5)
    assert cu.cached_tracks == 4


def test_writes_are_dfw_hits_until_nvs_is_full() -> None:
    rate = 10 * TRACK / 1e6  # destage 10 tracks per second
    cu = _cache(nvs_mb=3 * TRACK / 2**20, destage_mb_s=rate)  # NVS holds three tracks
    vol = cu.volume("VOLA", random.Random(1))
    assert [vol.disconnect(t, False, 0.0, 0.0002) for t in range(3)] == [0.0002] * 3
    assert vol.disconnect(1, False, 0.0, 0.0002) == 0.0002  # still in NVS: joins it
    # NVS is full: a DFW bypass, written through (10 ms first track, 5 ms each further)
    assert vol.disconnect(3, False, 0.0, 0.0002) == pytest.approx(0.0102)
    assert vol.disconnect(4, False, 0.0, 0.0002, tracks=3) == pytest.approx(0.0202)
    assert (vol.writes, vol.dfw_hits, vol.dfw_bypass) == (6, 4, 2)
    assert cu.nvs_tracks == 3  # a bypass takes no NVS room
    # 0.5 s later the three tracks have gone: room again
    assert vol.disconnect(5, False, 0.5, 0.0002) == 0.0002
    assert cu.nvs_tracks == 1
    assert vol.disconnect(5, True, 0.5, 0.0002) == 0.0002  # a written track is a read hit
    assert vol.disconnect(4, True, 0.5, 0.0002) == 0.0002  # so is a bypassed one


def test_an_io_covers_every_track_of_its_blocks() -> None:
    cu = _cache(cache_mb=10 * TRACK / 2**20)
    vol = cu.volume("VOLA", random.Random(1))
    assert vol.disconnect(10, True, 0.0, 0.0002) == pytest.approx(0.005)  # stages 10
    assert vol.disconnect(10, True, 0.0, 0.0002, tracks=2) == pytest.approx(0.005)  # 11 misses
    assert vol.staged == 2 and cu.cached_tracks == 2
    assert vol.disconnect(10, True, 0.0, 0.0002, tracks=2) == 0.0002  # both cached: a hit
    assert (vol.reads, vol.read_hits) == (3, 1)  # blocks in one place: one request an I/O
    # a write of three tracks takes three tracks of NVS
    assert vol.disconnect(20, False, 0.0, 0.0002, tracks=3) == 0.0002
    assert cu.nvs_tracks == 3 and cu.cached_tracks == 5


def test_the_control_unit_counts_a_request_per_locate_record_domain() -> None:
    """An I/O whose blocks lie in three places (three Locate Records) counts three
    cache requests, hits or misses with the I/O; its disconnect time is the I/O's."""
    cu = _cache(cache_mb=10 * TRACK / 2**20)
    vol = cu.volume("VOLA", random.Random(1))
    assert vol.disconnect(10, True, 0.0, 0.0002, runs=3) == pytest.approx(0.005)  # a miss
    assert vol.disconnect(10, True, 0.0, 0.0002, runs=3) == 0.0002  # now a hit
    assert (vol.reads, vol.read_hits, vol.staged) == (6, 3, 1)
    assert vol.disconnect(20, False, 0.0, 0.0002, runs=2) == 0.0002  # a DASD fast write
    assert (vol.writes, vol.dfw_hits) == (2, 2)
    hit, conn = vol.times(10, True, 0.0, (0.0002, 0.001), 0.0005, 16384, runs=2)
    assert (hit, conn) == (0.0002, 0.001) and (vol.reads, vol.read_hits) == (8, 5)


def test_other_systems_bursts_fill_one_clusters_nvs() -> None:
    model = CacheModel(64.0, 2 * 10 * TRACK / 2**20, 5.0, 2 * 10 * TRACK / 1e6, clusters=2)
    cu = ControlUnitCache("CU", model, TRACK, jitter=0.0)  # 10 tracks and 10/s a cluster
    # others write 30 tracks/s into cluster 0 for 1 s of every 4: full after 0.5 s
    cu.other_writes(OtherWrites(30 * TRACK / 1e6, 1.0, 4.0, cluster=0), TRACK)
    even, odd = (
        cu.volume("VOL0E", random.Random(1), 0x0E),
        cu.volume("VOL0D", random.Random(2), 0x0D),
    )
    assert even.nvs is cu.nvs[0] and odd.nvs is cu.nvs[1]
    assert even.disconnect(1, False, 0.4, 0.0002) == 0.0002  # 8 of 10 tracks used
    assert even.disconnect(2, False, 0.8, 0.0002) == pytest.approx(0.0102)  # full: bypass
    assert odd.disconnect(2, False, 0.8, 0.0002) == 0.0002  # the other cluster has room
    assert cu.nvs[0].other_tracks(1.0) == pytest.approx(10.0)  # the burst ends
    assert cu.nvs[0].other_tracks(1.5) == pytest.approx(5.0)  # draining at 10/s
    assert even.disconnect(3, False, 1.5, 0.0002) == 0.0002
    assert cu.nvs[0].other_tracks(4.0) == 0.0  # empty before the next burst
    assert cu.nvs[0].other_tracks(4.25) == pytest.approx(5.0)
    assert (even.dfw_hits, even.dfw_bypass, odd.dfw_hits) == (2, 1, 1)


def test_other_writes_are_checked() -> None:
    raw = _raw()
    raw["control_units"]["CU1"]["other_writes"] = {"mb_s": 100.0, "on_s": 5.0, "period_s": 2.0}
    with pytest.raises(ZvmsimError, match="on_s must not exceed period_s"):
        Scenario("cache-test", raw).config()
    raw["control_units"]["CU1"]["other_writes"] = {
        "mb_s": 1.0,
        "on_s": 1.0,
        "period_s": 2.0,
        "cluster": 2,
    }
    with pytest.raises(ZvmsimError, match="cluster must be 0 to 1 or 'all'"):
        Scenario("cache-test", raw).config()
    raw["control_units"]["CU1"]["other_writes"]["cluster"] = "all"
    config = Scenario("cache-test", raw).config()
    assert config.control_units["CU1"].other_writes.cluster is None


def test_other_systems_bursts_into_every_cluster() -> None:
    model = CacheModel(64.0, 2 * 10 * TRACK / 2**20, 5.0, 2 * 10 * TRACK / 1e6, clusters=2)
    cu = ControlUnitCache("CU", model, TRACK, jitter=0.0)
    cu.other_writes(OtherWrites(30 * TRACK / 1e6, 1.0, 4.0, cluster=None), TRACK)
    assert cu.nvs[0].other_tracks(0.8) == pytest.approx(10.0)
    assert cu.nvs[1].other_tracks(0.8) == pytest.approx(10.0)  # both full alike


def test_calibration_cache_is_opt_in() -> None:
    cal = load_calibration()
    assert cal.control_units["2105"].cache is None
    assert cal.control_units["paging2008"].cache is None
    ess = cal.control_units["ess800"].cache
    assert ess is not None and ess.cache_mb >= 8192 and ess.nvs_mb == 2048
    assert 2.0 <= ess.miss_disc_ms <= 10.0


def _raw(cache_mb: float | None = None, source_cyl: int = 10, blocks_per_io: int = 8) -> dict:
    """Two COPYFILE users: source and targets behind cached CU1; light users on a 2105."""
    cu1: dict = {"type": "ess800"}
    if cache_mb is not None:
        cu1["cache_mb"] = cache_mb
    return {
        "scenario": {"name": "cache-test", "title": "CU cache test", "duration": 20, "warmup": 2},
        "system": {
            "sysid": "TESTVM", "cpu_model": "2084-C24", "serial": "00001",
            "zvm_level": "5.1.0", "start": "2005-06-01T00:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 0.01},
        "processors": {"count": 2, "type": "CP"},
        "channels": {"40": {"type": "FICON"}, "41": {"type": "FICON"}},
        "control_units": {"CU1": cu1},
        "volumes": {
            "SRC001": {"model": "3390-9", "control_unit": "CU1", "base": "A000",
                       "chpids": ["40", "41"]},
            "WRK001": {"model": "3390-9", "control_unit": "CU1", "base": "A001",
                       "chpids": ["40", "41"]},
            "OTH001": {"model": "3390-9", "control_unit": "2105", "base": "B000",
                       "chpids": ["40", "41"]},
        },
        "guests": {
            "COPY": {
                "userid": "COPY*", "count": 2, "workload": "cms_copyfile",
                "params": {"source": "SRC 0200", "target": "{userid} 0191",
                           "blocks_per_io": blocks_per_io, "file_blocks": 240.0},
            },
            "CMS": {"userid": "CMS*", "count": 3, "workload": "cms_light",
                    "params": {"minidisk": "{userid} 0191", "think_s": 1.0}},
        },
        "minidisks": {
            "SRC 0200": {"owner": "SRC", "vaddr": "0200", "volser": "SRC001",
                         "start_cyl": 1, "cylinders": source_cyl},
            "COPY": {"per_user": "COPY", "vaddr": "0191", "volser": "WRK001",
                     "start_cyl": 1, "cylinders": 20},
            "CMS": {"per_user": "CMS", "vaddr": "0191", "volser": "OTH001",
                    "start_cyl": 1, "cylinders": 10},
        },
    }  # fmt: skip


def _simulate(raw: dict, seed: int = 1) -> MonitorData:
    return Machine(Scenario("cache-test", raw).config(), seed=seed).run()


@pytest.fixture(scope="module")
def fits() -> MonitorData:
    """The source (150 tracks) fits in the 16 GB cache many times over."""
    return _simulate(_raw())


@pytest.fixture(scope="module")
def spills() -> MonitorData:
    """A 45,000-track source read a track per I/O through a 64 MB cache (1,184 tracks)."""
    return _simulate(_raw(cache_mb=64, source_cyl=3000, blocks_per_io=12))


def _by_volser(frame, volser: str) -> dict:
    rows = frame[frame["volser"] == volser].to_dict("records")
    assert len(rows) == 1, volser
    return rows[0]


def test_a_working_set_that_fits_hits(fits) -> None:
    run = reduce(fits)
    src = _by_volser(zvmsim.report(run, "FCX111").frame, "SRC001")
    assert src["pct_read"] == 100 and src["pct_read_hits"] > 99.5
    assert src["staged_rate"] < 0.5
    disc = _by_volser(zvmsim.report(run, "FCX108").frame.iloc[1:], "SRC001")["disc_ms"]
    assert disc < 0.3  # the calibrated hit disconnect


def test_a_working_set_bigger_than_the_cache_misses(fits, spills) -> None:
    run = reduce(spills)
    src = _by_volser(zvmsim.report(run, "FCX111").frame, "SRC001")
    assert src["pct_read_hits"] < 15
    assert src["staged_rate"] == pytest.approx(src["io_rate"] * (1 - src["pct_read_hits"] / 100))
    device = zvmsim.report(run, "FCX108").frame.iloc[1:]
    disc = _by_volser(device, "SRC001")["disc_ms"]
    miss_ms = load_calibration().control_units["ess800"].cache.miss_disc_ms
    assert disc == pytest.approx(miss_ms, rel=0.15)
    hit_disc = _by_volser(zvmsim.report(fits, "FCX108").frame.iloc[1:], "SRC001")["disc_ms"]
    assert disc > 10 * hit_disc  # FCX108 Disc rises with the misses


def test_writes_are_dasd_fast_write_hits(fits, spills) -> None:
    for data in (fits, spills):
        wrk = _by_volser(zvmsim.report(data, "FCX177").frame, "WRK001")
        assert wrk["pct_read"] == 0 and wrk["pct_dfw_hits"] == 100
        assert wrk["write_fw_rate"] == pytest.approx(wrk["cache_rate"])
        assert _by_volser(zvmsim.report(data, "FCX108").frame.iloc[1:], "WRK001")["disc_ms"] < 0.3


def test_only_cached_volumes_have_rows(fits) -> None:
    run = reduce(fits)
    assert set(run.whole.caches) == {"A000", "A001"}
    for code in ("FCX111", "FCX177"):
        assert list(zvmsim.report(run, code).frame["volser"]) == ["SRC001", "WRK001"]
    cachext = zvmsim.report(run, "FCX177").frame
    for row in cachext.to_dict("records"):  # every cached I/O is one the subchannel counted
        # (the cache counts an I/O as it starts, the subchannel as it ends: two in flight)
        assert row["cache_rate"] == pytest.approx(row["scmbk_rate"], abs=2 / 20)
    text = zvmsim.report(run, "FCX111").text
    assert "CACHDBSE" in text and "%RDHIT" in text and "(N)" in text and "OTH001" not in text


def test_laws_hold_behind_a_cached_control_unit(spills) -> None:
    frame = zvmsim.report(spills, "FCX108").frame
    run = reduce(spills).whole
    for row in frame.iloc[1:].to_dict("records"):
        queued = row["io_rate"] * (row["resp_ms"] - row["serv_ms"]) / 1000.0
        assert row["req_qued"] == pytest.approx(queued, rel=0.05, abs=0.05), row["addr"]
        law = row["io_rate"] * row["serv_ms"] / 10.0
        assert row["pct_busy"] == pytest.approx(law, rel=1e-9, abs=1e-9)
        dev = run.devices[row["addr"]]
        assert 100.0 * dev["hf_busy"] / dev["hf_samples"] == pytest.approx(law, abs=2.5)


def test_cache_records_round_trip_and_runs_are_deterministic(spills) -> None:
    back = MonitorData.from_bytes(spills.to_bytes())
    assert back.records == spills.records
    assert any(type(r) is MRIODCAD for r in back.records)
    again = _simulate(_raw(cache_mb=64, source_cyl=3000, blocks_per_io=12))
    assert zvmsim.report(again, "FCX111").text == zvmsim.report(spills, "FCX111").text
    other = _simulate(_raw(cache_mb=64, source_cyl=3000, blocks_per_io=12), seed=2)
    assert zvmsim.report(other, "FCX108").text != zvmsim.report(spills, "FCX108").text


def test_cli_csv_has_the_contract_columns(fits, tmp_path, capsys) -> None:
    path = tmp_path / "cache.mon"
    path.write_bytes(fits.to_bytes())
    assert main(["report", "--from", str(path), "FCX177", "CACHDBSE", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    blocks = [b for b in out.split("# ") if b.strip()]
    assert [b.splitlines()[0] for b in blocks] == ["FCX177 CACHEXT", "FCX111 CACHDBSE"]
    rows = list(csv.DictReader(io.StringIO(blocks[0].split("\n", 1)[1])))
    assert {"addr", "volser", "cache_rate", "pct_read_hits", "pct_dfw_hits"} <= set(rows[0])
    assert [r["volser"] for r in rows] == ["SRC001", "WRK001"]


@pytest.mark.parametrize(
    ("units", "fragment"),
    [
        ({"CU1": {"type": "2105", "cache_mb": 64}}, "has no cache model"),
        ({"CU1": {"type": "ess900"}}, "unknown control unit type"),
        ({"CU1": {"type": "ess800", "cache_mb": 0}}, "greater than 0"),
        ({"CU1": {"type": "ess800", "destage_mb_s": 9}}, "unknown key"),
    ],
)
def test_bad_control_unit_tables(units: dict, fragment: str) -> None:
    raw = _raw()
    raw["control_units"] = units
    with pytest.raises(ZvmsimError, match=fragment) as info:
        Scenario("cache-test", raw).config()
    assert "\n" not in str(info.value)
