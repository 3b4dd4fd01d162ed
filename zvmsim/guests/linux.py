"""Linux guests: a single-threaded page thrasher, and ordinary servers.

**Thrasher.** One process in a virtual uniprocessor walks a memory region
page by page, writing each page, forever — a memory initializer. The guest
used its memory once, then sat idle while other guests ran (an idle Linux
still takes timer interrupts, so it stays in the dispatch list and loses its
unreferenced pages like everyone else); by the time it starts, many of its
pages have been stolen to XSTORE or paging DASD. Each touch is a few microseconds of CPU if the page
is resident, a synchronous CP page-in if it is in XSTORE, and a page fault
(the guest waits while CP reads the page's block from DASD) if it is on DASD.
Because there is one thread, only one page fault is ever outstanding.

**Server.** A guest that touches a hot set (its working set) quickly and the
rest of the storage it uses (``used_mb``, its footprint) slowly; its pages
are counted, not tracked one by one. Its storage in use has settled, so it
touches none of its other pages. Touches of pages that are not resident
become page faults. Between the two,
an optional *warm* set (``warm_mb``, touched ``warm_touch_rate`` times a
second: file cache, daemons that wake now and then) is used often enough to
be resident when storage is plentiful, and seldom enough that a demand scan
finding its reference bits off steals it. A warm page that is not resident was
stolen recently, so it is among the owner's newest pages out: in expanded
storage when the owner has pages there (where CP put what it stole last),
otherwise wherever the owner's pages are.

An idle server with the on-demand timer (``dormant_between_ticks``, no timer
ticks) wakes only for its own work: in between, CP finds it idle, keeps it in
the dispatch list for the test-idle time and then drops it. Dormant, it is the
demand scan's first victim: CP "start[s] taking measures to trim memory pages"
(IBM developerWorks, Linux on System z tuning: the On Demand Timer Patch).
"""

from __future__ import annotations

import random
from collections.abc import Generator
from math import log
from typing import TYPE_CHECKING, Any, Final

from ..cp.spaces import Space
from ..cp.storage import SEGMENT_PAGES
from ..cp.vmdbk import DM, RUN, TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload, spawn

if TYPE_CHECKING:
    from ..machine import Machine

try:  # for mypyc (zvmsim/native.py): interpreted classes subclass LinuxServer (and LinuxApp)
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


__all__ = ["LinuxServer", "LinuxThrasher"]

PAGES_PER_MB: Final = 256


def _space(workload: Workload, virtual_mb: float, detailed: bool) -> Space:
    storage = workload.machine.storage
    if storage is None:
        raise ZvmsimError(f"user {workload.vm.userid}: the scenario has no [storage] section")
    space = Space(
        workload.vm.userid,
        workload.vm.userid,
        "guest",
        int(virtual_mb * PAGES_PER_MB),
        workload.machine.streams.stream(f"pages:{workload.vm.userid}"),
        detailed=detailed,
    )
    space.vm = workload.vm
    return storage.add(space)


def poisson(rnd: Any, mean: float) -> int:
    """A Poisson draw (Knuth's method for small means, normal approximation above)."""
    if mean <= 0:
        return 0
    if mean > 30:
        return max(0, round(rnd.gauss(mean, mean**0.5)))
    limit, k, p = 2.718281828459045 ** (-mean), 0, 1.0
    random = rnd.random
    while True:
        p *= random()
        if p <= limit:
            return k
        k += 1


def below(rnd: random.Random, n: int) -> int:
    """``rnd.randrange(n)``, drawn as :class:`random.Random` draws it (the same values
    from the same stream), without its argument checks and two Python-level calls."""
    if n <= 0:
        raise ValueError("empty range for randrange()")
    k = n.bit_length()
    r = rnd.getrandbits(k)  # Random._randbelow_with_getrandbits
    while r >= n:
        r = rnd.getrandbits(k)
    return r


