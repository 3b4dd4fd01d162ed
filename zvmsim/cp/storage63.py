"""Real storage management of z/VM 6.3: trial invalidation and the global aging list.

What changed from :mod:`zvmsim.cp.storage` (6.2), as the 6.3 talk tells it:

* **Available lists per request type.** Free frames are kept below and above
  2 GB, as *singles* and *contigs* (free frames with a free neighbour). A
  request for one frame takes a single above 2 GB first, then breaks a contig
  but leaves ``contig_protect`` frames for contig requests, and uses frames
  below 2 GB last. CP's page-table blocks (PGMBKs, 8 KB: two contiguous
  frames, one per 1 MB segment a guest backs) are the contig requests. After
  every request the demand scan is started if the frames left for either
  type are below their low threshold.
* **Reclaim from the aging list.** The demand scan
  (:class:`~zvmsim.cp.demandscan63.DemandScan63`) reclaims frames from the
  bottom of the global aging list (:mod:`zvmsim.cp.agelist`) and refills it
  from the top by visiting the users. A page with a current copy on DASD
  (never changed since it was read, or written early) is reclaimed *ready*;
  a changed page is written first (*not ready*). A page goes back to its
  own slot, and a page unchanged since it was read is not written again.
* **XSTORE is the second line.** A reclaimed page is also copied to expanded
  storage when there is any; a fault finds it there first. XSTORE full, its
  oldest copies are simply dropped (they are on DASD).
* **Trial invalidation.** A touch of an invalid-but-resident page (in its
  owner's list, read with a block but not touched yet, or on the aging list)
  is a *revalidation*: a fault with nothing to read, a few microseconds of
  CP. No reference bits, so no reorder.

Counted spaces only: a guest whose pages are tracked one by one (the
thrasher) is modelled on z/VM 6.2 and earlier.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

import simpy

from ..errors import ZvmsimError
from .agelist import AgeList
from .dispatch import Processors
from .paging import PagingDevices
from .spaces import ColdRun, Space
from .storage import SEGMENT_PAGES, Storage
from .vmdbk import Vmdbk

__all__ = ["AvailLists", "Storage63"]

B2G, A2G = 0, 1  # below and above the 2 GB line
SING, CONT = 0, 1  # singles and contigs


class AvailLists:
    """Free frames by kind (below/above 2 GB, singles/contigs) and their counters."""

    def __init__(self, frames: int, below_2g: int) -> None:
        self.below_2g = below_2g
        self.frames = frames
        b2g = min(below_2g, frames)
        # at IPL every frame is free and next to free frames: all contigs
        self.free = [[0, b2g], [0, frames - b2g]]  # [side][kind]
        self.requests = [[0, 0], [0, 0]]  # frames asked for, by side and request type
        self.returns = [[0, 0], [0, 0]]  # frames given back, by side and list
        self.empty = [[0, 0], [0, 0]]  # times a request found a list empty
        self.hf = [[0, 0], [0, 0]]  # free frames summed over high-frequency samples

    @property
    def total(self) -> int:
        """All free frames."""
        return sum(self.free[0]) + sum(self.free[1])

    def take(self, n: int, kind: int, protect: int) -> int:
        """Take *n* frames for a request of *kind*; return how many were found.

        Above 2 GB first, below last. A singles request takes singles, then
        contigs down to *protect*; a contigs request takes contigs, then singles.
        """
        left = n
        for side in (A2G, B2G):
            free = self.free[side]
            if kind == SING:
                order = ((SING, 0), (CONT, protect))
            else:
                order = ((CONT, 0), (SING, 0))
            for lst, keep in order:
                if left <= 0:
                    break
                if free[lst] <= keep:
                    self.empty[side][lst] += 1
                    continue
                got = min(left, free[lst] - keep)
                free[lst] -= got
                self.requests[side][kind] += got
                left -= got
        return n - left

    def give(self, n: int, rnd: Any) -> None:
        """*n* frames come back; each lands below 2 GB as often as in-use frames
        are there, and joins the contigs when a neighbour is free too."""
        if n <= 0:
            return
        in_use = self.frames - self.total
        in_use_b2g = self.below_2g - sum(self.free[B2G])
        b2g = min(n, round(n * in_use_b2g / in_use)) if in_use > 0 else 0
        neighbour_free = self.total / self.frames
        for side, count in ((B2G, b2g), (A2G, n - b2g)):
            cont = round(count * neighbour_free)
            self.free[side][CONT] += cont
            self.free[side][SING] += count - cont
            self.returns[side][CONT] += cont
            self.returns[side][SING] += count - cont


class Storage63(Storage):
    """Central storage, XSTORE and paging DASD under z/VM 6.3's algorithms."""

    def __init__(  # Storage's arguments, spelled out (mypyc: no *args to super())
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
        *,
        agelist: AgeList,
        below_2g: int = 524288,
        contig_low: int = 15,
        contig_protect: int = 15,
    ) -> None:
        super().__init__(
            env, frames, xstore_pages, low, high, paging, processors, read_pages, path_us, rnd,
            reorder_rnd,
        )  # fmt: skip
        self.agelist = agelist
        self.lists = AvailLists(self.frames, below_2g)
        self.contig_low = contig_low
        self.contig_protect = contig_protect
        self.cp_frames = 0  # frames CP holds for its page-table blocks
        self.table_scans = 0  # frame-table scans (the below-2 GB lists ran empty)
        path_us = self.path_us
        self.take_share = path_us.get("visit_take_pct", 0.0) / 100.0
        self._reval_s = path_us.get("reval_us", 0.0) / 1e6
        self._inval_s = path_us.get("inval_us_per_page", 0.0) / 1e6
        self._visit_s = path_us.get("visit_us", 0.0) / 1e6
        self.visits = 0
        self.reclaimed = 0
        self.written = 0  # pages written to DASD (not ready and early)

    # ---- frames ----------------------------------------------------------

    def take_frames(self, n: int, contig: bool = False) -> None:
        """Give *n* frames to a request; start the demand scan if a threshold is breached."""
        reclaimed = self.reclaimed
        self._check(n, contig)
        if self.lock is not None and not self.quiet:
            # the request holds the available-list lock, and the scan it started only
            # while the frames it reclaimed go onto the lists (visits hold users' locks)
            hold = self.lock.hold_s + self._steal_s * (self.reclaimed - reclaimed)
            self.lock.take(self.env.now, hold)
        kind = 1 if contig else 0
        got = self.lists.take(n, kind, 0 if contig else self.contig_protect)
        self.available -= got
        if got < n:
            self.times_empty += 1
            raise ZvmsimError(
                "central storage exhausted: every frame is in use or in flight "
                "(the configuration asks for more storage than the system has)"
            )
        if sum(self.lists.free[0]) == 0:
            self.table_scans += 1

    def _check(self, n: int, contig: bool) -> None:
        """Run the demand scan first if this request would breach a low threshold."""
        if self.policy is None:
            return
        lists = self.lists
        contigs = lists.free[0][1] + lists.free[1][1]
        if self.available - n < self.low or (contig and contigs - n < self.contig_low):
            need = self.high - self.available + n
            self.scans += 1
            self.frames_needed += need
            self.policy.replenish(self, need)

    def free_frames(self, n: int) -> None:
        """*n* frames go back to the available lists."""
        self.available += n
        self.lists.give(n, self.rnd)

    # ---- reclaim and writes: called by the demand scan ------------------

    def reclaim(self, need: int) -> int:
        """Reclaim up to *need* frames from the bottom of the aging list."""
        got = 0
        taken = self.agelist.reclaim(need)
        # ready pages taken off the list but still resident until their turn below
        pending: dict[str, int] = {}
        for r in taken:
            pending[r.space.name] = pending.get(r.space.name, 0) + r.ready
        for r in taken:
            space, count = r.space, r.ready + r.not_ready
            if r.not_ready:  # changed pages: written now, before the frames are reused
                clean_slotted = space.clean + space.aged_written + pending[space.name]
                self._write(space, r.not_ready, clean_slotted)
            pending[space.name] -= r.ready
            space.resident -= count
            space.referenced = min(space.referenced, space.resident)  # (6.2's bits: unused)
            space.slotted -= count
            space.steals += count
            space.ready += r.ready
            space.not_ready += r.not_ready
            self._to_aux(space, count)
            got += count
        if got:
            self.reclaimed += got
            self.taken_by_pass[0] += got
            if not self.quiet:
                self.processors.charge_system(self._steal_s * got)
            self.free_frames(got)
        for space, pages in self.agelist.to_prewrite():
            space.early += pages
            self._write(space, pages, space.clean + space.aged_written - pages)
        return got

    def visit(self, space: Space, force: int = 0) -> int:
        """One demand-scan visit: age what was invalidated last time, invalidate a little.

        Pages trial-invalidated at the previous visit (or read with a block)
        and not touched since join the top of the aging list. Then a share of
        the space's valid pages is invalidated — none below its SET RESERVED
        amount. The scan cannot tell hot pages from cold: the hot ones it
        invalidates are touched again at once (revalidated); the cold ones wait
        in the owner's list as invalid but resident. With *force* (nothing
        else is left) the valid pages go straight to the aging list.
        Returns the pages pushed to the aging list.
        """
        self.visits += 1
        pushed = space.ibr + space.pnr
        if pushed:
            # the pages with a current copy on DASD are cold ones (read and not
            # changed since, or written early): the hot set is touched, and
            # changed, all the time. So the invalidated pages are as clean as
            # the cold part of the space, not as the whole of it.
            cold = space.valid - min(space.wss, space.valid) + space.ibr
            clean_ibr = min(
                space.ibr, round(space.ibr * max(0, space.clean - space.pnr) / max(1, cold))
            )
            written = space.pnr + clean_ibr
            space.clean -= written
            self.agelist.push(space, pushed, written)
            space.ibr = space.pnr = 0
        valid = space.valid
        allowance = max(0, space.resident - space.aged - space.reserved)
        # a little of every user, by its size, less the more of what it has it is
        # touching (its estimated touch rate: the share of its valid pages in use)
        hot = min(space.wss, valid)
        cold_share = (valid - hot) / valid if valid else 0.0
        step = force if force else max(1, int(space.resident * self.take_share * cold_share))
        k = min(valid, allowance, step)
        if k <= 0:
            return pushed
        space.inval += k
        if force:
            cold = valid - min(space.wss, valid)  # the clean pages are cold ones (above)
            written = min(k, space.clean, round(k * space.clean / max(1, cold)))
            space.clean -= written
            self.agelist.push(space, k, written)
            pushed += k
        else:
            k_hot = round(k * hot / valid)
            space.reval += k_hot
            space.ibr += k - k_hot
            if space.vm is not None and not self.quiet:
                space.vm.pending_cp_s += self._reval_s * k_hot
        if not self.quiet:
            self.processors.charge_system(self._visit_s + self._inval_s * k)
        return pushed

    def _to_aux(self, space: Space, count: int) -> None:
        """Reclaimed pages: on DASD, and copied to XSTORE when there is any."""
        if self.xstore_pages == 0:
            space.dasd += count
            return
        room = self.xstore_pages - self.xstore_used
        if room < count:
            self._drop_xstore(count - room)
        self._into_xstore(space, count)
        if not self.quiet:
            self.processors.charge_system(self._pgout_s * count)

    def _drop_xstore(self, count: int) -> None:
        """Forget the *count* oldest XSTORE copies: those pages are on DASD."""
        while count > 0:
            oldest = self._oldest_xstore(count)
            if oldest is None:
                return
            victim, take = oldest
            self._leave_oldest_xstore(take)
            victim.dasd += take
            count -= take

    def _write(self, space: Space, count: int, clean_slotted: int) -> None:
        """Write *count* changed, resident pages of *space*: to their own slots, or new ones.

        *clean_slotted* is how many of its resident pages have a current copy
        on DASD (and so a slot); of the changed ones, those holding a slot are
        written back to it, the others get a new slot where CP places it.
        """
        space.page_writes += count
        self.written += count
        dirty = space.resident - clean_slotted
        slotted_dirty = max(0, space.slotted - clean_slotted)
        own = min(count, round(count * slotted_dirty / dirty)) if dirty > 0 else 0
        new = count - own
        space.slotted += new
        paging = self.paging
        if not self.quiet:  # 6.3's channel programs may be discontiguous: one I/O a volume
            for volume, n in self._spread_own(space, own):
                if n > 0:
                    paging.queue_write(volume, n)
        if self.quiet:
            for volume, n in paging.spread(new):
                space.dasd_on[volume] = space.dasd_on.get(volume, 0) + n
            return
        done = 0
        while done < new:
            volume, n = paging.place(new - done)
            space.dasd_on[volume] = space.dasd_on.get(volume, 0) + n
            paging.queue_write(volume, n)
            done += n

    @staticmethod
    def _slots(space: Space) -> int:
        return sum(space.dasd_on.values())

    def _spread_own(self, space: Space, count: int) -> list[tuple[int, int]]:
        """*count* pages that have slots, spread over the volumes holding them."""
        on = space.dasd_on
        total = sum(on.values())
        out, left = [], count
        for volume in sorted(on):
            if left <= 0:
                break
            n = min(left, -(-count * on[volume] // total)) if total else 0
            if n > 0:
                out.append((volume, n))
                left -= n
        return out

    # ---- touches: called by guests --------------------------------------

    def _revalidate(self, user: Vmdbk, space: Space, source: str) -> None:
        """An invalid but resident page is touched: it is valid again (a cheap fault)."""
        if source == "ibr":
            space.ibr -= 1
        elif source == "pnr":
            space.pnr -= 1
        else:
            if self.agelist.revalidate(space):
                space.clean += 1
        space.reval += 1
        user.pending_cp_s += self._reval_s

    def _instantiate(self, space: Space, n: int) -> None:
        """*n* never-touched pages get frames; CP backs each new segment with a PGMBK."""
        if n <= 0:
            return
        self.take_frames(n)
        space.resident += n
        space.referenced += n
        space.inst += n
        backed = space.pages - space.untouched
        segments = -(-backed // SEGMENT_PAGES)
        while space.pgmbks < segments:
            self.take_frames(2, contig=True)
            self.cp_frames += 2
            space.pgmbks += 1

    def first_touch_counted(self, space: Space, n: int) -> None:
        self._instantiate(space, n)

    def xstore_in_counted(self, user: Vmdbk, space: Space, n: int) -> None:
        if n > 0:
            space.xstor -= n
            self.xstore_used -= n
            space.moving += n
            self.take_frames(n)
            space.moving -= n
            space.resident += n
            space.slotted += n
            space.clean += n  # the DASD copy is still current
            space.x_to_ms += n
            space.referenced += n
            user.pending_cp_s += self._pgin_s * n

    def read_counted(self, user: Vmdbk, space: Space, pages: int = 0) -> Generator[Any, Any, Any]:
        """Fault one block of *space* in from DASD; the slots stay the pages'.
        (A block page-in of *pages* is 6.2's: :meth:`Storage.read_counted`.)"""
        if pages:
            raise ZvmsimError("z/VM 6.3 storage reads no block page-ins (pages=)")
        pick = self.rnd.random() * self._slots(space)
        on = space.dasd_on
        volume = -1
        for volume in sorted(on):
            pick -= on[volume]
            if pick < 0:
                break
        n = min(self.read_pages, space.dasd)
        space.dasd -= n
        space.moving += n
        self.take_frames(n)
        user.pending_cp_s += self._fault_s
        yield from self.paging.read(user, volume, n)
        self.paging.read_done(volume, n, keep_slots=True)
        space.moving -= n
        space.resident += n
        space.pnr += n - 1  # read with the block, not touched yet
        space.slotted += n
        space.clean += n
        space.referenced += 1
        space.page_reads += n

    def history_counted(self, space: Space, n: int) -> None:
        """Bring *n* non-resident pages back with no I/O timing (building a past)."""
        n = min(n, space.xstor + space.dasd)
        from_x = round(n * space.xstor / (space.xstor + space.dasd)) if n else 0
        space.xstor -= from_x
        self.xstore_used -= from_x
        space.dasd -= n - from_x
        space.moving += n
        self.take_frames(n)
        space.moving -= n
        space.resident += n
        space.slotted += n
        space.clean += n

    def history_clean(self, space: Space, n: int) -> None:
        """*n* resident pages of *space* were paged out and in long ago and not changed
        since: each keeps its slot, with a current copy there (a past, no I/O)."""
        # pages the scan already put on the aging list while the guest was being
        # built share that past: as many of them, in proportion, have their copy
        cold = space.resident - min(space.wss, space.resident)
        if space.aged and cold > 0:
            share = min(1.0, n / cold)
            aged = self.agelist.mark_written(space, share)
            n -= aged
            for volume, k in self.paging.spread(aged):
                space.dasd_on[volume] = space.dasd_on.get(volume, 0) + k
            space.slotted += aged
        n = max(0, min(n, space.valid - space.clean))
        for volume, k in self.paging.spread(n):
            space.dasd_on[volume] = space.dasd_on.get(volume, 0) + k
        space.slotted += n
        space.clean += n

    def touch_cold(self, user: Vmdbk, space: Space, write: bool) -> Generator[Any, Any, Any] | None:
        """Touch one page outside the hot set, chosen uniformly; maybe change it.

        Returns a step to ``yield from`` when the page must be read from DASD.
        """
        resident, ibr, pnr, aged = space.resident, space.ibr, space.pnr, space.aged
        valid = resident - ibr - pnr - aged
        wss = space.wss
        cold = valid - (wss if wss < valid else valid)
        xstor, dasd = space.xstor, space.dasd
        untouched = space.fresh  # never touched, within the owner's footprint
        pick = self.rnd.random() * (cold + ibr + pnr + aged + xstor + dasd + untouched)
        # the page's state, as the cumulative counts above place *pick*
        if pick < cold:
            if cold <= 0:
                return None
            if write:  # a valid cold page: only a change matters
                base = resident - aged - (wss if wss < valid else valid)
                if space.clean and self.rnd.random() * max(1, base) < space.clean:
                    space.clean -= 1
            return None
        return self._touch_state(user, space, write, pick - cold)

    def touch_cold_run(
        self,
        user: Vmdbk,
        space: Space,
        run: ColdRun,
        left: int,
        busy: float,
    ) -> tuple[int, float, Generator | None]:
        """:meth:`Storage.touch_cold_run`, with :meth:`touch_cold`'s common case (a
        valid cold page) inline: the same draws, in the same order."""
        grnd, write, per_touch, slice_s = run.rnd, run.write, run.per_touch, run.slice_s
        rnd = self.rnd
        random = rnd.random
        draw = None if grnd is None else grnd.random  # whether a touch writes
        done = 0
        counted = False  # the space's counts below are current
        while done < left:
            done += 1
            busy += per_touch
            changes = draw is not None and draw() < write
            if not counted:  # (a valid cold page's touch changes none of them)
                resident, aged = space.resident, space.aged
                valid = resident - space.ibr - space.pnr - aged
                wss = space.wss
                hot = wss if wss < valid else valid
                cold = valid - hot
                # every page: cold, ibr, pnr, aged, xstor, dasd and untouched together,
                # less the untouched ones beyond the owner's footprint
                total = space.pages - space.moving - hot - (space.untouched - space.fresh)
                base = resident - aged - hot  # the cold part, for a change
                counted = True
            pick = random() * total
            if pick < cold:  # a valid cold page: only a change matters
                if changes:
                    clean = space.clean
                    if clean and random() * max(1, base) < clean:
                        space.clean = clean - 1
                if busy >= slice_s:
                    return done, busy, None
                continue
            step = self._touch_state(user, space, changes, pick - cold)
            counted = False
            if step is not None or busy >= slice_s:
                return done, busy, step
        return done, busy, None

    def _touch_state(
        self, user: Vmdbk, space: Space, write: bool, pick: float
    ) -> Generator[Any, Any, Any] | None:
        """:meth:`touch_cold` past the valid cold pages (*pick* already reduced)."""
        parts = (space.ibr, space.pnr, space.aged, space.xstor, space.dasd, space.fresh)
        state = 1
        while state < 6 and pick >= parts[state - 1]:
            pick -= parts[state - 1]
            state += 1
        if parts[state - 1] <= 0:
            return None
        if state in (1, 2, 3):  # invalid but resident: a revalidation
            self._revalidate(user, space, ("ibr", "pnr", "aged")[state - 1])
        elif state == 4:
            self.xstore_in_counted(user, space, 1)
        elif state == 5:
            return self._read_then(user, space, write)
        elif state == 6:
            self._instantiate(space, 1)
            return None
        if write:
            self._dirty(space)
        return None

    def _read_then(self, user: Vmdbk, space: Space, write: bool) -> Generator[Any, Any, Any]:
        yield from self.read_counted(user, space)
        if write:
            self._dirty(space)

    def _dirty(self, space: Space) -> None:
        """A valid page is changed: if its DASD copy was current, it no longer is."""
        base = space.resident - space.aged - min(space.wss, space.valid)  # the cold part
        if space.clean and self.rnd.random() * max(1, base) < space.clean:
            space.clean -= 1

    def keep_hot(self, user: Vmdbk, space: Space) -> Generator[Any, Any, Any]:
        """The hot set (``space.wss`` pages) is touched all the time: make it valid."""
        missing = space.wss - space.valid
        for source in ("ibr", "pnr", "aged"):
            while missing > 0 and getattr(space, source) > 0:
                self._revalidate(user, space, source)
                missing -= 1
        if missing > 0:
            self._instantiate(space, min(missing, space.fresh))
            missing = space.wss - space.valid
        if missing > 0 and space.xstor:
            self.xstore_in_counted(user, space, min(missing, space.xstor))
        while space.valid < space.wss and space.dasd:
            yield from self.read_counted(user, space)
            space.pnr = 0  # the hot set's pages are all touched at once

    # ---- what 6.3 does not model -------------------------------------------

    def touch(self, user: Vmdbk, space: Space, page: int) -> Generator[Any, Any, Any] | None:
        raise ZvmsimError(
            "guests whose pages are tracked one by one (linux_thrasher) are "
            "modelled on z/VM 6.2 and earlier only"
        )

    def first_touch_range(self, space: Space, start: int, end: int) -> None:
        self.touch(None, space, start)  # type: ignore[arg-type]

    def steal(self, space: Space, n: int, honour_ref: bool, reset_bits: bool = True) -> int:
        raise ZvmsimError("z/VM 6.3 reclaims frames from the aging list, not by stealing")

    def release_counted(self, space: Space) -> None:
        """A counted space is destroyed: its frames, aging-list pages and slots go free."""
        if space.moving:
            raise ZvmsimError(f"{space.name} released while pages are in flight")
        self.agelist.drop_space(space)
        self.free_frames(space.resident)
        self.xstore_used -= space.xstor
        for volume, n in space.dasd_on.items():
            self.paging.volumes[volume].used -= n
        space.dasd_on.clear()
        space.resident = space.referenced = space.xstor = space.dasd = 0
        space.ibr = space.pnr = space.clean = space.slotted = 0
