"""Real storage management, z/VM 6.2 and earlier: frames, XSTORE, page-outs.

CP keeps a list of available frames. When a page fault or first touch takes
it below the *low* threshold, the demand scan (:mod:`zvmsim.cp.demandscan`)
steals frames until the list is back at *high*. A stolen page goes to
expanded storage (XSTORE) while there is room; when a page-out finds XSTORE
full, CP migrates as many XSTORE pages to paging DASD as the page-out needs
room for, in whole paging blocks, choosing them by age and user: the oldest
pages go first, but those of a user in the dispatch list that is paging its
XSTORE pages back in go only as a last resort (see
:meth:`Storage._migration_victim`). A guest touching a page that is not
resident gets it back synchronously from XSTORE (CP time, no wait) or waits
in page wait while CP reads its block from DASD.

CP's page-table blocks (PGMBKs, 8 KB: two frames, one per 1 MB segment) are
taken as a space backs each new segment (its first touch there), as on z/VM
6.3 (:mod:`zvmsim.cp.storage63`); they count in ``cp_frames``. Since z/VM 5.3
they may live above 2 GB and are pageable, but CP pages one out only when
every page of its segment is out; with pages spread over the segments, a
space that holds any resident pages keeps them all, so here they stay.

The demand scan's algorithm is a pluggable policy, so the z/VM 6.3 global
aging list can replace it without touching this module.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Final, Protocol

import numpy as np
import simpy

from ..errors import ZvmsimError
from .dispatch import Processors
from .paging import PagingDevices
from .scheduler import faults_like_loading
from .spaces import DASD, MOVING, NEW, RES, XST, ColdRun, Space
from .vmdbk import Vmdbk

try:  # for mypyc (zvmsim/native.py): Storage63, not compiled, may subclass Storage
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


if TYPE_CHECKING:
    from .framelock import FrameLock
    from .mdchome import MdcHome


__all__ = ["SEGMENT_PAGES", "ScanPolicy", "Storage"]

SEGMENT_PAGES: Final = 256  # a 1 MB segment of virtual storage
PGMBK_FRAMES: Final = 2  # a PGMBK (8 KB) per segment backed


def _slots_on(on: dict[int, int], volume: int, n: int) -> None:
    """*n* more pages of a counted space on paging volume *volume*, in its ``dasd_on``.

    The dict is kept in volume order (a new volume goes in its place), so that
    :meth:`Storage.read_counted` walks it in that order without sorting it."""
    if volume in on:
        on[volume] += n
        return
    last = next(reversed(on), volume)
    on[volume] = n
    if volume < last:
        ordered = sorted(on.items())
        on.clear()
        on.update(ordered)


class ScanPolicy(Protocol):
    """Replenishes the available list: returns frames freed."""

    def replenish(self, storage: Storage, need: int) -> int: ...


def _optional(path_us: dict[str, float], key: str) -> float:
    """*path_us*[*key*], 0 when the table has none: read by subscript, not ``dict.get``
    (compiled, ``get`` reads a dict subclass's entries past its own methods, and
    zvmsim.usedby notes the reads through them)."""
    return path_us[key] if key in path_us else 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class Storage:
    """Central storage, expanded storage and the page movements between them."""

    def __init__(
        self,
        env: simpy.Environment,
        frames: int,
        xstore_pages: int,
        low: int,
        high: int,
        paging: PagingDevices,
        processors: Processors,
        read_pages: int,
        path_us: dict[str, float],
        rnd: random.Random,
        reorder_rnd: random.Random | None = None,
    ) -> None:
        if not 0 < low < high < frames:
            raise ZvmsimError("available-list thresholds must satisfy 0 < low < high < frames")
        self.env = env
        self.frames = frames
        self.available = frames
        self.xstore_pages = xstore_pages
        self.xstore_used = 0
        self.low = low
        self.high = high
        self.paging = paging
        self.processors = processors
        self.read_pages = read_pages  # most pages one page-fault read brings back
        self.rnd = rnd
        self.path_us = path_us
        self.spaces: list[Space] = []
        self.policy: ScanPolicy | None = None
        self.mdc_home: MdcHome | None = None  # MDC in central: the arbiter gives frames back
        self.quiet = False  # while building the storage history: page-outs without I/O
        self._xstore_age: deque[list] = deque()  # [space, pages] in the order they arrived
        self._pgin_s = path_us["xstore_pgin_us"] / 1e6
        self._pgout_s = path_us["xstore_pgout_us"] / 1e6
        self._fault_s = path_us["page_fault_us"] / 1e6
        self._steal_s = path_us["steal_us_per_page"] / 1e6
        self._scan_s = _optional(path_us, "scan_us_per_frame") / 1e6
        # cumulative counters for the monitor
        self.scans = 0
        self.frames_needed = 0
        self.taken_by_pass = [0, 0, 0]  # pass 1, pass 2, emergency
        self.times_empty = 0
        self.migrated = 0
        self.examined = 0  # resident frames the demand scan tested (taken or passed over)
        self.cp_frames = 0  # frames CP holds for its page-table blocks (PGMBKs)
        # page reorder (SET REORDER, z/VM 6.2 and earlier): on when given a random stream
        self.reorder_rnd = reorder_rnd
        self._reorder_s = _optional(path_us, "reorder_us_per_page") / 1e6
        self._reorder_jitter = _optional(path_us, "reorder_jitter")
        self._reorder_gap = _optional(path_us, "reorder_cpu_s")
        self._reordered: dict[str, float] = {}  # space -> its owner's CPU time at its last reorder
        if reorder_rnd is not None:
            processors.reorder_hook = self._reorder_armed
        # space -> its owner's page faults and CPU time when the demand scan last looked
        self._looked: dict[str, tuple[int, float]] = {}
        # space -> its XSTORE page-ins (X>MS) when the demand scan last ran, and the
        # spaces that paged back from XSTORE between the last two scans
        self._x_in_seen: dict[str, int] = {}
        self._reclaiming: set[str] = set()
        self.lock: FrameLock | None = (
            None  # the available-list lock (zvmsim.cp.framelock), where modelled
        )

    def add(self, space: Space) -> Space:
        """Register an address space with the storage manager."""
        self.spaces.append(space)
        return space

    # ---- frames ----------------------------------------------------------

    def take_frames(self, n: int) -> None:
        """Give *n* frames to a page coming in; replenish first if below low."""
        scan_s = 0.0
        if self.available - n < self.low and self.policy is not None:
            need = self.high - self.available + n
            self.scans += 1
            self.frames_needed += need
            if self.xstore_pages:
                self._note_reclaims()
            examined = self.examined
            freed = self.policy.replenish(self, need)
            # CP's own time: testing (and resetting) the reference bit of every
            # frame it passes over, plus the work of each frame it takes
            scan_s = self._scan_s * (self.examined - examined) + self._steal_s * freed
            if not self.quiet:  # (the storage history is placed before the clock starts)
                self.processors.charge_system(scan_s)
        if self.lock is not None and not self.quiet:
            # the request holds the available-list lock; a scan it started, all along
            self.lock.take(self.env.now, self.lock.hold_s + scan_s)
        if self.available < n:
            self.times_empty += 1
            raise ZvmsimError(
                "central storage exhausted: every frame is pinned or in flight "
                "(the configuration asks for more storage than the system has)"
            )
        self.available -= n

    def _back_segments(self, space: Space) -> None:
        """CP backs each segment *space* now has pages in with a PGMBK (two frames)."""
        backed = space.pages - space.untouched
        new = -(-backed // SEGMENT_PAGES) - space.pgmbks
        if new > 0:
            self.take_frames(PGMBK_FRAMES * new)
            self.cp_frames += PGMBK_FRAMES * new
            space.pgmbks += new

    # ---- page-outs: called by the scan policy ----------------------------

    def visit(self, space: Space, force: int = 0) -> int:
        """Pass-1 look at a space with a page table: new WSS projection, bits cleared.
        (*force* and the result, pages pushed to an aging list, are z/VM 6.3's:
        :meth:`zvmsim.cp.storage63.Storage63.visit`; here none.)

        CP projects a dispatched user's working set from what it holds and how
        it pages. A user that faulted like a loading user since the last look
        (see :mod:`zvmsim.cp.scheduler`) is building its working set: every
        page it holds is projected to be in it, so pass 1 takes none of them
        however long ago it touched them. Any other user's projection moves
        halfway towards the pages it referenced since the last look.
        """
        table = space.table
        if self._faulting_in(space):
            space.wss = space.resident
        else:
            space.wss = (space.referenced + space.wss) // 2
        np.frombuffer(table.ref, dtype=np.uint8).fill(0)  # type: ignore[union-attr]
        space.referenced = 0
        self.reorder(space)
        return 0

    def _faulting_in(self, space: Space) -> bool:
        """Whether the owner of *space* took page faults like a loading user since
        the demand scan last looked at it (its first look: since it logged on)."""
        vm = space.vm
        if vm is None:
            return False
        faults, cpu_s = self._looked.get(space.name, (0, 0.0))
        self._looked[space.name] = (vm.page_faults, vm.tcpu_s)
        return faults_like_loading(
            vm.page_faults - faults, vm.tcpu_s - cpu_s, self.processors.slice_s
        )

    def reorder_due(self, space: Space) -> None:
        """At a demand scan: reorder *space* if it is due, resetting the reference
        bits of its pages; if it is not due yet, arm it: CP reorders it at its first
        dispatch once it has used ``reorder_cpu_s`` since its last reorder. So each
        guest is reordered on its own schedule while storage is short, not every
        due guest at the scan's instant."""
        if space.table is not None or self._reorder_now(space):
            return
        vm = space.vm
        if self.reorder_rnd is None or self.quiet or vm is None or not vm.reorder:
            return
        last = self._reordered.get(space.name)
        vm.reorder_at = (0.0 if last is None else last) + self._reorder_gap
        vm.reorder_space = space

    def _reorder_now(self, space: Space) -> bool:
        """Reorder a table-less *space* if it is due (its bits reset down to its hot set)."""
        if not self.reorder(space):
            return False
        space.referenced = min(space.referenced, space.hot)
        if space.vm is not None:
            space.vm.reorder_at = math.inf
        return True

    def _reorder_armed(self, vm: Vmdbk) -> None:
        """The dispatcher's hook: *vm*'s armed reorder came due as it was dispatched."""
        space = vm.reorder_space
        if space is not None and space.table is None:
            self._reorder_now(space)

    def reorder(self, space: Space) -> bool:
        """Page reorder: CP resets the reference bits of every resident page of a guest.

        Before z/VM 6.3 resetting a guest's bits means walking its whole
        user-frame-owned list (an RRBE per frame): CP time in proportion to the
        pages resident, during which the guest — all its virtual CPUs — is
        stopped. The walk holds one processor (system time, ahead of the
        guests) and the guest waits until it is done (a guest being reordered
        is not reordered again). IBM says a reorder serializes the guest being
        reordered, not the system, though several guests may be reordered at
        once. CP reorders a guest periodically: here, once it has used
        ``reorder_cpu_s`` of processor time since its last reorder, at a
        demand scan or, once a scan has armed it, at its own next dispatch
        (:meth:`reorder_due`): the guests' reorders come on their own
        schedules, so they seldom hold several processors at once. Each guest
        was last reordered before the run, at a point of its cycle drawn at
        random when the demand scan first meets it: like guests that run alike
        are not all reordered at the first scan and in step from then on.
        Returns whether the reorder was done.
        """
        vm = space.vm
        if self.reorder_rnd is None or self.quiet or vm is None or space.resident == 0:
            return False
        if not vm.reorder:  # SET REORDER userid OFF: its bits are never reset
            return False
        if vm.reorder_until == math.inf:  # a reorder in progress
            return False
        used = vm.tcpu_s
        last = self._reordered.get(space.name)
        if last is None:  # it was last reordered before the run, somewhere in its cycle
            last = used - self.reorder_rnd.random() * self._reorder_gap
            self._reordered[space.name] = last
        if used - last < self._reorder_gap:
            return False  # it has run too little since its last reorder
        self._reordered[space.name] = used
        jitter = self._reorder_jitter
        spread = 1.0 + jitter * (2.0 * self.reorder_rnd.random() - 1.0)
        seconds = space.resident * self._reorder_s * spread
        vm.reorder_until = math.inf  # stopped until CP's walk of its frames is done
        vm.reorder_done = done = self.env.event()
        work = self.processors.run_system(seconds)
        work.callbacks.append(lambda _event: self._reorder_end(vm, done))
        space.reorders += 1
        space.reorder_s += seconds
        return True

    def _reorder_end(self, vm: Vmdbk, done: simpy.Event) -> None:
        """A reorder's walk is done: *vm* may run again."""
        vm.reorder_until = self.env.now
        done.succeed()

    def steal(self, space: Space, n: int, honour_ref: bool, reset_bits: bool = True) -> int:
        """Take up to *n* resident pages of *space*; return how many were taken.

        With *honour_ref*, referenced pages are passed over; *reset_bits* says
        whether passing over them clears their bits (a second chance) — the
        friendly pass does not clear a shared space's bits, so a VDISK page
        used once stays out of its reach.
        """
        if n <= 0 or space.resident == 0:
            return 0
        pages: list[int] | None = None
        if space.table is not None:
            pages, cleared, examined = space.table.take(n, honour_ref)
            space.referenced -= cleared
            taken = len(pages)
        elif honour_ref:
            floor = min(space.hot, space.resident)  # touched again before the scan is done
            space.referenced = max(space.referenced, floor)
            resident, unreferenced = space.resident, space.unreferenced
            taken = min(n, unreferenced)
            if taken < n:
                examined = resident  # the scan visited every page
                if reset_bits:
                    space.referenced = floor  # ... and reset their bits
                    if space.kind == "guest":
                        self.reorder(space)
            else:  # where the n-th unreferenced frame lies, on average, among the resident
                examined = min(resident, -(-n * (resident + 1) // (unreferenced + 1)))
        else:
            taken = examined = min(n, space.resident)
            space.referenced = min(space.referenced, space.resident - taken)
        self.examined += examined
        if taken == 0:
            return 0
        space.resident -= taken
        space.referenced = min(space.referenced, space.resident)
        space.steals += taken
        self.available += taken
        self._page_out(space, taken, pages)
        return taken

    def _into_xstore(self, space: Space, count: int) -> None:
        """*count* pages of *space* are now in XSTORE, the newest in its age order."""
        space.xstor += count
        space.ms_to_x += count
        self.xstore_used += count
        age = self._xstore_age
        if age and age[-1][0] is space:
            age[-1][1] += count
        else:
            age.append([space, count])

    def _oldest_xstore(self, count: int) -> tuple[Space, int] | None:
        """The space with the oldest pages in XSTORE and how many of them (at most
        *count*) can go; None if XSTORE holds no pages."""
        age = self._xstore_age
        while age:
            space, pages = age[0]
            take = min(count, pages, space.xstor)
            if take > 0:
                return space, take
            age.popleft()
        return None

    def _leave_oldest_xstore(self, count: int) -> None:
        """*count* of the oldest XSTORE pages (``_oldest_xstore``'s) leave it."""
        chunk = self._xstore_age[0]
        chunk[1] -= count
        if chunk[1] <= 0:
            self._xstore_age.popleft()
        chunk[0].xstor -= count
        self.xstore_used -= count

    def _note_reclaims(self) -> None:
        """At a demand scan: which spaces paged back from XSTORE since the last one."""
        seen = self._x_in_seen
        reclaiming = set()
        for space in self.spaces:
            if space.x_to_ms != seen.get(space.name, 0):
                reclaiming.add(space.name)
                seen[space.name] = space.x_to_ms
        self._reclaiming = reclaiming

    def _migration_class(self, space: Space) -> int:
        """How late CP migrates *space*'s XSTORE pages: 1 its owner, a user in the
        dispatch list, has been paging them back from XSTORE since the demand scan
        before last, 0 otherwise (a user out of the dispatch list, or a shared
        space such as a VDISK, goes by age alone)."""
        if space.vm is None or space.listed != "dispatch":
            return 0
        name = space.name
        if name in self._reclaiming or space.x_to_ms != self._x_in_seen.get(name, 0):
            return 1
        return 0

    def _migration_victim(self, count: int) -> tuple[list, int] | None:
        """The XSTORE pages CP migrates next: the oldest chunk (``[space, pages]``
        of the age order) of the spaces it migrates first (``_migration_class``),
        and how many of its pages (at most *count*) can go; None if XSTORE is empty.

        Migration works by age and user: the oldest pages go first (a user idle
        longest has them, while one idle a short while keeps its pages in XSTORE),
        but a user in the dispatch list paging its XSTORE pages back in is using
        them, so its pages stay in XSTORE while others' can go.
        """
        age = self._xstore_age
        while age and min(age[0][1], age[0][0].xstor) <= 0:
            age.popleft()
        if not age:
            return None
        head = age[0]
        # the class is 0 or 1: the head is passed over only if it is of class 1 and
        # a space of class 0 holds XSTORE pages (the holders' least class, 0)
        if self._migration_class(head[0]) == 1:
            held = {s.name: s for s in self.spaces if s.xstor > 0}
            if any(self._migration_class(s) == 0 for s in held.values()):
                for chunk in age:
                    space, pages = chunk
                    if min(pages, space.xstor) > 0 and self._migration_class(space) == 0:
                        head = chunk
                        break
        return head, min(count, head[1], head[0].xstor)

    def _leave_xstore(self, chunk: list, count: int) -> None:
        """*count* pages of *chunk* (``_migration_victim``'s) leave XSTORE."""
        chunk[1] -= count
        chunk[0].xstor -= count
        self.xstore_used -= count
        age = self._xstore_age
        while age and age[0][1] <= 0:
            age.popleft()

    def _page_out(self, space: Space, count: int, pages: list[int] | None) -> None:
        if self.xstore_pages == 0:
            self._write_blocks(space, count, pages)
            return
        room = self.xstore_pages - self.xstore_used
        if room < count:  # XSTORE is full: migrate its oldest pages, what this page-out needs
            self._migrate(self._migration(count - room))
        self._into_xstore(space, count)
        if not self.quiet:
            self.processors.charge_system(self._pgout_s * count)
        if pages is not None:
            loc = space.table.loc  # type: ignore[union-attr]
            for i in pages:
                loc[i] = XST

    def _migration(self, short: int) -> int:
        """How many XSTORE pages CP migrates when a page-out is *short* of room.

        Migration is paced by the page-outs: it frees what they need, so its
        writes arrive at the paging volumes as the demand scan's own would,
        however large XSTORE is.
        """
        return min(short, self.xstore_used)

    def _migrate(self, count: int) -> None:
        """Move *count* XSTORE pages to DASD, chosen by ``_migration_victim``.

        A page cannot go from expanded storage to DASD directly: CP brings it
        into a central frame first (a page-in, CP's own time), then writes it.
        """
        while count > 0:
            chosen = self._migration_victim(count)
            if chosen is None:
                raise ZvmsimError("XSTORE accounting lost track of its pages")
            chunk, take = chosen
            victim = chunk[0]
            pages = None
            if victim.table is not None:
                pages = victim.table.take_xstor(take)
                take = len(pages)
            self._leave_xstore(chunk, take)
            victim.x_to_ds += take
            self.migrated += take
            if not self.quiet:
                self.processors.charge_system(self._pgin_s * take)
            self._write_blocks(victim, take, pages, migration=True)
            count -= take

    def _write_blocks(
        self, space: Space, count: int, pages: list[int] | None, migration: bool = False
    ) -> None:
        """Write *count* pages of *space* to paging DASD, as one stream of blocks.

        The pages CP has ready together (one visit's steal from a user, or the
        XSTORE pages one page-out migrates from it) go out in placements of up
        to a window of slots each, on the volume the allocator chooses
        (:meth:`PagingDevices.place`), written in runs of contiguous free slots.
        Tracked pages form *blocks*: the pages of one segment (1 MB) stolen
        together, in address order; a fault later reads its block back. One
        placement may hold several small blocks.
        """
        space.dasd += count
        if not migration:
            space.page_writes += count
        paging = self.paging
        if pages is None and self.quiet:
            for volume, n in paging.spread(count):
                _slots_on(space.dasd_on, volume, n)
                space.blocked[0] += n  # in the blocks the volume's cursor would give
                space.blocked[1] += -(-n // paging.run_at(volume, count))
            return
        if pages is None:
            done = 0
            while done < count:
                volume, n = paging.place(count - done)
                if not self.quiet:
                    paging.queue_write(volume, n)
                _slots_on(space.dasd_on, volume, n)
                space.blocked[0] += n
                space.blocked[1] += 1
                done += n
            return
        # the pages in address order, cut into blocks at each segment's end and
        # each placement's (a segment's pages while the placement holds them);
        # each block's pages are linked in address order (PageTable), all in bulk
        order = np.sort(np.asarray(pages, dtype=np.int32))
        total = len(order)
        if not total:
            return
        placed, volumes = [0], []  # where each placement ends in *order*, and its volume
        while placed[-1] < total:
            volume, n = paging.place(total - placed[-1])
            if not self.quiet:
                paging.queue_write(volume, n)
            placed.append(placed[-1] + n)
            volumes.append(volume)
        seg = order // SEGMENT_PAGES
        cut = np.zeros(total + 1, dtype=bool)  # where a block ends
        cut[1:-1] = seg[1:] != seg[:-1]
        cut[placed] = True
        ends = np.flatnonzero(cut[1:]) + 1
        after = np.empty_like(order)  # the next page of its block, -1 for a block's last
        after[:-1] = order[1:]
        after[ends - 1] = -1
        before = np.empty_like(order)  # the previous page, -1 for a block's first
        before[1:] = order[:-1]
        before[0] = -1
        before[ends[:-1]] = -1
        table = space.table
        np.frombuffer(table.loc, dtype=np.uint8)[order] = DASD  # type: ignore[union-attr]
        on = np.repeat(np.asarray(volumes, dtype=np.int32), np.diff(placed))
        np.frombuffer(table.vol, dtype=np.int32)[order] = on  # type: ignore[union-attr]
        np.frombuffer(table.nxt, dtype=np.int32)[order] = after  # type: ignore[union-attr]
        np.frombuffer(table.prv, dtype=np.int32)[order] = before  # type: ignore[union-attr]

    # ---- page-ins: called by guests ----------------------------------------

    def touch(self, user: Vmdbk, space: Space, page: int) -> Generator[Any, Any, Any] | None:
        """Touch one page of a space with a page table.

        Returns None when the touch completes without waiting (resident, first
        touch, or a synchronous XSTORE page-in); otherwise a process step to
        ``yield from`` while the page's block is read from DASD.
        """
        table = space.table
        state = table.loc[page]  # type: ignore[union-attr]
        if state == RES:
            if not table.ref[page]:  # type: ignore[union-attr]
                table.ref[page] = 1  # type: ignore[union-attr]
                space.referenced += 1
            return None
        if state == NEW:
            self.take_frames(1)
            table.loc[page] = RES  # type: ignore[union-attr]
            table.ref[page] = 1  # type: ignore[union-attr]
            space.resident += 1
            space.referenced += 1
            if space.resident + space.xstor + space.dasd + space.moving > (
                space.pgmbks * SEGMENT_PAGES
            ):
                self._back_segments(space)
            return None
        if state == XST:
            # out of XSTORE first: a demand scan started by take_frames may migrate
            # XSTORE pages to DASD, and must not pick the one coming in
            table.loc[page] = MOVING  # type: ignore[union-attr]
            space.xstor -= 1
            space.x_to_ms += 1
            self.xstore_used -= 1
            self.take_frames(1)
            table.loc[page] = RES  # type: ignore[union-attr]
            table.ref[page] = 1  # type: ignore[union-attr]
            space.resident += 1
            space.referenced += 1
            user.pending_cp_s += self._pgin_s
            return None
        if state == DASD:
            return self._read_block(user, space, page)
        raise ZvmsimError(f"page {page} of {space.name} touched while in flight")

    def first_touch_range(self, space: Space, start: int, end: int) -> None:
        """Touch never-touched pages *start*..*end*-1 of a tracked space, in one go.

        Frames are taken first (the demand scan may run), then the pages become
        resident and referenced — what touching them one by one would do,
        without a Python step per page. Pages already touched are left alone.
        """
        table = space.table
        loc = table.loc  # type: ignore[union-attr]
        new = loc.count(NEW, start, end)
        if new == 0:
            return
        if new != end - start:
            raise ZvmsimError(f"{space.name}: first_touch_range over pages already touched")
        self.take_frames(new)
        loc[start:end] = bytes([RES]) * new
        table.ref[start:end] = b"\x01" * new  # type: ignore[union-attr]
        space.resident += new
        space.referenced += new
        self._back_segments(space)

    def resident_run(self, space: Space, start: int, limit: int) -> int:
        """Touch the resident pages from *start* up to the first one that is not.

        Returns the index of that page (or *limit*). Reference bits are set in
        bulk, so walking resident memory costs no per-page Python work.
        """
        loc = space.table.loc  # type: ignore[union-attr]
        if start < limit and loc[start] != RES:
            return start  # no run at all (a page in XSTORE touched after another, say)
        end = limit
        # the nearest page in any other state ends the run; the likeliest states
        # first, so that each later search covers a shorter stretch
        for state in (DASD, XST, MOVING, NEW):
            found = loc.find(state, start, end)
            if found >= 0:
                end = found
        if end > start:
            ref = space.table.ref  # type: ignore[union-attr]
            space.referenced += ref.count(0, start, end)
            ref[start:end] = b"\x01" * (end - start)
        return end

    def _read_block(self, user: Vmdbk, space: Space, page: int) -> Generator[Any, Any, Any]:
        """Read the faulting page and the next pages of its block, ``read_pages`` at most.

        The block's pages are in address order; the read takes the faulting
        page and the ones after it, so a guest walking its storage finds them
        resident. What is left of the block stays on DASD.
        """
        table = space.table
        volume = table.vol[page]  # type: ignore[union-attr]
        nxt, prv = table.nxt, table.prv  # type: ignore[union-attr]
        # the faulting page and the ones after it, wrapping round to the block's first
        coming = [page]
        other = page
        while len(coming) < self.read_pages:
            other = nxt[other]
            if other < 0:  # past the block's last page: back to its first
                other = page
                while prv[other] >= 0:
                    other = prv[other]
            if other == page:  # the whole block is coming
                break
            coming.append(other)
        for i in coming:  # out of the block; what is left stays linked in address order
            before, after = prv[i], nxt[i]
            if before >= 0:
                nxt[before] = after
            if after >= 0:
                prv[after] = before
        loc = table.loc  # type: ignore[union-attr]
        n = len(coming)
        self.take_frames(n)
        for i in coming:
            loc[i] = MOVING
        space.dasd -= n
        space.moving += n
        user.pending_cp_s += self._fault_s
        yield from self.paging.read(user, volume, n)
        self.paging.read_done(volume, n)
        for i in coming:
            loc[i] = RES
        table.ref[page] = 1  # type: ignore[union-attr]
        space.moving -= n
        space.resident += n
        space.referenced += 1
        space.page_reads += n

    def release_counted(self, space: Space) -> None:
        """A counted space is destroyed (a VDISK detached): its frames, XSTORE
        pages and DASD slots all become free, and its pages untouched again."""
        if space.moving:
            raise ZvmsimError(f"{space.name} released while pages are in flight")
        self.available += space.resident
        self.xstore_used -= space.xstor
        block = self.block_of(space)
        for volume, n in space.dasd_on.items():
            self.paging.volumes[volume].free(n, -(-n // block))
        space.dasd_on.clear()
        space.resident = space.referenced = space.xstor = space.dasd = 0
        self.available += PGMBK_FRAMES * space.pgmbks  # its page tables go too
        self.cp_frames -= PGMBK_FRAMES * space.pgmbks
        space.pgmbks = 0

    def first_touch_counted(self, space: Space, n: int) -> None:
        """*n* never-touched pages of a counted space get frames (no I/O), and each
        segment they are the first in a PGMBK."""
        if n > 0:
            self.take_frames(n)
            space.resident += n
            space.referenced += n
            self._back_segments(space)

    def xstore_in_counted(self, user: Vmdbk, space: Space, n: int) -> None:
        """Bring *n* pages of a counted space back from XSTORE (synchronous)."""
        if n > 0:
            self.take_frames(n)
            space.xstor -= n
            space.x_to_ms += n
            self.xstore_used -= n
            space.resident += n
            space.referenced += n
            user.pending_cp_s += self._pgin_s * n

    def history_writes(self, space: Space, pages: float) -> None:
        """A counted space was written *pages* times in the past (a VDISK in use).

        Never-written pages got frames first, then pages stolen since came back
        in; every page written is referenced. No I/O timing, like
        :meth:`history_counted`.
        """
        count = round(pages)
        first = min(space.untouched, count)
        self.first_touch_counted(space, first)
        self.history_counted(space, min(space.xstor + space.dasd, count - first))
        space.referenced = space.resident

    def history_hot(self, space: Space) -> None:
        """A counted space's hot set (``space.wss`` pages) is touched all the time: at
        the end of any stretch of the past it is resident (new pages first, the rest
        brought in by :meth:`history_counted`, without I/O timing)."""
        self.first_touch_counted(space, min(space.wss - space.resident, space.fresh))
        self.history_counted(space, max(0, space.wss - space.resident))
        space.referenced = min(space.resident, space.wss)

    def history_counted(self, space: Space, n: int) -> None:
        """Bring *n* non-resident pages of a counted space in, with no I/O timing.

        Used to compress a stretch of the system's past into its storage state.
        """
        n = min(n, space.xstor + space.dasd)
        from_x = round(n * space.xstor / (space.xstor + space.dasd)) if n else 0
        self.take_frames(n)
        space.resident += n
        space.xstor -= from_x
        self.xstore_used -= from_x
        left = n - from_x
        space.dasd -= left
        on, total = space.dasd_on, sum(space.dasd_on.values())
        volumes = self.paging.volumes
        for volume in sorted(on):
            if not left:  # the rest would take nothing
                break
            take = min(left, on[volume], -(-(n - from_x) * on[volume] // total))
            on[volume] -= take
            volumes[volume].used -= take
            left -= take
        if left:
            for volume in sorted(on):
                take = min(left, on[volume])
                on[volume] -= take
                volumes[volume].used -= take
                left -= take
        for volume in [v for v, pages in on.items() if not pages]:
            del on[volume]

    @staticmethod
    def block_of(space: Space) -> int:
        """The pages of one block of a counted *space* on DASD: the mean of the
        blocks its pages were written in (one, if none was written yet)."""
        pages, blocks = space.blocked
        return max(1, round(pages / blocks)) if blocks else 1

    def read_counted(self, user: Vmdbk, space: Space, pages: int = 0) -> Generator[Any, Any, Any]:
        """Fault one block of a counted space in from DASD; the user waits.

        The read brings ``read_pages`` pages, or *pages* when given (a block
        page-in of a user coming back from dormancy)."""
        pick = self.rnd.random() * space.dasd
        on = space.dasd_on
        for volume, held in on.items():  # noqa: B007 (volume order: see _slots_on)
            pick -= held
            if pick < 0:
                break
        n = min(pages or self.read_pages, on[volume])
        on[volume] -= n
        if not on[volume]:
            del on[volume]
        self.take_frames(n)
        space.dasd -= n
        space.moving += n
        user.pending_cp_s += self._fault_s
        yield from self.paging.read(user, volume, n)
        self.paging.read_done(volume, n)
        space.moving -= n
        space.resident += n
        space.referenced += 1
        space.page_reads += n

    def touch_cold(self, user: Vmdbk, space: Space, write: bool) -> Generator[Any, Any, Any] | None:
        """Touch one page of a counted space outside its hot set, chosen uniformly
        (a page never touched only within the owner's footprint).

        *write* says whether the touch changes the page; before z/VM 6.3 CP
        writes every page it steals anyway, so it changes nothing here.
        Returns a process step to ``yield from`` when the page is on DASD.
        """
        hot = min(space.wss, space.resident)
        return self._touch_one(user, space, space.fresh, space.resident - hot)

    def touch_cold_run(
        self,
        user: Vmdbk,
        space: Space,
        run: ColdRun,
        left: int,
        busy: float,
    ) -> tuple[int, float, Generator[Any, Any, Any] | None]:
        """Up to *left* of a guest's cold touches (:meth:`touch_cold`), each adding
        ``run.per_touch`` to *busy*, until one needs a step or *busy* reaches the slice.

        Each touch first draws whether it writes (below ``run.write``) from
        ``run.rnd``; with no ``run.rnd`` it only reads. Before z/VM 6.3 the
        draw changes nothing (:meth:`touch_cold`), but it is made all the same.
        :meth:`touch_cold` and :meth:`_touch_one` are inline here: the same
        draws, in the same order. So are :meth:`first_touch_counted`,
        :meth:`xstore_in_counted` and :meth:`take_frames` when no scan is due
        and the available-list lock is held by this guest's step already
        (:meth:`FrameLock.take`'s same-instant case): the space's, the user's,
        the storage's and the lock's counters are kept in locals meanwhile (a first
        touch that backs a new segment goes through :meth:`first_touch_counted`) and
        written back, the same sums in the same order, before anything else
        looks at them. Returns (touches done, busy, the step or None).
        """
        grnd, _, per_touch, slice_s = run
        random = self.rnd.random
        draw = None if grnd is None else grnd.random
        lock = self.lock
        now = self.env.now
        low = self.low
        pgin_s = self._pgin_s * 1  # xstore_in_counted's charge for one page
        hold = 0.0 if lock is None else lock.hold_s + 0.0  # take_frames's, with no scan
        done = 0
        step = None
        while True:  # a stretch with the counters in locals
            resident, referenced = space.resident, space.referenced
            xstor, dasd, wss = space.xstor, space.dasd, space.wss
            # never touched, within the owner's footprint (Space.fresh)
            untouched = space.footprint - resident - xstor - dasd - space.moving
            if untouched < 0:
                untouched = 0
            available = self.available
            # pages the space's PGMBKs cover: a first touch past them backs a new segment
            backed_cap = space.pgmbks * SEGMENT_PAGES - space.moving
            x_in = 0  # pages brought back from XSTORE in this stretch
            pend = user.pending_cp_s
            if lock is None:
                inline = True
            else:  # take_frames would take the lock at once, with no spin
                inline = not self.quiet and lock._last == now
                requests, held, free_at = lock.requests, lock.held_s, lock.free_at
            call = 0  # why the stretch ended: 1 first touch, 2 XSTORE, 3 DASD
            cold = resident - (wss if wss < resident else resident)  # outside the hot set
            total = untouched + cold + xstor + dasd
            while done < left:
                done += 1
                busy += per_touch
                if draw is not None:
                    draw()  # whether the touch writes
                pick = random() * total
                if pick < untouched:
                    if resident + xstor + dasd >= backed_cap:
                        call = 4  # a new segment: first_touch_counted takes its PGMBK
                        break
                    if not inline or available - 1 < low:
                        call = 1
                        break
                    available -= 1  # first_touch_counted(space, 1)
                    untouched -= 1
                elif pick - untouched < cold:
                    if random() * resident >= referenced:
                        referenced += 1
                    if busy >= slice_s:
                        break
                    continue
                elif pick - untouched - cold < xstor:
                    if not inline or available - 1 < low:
                        call = 2
                        break
                    available -= 1  # xstore_in_counted(user, space, 1)
                    xstor -= 1
                    x_in += 1
                    pend += pgin_s
                else:
                    if dasd:
                        call = 3
                        break
                    if busy >= slice_s:
                        break
                    continue
                # a frame taken inline: the lock, as take_frames takes it
                if lock is not None:
                    requests += 1
                    held += hold
                    free_at = (free_at if free_at > now else now) + hold
                resident += 1
                referenced += 1
                cold = resident - (wss if wss < resident else resident)
                total = untouched + cold + xstor + dasd
                if busy >= slice_s:
                    break
            # write the stretch's counters back
            space.resident, space.referenced, space.xstor = resident, referenced, xstor
            if x_in:
                space.x_to_ms += x_in
                self.xstore_used -= x_in
            self.available = available
            user.pending_cp_s = pend
            if lock is not None:
                lock.requests, lock.held_s, lock.free_at = requests, held, free_at
            if call in (1, 2) and lock is not None and available - 1 >= low:
                # take_frames with no scan due, the lock not yet taken at this instant
                if not self.quiet:
                    lock.take(now, hold)
                self.available = available - 1
                if call == 2:  # the rest of xstore_in_counted(user, space, 1)
                    space.xstor -= 1
                    space.x_to_ms += 1
                    self.xstore_used -= 1
                    user.pending_cp_s += pgin_s
                space.resident += 1
                space.referenced += 1
            elif call in (1, 4):
                self.first_touch_counted(space, 1)
            elif call == 2:
                self.xstore_in_counted(user, space, 1)
            elif call == 3:
                step = self.read_counted(user, space)
            if call == 0 or step is not None or busy >= slice_s:
                return done, busy, step

    def history_clean(self, space: Space, n: int) -> None:
        """*n* resident pages were paged out and in long ago, unchanged since. Before
        z/VM 6.3 a page read back gives up its slot, so this leaves no trace."""

    def keep_hot(self, user: Vmdbk, space: Space) -> Generator[Any, Any, Any]:
        """The hot set (``space.wss`` pages) is touched all the time: bring back what
        is missing (new pages within the footprint, then XSTORE, then DASD) and
        keep its bits set."""
        wss = space.wss
        missing = wss - space.resident
        if missing > 0:
            self.first_touch_counted(space, min(missing, space.fresh))
            self.xstore_in_counted(user, space, min(wss - space.resident, space.xstor))
            while space.resident < wss and space.dasd:
                yield from self.read_counted(user, space)
        space.referenced = min(space.resident, max(space.referenced, wss))

    def fault_counted(self, user: Vmdbk, space: Space) -> Generator[Any, Any, Any] | None:
        """Touch one non-resident page of a counted space, chosen in proportion
        (a page never touched only within the owner's footprint)."""
        return self._touch_one(user, space, space.fresh, 0)

    def touch_counted(
        self, user: Vmdbk, space: Space, written_only: bool = False
    ) -> Generator[Any, Any, Any] | None:
        """Touch one page of a counted space chosen uniformly (e.g. a swap slot).

        With *written_only*, the page is one that was written before (a read).
        Returns a process step to ``yield from`` when the page must come from DASD.
        """
        untouched = 0 if written_only else space.untouched
        return self._touch_one(user, space, untouched, space.resident)

    def read_written_run(
        self, user: Vmdbk, space: Space, count: int, cp_s: float
    ) -> tuple[int, Generator[Any, Any, Any] | None]:
        """Up to *count* guest reads of written pages of a counted space, each a
        virtual I/O costing CP *cp_s* then :meth:`touch_counted` with *written_only*
        (inline: the same draws, in the same order), until one needs a step.

        Returns (reads done, the step to ``yield from`` or None)."""
        random = self.rnd.random
        done = 0
        # the counters in locals while the reads find their pages resident; written
        # back before anything else looks at them (the same sums, in the same order)
        vio, pend = user.vio, user.pending_cp_s
        resident, referenced = space.resident, space.referenced
        xstor, dasd = space.xstor, space.dasd
        while done < count:
            done += 1
            vio += 1
            pend += cp_s
            pick = random() * (resident + xstor + dasd)
            if pick < resident:
                if random() * resident >= referenced:
                    referenced += 1
                continue
            user.vio, user.pending_cp_s, space.referenced = vio, pend, referenced
            if pick - resident < xstor:
                self.xstore_in_counted(user, space, 1)
                vio, pend = user.vio, user.pending_cp_s
                resident, referenced = space.resident, space.referenced
                xstor, dasd = space.xstor, space.dasd
            elif dasd:
                return done, self.read_counted(user, space)
        user.vio, user.pending_cp_s, space.referenced = vio, pend, referenced
        return done, None

    def _touch_one(
        self, user: Vmdbk, space: Space, untouched: int, resident: int
    ) -> Generator[Any, Any, Any] | None:
        """Touch a page drawn uniformly from *untouched* new pages, *resident* resident
        ones and the space's pages in XSTORE and on DASD; a DASD page is a step to wait on."""
        pick = self.rnd.random() * (untouched + resident + space.xstor + space.dasd)
        if pick < untouched:
            self.first_touch_counted(space, 1)
            return None
        pick -= untouched
        if pick < resident:
            if self.rnd.random() * space.resident >= space.referenced:
                space.referenced += 1
            return None
        if pick - resident < space.xstor:
            self.xstore_in_counted(user, space, 1)
            return None
        if space.dasd:
            return self.read_counted(user, space)
        return None
