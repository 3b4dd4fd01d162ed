"""PTRM spaces: the CP-owned address spaces that hold guests' DAT tables.

CP keeps the page tables of guest storage (PGMBKs, 8 KB per 1 MB segment a
guest has backed) in pageable address spaces of its own, PTRM0000,
PTRM0001, ... (Page Table Resource Manager). Each maps a fixed amount of
guest virtual (512 GB: 8 TB over 16 spaces), so their number caps the guest
storage the system can have logged on:

* z/VM 6.2 and earlier: at most 16 spaces, created as guests log on, 8 TB;
* z/VM 6.3: 128 spaces created at system initialization, 64 TB.

Guests take the guest virtual of the spaces in logon order, a guest bigger
than what is left of a space running on into the next. A space's pages are
the PGMBK pages for all it maps; its resident pages are those of the
segments its guests have backed (CP does not page them out here).
"""

from __future__ import annotations

from ..calibration import PtrmModel
from ..errors import ZvmsimError
from .spaces import Space
from .storage import SEGMENT_PAGES

__all__ = ["PGMBK_PAGES", "PtrmSpace", "PtrmSpaces"]

PGMBK_PAGES = 2  # one PGMBK (8 KB) per 1 MB segment


class PtrmSpace:
    """One PTRM space: the guests (and ranges of their storage) it maps."""

    def __init__(self, name: str, maps: int) -> None:
        self.name = name
        self.maps = maps  # guest virtual it can map, in pages
        self.extents: list[tuple[Space, int, int]] = []  # (guest, first page, pages)
        self.mapped = 0  # guest virtual mapped so far, in pages (the extents' sum)

    def map(self, guest: Space, first: int, n: int) -> None:
        """Map *n* pages of *guest* from page *first*."""
        self.extents.append((guest, first, n))
        self.mapped += n

    @property
    def pages(self) -> int:
        """The space's size: PGMBK pages for all the guest virtual it can map."""
        return self.maps // SEGMENT_PAGES * PGMBK_PAGES

    @property
    def users(self) -> int:
        """Guests with DAT tables in this space."""
        return len({s.owner for s, _, _ in self.extents})

    @property
    def resident(self) -> int:
        """PGMBK pages of the segments its guests have backed (touched pages)."""
        total = 0
        for space, first, n in self.extents:
            backed = space.pages - space.untouched
            mine = min(max(0, backed - first), n)
            total += -(-mine // SEGMENT_PAGES) * PGMBK_PAGES
        return total


class PtrmSpaces:
    """The PTRM spaces of one system, for its release."""

    def __init__(self, model: PtrmModel, release: tuple[int, int]) -> None:
        self.release = release
        self.z63 = release >= (6, 3)
        self.limit = model.spaces_63 if self.z63 else model.spaces_62
        self.space_pages = model.space_pages
        self.spaces: list[PtrmSpace] = []
        if self.z63:  # all created at system initialization
            for _ in range(self.limit):
                self._create()

    def _create(self) -> PtrmSpace:
        space = PtrmSpace(f"PTRM{len(self.spaces):04X}", self.space_pages)
        self.spaces.append(space)
        return space

    @property
    def limit_pages(self) -> int:
        """The guest virtual all the release's spaces can map."""
        return self.limit * self.space_pages

    def logon(self, guest: Space) -> None:
        """Map *guest*'s storage, creating spaces as needed (z/VM 6.2 and earlier)."""
        used = sum(s.mapped for s in self.spaces)
        if used + guest.pages > self.limit_pages:
            tb = (used + guest.pages) / 2**28
            level = "6.3" if self.z63 else "6.2"
            raise ZvmsimError(
                f"user {guest.owner}: logged-on guest storage {tb:.4g} TB exceeds the "
                f"{self.limit_pages / 2**28:g} TB z/VM {level} addresses with its "
                f"{self.limit} PTRM spaces"
            )
        first = 0
        while first < guest.pages:
            space = next((s for s in self.spaces if s.mapped < s.maps), None)
            if space is None:
                space = self._create()
            n = min(guest.pages - first, space.maps - space.mapped)
            space.map(guest, first, n)
            first += n
