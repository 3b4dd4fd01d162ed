"""Storage management: conservation of pages, demand-scan order, paging laws."""

from __future__ import annotations

import random

import pytest
import simpy
from standins import StandInVolume

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cp.demandscan import DemandScan62
from zvmsim.cp.dispatch import Processors
from zvmsim.cp.paging import PagingDevices
from zvmsim.cp.spaces import DASD, RES, XST, Space
from zvmsim.cp.storage import Storage
from zvmsim.cp.vmdbk import DM, RUN, Vmdbk
from zvmsim.machine import Machine
from zvmsim.scenario import load_scenario

PATHS = {
    "xstore_pgin_us": 0.0,
    "xstore_pgout_us": 0.0,
    "page_fault_us": 0.0,
    "steal_us_per_page": 0.0,
}


def _storage(frames: int = 100, xstore: int = 20) -> Storage:
    env = simpy.Environment()
    paging = PagingDevices(simpy.Environment(), [], Vmdbk("SYSTEM"))
    st = Storage(env, frames, xstore, 5, 10, paging, Processors(env, 1), 2, PATHS, random.Random(1))
    st.policy = DemandScan62()
    return st


def _guest(st: Storage, name: str, pages: int, state: int, detailed: bool = False) -> Space:
    vm = Vmdbk(name)
    vm.state = state
    space = Space(name, name, "guest", pages, random.Random(2), detailed=detailed)
    space.vm = vm
    return st.add(space)


def test_dormant_users_are_taken_first_then_unreferenced_pages_above_wss() -> None:
    st = _storage()
    active = _guest(st, "ACTIVE", 80, RUN)
    idle = _guest(st, "IDLE", 80, DM)
    st.first_touch_counted(active, 40)
    active.wss = 30
    active.referenced = 30
    st.first_touch_counted(idle, 40)
    st.first_touch_counted(active, 16)  # below low: the scan runs
    assert idle.steals > 0 and active.steals == 0
    assert st.taken_by_pass[0] == idle.steals and st.taken_by_pass[2] == 0
    for space in st.spaces:
        space.check()


def test_emergency_scan_takes_referenced_pages_when_nothing_else_is_left() -> None:
    st = _storage(frames=60, xstore=0)
    st.paging = PagingDevices(simpy.Environment(), [], Vmdbk("SYSTEM"))
    hot = _guest(st, "HOT", 100, RUN)
    hot.wss = 60
    st.quiet = True
    st.first_touch_counted(hot, 50)
    hot.referenced = hot.resident
    with pytest.raises(zvmsim.ZvmsimError, match="paging space is full"):
        st.first_touch_counted(hot, 20)  # no XSTORE, no PAGE volumes: nowhere to put pages


def test_xstore_migrates_its_oldest_pages_first() -> None:
    st = _storage(frames=40, xstore=10)
    st.quiet = True
    from zvmsim.cp.paging import PageVolume

    volumes = [PageVolume(StandInVolume(), 1000)]
    st.paging = PagingDevices(simpy.Environment(), volumes, Vmdbk("SYSTEM"))
    old = _guest(st, "OLD", 50, DM, detailed=True)
    new = _guest(st, "NEW", 50, DM, detailed=True)
    st.steal(old, 0, False)
    st.first_touch_counted(old, 0)
    for p in range(8):
        st.touch(old.vm, old, p)  # type: ignore[arg-type]
    assert st.steal(old, 8, False) == 8  # 8 pages of OLD into XSTORE
    for p in range(8):
        st.touch(new.vm, new, p)  # type: ignore[arg-type]
    assert st.steal(new, 8, False) == 8  # XSTORE holds 10: the 6 oldest must move to DASD
    assert (old.xstor, old.dasd, new.xstor, new.dasd) == (2, 6, 8, 0)
    assert old.table.loc.count(DASD) == 6 and new.table.loc.count(XST) == 8
    for space in st.spaces:
        space.check()


