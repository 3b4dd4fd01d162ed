"""Paging DASD: CP-owned PAGE volumes, their slots, and block paging I/O.

Each PAGE volume is an RDEV with one I/O at a time and CP's queue in front
of it. CP writes the pages it steals in *blocks* (several pages, one I/O) to
the volume with the least work queued, and reads a block back when a guest
faults on one of its pages. A 3390 cylinder holds 180 page slots (a 3390-3
has 3339 cylinders, 601,020 slots; a 3390-9 10017 cylinders, 1,803,060).

CP prefers volumes with free space. It places a block at a volume's
allocation cursor, which on an emptyish volume always finds free slots; on
a volume fuller than the calibrated ``alloc_free`` share of free space, the
freed slots are scattered and the cursor finds room for a block only in
proportion *p* to the free share left. CP weighs a volume's queued work by
that: (work + 1) / p, so an idle 3390-3 at 88% (p about 0.24) looks as busy
as a volume with three blocks queued. Nearly full small volumes therefore
push the paging onto the few volumes with room, until those queue.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field

import simpy

from ..errors import ZvmsimError
from .io import VolumeIO
from .vmdbk import PGW, Vmdbk

__all__ = ["PageVolume", "PagingDevices"]

PAGE_BYTES = 4096


@dataclass
class PageVolume:
    """One CP-owned paging volume and its slot and page counters."""

    volume: VolumeIO
    slots: int
    used: int = 0
    pages_read: int = 0
    pages_written: int = 0
    blocks_read: int = 0
    blocks_written: int = 0
    writes_pending: int = 0  # blocks chosen for this volume whose write has not started
    queue_s: float = 0.0  # time queued writes waited in CP's paging queue before starting
    # queued write I/Os: (pages, when queued)
    writes: deque[tuple[int, float]] = field(default_factory=deque)
    writing: bool = False  # a writer process is draining the queue

    def room_share(self, alloc_free: float) -> float:
        """How often the allocation cursor finds room for a block here (1: always)."""
        free = 1.0 - self.used / self.slots
        return 1.0 if free >= alloc_free else max(free / alloc_free, 1e-6)


class PagingDevices:
    """All PAGE volumes of the system."""

    def __init__(
        self,
        env: simpy.Environment,
        volumes: list[PageVolume],
        system: Vmdbk,
        alloc_free: float = 0.0,
    ) -> None:
        self.env = env
        self.volumes = volumes
        self.system = system  # CP's own I/O (page-outs) runs under this VMDBK
        self.alloc_free = alloc_free  # free share below which room gets hard to find
        self._turn = 0

    @property
    def slots(self) -> int:
        """Page slots on all PAGE volumes."""
        return sum(v.slots for v in self.volumes)

    @property
    def used(self) -> int:
        """Page slots in use."""
        return sum(v.used for v in self.volumes)

    def choose(self, pages: int) -> int:
        """The volume for a new block: least work in flight, in rotation among equals."""
        best, best_key = -1, None
        count = len(self.volumes)
        alloc_free = self.alloc_free
        for k in range(count):
            i = (self._turn + k) % count
            vol = self.volumes[i]
            if vol.slots - vol.used < pages:
                continue
            key = vol.volume.in_flight + vol.writes_pending  # ties: the next in rotation
            if alloc_free:
                share = vol.room_share(alloc_free)
                if share < 1.0:
                    key = (key + 1) / share - 1
            if best_key is None or key < best_key:
                best, best_key = i, key
                if key == 0:
                    break  # an idle volume: nothing can beat it
        if best < 0:
            raise self._full()
        self._turn = (best + 1) % count
        self.volumes[best].used += pages
        return best

    def _full(self) -> ZvmsimError:
        """The one line for a paging space with no room left (the run cannot go on)."""
        gb = self.slots * PAGE_BYTES / 2**30
        return ZvmsimError(
            f"paging space is full: the {len(self.volumes)} paging volumes' "
            f"{self.slots:,} page slots ({gb:.1f} GB) are all in use, where z/VM "
            "would abend (PGT004); add paging volumes or storage"
        )

    def queue_write(self, index: int, pages: int) -> None:
        """Queue a write of a block just placed by :meth:`choose`.

        Page reads go first: CP starts a queued write only on a volume with
        no I/O in flight, so a faulting guest waits behind one write at most.
        A queued write waits in CP's paging queue for the volume, not yet at
        the RDEV: the monitor samples that queue and its waiting time for the
        paging-volume record (FCX109's Queue Lngth and MLOAD); the RDEV's own
        queue and response time (FCX108) start when the write is started.
        """
        vol = self.volumes[index]
        vol.writes.append((pages, self.env.now))
        vol.writes_pending += 1
        vol.volume.held += 1
        self._kick(vol)

    def _kick(self, vol: PageVolume) -> None:
        if vol.writes and not vol.writing and not vol.volume.in_flight:
            vol.writing = True
            self.env.process(self._writer(vol))

    def spread(self, pages: int) -> list[tuple[int, int]]:
        """Allocate *pages* slots over all volumes in proportion to their free slots.

        Used while building a storage history, when no I/O is simulated.
        """
        free = [v.slots - v.used for v in self.volumes]
        total = sum(free)
        if total < pages:
            raise self._full()
        out, left = [], pages
        for i, room in enumerate(free):
            share = min(room, left, -(-pages * room // total))
            if share > 0:
                self.volumes[i].used += share
                out.append((i, share))
                left -= share
        return out

    def _writer(self, vol: PageVolume) -> Generator:
        """Write queued blocks to *vol* while nothing else wants it (a CP process)."""
        system = self.system
        while vol.writes and not vol.volume.in_flight:
            pages, queued_at = vol.writes.popleft()
            vol.writes_pending -= 1
            vol.volume.held -= 1
            vol.queue_s += self.env.now - queued_at
            yield from vol.volume.io(system, pages * PAGE_BYTES, False, True)
            vol.pages_written += pages
            vol.blocks_written += 1
            vol.volume.processors.charge_system(system.pending_cp_s)
            system.pending_cp_s = 0.0
        vol.writing = False

    def read(self, user: Vmdbk, index: int, pages: int, keep_slots: bool = False) -> Generator:
        """Read a block of *pages* from volume *index* for a faulting *user*.

        The slots are freed, unless *keep_slots* (z/VM 6.3 keeps a page's slot
        and writes it back there, or not at all if it is not changed).
        """
        vol = self.volumes[index]
        user.page_faults += 1
        yield from vol.volume.io(user, pages * PAGE_BYTES, True, True, PGW)
        vol.pages_read += pages
        vol.blocks_read += 1
        if not keep_slots:
            vol.used -= pages
        self._kick(vol)
