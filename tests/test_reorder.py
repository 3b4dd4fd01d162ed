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


def _first_reorder(st: Storage, space: Space) -> simpy.Event:
    """Storage runs short and the demand scan meets BIG for the first time: it was
    last reordered before the run, at a random point of its cycle, so the scan
    arms it; once it has used a whole cycle of processor time (reorder_cpu_s),
    its next dispatch reorders it first. Returns that dispatch's burst."""
    st.first_touch_counted(space, 2 * GB)
    vm = space.vm
    assert space.reorders == 0 and vm.reorder_at < math.inf
    vm.tcpu_s += PATHS["reorder_cpu_s"]
    done = st.processors.run(vm, 0.001, 0.0)
    assert space.reorders == 1
    return done


def test_reorder_stops_the_guest_for_about_130_ms_per_gb_resident() -> None:
    env, st, space = _system(reorder=True)
    resident = space.resident
    done = _first_reorder(st, space)  # it wants to run: it waits for the reorder
    gb = resident / GB
    assert 0.6 * 0.13 * gb <= space.reorder_s <= 1.4 * 0.13 * gb  # ~1 s for 8 GB, +/- 40%
    vm = space.vm
    assert vm.reorder_until == math.inf  # stopped until CP's walk of its frames is done
    env.run(until=0.5 * space.reorder_s)
    assert vm.state == CFW and not done.triggered
    env.run(until=space.reorder_s + 0.01)
    assert done.triggered
    assert vm.reorder_until == pytest.approx(space.reorder_s)  # no other work: no wait
    # CP's own time: the reorder held a processor, uncharged to any user
    assert sum(st.processors.system_s) >= space.reorder_s - 1e-9
    assert vm.tcpu_s < PATHS["reorder_cpu_s"] + 0.002


def test_guests_that_run_alike_are_not_reordered_in_step() -> None:
    """Each guest's first reorder comes at its own point of the cycle (its last
    was before the run): two guests met by the same scan, with the same processor
    time used, come due at different times, each within one cycle."""
    env, st, space = _system(reorder=True)
    other_vm = Vmdbk("BIG2")
    other_vm.state = RUN
    other = st.add(Space("BIG2", "BIG2", "guest", 12 * GB, random.Random(3)))
    other.vm = other_vm
    st.quiet = True
    st.first_touch_counted(other, GB // 2)
    st.quiet = False
    st.reorder_due(space)
    st.reorder_due(other)
    due = [space.vm.reorder_at, other_vm.reorder_at]
    assert space.reorders == other.reorders == 0
    assert due[0] != due[1]
    assert all(0.0 < d <= PATHS["reorder_cpu_s"] for d in due)


def test_no_reorder_when_set_reorder_off() -> None:
    env, st, space = _system(reorder=False)
    st.first_touch_counted(space, 2 * GB)
    assert space.reorders == 0 and space.vm.reorder_until == 0.0
    assert sum(st.processors.system_s) == 0.0


def test_a_guest_is_reordered_again_only_after_using_the_processor() -> None:
    env, st, space = _system(reorder=True)
    _first_reorder(st, space)
    env.run(until=31.0)  # time passes, but the guest has not run
    space.referenced = space.resident
    st.first_touch_counted(space, GB // 2)  # bits reset again: no second reorder yet
    assert space.reorders == 1
    space.vm.tcpu_s += 0.8  # it has used 0.8 s of processor time since
    space.referenced = space.resident
    st.first_touch_counted(space, GB // 2)
    assert space.reorders == 2


def test_a_scan_arms_a_guest_not_yet_due_and_its_dispatch_reorders_it() -> None:
    """Each guest on its own schedule: a demand scan that finds a guest not yet due
    arms it, and CP reorders it at its first dispatch once it is due."""
    env, st, space = _system(reorder=True)
    _first_reorder(st, space)  # the first scan arms it; its dispatch reorders it
    vm = space.vm
    env.run(until=2.0)  # that reorder is over
    space.referenced = space.resident
    st.first_touch_counted(space, GB // 2)  # another scan: it has not run since
    assert space.reorders == 1 and vm.reorder_at < math.inf
    vm.tcpu_s += 0.8  # it has used 0.8 s of processor time since
    done = st.processors.run(vm, 0.001, 0.0)  # its next dispatch: CP reorders it first
    assert space.reorders == 2 and vm.reorder_until == math.inf and not done.triggered