def test_a_user_paging_back_from_xstore_keeps_its_pages_there() -> None:
    st = _storage(frames=40, xstore=10)
    st.quiet = True
    from zvmsim.cp.paging import PageVolume

    volumes = [PageVolume(StandInVolume(), 1000)]
    st.paging = PagingDevices(simpy.Environment(), volumes, Vmdbk("SYSTEM"))
    busy = _guest(st, "BUSY", 50, RUN)
    idle = _guest(st, "IDLE", 50, RUN)
    st.first_touch_counted(busy, 6)
    assert st.steal(busy, 6, False) == 6  # BUSY's pages are the oldest in XSTORE
    st.first_touch_counted(idle, 4)
    assert st.steal(idle, 4, False) == 4  # XSTORE is full
    st.xstore_in_counted(busy.vm, busy, 1)  # type: ignore[arg-type]  # BUSY pages one back
    st.first_touch_counted(busy, 1)
    assert st.steal(busy, 1, False) == 1  # room for one
    st.first_touch_counted(idle, 3)
    assert st.steal(idle, 3, False) == 3  # 3 must go to DASD: IDLE's, though newer
    assert (busy.xstor, busy.dasd, idle.xstor, idle.dasd) == (6, 0, 4, 3)
    assert idle.x_to_ds == 3 and busy.x_to_ds == 0
    for space in st.spaces:
        space.check()


@pytest.fixture(scope="module")
def thrasher_machine():
    cfg = load_scenario("thrasher").config()
    machine = Machine(cfg, seed=3)
    machine.run()
    return machine


def test_every_page_is_in_exactly_one_place(thrasher_machine) -> None:
    st = thrasher_machine.storage
    for space in st.spaces:
        space.check()
    held = sum(s.resident + s.moving for s in st.spaces)  # a page being read has its frame
    held += st.cp_frames  # and the page tables (PGMBKs)
    assert held + st.available == st.frames
    assert sum(s.xstor for s in st.spaces) == st.xstore_used <= st.xstore_pages
    on_dasd = sum(s.dasd + s.moving for s in st.spaces)
    assert on_dasd <= st.paging.used  # slots of blocks still being written are counted too


def test_a_single_thread_has_one_page_fault_at_a_time() -> None:
    run = zvmsim.perfkit.reduce(zvmsim.simulate("thrasher"))
    lin = run.whole.users["LIN102"]
    cal = load_calibration()
    cu, most = cal.control_units["paging2008"], cal.read_pages_max
    read_ms = cu.pend_ms + cu.disc_ms + cu.conn_overhead_ms + most * 4096 / cu.transfer_mb_s / 1e3
    reads_per_s = lin["page_reads"] / run.whole.seconds / most  # pages per fault read, at most
    assert reads_per_s <= 1.03 * 1000.0 / read_ms  # one outstanding fault: at most 1/serv a second
    pgw = zvmsim.report(run, "FCX164", user="LIN102").frame.iloc[0]["pct_pgw"]
    assert pgw > 85


def test_more_paging_volumes_do_not_speed_up_one_thread(run_data) -> None:
    def reads(volumes: int) -> float:
        frame = zvmsim.report(run_data("thrasher", paging_volumes=volumes), "FCX113").frame
        return float(frame[frame["userid"] == "LIN102"]["page_reads"].iloc[0])

    assert reads(22) == pytest.approx(reads(11), rel=0.15)


def test_resident_walks_are_counted_once_per_page() -> None:
    st = _storage(frames=200, xstore=0)
    space = _guest(st, "T", 50, RUN, detailed=True)
    for p in range(50):
        st.touch(space.vm, space, p)  # type: ignore[arg-type]
    space.table.ref[:] = bytes(50)  # type: ignore[union-attr]
    space.referenced = 0
    assert st.resident_run(space, 10, 50) == 50
    assert space.referenced == 40 and space.table.loc.count(RES) == 50  # type: ignore[union-attr]


def _thrasher_reads(run) -> list[float]:
    frame = zvmsim.report(run, "FCX113").frame
    return list(frame[frame["userid"].str.startswith("LIN1")]["page_reads"])


def test_more_thrashers_page_proportionally_more_until_the_volumes_saturate(run_data) -> None:
    one = sum(_thrasher_reads(run_data("thrasher")))
    for n in (2, 4):
        reads = _thrasher_reads(run_data("thrasher", thrashers=n))
        assert len(reads) == n
        assert sum(reads) == pytest.approx(n * one, rel=0.2)
    # eight thrashers on one volume each share it: each pages slower than one alone
    crowded = _thrasher_reads(run_data("thrasher", thrashers=8, paging_volumes=2))
    assert max(crowded) < 0.6 * one


