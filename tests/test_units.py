"""Unit tests of the building blocks: knobs, config checks, PAV routing, MDC, rendering."""

from __future__ import annotations

import copy
import datetime as dt
import random

import pytest
import simpy

from zvmsim import ZvmsimError
from zvmsim.calibration import ChannelSpeed, ControlUnitTiming, load_calibration
from zvmsim.config import build_config, hex_range
from zvmsim.cp.dispatch import Processors
from zvmsim.cp.io import VolumeIO
from zvmsim.cp.mdc import MinidiskCache
from zvmsim.cp.minidisk import Minidisk
from zvmsim.cp.vmdbk import Vmdbk
from zvmsim.hardware.channels import Chpid
from zvmsim.hardware.dasd import DasdTiming
from zvmsim.monitor.tod import from_tod, to_tod
from zvmsim.perfkit.render import fmt_number
from zvmsim.rng import Streams
from zvmsim.scenario import _load_raw, load_scenario

PATHS = {
    "rio_us": 0.0,
    "io_interrupt_system_us": 0.0,
    "mdc_lookup_us": 0.0,
    "mdc_copy_us_per_block": 0.0,
    "mdc_insert_us_per_track": 0.0,
}


# ---- knobs and configuration ------------------------------------------------


def test_knob_parsing() -> None:
    knobs = load_scenario("pav-mdc").knobs
    assert knobs["mdc"].parse("ON") is True and knobs["mdc"].parse("off") is False
    assert knobs["aliases"].parse("7") == 7 and knobs["aliases"].parse(7.0) == 7
    for bad in ("-1", "16", "x", "2.5", True):
        with pytest.raises(ZvmsimError, match="aliases"):
            knobs["aliases"].parse(bad)


def test_knobs_change_the_configuration() -> None:
    sc = load_scenario("pav-mdc")
    cfg = sc.config({"aliases": 7, "users": 2, "mdc": "on", "vm64199": "on"})
    vol = cfg.volumes["LDB307"]
    assert vol.aliases == tuple(hex_range("E7F8-E7FE")) and vol.mdc
    assert cfg.guests["SQPERF"].userids == ("SQPERF1", "SQPERF2")
    assert cfg.cp.fixes["vm64199"] is True
    assert "SQPERF2 0191" in cfg.minidisks and "SQPERF3 0191" not in cfg.minidisks
    default = sc.config()
    assert default.volumes["LDB307"].aliases == ("E7FC", "E7FD", "E7FE")


def _raw() -> dict:
    raw = copy.deepcopy(_load_raw("pav-mdc"))
    raw.pop("knobs")
    return raw


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda r: r["volumes"]["LDB307"].update(colour="red"), "unknown key 'colour'"),
        (lambda r: r["volumes"]["LDB307"].update(model="3390-99"), "unknown DASD model"),
        (lambda r: r["volumes"]["LDB307"].update(chpids=["99"]), "unknown CHPID"),
        (lambda r: r["volumes"]["LDB307"].update(aliases=40), "do not fit"),
        (lambda r: r["minidisks"]["SQPERF"].update(cylinders=9000), "does not fit"),
        (lambda r: r["monitor"].update(hfs_interval=-1), "hfs_interval"),
        (lambda r: r["processors"].update(count=0), "processors.count"),
        (lambda r: r["processors"].update(count="two"), "must be int"),
        (lambda r: r["guests"]["SQPERF"].update(workload="tetris"), None),
        (lambda r: r["guests"]["SQPERF"].update(userid="VERYLONGNAME*"), "longer than 8"),
        (lambda r: r["system"].update(start="yesterday"), "not a date"),
    ],
)
def test_impossible_configurations_are_named(change, message) -> None:
    raw = _raw()
    change(raw)
    if message is None:  # caught when the machine is built
        from zvmsim.machine import Machine

        with pytest.raises(ZvmsimError, match="unknown workload"):
            Machine(build_config(raw, load_calibration()))
        return
    with pytest.raises(ZvmsimError, match=message):
        build_config(raw, load_calibration())


def test_hex_range() -> None:
    assert hex_range("E7FC-E7FE") == ["E7FC", "E7FD", "E7FE"]
    with pytest.raises(ZvmsimError):
        hex_range("E7FE-E7FC")