def exponential(rnd: random.Random, rate: float) -> float:
    """``rnd.expovariate(rate)``, drawn as :class:`random.Random` draws it (the same values)."""
    return -log(1.0 - rnd.random()) / rate


class LinuxThrasher(Workload):
    """A single-threaded memory initializer walking ``region_mb`` of storage."""

    APPLDATA = True
    PARAMS = {"virtual_mb": 768.0, "region_mb": 300.0, "touch_us": 2.0, "idle_s": 0.0}

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        if not 0 < self.p["region_mb"] <= self.p["virtual_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: region_mb must fit in virtual_mb")
        self.space = _space(self, self.p["virtual_mb"], detailed=True)
        self.region = int(self.p["region_mb"] * PAGES_PER_MB)
        self.touches = 0  # pages touched since the thrasher started: its own count
        self.started: float | None = None

    def appldata(self) -> tuple[str, int, float] | None:
        """What the thrasher reports: (workload, pages touched, seconds spent touching)."""
        if self.started is None:
            return None
        return "PGTOUCH", self.touches, self.machine.env.now - self.started

    def prepare(self) -> None:
        """The guest used its region once, then went idle."""
        storage, vm = self.machine.storage, self.vm
        vm.state = RUN
        for start in range(0, self.region, SEGMENT_PAGES):  # a segment at a time
            storage.first_touch_range(self.space, start, min(start + SEGMENT_PAGES, self.region))  # type: ignore[union-attr]
        vm.state = TIW  # an idle Linux still takes timer ticks: it stays in the dispatch list

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, space = self.machine, self.vm, self.space
        storage, cpu = m.storage, m.processors
        yield m.env.timeout(self.p["idle_s"])
        m.add_to_dispatch_list(vm)
        self.started = m.env.now
        touch_s = self.p["touch_us"] / 1e6
        slice_s = 0.005  # CPU is charged in bursts of at most one dispatch slice
        region = self.region
        page, busy = 0, 0.0
        while True:
            end = storage.resident_run(space, page, region)  # type: ignore[union-attr]
            if end > page:
                busy += (end - page) * touch_s
                self.touches += end - page
                page = end
                if busy >= slice_s:
                    yield cpu.run(vm, busy, 0.0)
                    busy = 0.0
                if page == region:
                    page = 0
                    continue
                # the page that ended the run is not resident, and only this thread
                # could have brought it back meanwhile: touch it now
            fault = storage.touch(vm, space, page)  # type: ignore[union-attr]
            busy += touch_s
            self.touches += 1
            page = page + 1 if page + 1 < region else 0
            if fault is not None:
                yield cpu.run(vm, busy, 0.0)
                busy = 0.0
                yield from fault


