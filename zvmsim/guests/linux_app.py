"""Linux application servers that swap, and a guest that fills VDISKs.

**Application server.** A Linux guest running a transaction workload:
requests arrive at random (Poisson) and one worker serves them in order —
some CPU, then a few swap I/Os, because Linux is short of memory and keeps
part of its storage on a swap device. The swap device is a VDISK (a CP
address space in real storage, so a swap I/O is a page touch) or a real
minidisk (a 4 KB DASD I/O). A swap I/O to the VDISK costs CP its FBA
emulation of the page's eight blocks (:func:`~zvmsim.cp.vdisk.vdisk_io_cp_s`,
the formatter's path too). Between requests the guest behaves like a
:class:`~zvmsim.guests.linux.LinuxServer`: a hot set touched every tick and a
few colder pages now and then. A share of those cold touches
(``txn_cold_share``) are the requests' own: the heap, buffers and code a
request reaches beyond the hot set. They are drawn in bulk between the
request's CPU; a page CP took comes back from XSTORE synchronously or from
DASD as a page fault the request waits for, so a guest squeezed to its hot
set answers slower. It counts its own transactions and their
response times, which CP Monitor carries as application data (APPLDATA).

**VDISK writer.** The customer's experiment: a guest that defined VDISKs and
keeps writing them from end to end, so all their pages are in use; each
write costs CP its blocks' FBA emulation as any VDISK I/O.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Generator
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ..cp.minidisk import BLOCK_BYTES
from ..cp.spaces import ColdRun, Space
from ..cp.vdisk import PAGE_BLOCKS, vdisk_io_cp_s
from ..cp.vmdbk import TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload
from .linux import PAGES_PER_MB, LinuxServer, mypyc_attr, poisson

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["LinuxApp", "VdiskWriter"]

SWAP_TARGETS = ("vdisk", "minidisk", "none")


def _vdisk(workload: Workload, vaddr: str, mb: float) -> Space:
    """Define a VDISK of *mb* for the workload's guest (a shared CP address space)."""
    storage = workload.machine.storage
    if storage is None:
        raise ZvmsimError(f"user {workload.vm.userid}: VDISKs need a [storage] section")
    userid = workload.vm.userid
    space = Space(
        f"{userid} {vaddr}",
        userid,
        "vdisk",
        int(mb * PAGES_PER_MB),
        workload.machine.streams.stream(f"vdisk:{userid}:{vaddr}"),
    )
    return storage.add(space)


def _cumulative(values: list[float] | None) -> list[float] | None:
    """Running sums of *values* (None stays None)."""
    return None if values is None else list(accumulate(values))