# ---- random streams, TOD clock, rendering -----------------------------------


def test_streams_are_named_not_ordered() -> None:
    a = Streams(42)
    first = [a.stream("io:LDB307").random() for _ in range(3)]
    b = Streams(42)
    b.stream("workload:SQPERF1").random()  # another subsystem draws first
    assert [b.stream("io:LDB307").random() for _ in range(3)][:1] == first[:1]
    assert Streams(43).stream("io:LDB307").random() != first[0]


def test_tod_round_trip() -> None:
    moment = dt.datetime(2007, 3, 20, 10, 0, 0, 123456)
    assert from_tod(to_tod(moment)) == moment
    assert to_tod(dt.datetime(1970, 1, 1)) == 0x7D91048BCA000000


@pytest.mark.parametrize(
    "value,width,style,text",
    [
        (0.3, 4, "1", ".3"),
        (0.0, 4, "1", ".0"),
        (564.2, 6, "r", "564"),
        (90.61, 5, "1", "90.6"),
        (0.303, 6, "3", ".303"),
        (24641000, 6, "i", "24641k"),
        (float("nan"), 4, "1", "..."),
        (1.01, 5, "2", "1.01"),
        (2.9, 5, "1", "2.9"),
    ],
)
def test_perfkit_number_style(value, width, style, text) -> None:
    assert fmt_number(value, width, style) == text


# ---- the PAV I/O layer ------------------------------------------------------


def _volume(env, aliases=("A1", "A2"), timing_ms=1.0):
    cu = ControlUnitTiming(0.0, 0.0, timing_ms, 1e9, 0.0)
    timing = DasdTiming(cu, random.Random(1))
    path = Chpid("30", "FICON", ChannelSpeed(100.0, 32))
    return VolumeIO(env, "VOL001", "B0", aliases, [path], timing, Processors(env, 1), PATHS)


def test_escon_interlocks_each_chained_ccw_of_a_paging_channel_program() -> None:
    """A channel program of one CCW a page (ccw_bytes) costs ESCON's ccw_ms for each
    CCW after the first; FICON pipelines them, and a one-CCW I/O pays nothing."""
    paging = ControlUnitTiming(0.0, 0.0, 0.05, 1e9, 0.0, ccw_bytes=4096)
    plain = ControlUnitTiming(0.0, 0.0, 0.05, 1e9, 0.0)
    escon = Chpid("67", "ESCON", ChannelSpeed(17.0, 1, ccw_ms=0.25))
    ficon = Chpid("80", "FICON", ChannelSpeed(100.0, 32))

    def conn_ms(cu: ControlUnitTiming, path: Chpid, pages: int) -> float:
        return DasdTiming(cu, random.Random(1)).sample(pages * 4096, path)[2] * 1000.0

    data_ms = 4096 / 17e3  # one page at ESCON's 17 MB/s
    assert conn_ms(paging, escon, 1) == pytest.approx(0.05 + data_ms)
    assert conn_ms(paging, escon, 14) == pytest.approx(0.05 + 13 * 0.25 + 14 * data_ms)
    assert conn_ms(plain, escon, 14) == pytest.approx(0.05 + 14 * data_ms)
    assert conn_ms(paging, ficon, 14) == pytest.approx(0.05 + 14 * 4096 / 100e3)


def test_io_prefers_base_then_eligible_aliases_then_queues_at_base() -> None:
    env = simpy.Environment()
    vol = _volume(env)
    used = {}

    def user(name, eligible):
        vm = Vmdbk(name)
        yield from vol.io(vm, 0, True, eligible)
        used[name] = env.now

    for name, eligible in (("u1", True), ("u2", True), ("u3", False), ("u4", True)):
        env.process(user(name, eligible))
    env.run()
    assert vol.base.ssch == 2  # u1, then the queued ineligible u3
    assert sorted(a.ssch for a in vol.aliases) == [1, 1]  # u2 and u4 fanned out
    assert used["u3"] == pytest.approx(0.002)  # waited one service time at the base
    assert vol.base.queue_s == pytest.approx(0.001)
    assert vol.started == 4 and vol.in_flight == 0