@mypyc_attr(allow_interpreted_subclasses=True)
class LinuxServer(Workload):
    """A Linux server: a hot working set plus occasional touches of colder pages."""

    PARAMS = {
        "virtual_mb": 512.0,
        "used_mb": 256.0,
        "wss_mb": 64.0,
        "cold_touch_rate": 2.0,
        "warm_mb": 0.0,
        "warm_touch_rate": 0.0,
        "history_cold_touch_rate": -1.0,
        "cpu_ms_per_s": 20.0,
        "tick_s": 0.5,
        "hz": 0,  # Linux timer interrupts per second (100 for a 2.6 kernel of 2008)
        # an idle guest with the on-demand timer and no ticks (hz = 0): between its
        # wakes CP sees it idle, so it leaves the dispatch list (dormant) and the
        # demand scan takes its pages first (see run)
        "dormant_between_ticks": False,
        # the guest's own DASD I/O, beside its paging: asynchronous I/Os (Linux does
        # not wait for them in CP) at io_rate a second on the minidisks io_disks names
        "io_rate": 0.0,
        "io_disks": "",  # comma-separated, "{userid} 0201" style
        "io_blocks": 2,  # 4 KB blocks per I/O
        "io_read_share": 0.7,
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        if not 0 < self.p["wss_mb"] <= self.p["virtual_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: wss_mb must fit in virtual_mb")
        if not self.p["wss_mb"] <= self.p["used_mb"] <= self.p["virtual_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: needs wss_mb <= used_mb <= virtual_mb")
        if not 0 <= self.p["warm_mb"] <= self.p["used_mb"] - self.p["wss_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: warm_mb must fit in used_mb - wss_mb")
        self.space = _space(self, self.p["virtual_mb"], detailed=False)
        self.space.wss = int(self.p["wss_mb"] * PAGES_PER_MB)
        self.tick_cold_rate = self.p["cold_touch_rate"]  # cold touches the ticks make, a second
        path_us = self.machine.config.calibration.path_us
        self._timer_s = path_us["timer_tick_us"] / 1e6
        self._timer_system_s = path_us["timer_tick_system_us"] / 1e6
        self._sigp_s = path_us["sigp_us"] / 1e6
        if self.p["hz"] < 0:
            raise ZvmsimError(f"user {self.vm.userid}: hz must not be negative")
        if self.p["dormant_between_ticks"] and self.p["hz"]:
            raise ZvmsimError(f"user {self.vm.userid}: dormant_between_ticks needs hz = 0")
        if self.p["hz"]:  # its timer pops, out of step with the other guests' timers
            self.vm.timer_hz = float(self.p["hz"])
            self.vm.timer_phase = self.machine.streams.stream(f"timer:{self.vm.userid}").random()
        names = [n.strip() for n in self.p["io_disks"].split(",") if n.strip()]
        self.io_disks = [self.minidisk(n) for n in names]
        if self.p["io_rate"] < 0 or self.p["io_blocks"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: io_rate and io_blocks must be positive")
        if self.p["io_rate"] > 0 and not self.io_disks:
            raise ZvmsimError(f"user {self.vm.userid}: io_rate needs some io_disks")
        if not 0.0 <= self.p["io_read_share"] <= 1.0:
            raise ZvmsimError(f"user {self.vm.userid}: io_read_share must be within 0-1")

    @property
    def links(self) -> list[str]:
        """The minidisks the guest does its own I/O to."""
        return [d.name for d in self.io_disks]

    def start_own_io(self) -> None:
        """Start the guest's own DASD I/O (when it does any) beside its other work."""
        if self.p["io_rate"] > 0:
            self.machine.env.process(self._own_io())

    def _own_io(self) -> Generator[Any, Any, Any]:
        """Reads and writes at ``io_rate`` a second, each started without waiting.

        Linux queues a block request and goes on (or idles); CP runs the I/O, and
        a sample that finds the guest idle meanwhile sees it I/O active.
        """
        m, vm = self.machine, self.vm
        rnd = m.streams.stream(f"dasd:{vm.userid}")  # its own stream: other draws stay put
        env, rate, disks = m.env, self.p["io_rate"], self.io_disks
        count, share = self.p["io_blocks"], self.p["io_read_share"]
        yield env.timeout(exponential(rnd, rate))
        while True:
            disk = disks[below(rnd, len(disks))]
            block = below(rnd, disk.blocks)
            write = rnd.random() >= share
            start = spawn(env)  # the I/O's place, taken now ...
            arrival = env.timeout(exponential(rnd, rate))
            start(self.async_io(disk, block, count, write))  # ... and it starts there
            yield arrival

    def prepare(self) -> None:
        """The server has used ``used_mb`` of its storage since it was started.

        That is its footprint: its storage in use (kernel, programs, their data
        and page cache) has settled, so its later touches, hot or cold, land in
        those pages and it touches none of the rest (``Space.footprint``).
        """
        space = self.space
        self.vm.state = RUN
        used = int(self.p["used_mb"] * PAGES_PER_MB)
        space.footprint = used
        self.machine.storage.first_touch_counted(space, used)  # type: ignore[union-attr]
        space.referenced = min(space.resident, space.wss)  # cold pages were used long ago
        if self.p["dormant_between_ticks"]:  # idle since long before the run
            self.vm.state = DM

    def history(self, seconds: float) -> None:
        """Past cold touches: pages that were not resident came back in.

        ``history_cold_touch_rate`` (when not negative) is how hard the guest
        worked in that past, if it differs from the measured window.
        """
        space = self.space
        cold = space.footprint - space.wss
        missing = cold - max(0, space.resident - space.wss) - space.fresh
        rate = self.p["history_cold_touch_rate"]
        if rate < 0:
            rate = self.p["cold_touch_rate"]
        touches = poisson(self.rnd, rate * seconds)
        storage = self.machine.storage
        if cold > 0 and missing > 0:
            storage.history_counted(space, round(touches * missing / cold))  # type: ignore[union-attr]
        storage.history_hot(space)  # type: ignore[union-attr]

    def run(self) -> Generator[Any, Any, Any]:
        m, vm = self.machine, self.vm
        tick = self.p["tick_s"]
        yield m.env.timeout(self.rnd.uniform(0.0, tick))
        m.add_to_dispatch_list(vm)
        self.start_own_io()
        dormant = self.p["dormant_between_ticks"]
        while True:
            yield from self.tick()
            if dormant:  # no timer pop due: CP drops it after its test-idle time
                yield from self.test_idle(tick)
                m.add_to_dispatch_list(vm)
                continue
            vm.state = TIW  # idle until the next tick, still in the dispatch list
            yield m.env.timeout(tick)

    def tick(self) -> Generator[Any, Any, Any]:
        """One timer tick of work: keep the hot set resident, touch a few cold pages."""
        m, vm, space, rnd = self.machine, self.vm, self.space, self.rnd
        storage, cpu = m.storage, m.processors
        tick = self.p["tick_s"]
        wss = space.wss
        # the hot set is touched every tick: missing hot pages come back in
        yield from storage.keep_hot(vm, space)  # type: ignore[union-attr]
        warm = int(self.p["warm_mb"] * PAGES_PER_MB)
        for _ in range(poisson(rnd, self.p["warm_touch_rate"] * tick) if warm else 0):
            if rnd.random() * warm < space.resident - wss:  # still resident
                if space.referenced < space.resident:
                    space.referenced += 1
            elif space.xstor:  # stolen lately: among the newest pages CP put out
                storage.xstore_in_counted(vm, space, 1)  # type: ignore[union-attr]
            else:
                step = storage.fault_counted(vm, space)  # type: ignore[union-attr]
                if step is not None:
                    yield from step
        cold = space.footprint - wss  # the pages in use outside the hot set
        for _ in range(poisson(rnd, self.tick_cold_rate * tick)):
            resident_cold = max(0, space.resident - wss)
            if cold > 0 and rnd.random() * cold >= resident_cold:
                step = storage.fault_counted(vm, space)  # type: ignore[union-attr]
                if step is not None:
                    yield from step
            elif space.referenced < space.resident:
                space.referenced += 1
        ticks = self.p["hz"] * tick * vm.virtual_cpus  # every virtual CPU has its timer
        if ticks:  # CP reflects each timer interrupt: time for the guest, and its own
            vm.pending_cp_s += ticks * self._timer_s
            cpu.charge_system(ticks * self._timer_system_s)
        # a tick's work is shared out: the kernel wakes its other virtual CPUs with
        # a SIGP each, which CP simulates (in the guest's real processor time)
        vm.pending_cp_s += (vm.virtual_cpus - 1) * self._sigp_s
        # the work of a tick varies (requests come and go); on average cpu_ms_per_s
        work = self.p["cpu_ms_per_s"] / 1000.0 * tick * (0.5 + rnd.random())
        yield cpu.run(vm, work, 0.0)
