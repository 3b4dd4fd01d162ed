"""Page reorder (z/VM 6.2 and earlier): resetting a guest's reference bits stops it."""

from __future__ import annotations

import math
import random

import pytest
import simpy

from zvmsim.cp.demandscan import DemandScan62
from zvmsim.cp.dispatch import Processors
from zvmsim.cp.paging import PagingDevices
from zvmsim.cp.spaces import Space
from zvmsim.cp.storage import Storage
from zvmsim.cp.vmdbk import CFW, RUN, Vmdbk

PATHS = {
    "xstore_pgin_us": 0.0,
    "xstore_pgout_us": 0.0,
    "page_fault_us": 0.0,
    "steal_us_per_page": 0.0,
    "reorder_us_per_page": 0.5,
    "reorder_jitter": 0.4,
    "reorder_cpu_s": 0.8,
}
GB = 262144  # 4 KB pages


def _system(reorder: bool, frames: int = 9 * GB) -> tuple[simpy.Environment, Storage, Space]:
    env = simpy.Environment()
    procs = Processors(env, 2)
    paging = PagingDevices(env, [], Vmdbk("SYSTEM"))
    st = Storage(
        env, frames, 4 * GB, 1000, 2000, paging, procs, 2, PATHS, random.Random(1),
        reorder_rnd=random.Random(7) if reorder else None,
    )  # fmt: skip
    st.policy = DemandScan62()
    vm = Vmdbk("BIG")
    vm.state = RUN
    space = st.add(Space("BIG", "BIG", "guest", 12 * GB, random.Random(2)))
    space.vm = vm
    st.quiet = True
    st.first_touch_counted(space, 8 * GB)  # 8 GB resident, all referenced
    st.quiet = False
    return env, st, space


def test_reorder_stops_the_guest_for_about_130_ms_per_gb_resident() -> None:
    env, st, space = _system(reorder=True)
    resident = space.resident
    st.first_touch_counted(space, 2 * GB)  # storage runs short: the scan resets BIG's bits
    assert space.reorders == 1
    gb = resident / GB
    assert 0.6 * 0.13 * gb <= space.reorder_s <= 1.4 * 0.13 * gb  # ~1 s for 8 GB, +/- 40%
    vm = space.vm
    assert vm.reorder_until == math.inf  # stopped until CP's walk of its frames is done
    done = st.processors.run(vm, 0.001, 0.0)  # it wants to run: it waits for the reorder
    env.run(until=0.5 * space.reorder_s)
    assert vm.state == CFW and not done.triggered
    env.run(until=space.reorder_s + 0.01)
    assert done.triggered
    assert vm.reorder_until == pytest.approx(space.reorder_s)  # no other work: no wait
    # CP's own time: the reorder held a processor, uncharged to any user
    assert sum(st.processors.system_s) >= space.reorder_s - 1e-9
    assert vm.tcpu_s < 0.002


def test_no_reorder_when_set_reorder_off() -> None:
    env, st, space = _system(reorder=False)
    st.first_touch_counted(space, 2 * GB)
    assert space.reorders == 0 and space.vm.reorder_until == 0.0
    assert sum(st.processors.system_s) == 0.0


def test_a_guest_is_reordered_again_only_after_using_the_processor() -> None:
    env, st, space = _system(reorder=True)
    st.first_touch_counted(space, 2 * GB)
    space.referenced = space.resident
    env.run(until=31.0)  # time passes, but the guest has not run
    st.first_touch_counted(space, GB // 2)  # bits reset again: no second reorder yet
    assert space.reorders == 1
    space.vm.tcpu_s += 0.8  # it has used 0.8 s of processor time since
    space.referenced = space.resident
    st.first_touch_counted(space, GB // 2)
    assert space.reorders == 2


def test_reorders_of_several_guests_do_not_stop_the_others() -> None:
    """IBM: reorder serializes the guest being reordered, not the system. Three
    guests reordered at once on two processors: another guest's burst still
    starts at once (each walk is dispatched at its guest's share, not ahead)."""
    env = simpy.Environment()
    procs = Processors(env, 2)
    paging = PagingDevices(env, [], Vmdbk("SYSTEM"))
    st = Storage(
        env, 40 * GB, 4 * GB, 1000, 2000, paging, procs, 2, PATHS, random.Random(1),
        reorder_rnd=random.Random(7),
    )  # fmt: skip
    st.policy = DemandScan62()
    for n in range(3):
        vm = Vmdbk(f"BIG{n}")
        space = st.add(Space(f"BIG{n}", f"BIG{n}", "guest", 8 * GB, random.Random(n)))
        space.vm = vm
        st.quiet = True
        st.first_touch_counted(space, 8 * GB)
        st.quiet = False
        assert st.reorder(space)
    other = Vmdbk("SMALL")
    other.vfinish = 5e-4  # it ran a 50 ms burst lately: it is a little ahead of its share
    env.run(until=0.1)
    done = procs.run(other, 0.002, 0.0)
    env.run(until=0.2)
    assert done.triggered  # it waited its turn, not for the reorders to end (~1.5 s)