def test_a_longer_hfs_interval_samples_less_but_changes_nothing(run_data) -> None:
    fine, coarse = run_data("thrasher"), run_data("thrasher", hfs_interval=30)
    assert _thrasher_reads(coarse) == _thrasher_reads(fine)  # sampling does not perturb

    def samples(run) -> list[int]:
        frame = zvmsim.report(run, "FCX164", user="LIN102").frame
        return list(frame[frame["interval_end"] != ">>Mean>>"]["samples"])

    assert all(n <= 1 for n in samples(coarse)) and min(samples(fine)) >= 4


@pytest.mark.parametrize(
    "knobs", [{}, {"experiment_vdisk_gb": 4}, {"linux_swap": "minidisk", "experiment_vdisk_gb": 6}]
)
def test_vdisk_pages_are_conserved_too(knobs) -> None:
    machine = Machine(load_scenario("emergency-scan").config(knobs), seed=2)
    machine.run()
    st = machine.storage
    assert any(s.kind == "vdisk" for s in st.spaces)
    for space in st.spaces:
        space.check()
    held = sum(s.resident + s.moving for s in st.spaces) + st.cp_frames
    assert held + st.available == st.frames
    assert sum(s.xstor for s in st.spaces) == st.xstore_used <= st.xstore_pages
    assert sum(s.dasd + s.moving for s in st.spaces) <= st.paging.used


def test_a_page_coming_in_from_xstore_is_not_migrated_by_the_scan_it_starts() -> None:
    """Its frame may start a demand scan whose steals fill XSTORE and push its oldest
    pages to DASD: the page on its way in must not be one of them."""
    st = _storage(frames=40, xstore=10)
    st.quiet = True
    from zvmsim.cp.paging import PageVolume

    volumes = [PageVolume(StandInVolume(), 1000)]
    st.paging = PagingDevices(simpy.Environment(), volumes, Vmdbk("SYSTEM"))
    old = _guest(st, "OLD", 50, DM, detailed=True)
    new = _guest(st, "NEW", 50, DM, detailed=True)
    for p in range(8):
        st.touch(old.vm, old, p)  # type: ignore[arg-type]
    assert st.steal(old, 8, False) == 8  # XSTORE now holds OLD's 8 pages, the oldest
    page = 0
    while st.available > st.low:  # NEW takes frames until the next one starts a scan
        st.touch(new.vm, new, page)  # type: ignore[arg-type]
        page += 1
    coming = next(p for p in range(8) if old.table.loc[p] == XST)
    st.touch(old.vm, old, coming)  # type: ignore[arg-type]
    assert old.table.loc[coming] == RES
    assert old.dasd > 0  # the scan did migrate OLD's other XSTORE pages
    for space in st.spaces:
        space.check()
        assert space.table.loc.count(XST) == space.xstor
        assert space.table.loc.count(DASD) == space.dasd
    assert sum(sp.xstor for sp in st.spaces) == st.xstore_used


def _walked(st: Storage, name: str, faults: int, cpu_s: float) -> Space:
    """A dispatched guest with a page table: 60 resident pages, 10 of them
    referenced since the scan last looked; *faults* page faults over *cpu_s*."""
    space = _guest(st, name, 80, RUN, detailed=True)
    st.quiet = True
    st.first_touch_range(space, 0, 60)
    st.quiet = False
    space.table.ref[:] = bytes(len(space.table.ref))  # type: ignore[union-attr]
    space.table.ref[50:60] = b"\x01" * 10  # type: ignore[union-attr]
    space.referenced = 10
    space.vm.page_faults, space.vm.tcpu_s = faults, cpu_s  # type: ignore[union-attr]
    return space


