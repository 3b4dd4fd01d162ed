"""Paging DASD: CP-owned PAGE volumes, their slots, and block paging I/O.

Each PAGE volume is an RDEV with one I/O at a time and CP's queue in front
of it. CP writes the pages it steals in *blocks* to the volumes, and reads a
block back when a guest faults on one of its pages. A 3390 cylinder holds
180 page slots (a 3390-3 has 3339 cylinders, 601,020 slots; a 3390-9 10017
cylinders, 1,803,060).

CP prefers volumes that are free and have free space. It places a block at
a volume's allocation cursor. To choose the volume, CP's allocator looks at
the volumes in turn, from where its last choice left off (FCX109's %Used
for Alloc is the share of those looks that placed a block there; IBM's
MRSTOASP CPVALOCD over CPVLOKAT). A look passes over a volume that is busy,
with a paging I/O in flight (running, or queued at the RDEV): a volume whose
I/Os finish fast is seldom found busy and is used nearly every look, while
volumes whose I/Os wait for a busy ESCON channel are passed over often. A
look at a free volume then needs room at its cursor: on an emptyish volume
the cursor always finds it; on a volume fuller than the calibrated
``alloc_free`` share of free space the freed slots are scattered, and a look
finds room only in proportion *p* to the free share left (an idle 3390-3 at
88% is passed over about half the times CP looks at it). When a whole round
finds no volume free with room, the least busy volume takes the block (a
second look at it, the one used).

The paging blocking factor (FCX109's Block Page Size, pages per write I/O)
comes out of the pages CP has ready and each volume's free space (issue 18
section 6), with no fixed cap. CP writes the pages it has ready together
(one visit's steal from a user, or the XSTORE pages one page-out migrates
from it) a window at a time: each placement goes to the volume the
allocator chooses and takes at most the ``alloc_window`` slots one channel
program reaches from the cursor. CP's writer starts one write I/O at a time
on an idle volume, with the queued pages that fit the run of contiguous
free slots at the cursor (:meth:`PageVolume.run_pages`). Slots come free a
read's pages at a time, so a nearly full volume's free space lies in short
runs and its writes carry two or three pages, where an emptyish volume's
carry the whole window. Small runs cost a start and a rotation each, so a
full volume's time per page is worse than an emptier one's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Final

import simpy

from ..clock import due_urgent, pending
from ..errors import ZvmsimError
from .io import VolumeIO
from .vmdbk import PGW, Vmdbk

try:  # for mypyc (zvmsim/native.py): tests stand in for PagingDevices with a subclass
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


__all__ = ["PageVolume", "PagingDevices"]

PAGE_BYTES: Final = 4096


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
    freed_pages: int = 0  # slots freed since IPL ...
    freed_runs: int = 0  # ... in this many runs of adjacent slots
    queue_s: float = 0.0  # time queued writes waited in CP's paging queue before starting
    # queued blocks: [pages not yet written, when queued, whether an I/O started]
    writes: deque[list] = field(default_factory=deque)
    queued: int = 0  # pages in ``writes`` not yet written (their sum, kept as they change)
    writing: bool = False  # a writer process is draining the queue
    cylinders: int = 0  # the page area's cylinders (the whole volume), 0 if not given
    looks: int = 0  # times CP's allocator looked at this volume for a block
    allocs: int = 0  # ... and placed the block here
    _room: float = 0.0  # the allocator's share of a look that finds room, carried over
    _run: float = 0.0  # the cursor's fraction of a free slot, carried to the next run
    _wake: simpy.Event | None = None  # what the idle writer process waits for

    def room_share(self, alloc_free: float) -> float:
        """How often the allocation cursor finds room for a block here (1: always)."""
        free = 1.0 - self.used / self.slots
        return 1.0 if free >= alloc_free else max(free / alloc_free, 1e-6)

    def look(self, alloc_free: float) -> bool:
        """CP's allocator looks here for a block: does the cursor find room?

        Deterministic: each look adds the volume's room share to a credit and
        finds room when the credit reaches one, so a volume with room share
        *p* is used on a share *p* of the looks, evenly spread.
        """
        self.looks += 1
        self._room += self.room_share(alloc_free) if alloc_free else 1.0
        if self._room < 1.0:
            return False
        self._room -= 1.0
        self.allocs += 1
        return True

    def free(self, pages: int, runs: int = 1) -> None:
        """*pages* slots come free, in *runs* runs of adjacent slots (a read's
        pages; the blocks of a space that is destroyed)."""
        self.used -= pages
        self.freed_pages += pages
        self.freed_runs += runs

    def run_now(self, window: float) -> float:
        """The contiguous free slots the cursor finds now (see :meth:`run_pages`)."""
        freed = self.freed_pages / self.freed_runs if self.freed_runs else 1.0
        used = self.used / self.slots
        return min(window, freed / used) if used > 0 else window

    def run_pages(self, pages: int, window: float) -> int:
        """Pages the next write I/O can take: the contiguous free slots at the cursor.

        Slots come free when the pages in them are read back, a read's pages
        at a time, or a destroyed space's blocks at a time (the volume's mean
        run of slots freed together so far), so free space lies in runs of
        that size. Scanning forward, the cursor stops at the first free run;
        the run continues into the next one with the volume's free share,
        giving runs of about *freed / used share* slots, at most the *window*
        of slots one channel program reaches. An emptyish volume takes the
        whole window, a nearly full one two or three pages. The fraction of
        a slot is carried to the next I/O.
        """
        if not window:
            return pages
        self._run += self.run_now(window)
        run = max(1, min(pages, int(self._run)))
        self._run = max(0.0, self._run - run) if run < pages else 0.0
        return run


@mypyc_attr(allow_interpreted_subclasses=True)
class PagingDevices:
    """All PAGE volumes of the system."""

    def __init__(
        self,
        env: simpy.Environment,
        volumes: list[PageVolume],
        system: Vmdbk,
        alloc_free: float = 0.0,
        alloc_window: float = 0.0,
    ) -> None:
        self.env = env
        self.volumes = volumes
        self.system = system  # CP's own I/O (page-outs) runs under this VMDBK
        self.alloc_free = alloc_free  # free share below which room gets hard to find
        self.alloc_window = alloc_window  # slots around the cursor one write can reach (0: any)
        self._turn = 0

    @property
    def slots(self) -> int:
        """Page slots on all PAGE volumes."""
        return sum(v.slots for v in self.volumes)

    @property
    def used(self) -> int:
        """Page slots in use."""
        return sum(v.used for v in self.volumes)

    def place(self, pages: int) -> tuple[int, int]:
        """Place the next block of a page-out with *pages* pages still to write.

        CP looks at the volumes in turn from where its last choice left off,
        passes over one with a paging I/O in flight, and takes the first free
        one whose cursor finds room; if none does, the least busy volume
        takes it (:meth:`_choose`). The block takes as many of the pages as
        the cursor's window of slots holds (all of them, if fewer) and is
        written in I/Os of the contiguous runs of free slots there
        (:meth:`PageVolume.run_pages`). Returns the volume and the pages
        placed; the caller queues them with :meth:`queue_write`.
        """
        best = self._choose()
        self._turn = (best + 1) % len(self.volumes)
        vol = self.volumes[best]
        n = min(pages, vol.slots - vol.used)
        if self.alloc_window:
            n = min(n, max(1, int(self.alloc_window)))
        vol.used += n
        return best, n

    def _choose(self) -> int:
        """The volume CP's allocator takes for the next block, its looks counted.

        Each look at a volume with room counts (CPVLOKAT); a busy volume (an
        I/O in flight) is passed over, a free one is taken if its cursor
        finds room (:meth:`PageVolume.look`, counted in CPVALOCD). When the
        round finds none, CP takes the least busy volume with room (I/Os in
        flight and writes it holds, the first in turn among equals): a
        second look at it, which is used.
        """
        volumes = self.volumes
        count = len(volumes)
        turn = self._turn
        alloc_free = self.alloc_free
        least, fewest = -1, 0
        for k in range(count):
            i = (turn + k) % count
            vol = volumes[i]
            if vol.slots <= vol.used:
                continue
            busy = vol.volume.in_flight
            if not busy and vol.look(alloc_free):
                return i
            if busy:
                vol.looks += 1
            load = busy + vol.volume.held
            if least < 0 or load < fewest:
                least, fewest = i, load
        if least < 0:
            raise self._full()
        vol = volumes[least]
        vol.looks += 1
        vol.allocs += 1
        return least

    def run_at(self, index: int, pages: int) -> int:
        """The pages of one write I/O of *pages* ready on volume *index* now,
        with no carry (for a storage history placed without I/O)."""
        vol = self.volumes[index]
        if not self.alloc_window:
            return max(1, pages)
        return max(1, min(pages, int(vol.run_now(self.alloc_window))))

    def _full(self) -> ZvmsimError:
        """The one line for a paging space with no room left (the run cannot go on)."""
        gb = self.slots * PAGE_BYTES / 2**30
        return ZvmsimError(
            f"paging space is full: the {len(self.volumes)} paging volumes' "
            f"{self.slots:,} page slots ({gb:.1f} GB) are all in use, where z/VM "
            "would abend (PGT004); add paging volumes or storage"
        )

    def queue_write(self, index: int, pages: int) -> None:
        """Queue the write of a block just placed by :meth:`place`.

        Page reads go first: CP starts a queued write only on a volume with
        no I/O in flight, so a faulting guest waits behind one write at most.
        A queued write waits in CP's paging queue for the volume, not yet at
        the RDEV: the monitor counts that queue and its waiting time for the
        paging-volume record (FCX109's Queue Lngth); the RDEV's own queue and
        response time (FCX108) start when the write is started.
        """
        vol = self.volumes[index]
        vol.writes.append([pages, self.env._now, False])
        vol.queued += pages
        vol.writes_pending += 1
        vol.volume.held += 1
        self._kick(vol)

    def _kick(self, vol: PageVolume) -> None:
        if vol.writes and not vol.writing and not vol.volume.in_flight:
            vol.writing = True
            wake = vol._wake
            if wake is None:  # the volume's first write: its writer process starts
                self.env.process(self._writing(vol))
            else:  # the writer wakes as a process starts (urgent, now)
                wake._ok = True
                wake._value = None
                due_urgent(self.env, wake)

    def _writing(self, vol: PageVolume) -> Generator[Any, Any, Any]:
        """The writer process of *vol*: drains its queue (:meth:`_writer`) whenever
        :meth:`_kick` wakes it, and waits in between."""
        while True:
            yield from self._writer(vol)
            vol._wake = pending(self.env)
            yield vol._wake

    def spread(self, pages: int) -> list[tuple[int, int]]:
        """Allocate *pages* slots over all volumes as CP's allocator would.

        Used while building a storage history, when no I/O is simulated: no
        volume is busy, so each gets pages in proportion to how often a look
        at it finds room (equally, on volumes with room to spare).
        """
        free = [v.slots - v.used for v in self.volumes]
        if sum(free) < pages:
            raise self._full()
        alloc_free = self.alloc_free
        weight = [
            round(1e6 * (v.room_share(alloc_free) if alloc_free else 1.0)) if room else 0
            for v, room in zip(self.volumes, free, strict=True)
        ]
        total = sum(weight)
        out, left = [], pages
        for i, room in enumerate(free):
            share = min(room, left, -(-pages * weight[i] // total))
            if share > 0:
                self.volumes[i].used += share
                out.append((i, share))
                left -= share
        for i, vol in enumerate(self.volumes):  # what a volume without room left over
            if not left:
                break
            share = min(vol.slots - vol.used, left)
            if share > 0:
                vol.used += share
                out.append((i, share))
                left -= share
        return out

    def _writer(self, vol: PageVolume) -> Generator[Any, Any, Any]:
        """Write queued blocks to *vol* while nothing else wants it (a CP process).

        Each write I/O takes the queued pages, oldest block first, that fit in
        the run of contiguous free slots at the cursor (:meth:`PageVolume.run_pages`):
        one block's pages, or the tail of one and the head of the next.
        """
        system, env = self.system, self.env
        writes = vol.writes
        while writes and not vol.volume.in_flight:
            run = vol.run_pages(vol.queued, self.alloc_window)
            pages = 0
            while writes and pages < run:
                entry = writes[0]
                if not entry[2]:  # the block's first I/O: its wait in CP's queue ends
                    entry[2] = True
                    vol.queue_s += env._now - entry[1]
                take = min(entry[0], run - pages)
                entry[0] -= take
                vol.queued -= take
                pages += take
                if not entry[0]:
                    writes.popleft()
                    vol.writes_pending -= 1
                    vol.volume.held -= 1
            yield from vol.volume.io(system, pages * PAGE_BYTES, False, True)
            vol.pages_written += pages
            vol.blocks_written += 1
            vol.volume.processors.charge_system(system.pending_cp_s)
            system.pending_cp_s = 0.0
        vol.writing = False

    def read(self, user: Vmdbk, index: int, pages: int) -> Generator[Any, Any, Any]:
        """Read a block of *pages* from volume *index* for a faulting *user*: the
        fault is counted, and the I/O's process steps returned (``yield from``
        them, then call :meth:`read_done`)."""
        user.page_faults += 1
        return self.volumes[index].volume.io(user, pages * PAGE_BYTES, True, True, PGW)

    def read_done(self, index: int, pages: int, keep_slots: bool = False) -> None:
        """The read of a block of *pages* from volume *index* is done: count it, and
        free the slots, unless *keep_slots* (z/VM 6.3 keeps a page's slot and writes
        it back there, or not at all if it is not changed)."""
        vol = self.volumes[index]
        vol.pages_read += pages
        vol.blocks_read += 1
        if not keep_slots:
            vol.free(pages)
        self._kick(vol)
