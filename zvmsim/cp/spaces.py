"""Address spaces: where every page of a guest or a VDISK is, as counts.

A 384 GB system has a hundred million frames, so pages are never objects.
Each :class:`Space` keeps counts per state — resident (and how many of those
were referenced since the demand scan last looked), in expanded storage
(XSTORE), on paging DASD — plus cumulative paging counters for the monitor.

Where a lesson needs to know *which* page is where (a single thrasher
walking its memory), a space also carries a :class:`PageTable`: one byte of
state per page and a clock hand, the way CP's frame-table scan sweeps.
"""

from __future__ import annotations

import random
from array import array
from collections import deque
from collections.abc import Iterator
from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np

from .vmdbk import DM, Vmdbk

__all__ = ["DASD", "NEW", "ColdRun", "PageTable", "RES", "Space", "XST"]

NEW, RES, XST, DASD, MOVING = 0, 1, 2, 3, 4  # never touched, resident, XSTORE, DASD, in flight
SWEEP_CHUNK: Final = 4096  # pages a clock sweep tests at a time, at least


class ColdRun(NamedTuple):
    """How a guest's transaction touches its cold pages (``touch_cold_run``)."""

    rnd: random.Random | None  # draws whether each touch writes; None: reads only
    write: float  # the share of touches that write
    per_touch: float  # CPU seconds each touch adds to the burst
    slice_s: float  # the burst runs once it reaches this


class PageTable:
    """Per-page state for one space: location, referenced bit, DASD volume and block."""

    __slots__ = ("loc", "ref", "vol", "nxt", "prv", "order", "hand", "xhand")

    def __init__(self, pages: int, rnd: random.Random) -> None:
        self.loc = bytearray(pages)
        self.ref = bytearray(pages)
        # a page on DASD: its paging volume, and the other pages of its block (the
        # pages one write put there together, still on DASD) as a list linked in
        # address order: the next and the previous, -1 at either end
        self.vol = array("i", bytes(4 * pages))
        self.nxt = array("i", bytes(4 * pages))
        self.prv = array("i", bytes(4 * pages))
        # CP scans frames in real-storage order, which has nothing to do with the
        # guest's virtual addresses: the clock hands walk a shuffled page order.
        self.order = _sweep_order(rnd.getrandbits(64), pages)
        self.hand = 0  # the steal clock hand (a position in order)
        self.xhand = 0  # the XSTORE migration hand

    def _chunks(self, pos: int, n: int) -> Iterator[tuple[int, np.ndarray]]:
        """The sweep from *pos* in pieces: (position, the pages there in sweep order).

        Each piece is bounded by the end of the order (it wraps to 0) and is
        larger when more pages are wanted; the caller stops when it has enough.
        """
        size = len(self.loc)
        steps = 0
        while steps < size:
            length = min(size - steps, size - pos, max(4 * n, SWEEP_CHUNK))
            yield pos, self.order[pos : pos + length]
            steps += length
            pos += length
            if pos == size:
                pos = 0

    def take(self, n: int, honour_ref: bool) -> tuple[list[int], int, int]:
        """Sweep the clock: pick up to *n* resident pages to steal.

        With *honour_ref*, a referenced page loses its bit and is passed over
        (a second chance), as the friendly passes do; otherwise anything goes.
        Returns the pages taken, how many referenced bits were cleared and how
        many resident frames the sweep examined (tested, and taken or passed over).
        The pages are tested a piece of the sweep at a time, in bulk; the sweep
        stops just after the *n*-th page taken, as a page-by-page clock would.
        """
        loc = np.frombuffer(self.loc, dtype=np.uint8)
        ref = np.frombuffer(self.ref, dtype=np.uint8)
        taken: list[int] = []
        cleared = examined = 0
        pos = self.hand
        size = len(loc)
        if n > 0:
            for start, pages in self._chunks(pos, n):
                res = loc[pages] == RES
                referenced = res & (ref[pages] != 0)
                chosen = res & ~referenced if honour_ref else res
                need = n - len(taken)
                counts = np.cumsum(chosen)
                if counts.size and counts[-1] >= need:
                    last = int(np.searchsorted(counts, need)) + 1  # through the n-th page
                    pages, res, referenced, chosen = (
                        pages[:last],
                        res[:last],
                        referenced[:last],
                        chosen[:last],
                    )
                examined += int(np.count_nonzero(res))
                cleared += int(np.count_nonzero(referenced))
                ref[pages[referenced]] = 0
                taken.extend(pages[chosen].tolist())
                pos = (start + len(pages)) % size
                if len(taken) >= n:
                    break
        self.hand = pos
        return taken, cleared, examined

    def take_xstor(self, n: int) -> list[int]:
        """The next *n* pages held in XSTORE, in sweep order (for migration)."""
        loc = np.frombuffer(self.loc, dtype=np.uint8)
        taken: list[int] = []
        pos = self.xhand
        size = len(loc)
        if n > 0:
            for start, pages in self._chunks(pos, n):
                chosen = loc[pages] == XST
                need = n - len(taken)
                counts = np.cumsum(chosen)
                if counts.size and counts[-1] >= need:
                    last = int(np.searchsorted(counts, need)) + 1
                    pages, chosen = pages[:last], chosen[:last]
                taken.extend(pages[chosen].tolist())
                pos = (start + len(pages)) % size
                if len(taken) >= n:
                    break
        self.xhand = pos
        return taken


