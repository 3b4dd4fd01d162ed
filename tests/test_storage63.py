"""z/VM 6.3 storage management: trial invalidation, the aging list, reclaim, conservation."""

from __future__ import annotations

import random

import pytest
import simpy
from standins import StandInVolume

from zvmsim.cp.agelist import AgeList
from zvmsim.cp.demandscan63 import DemandScan63
from zvmsim.cp.dispatch import Processors
from zvmsim.cp.paging import PagingDevices
from zvmsim.cp.spaces import Space
from zvmsim.cp.storage63 import Storage63
from zvmsim.cp.vmdbk import RUN, Vmdbk
from zvmsim.machine import Machine
from zvmsim.scenario import load_scenario

PATHS = {
    "xstore_pgin_us": 0.0,
    "xstore_pgout_us": 0.0,
    "page_fault_us": 0.0,
    "steal_us_per_page": 0.0,
    "reval_us": 2.0,
    "visit_take_pct": 10.0,
}


def _storage(frames: int = 1000, xstore: int = 0, early: bool = True) -> Storage63:
    from zvmsim.cp.paging import PageVolume

    env = simpy.Environment()
    vols = [PageVolume(StandInVolume(), 100000) for _ in range(2)]
    paging = PagingDevices(env, vols, Vmdbk("SYSTEM"))
    st = Storage63(
        env, frames, xstore, 20, 40, paging, Processors(env, 1), 2, PATHS, random.Random(1),
        agelist=AgeList(100, early, 0.5), below_2g=100,
    )  # fmt: skip
    st.policy = DemandScan63()
    st.quiet = True  # no I/O timing: the bookkeeping alone
    return st


def _touch(st: Storage63, space: Space, n: int) -> None:
    """First touches, 50 pages at a time (as a guest would, not in one request)."""
    for start in range(0, n, 50):
        st.first_touch_counted(space, min(50, n - start))


def _guest(st: Storage63, name: str, pages: int, wss: int = 0) -> Space:
    vm = Vmdbk(name)
    vm.state = RUN
    space = Space(name, name, "guest", pages, random.Random(2))
    space.vm = vm
    space.wss = wss
    return st.add(space)


def test_a_visit_ages_what_it_invalidated_last_time_and_invalidates_a_little_more() -> None:
    st = _storage()
    g = _guest(st, "G", 800, wss=0)
    st.first_touch_counted(g, 500)
    st.visit(g)
    assert g.ibr == 50 and g.inval == 50 and g.aged == 0  # 10% of its resident pages
    st.visit(g)
    assert g.aged == 50 and g.ibr == 50  # untouched since: on to the aging list
    assert st.agelist.pages == 50


def test_hot_pages_the_scan_invalidates_are_revalidated_at_once() -> None:
    st = _storage()
    g = _guest(st, "HOT", 800, wss=400)
    st.first_touch_counted(g, 500)
    st.quiet = False  # the clock runs: revalidations cost CP time
    st.visit(g)
    # 4 in 5 of its valid pages are hot: the visit takes 10% of its size times the
    # 1 in 5 it is not touching (10 pages), and 8 of those are hot, touched again
    assert g.inval == 10 and g.reval == 8 and g.ibr == 2
    assert g.vm.pending_cp_s == pytest.approx(8 * 2e-6)


def test_a_touch_of_an_aged_page_revalidates_it_without_io() -> None:
    st = _storage()
    g = _guest(st, "G", 800)
    st.first_touch_counted(g, 500)
    st.visit(g)
    st.visit(g)
    aged, reads = g.aged, g.page_reads
    for _ in range(200):  # touches drawn over all its pages: some land on the aging list
        st.touch_cold(g.vm, g, write=False)
    assert g.aged < aged and g.reval > 0 and g.page_reads == reads
    g.check()


def test_unchanged_pages_are_reclaimed_ready_and_not_written_again() -> None:
    st = _storage(early=False)
    g = _guest(st, "G", 2000)
    st.first_touch_counted(g, 900)  # new pages are changed: written when reclaimed
    _touch(st, g, 400)  # storage runs short: reclaims begin
    assert g.not_ready > 0 and g.ready == 0
    assert g.page_writes == g.not_ready
    written = g.page_writes
    st.history_counted(g, 300)  # pages read back unchanged: current copies on DASD
    st.visit(g)
    st.visit(g)
    got = st.reclaim(200)
    assert got > 0 and g.ready > 0
    assert g.page_writes - written == g.not_ready - (written)  # only changed pages written


def test_early_writes_make_reclaims_ready() -> None:
    early, late = _storage(early=True), _storage(early=False)
    for st in (early, late):
        g = _guest(st, "G", 3000)
        _touch(st, g, 2500)
    ge, gl = early.spaces[0], late.spaces[0]
    assert ge.early > 0 and ge.ready > 0
    assert gl.early == 0 and gl.ready == 0 and gl.not_ready > 0


def test_set_reserved_is_honoured() -> None:
    st = _storage()
    keep = _guest(st, "KEEP", 800)
    keep.reserved = 400
    other = _guest(st, "OTHER", 2000)
    st.first_touch_counted(keep, 400)
    _touch(st, other, 1500)
    assert keep.resident == 400 and keep.inval == 0 and keep.steals == 0
    assert other.steals > 0


def test_xstore_holds_copies_of_reclaimed_pages_and_drops_its_oldest() -> None:
    st = _storage(frames=1000, xstore=200)
    g = _guest(st, "G", 3000)
    _touch(st, g, 2000)
    assert st.xstore_used == 200 == g.xstor
    assert g.dasd + g.xstor == g.steals  # every reclaimed page is on DASD, some in XSTORE too
    assert g.ms_to_x == g.steals


@pytest.mark.parametrize(
    "knobs",
    [
        {"release": "6.3"},
        {"release": "6.3", "workload": "apache-paging"},
        {"release": "6.3", "central_gb": 24.0, "xstore_gb": 8.0, "early_writes": False},
    ],
)
def test_frames_and_pages_are_conserved(knobs) -> None:
    m = Machine(load_scenario("memory63").config(knobs, duration=10, interval=10), seed=2)
    m.run()
    st = m.storage
    assert isinstance(st, Storage63)
    for s in st.spaces:
        s.check()
        # every page with a copy on DASD holds a slot, resident or not
        assert sum(s.dasd_on.values()) == s.dasd + s.xstor + s.moving + s.slotted
        assert s.clean + s.aged_written <= s.slotted
    held = sum(s.resident + s.moving for s in st.spaces) + st.cp_frames
    assert held + st.available == st.frames
    assert st.lists.total == st.available
    assert st.agelist.pages == sum(s.aged for s in st.spaces)
    assert st.agelist.written == sum(s.aged_written for s in st.spaces)
    assert st.xstore_used == sum(s.xstor for s in st.spaces) <= st.xstore_pages
    assert st.paging.used == sum(sum(s.dasd_on.values()) for s in st.spaces)