@mypyc_attr(allow_interpreted_subclasses=True)  # guests.db_client's LinuxDbClient
class LinuxApp(LinuxServer):
    """A Linux server answering transactions, swapping to a VDISK or a minidisk."""

    APPLDATA = True
    PARAMS = {
        **LinuxServer.PARAMS,
        "workload": "APP",
        "txn_rate": 10.0,
        "txn_cpu_ms": 2.0,
        # the share of the guest's cold touches (cold_touch_rate) its requests make:
        # the heap, buffers and code a request reaches beyond the hot set; the
        # ticks make the rest
        "txn_cold_share": 0.0,
        "swap": "vdisk",
        "swap_mb": 256.0,
        "swap_per_txn": 1.0,
        "swap_minidisk": "{userid} 0202",
        "swap_vaddr": "0201",
        "disks": "",  # minidisks the application reads and writes, comma-separated
        "io_per_txn": 0.0,
        "blocks_per_io": 1,
        "read_share": 0.7,
        "disk_rates": "",  # per disk, comma-separated: relative I/O rates (empty: even)
        "read_shares": "",  # per disk, comma-separated: reads' share (empty: read_share)
        "disk_blocks": "",  # per disk, comma-separated: blocks per I/O (empty: blocks_per_io)
        "hot_mb": 0.0,  # per disk: the region most of its I/O goes to (0: uniform)
        "hot_share": 0.8,
        # reads of the application's busy files (indexes, the data it wrote last), all
        # in the hot region of one disk (hot_reads_disk, from 0), per transaction after
        # its other I/O
        "hot_reads_per_txn": 0.0,
        "hot_reads_disk": 0,
        "vswitch": "",  # the VSWITCH its virtual NIC is coupled to
        "net_out_kb": 0.0,  # per transaction
        "net_in_kb": 0.0,
    }

    def __init__(  # the Workload's arguments, spelled out (mypyc: no *args to super())
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        if self.p["swap"] not in SWAP_TARGETS:
            raise ZvmsimError(
                f"user {self.vm.userid}: swap must be vdisk, minidisk or none, "
                f"not '{self.p['swap']}'"
            )
        if self.p["txn_rate"] <= 0 or self.p["swap_mb"] <= 0:
            raise ZvmsimError(f"user {self.vm.userid}: txn_rate and swap_mb must be positive")
        share = self.p["txn_cold_share"]
        if not 0.0 <= share <= 1.0:
            raise ZvmsimError(f"user {self.vm.userid}: txn_cold_share must be within 0-1")
        cold_rate = self.p["cold_touch_rate"]
        self.tick_cold_rate = cold_rate * (1.0 - share)
        self._txn_touches = cold_rate * share / self.p["txn_rate"]  # a request's, on average
        self.vdisk: Space | None = None
        self.swap_disk = None
        if self.p["swap"] == "vdisk":
            self.vdisk = _vdisk(self, self.p["swap_vaddr"], self.p["swap_mb"])
        elif self.p["swap"] == "minidisk":
            self.swap_disk = self.minidisk(self.p["swap_minidisk"])
        names = [n.strip() for n in self.p["disks"].split(",") if n.strip()]
        self.disks = [self.minidisk(n) for n in names]
        if self.p["io_per_txn"] > 0 and not self.disks:
            raise ZvmsimError(f"user {self.vm.userid}: io_per_txn needs some disks")
        self._cum_rates = _cumulative(self._per_disk("disk_rates", 0.0, None))
        self._read_shares = self._per_disk("read_shares", 0.0, 1.0)
        blocks = self._per_disk("disk_blocks", 1.0, None)
        self._blocks = None if blocks is None else [int(b) for b in blocks]
        self.vswitch = None
        if self.p["vswitch"]:
            switches = getattr(self.machine, "vswitches", {})
            if self.p["vswitch"] not in switches:
                raise ZvmsimError(f"user {self.vm.userid}: no VSWITCH '{self.p['vswitch']}'")
            self.vswitch = switches[self.p["vswitch"]]
        # a transaction's request and response (bytes), and the headers of an ACK
        self._net_in = int(self.p["net_in_kb"] * 1024)
        self._net_out = int(self.p["net_out_kb"] * 1024)
        self._ack_bytes = self.machine.config.calibration.linux_stack.header_bytes
        self.space.hot = self.space.wss  # Linux touches its hot set all the time
        self.txns = 0
        self.resp_s = 0.0
        # the busy-file reads draw from their own stream: the other draws stay put
        self._reads_rnd = (
            self.machine.streams.stream(f"hot-reads:{self.vm.userid}")
            if self.p["hot_reads_per_txn"] > 0
            else self.rnd
        )
        if self.p["hot_reads_per_txn"] > 0 and not (
            self._hot_blocks() and 0 <= self.p["hot_reads_disk"] < len(self.disks)
        ):
            raise ZvmsimError(f"user {self.vm.userid}: hot reads need hot_mb and hot_reads_disk")
        # a swap I/O to the VDISK: one 4 KB page, eight FBA blocks CP moves
        self._swap_cp_s = vdisk_io_cp_s(self.machine.config.calibration.path_us, PAGE_BLOCKS)

    @property
    def links(self) -> list[str]:
        swap = [self.swap_disk.name] if self.swap_disk is not None else []
        return swap + [d.name for d in self.disks] + super().links

    def appldata(self) -> tuple[str, int, float] | None:
        """What the application reports: (workload, transactions done, their response seconds)."""
        return self.p["workload"], self.txns, self.resp_s

    def history(self, seconds: float) -> None:
        """Past swapping filled the VDISK; past cold touches came back in."""
        super().history(seconds)
        vdisk = self.vdisk
        if vdisk is None:
            return
        swaps = self.p["txn_rate"] * self.p["swap_per_txn"] * seconds
        self.machine.storage.history_writes(vdisk, swaps)  # type: ignore[union-attr]

    def run(self) -> Generator:
        m, vm, rnd = self.machine, self.vm, self.rnd
        env = m.env
        tick, rate = self.p["tick_s"], self.p["txn_rate"]
        next_tick = env.now + rnd.uniform(0.0, tick)
        arrival = env.now + rnd.expovariate(rate)
        m.add_to_dispatch_list(vm)
        self.start_own_io()
        while True:
            now = env._now  # (env.now, without the property's call)
            if next_tick <= now:
                yield from self.tick()
                next_tick += tick
            elif arrival <= now:
                yield from self._transaction()
                self.txns += 1
                self.resp_s += env._now - arrival
                arrival += rnd.expovariate(rate)
            else:
                vm.state = TIW
                yield env.timeout(min(next_tick, arrival) - now)

    def _transaction(self) -> Generator:
        """Serve one request: it comes in, CPU, its swap and disk I/Os, the answer goes out."""
        m, vm, rnd = self.machine, self.vm, self.rnd
        if self.vswitch is not None:  # the request comes in
            self.vswitch.receive(vm, self._net_in)
        if self._txn_touches:
            yield from self._work()
        else:
            yield m.processors.run(vm, self.p["txn_cpu_ms"] / 1000.0, 0.0)
        swaps = poisson(rnd, self.p["swap_per_txn"]) if self.p["swap"] != "none" else 0
        for _ in range(swaps):
            read = rnd.random() < 0.5
            if self.vdisk is not None:
                vm.vio += 1
                vm.pending_cp_s += self._swap_cp_s
                step = m.storage.touch_counted(vm, self.vdisk, written_only=read)  # type: ignore[union-attr]
                if step is not None:
                    yield from step
            else:
                disk = self.swap_disk
                yield from disk.io(vm, rnd.randrange(disk.blocks), 1, write=not read)  # type: ignore[union-attr]
        if self.disks:
            yield from self._disk_io()
        if self.vswitch is not None:
            self.vswitch.exchange(vm, self._net_out, self._net_in, self._ack_bytes, True)

    def _work(self) -> Generator:
        """The request's CPU, with its touches of pages beyond the hot set between.

        The touches are drawn in bulk (:meth:`Storage.touch_cold_run`): a
        resident page costs its share of the CPU, one in XSTORE comes back
        synchronously, one on DASD is a page fault the request waits for.
        """
        cpu = self.machine.processors
        touches = poisson(self.rnd, self._txn_touches)
        per_touch = self.p["txn_cpu_ms"] / 1000.0 / (touches + 1)
        run = ColdRun(None, 0.0, per_touch, cpu.slice_s)
        busy = yield from self.cold_touches(self.space, run, touches, per_touch)  # type: ignore[arg-type]
        yield cpu.run(self.vm, busy, 0.0)

    def prepare(self) -> None:
        """Storage as a Linux server's; the hot regions of its disks are in the CU cache
        and, where CP caches the minidisk, in the minidisk cache: in use for hours."""
        super().prepare()
        hot = self._hot_blocks()
        for disk in self.disks:
            cache = disk.volume.cache
            if hot and cache is not None:
                last = disk.first_track + (min(hot, disk.blocks) - 1) // disk.blocks_per_track
                cache.warm(range(disk.first_track, last + 1))
            if hot and disk.mdc is not None:
                disk.mdc.touch(disk.mdc_keys(0, min(hot, disk.blocks)))

    def _per_disk(self, name: str, low: float, high: float | None) -> list[float] | None:
        """A comma-separated per-disk list of figures in [low, high], or None if not given."""
        text = str(self.p[name]).strip()
        if not text:
            return None
        try:
            values = [float(v) for v in text.split(",")]
        except ValueError:
            raise ZvmsimError(f"user {self.vm.userid}: {name} must be numbers") from None
        bad = any(v < low or (high is not None and v > high) for v in values)
        if len(values) != len(self.disks) or bad or not any(values):
            top = "" if high is None else f" to {high:g}"
            raise ZvmsimError(
                f"user {self.vm.userid}: {name} needs one figure per disk "
                f"({len(self.disks)}), each {low:g}{top}"
            )
        return values

    def _pick_disk(self) -> int:
        """Which disk an I/O goes to: at random, in proportion to the disks' rates."""
        cum = self._cum_rates
        if cum is None:
            return self.rnd.randrange(len(self.disks))
        return bisect_right(cum, self.rnd.random() * cum[-1])

    def _hot_blocks(self) -> int:
        return int(self.p["hot_mb"] * 1024 * 1024 // BLOCK_BYTES)

    def _disk_io(self) -> Generator:
        """The request's reads and writes on the application's own minidisks."""
        vm, rnd, disks = self.vm, self.rnd, self.disks
        count, share = self.p["blocks_per_io"], self.p["read_share"]
        hot, hot_share = self._hot_blocks(), self.p["hot_share"]
        shares, blocks = self._read_shares, self._blocks
        for _ in range(poisson(rnd, self.p["io_per_txn"])):
            index = self._pick_disk()
            disk = disks[index]
            write = rnd.random() >= (share if shares is None else shares[index])
            if blocks is not None:
                count = blocks[index]
            span = min(hot, disk.blocks) if hot and rnd.random() < hot_share else disk.blocks
            # the request's thread waits; the virtual CPU idles in an enabled wait with
            # the I/O in flight, which CP samples as I/O active, not as CP's I/O wait
            vm.state = TIW
            yield from self.async_io(disk, rnd.randrange(span), count, write)
        if self.p["hot_reads_per_txn"] > 0:
            yield from self._hot_reads()

    def _hot_reads(self) -> Generator:
        """The request's reads of its busy files: the hot region of one of its disks."""
        index = self.p["hot_reads_disk"]
        vm, rnd, disk = self.vm, self._reads_rnd, self.disks[index]
        count = self.p["blocks_per_io"] if self._blocks is None else self._blocks[index]
        span = min(self._hot_blocks(), disk.blocks)
        for _ in range(poisson(rnd, self.p["hot_reads_per_txn"])):
            vm.state = TIW
            yield from self.async_io(disk, rnd.randrange(span), count, False)


class VdiskWriter(Workload):
    """Writes its VDISKs end to end, over and over (the customer's experiment)."""

    PARAMS = {"vdisk_gb": 0.0, "vdisk_size_gb": 2.0, "mb_per_s": 40.0, "pages_per_io": 64}

    def __init__(  # the Workload's arguments, spelled out (mypyc: no *args to super())
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        gb, size = self.p["vdisk_gb"], self.p["vdisk_size_gb"]
        if gb < 0 or size <= 0 or self.p["mb_per_s"] <= 0 or self.p["pages_per_io"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: VDISK sizes and rates must be positive")
        self.vdisks: list[Space] = []
        left, n = gb, 0
        while left > 1e-9:
            mb = min(size, left) * 1024
            self.vdisks.append(_vdisk(self, f"{0x300 + n:04X}", mb))
            left -= min(size, left)
            n += 1
        # one write of pages_per_io pages: their FBA blocks CP moves into the VDISK
        blocks = self.p["pages_per_io"] * PAGE_BLOCKS
        self._write_cp_s = vdisk_io_cp_s(self.machine.config.calibration.path_us, blocks)

    def history(self, seconds: float) -> None:
        """The VDISKs were being written before the window: filled, then rewritten."""
        pages = self.p["mb_per_s"] * PAGES_PER_MB * seconds / max(1, len(self.vdisks))
        for space in self.vdisks:
            self.machine.storage.history_writes(space, pages)  # type: ignore[union-attr]

    def run(self) -> Generator:
        m, vm = self.machine, self.vm
        if not self.vdisks:
            return  # no experiment: the guest stays dormant
        m.add_to_dispatch_list(vm)
        per_io = self.p["pages_per_io"]
        gap = per_io / (self.p["mb_per_s"] * PAGES_PER_MB)
        storage, cpu, env = m.storage, m.processors, m.env
        turn = 0
        while True:
            space = self.vdisks[turn % len(self.vdisks)]
            turn += 1
            vm.vio += 1
            vm.pending_cp_s += self._write_cp_s
            for _ in range(per_io):
                step = storage.touch_counted(vm, space)  # type: ignore[union-attr]
                if step is not None:
                    yield from step
            yield cpu.run(vm, 0.0002, 0.0)
            vm.state = TIW
            yield env.timeout(gap)