def test_ineligible_io_never_runs_on_an_alias() -> None:
    env = simpy.Environment()
    vol = _volume(env)

    def user(name):
        vm = Vmdbk(name)
        for _ in range(10):
            yield from vol.io(vm, 0, True, False)

    for i in range(3):
        env.process(user(f"u{i}"))
    env.run()
    assert vol.base.ssch == 30 and all(a.ssch == 0 for a in vol.aliases)


# ---- minidisk cache ---------------------------------------------------------


def _cached_disk(env, capacity: int):
    vol = _volume(env, aliases=())
    mdc = MinidiskCache(env, capacity, track_bytes=49152, pav_eligible=False, path_us=PATHS)
    disk = Minidisk(
        "U 0191", vol, first_track=0, tracks=100, blocks_per_track=12, mdc=mdc, vio_us=0.0
    )
    return vol, mdc, disk


def test_mdc_stages_full_tracks_and_hits_afterwards() -> None:
    env = simpy.Environment()
    vol, mdc, disk = _cached_disk(env, capacity=2)
    vm = Vmdbk("U")

    def go():
        # track 0: miss, hit; tracks 0-1: miss (stage 1); track 1: hit;
        # track 2: miss (evicts 0); track 0: miss again
        for block, count in ((0, 8), (4, 8), (8, 8), (16, 8), (24, 8), (0, 4)):
            yield from disk.io(vm, block, count, write=False)

    env.process(go())
    env.run()
    assert (vm.vio, vm.vio_avoid) == (6, 2)
    assert vol.base.avoided == 2 and vol.base.ssch == 4
    assert mdc.cached_tracks == 2 and mdc.inserts == 4


def test_mdc_writes_go_through_and_do_not_insert() -> None:
    env = simpy.Environment()
    vol, mdc, disk = _cached_disk(env, capacity=10)
    vm = Vmdbk("U")
    env.process(disk.io(vm, 0, 8, write=True))
    env.run()
    assert vol.base.ssch == 1 and vol.base.reads == 0 and mdc.cached_tracks == 0


def test_mdc_read_waits_for_a_track_being_staged() -> None:
    env = simpy.Environment()
    vol, mdc, disk = _cached_disk(env, capacity=10)
    finished = {}

    def reader(name, delay):
        yield env.timeout(delay)
        vm = Vmdbk(name)
        yield from disk.io(vm, 60, 4, write=False)
        finished[name] = (env.now, vm.vio_avoid)

    env.process(reader("first", 0.0))
    env.process(reader("second", 0.0001))
    env.run()
    staged_at = 0.001 + 49152 / 100e6  # protocol part plus a full track over the channel
    assert finished["first"] == (pytest.approx(staged_at), 0)
    assert finished["second"] == (pytest.approx(staged_at), 1)  # no I/O of its own
    assert vol.base.ssch == 1


def test_a_knob_can_scale_its_value_into_the_configuration() -> None:
    config = load_scenario("undersized-lpar").config({"central_gb": 52, "xstore_gb": 0, "ifls": 3})
    assert config.storage.central_mb == 52 * 1024 and config.storage.xstore_mb == 0
    assert config.processors.count == 3
    own = next(p for p in config.cec.partitions if p.own)
    assert own.logical == 3


def test_demand_scan_costs_depend_on_the_zvm_release() -> None:
    cal = load_calibration()
    old, new = cal.at_level("5.2.0"), cal.at_level("5.3.0")
    assert new is cal and cal.at_level("6.2.0") is cal
    assert old.path_us["scan_us_per_frame"] > new.path_us["scan_us_per_frame"]
    assert "scan_us_per_frame_52" not in cal.path_us
    assert {k: v for k, v in old.path_us.items() if k != "scan_us_per_frame"} == {
        k: v for k, v in new.path_us.items() if k != "scan_us_per_frame"
    }
    undersized = load_scenario("undersized-lpar").config().calibration  # z/VM 5.2.0
    assert undersized.path_us["scan_us_per_frame"] == old.path_us["scan_us_per_frame"]
    with pytest.raises(ZvmsimError, match="zvm_level"):
        cal.at_level("five")