@lru_cache(maxsize=8)  # a 768 MB thrasher's is 1.5 MB
def _sweep_order(bits: int, pages: int) -> np.ndarray:
    """A clock's shuffled page order, drawn from *bits* (read-only: kept for the next
    run with the same seed, as a dashboard makes; shuffling is most of a table's cost)."""
    order = np.random.default_rng(bits).permutation(pages)
    order.flags.writeable = False
    return order


class Space:
    """One address space: a guest's storage or a VDISK, counted by page state."""

    __slots__ = (
        "name",
        "owner",
        "kind",
        "pages",
        "footprint",
        "resident",
        "referenced",
        "xstor",
        "dasd",
        "moving",
        "reserved",
        "wss",
        "hot",
        "table",
        "page_reads",
        "page_writes",
        "steals",
        "x_to_ms",
        "ms_to_x",
        "x_to_ds",
        "rnd",
        "dasd_on",
        "vm",
        "reorders",
        "reorder_s",
        "ibr",
        "pnr",
        "aged",
        "age_chunks",
        "clean",
        "inst",
        "inval",
        "reval",
        "ready",
        "not_ready",
        "early",
        "pgmbks",
        "aged_written",
        "slotted",
        "blocked",
    )

    def __init__(
        self,
        name: str,
        owner: str,
        kind: str,
        pages: int,
        rnd: random.Random,
        detailed: bool = False,
        reserved: int = 0,
    ) -> None:
        self.name = name
        self.owner = owner
        self.kind = kind  # "guest" or "vdisk"
        self.pages = pages
        # the pages its owner ever touches (all of them, unless the owner says less:
        # a server whose storage in use has settled touches no new pages)
        self.footprint = pages
        self.resident = 0
        self.referenced = 0
        self.xstor = 0
        self.dasd = 0
        self.moving = 0
        self.reserved = reserved
        self.wss = 0
        self.hot = 0  # pages touched so often that a cleared bit is set again at once
        self.vm: Vmdbk | None = None  # the guest whose list membership counts
        self.table = PageTable(pages, rnd) if detailed else None
        self.dasd_on: dict[int, int] = {}  # paging volume -> pages there (counted spaces)
        self.page_reads = 0
        self.page_writes = 0
        # pages written to paging DASD and the blocks they went in (counted spaces)
        self.blocked = [0, 0]
        self.steals = 0
        self.x_to_ms = 0
        self.ms_to_x = 0
        self.x_to_ds = 0
        self.reorders = 0  # page reorders CP did for this space (z/VM 6.2 and earlier)
        self.reorder_s = 0.0  # and the time they took
        # z/VM 6.3 storage management (see storage63): resident pages are valid, or
        # invalid but resident — trial-invalidated in the owner's list (ibr), read
        # with a block but not touched yet (pnr), or on the global aging list (aged)
        self.ibr = 0
        self.pnr = 0
        self.aged = 0
        self.age_chunks: deque[list] = deque()  # its chunks of the aging list, oldest first
        self.clean = 0  # resident pages off the aging list whose copy on DASD is current
        self.inst = 0  # cumulative: pages instantiated (first touched)
        self.inval = 0  # trial invalidations
        self.reval = 0  # revalidations (an invalid but resident page touched)
        self.ready = 0  # frames reclaimed with a current copy on DASD (no write)
        self.not_ready = 0  # frames reclaimed that had to be written first
        self.early = 0  # pages written early (prewritten from the aging list)
        self.pgmbks = 0  # page-table blocks CP built for it (one per segment backed)
        self.aged_written = 0  # pages on the aging list with a current copy on DASD
        self.slotted = 0  # resident pages that keep a paging slot (6.3 writes them back there)
        self.rnd = rnd

    @property
    def listed(self) -> str:
        """Which scheduler list the owner is on: dispatch, eligible, dormant (or shared)."""
        if self.kind == "vdisk":
            return "shared"
        if self.vm is None or self.vm.state == DM:
            return "dormant"
        if self.vm.elisted:
            return "eligible"
        return "dispatch"

    @property
    def untouched(self) -> int:
        """Pages never touched (no frame, no slot)."""
        return self.pages - self.resident - self.xstor - self.dasd - self.moving

    @property
    def fresh(self) -> int:
        """Pages never touched that the owner will still touch (within its footprint)."""
        return max(0, self.footprint - self.pages + self.untouched)

    @property
    def valid(self) -> int:
        """Resident pages the guest can touch without a fault (z/VM 6.3: not invalidated)."""
        return self.resident - self.ibr - self.pnr - self.aged

    @property
    def unreferenced(self) -> int:
        """Resident pages not referenced since the scan last visited."""
        return self.resident - self.referenced

    def check(self) -> None:
        """Every page is in exactly one place (or in flight); raise if not."""
        parts = (self.resident, self.xstor, self.dasd, self.moving, self.untouched)
        if min(parts) < 0 or self.referenced > self.resident or self.referenced < 0:
            raise AssertionError(f"space {self.name}: page counts inconsistent {parts}")
        if min(self.ibr, self.pnr, self.aged, self.valid, self.clean) < 0:
            raise AssertionError(f"space {self.name}: 6.3 resident split inconsistent")
        if self.aged != sum(c[1] for c in self.age_chunks):
            raise AssertionError(f"space {self.name}: aging-list pages lost")
        if self.aged_written != sum(c[2] for c in self.age_chunks):
            raise AssertionError(f"space {self.name}: aging-list written pages lost")
        if self.table is not None:
            loc = self.table.loc
            counts = [loc.count(s) for s in (RES, XST, DASD, MOVING)]
            if counts != [self.resident, self.xstor, self.dasd, self.moving]:
                raise AssertionError(f"space {self.name}: table {counts} != counts")