def test_a_user_faulting_its_pages_in_keeps_them_in_its_projected_wss() -> None:
    """CP's WSS projection: a user paging like a loading user holds its working set;
    another user's projection moves halfway to the pages it referenced."""
    st = _storage(frames=200, xstore=50)
    slice_s = st.processors.slice_s
    loading = _walked(st, "LOADING", faults=100, cpu_s=10 * slice_s)
    quiet = _walked(st, "QUIET", faults=1, cpu_s=10 * slice_s)
    st.visit(loading)
    st.visit(quiet)
    assert loading.wss == loading.resident == 60
    assert quiet.wss == 10 // 2
    # pass 1 takes dispatched users' pages only above the projection
    assert st.steal(loading, loading.resident - loading.wss, True) == 0
    assert st.steal(quiet, quiet.resident - quiet.wss, True) == 55
    # the next look judges only the faults since this one: no new faults, no protection
    st.visit(loading)
    assert loading.wss == (0 + 60) // 2


class _StubPaging(PagingDevices):
    """Places blocks of at most three pages on volumes 0, 1, 2 in turn; reads at once
    (a subclass, as the compiled Storage takes only PagingDevices)."""

    def __init__(self) -> None:  # none of PagingDevices' own state
        self.turn = 0
        self.reads: list[tuple[int, int]] = []

    def place(self, pages: int) -> tuple[int, int]:
        volume, self.turn = self.turn, (self.turn + 1) % 3
        return volume, min(pages, 3)

    def queue_write(self, volume: int, pages: int) -> None:
        pass

    def read(self, user: Vmdbk, volume: int, pages: int):  # a step that takes no time
        self.reads.append((volume, pages))
        yield from ()

    def read_done(self, volume: int, pages: int, keep_slots: bool = False) -> None:
        pass


def test_a_fault_reads_its_page_and_the_next_of_its_block_wrapping_to_the_first() -> None:
    st = _storage(frames=1000, xstore=0)
    stub = _StubPaging()
    st.paging = stub  # type: ignore[assignment]
    space = _guest(st, "T", 600, RUN, detailed=True)
    st.first_touch_range(space, 0, 600)
    st.available += 7  # the frames of the pages going out
    space.resident -= 7
    space.referenced -= 7
    # placements of three in address order; a block also ends where a segment does
    st._write_blocks(space, 7, [5, 300, 3, 4, 7, 260, 9])
    loc = space.table.loc  # type: ignore[union-attr]
    assert [p for p in range(600) if loc[p] == DASD] == [3, 4, 5, 7, 9, 260, 300]
    vm = space.vm
    for page, read in [(9, [(1, 2)]), (4, [(0, 2)]), (3, [(0, 1)]), (300, [(2, 1)])]:
        stub.reads.clear()
        list(st.touch(vm, space, page))  # type: ignore[arg-type]
        assert stub.reads == read, page
    # 9 brought 7 (its block's first) with it, 4 brought 5 and left 3 alone
    assert [p for p in range(600) if loc[p] == DASD] == [260]
    space.check()


def test_each_segment_a_space_backs_takes_a_pgmbk_of_two_frames() -> None:
    """Before z/VM 6.3 too, CP backs each 1 MB segment a space has pages in with a
    PGMBK (two frames); a released VDISK gives its PGMBKs back."""
    st = _storage(frames=3000, xstore=0)
    guest = _guest(st, "G", 1024, RUN)
    st.first_touch_counted(guest, 1)
    assert guest.pgmbks == 1 and st.cp_frames == 2
    st.first_touch_counted(guest, 256)  # on into the second segment
    assert guest.pgmbks == 2 and st.cp_frames == 4
    assert st.available == 3000 - 257 - 4
    tracked = _guest(st, "T", 1024, RUN, detailed=True)
    st.first_touch_range(tracked, 0, 256)
    assert tracked.pgmbks == 1
    st.touch(tracked.vm, tracked, 256)  # type: ignore[arg-type]
    assert tracked.pgmbks == 2 and st.cp_frames == 8
    vdisk = st.add(Space("VD", "G", "vdisk", 512, random.Random(3)))
    st.first_touch_counted(vdisk, 512)
    assert vdisk.pgmbks == 2 and st.cp_frames == 12
    st.release_counted(vdisk)
    assert vdisk.pgmbks == 0 and st.cp_frames == 8
    held = sum(s.resident + s.moving for s in st.spaces) + st.cp_frames
    assert held + st.available == st.frames
