"""Where the minidisk cache lives: central storage or expanded storage (XSTORE).

VM/ESA let the minidisk cache hold its data in central storage, in
expanded storage, or both (``SET MDCACHE STORAGE`` and ``SET MDCACHE
XSTORE``, or ``RETAIN XSTORE MDC``). Where it lives decides what it costs:

* **central** — every cached 4 KB page is a real frame taken from the
  available list when a track is inserted and given back when it is evicted.
  When the demand scan needs frames, the *arbiter* takes a share of them from
  the cache before it steals users' pages: MDC's share of the frames in use,
  weighted by the bias (``SET MDCACHE STORAGE BIAS``: above 1 MDC gives up
  less, below 1 more). So MDC in central grows when storage is plentiful and
  shrinks when users need it, by itself.
* **xstore** — the cache is a fixed part of expanded storage that paging can
  no longer use. A hit cannot be copied to the guest from XSTORE directly:
  CP first moves each 4 KB block into a central frame (a synchronous page-in,
  CP's time), and every staged track is moved out to XSTORE (a page-out per
  4 KB). A cache in XSTORE never shrinks when central storage is short.

The cache itself (lookups, LRU, staging) is :mod:`zvmsim.cp.mdc`; this module
only keeps the books of its storage and charges the moves.
"""

from __future__ import annotations

from .mdc import MinidiskCache
from .storage import Storage
from .vmdbk import Vmdbk

__all__ = ["MDC_HOMES", "MdcHome"]

MDC_HOMES = ("central", "xstore")


class MdcHome:
    """The minidisk cache's storage, in central frames or in XSTORE pages."""

    __slots__ = (
        "where",
        "storage",
        "mdc",
        "bias",
        "frames",
        "given_back",
        "xstore_retained",
        "_pgin_s",
        "_pgout_s",
    )

    def __init__(self, where: str, storage: Storage, mdc: MinidiskCache, bias: float) -> None:
        self.where = where
        self.storage = storage
        self.mdc = mdc
        self.bias = bias
        self.frames = 0  # central frames the cache holds now
        self.given_back = 0  # frames the arbiter took back for the demand scan (cumulative)
        self._pgin_s = storage.path_us["xstore_pgin_us"] / 1e6
        self._pgout_s = storage.path_us["xstore_pgout_us"] / 1e6
        self.xstore_retained = 0  # XSTORE pages kept for the cache, out of paging's reach
        if where == "xstore":  # all of XSTORE is the cache's (RETAIN XSTORE MDC): none for paging
            mdc.capacity = storage.xstore_pages // mdc.unit_blocks
            self.xstore_retained = storage.xstore_pages
            storage.xstore_pages = 0  # (less than a track left over: unused)
        else:
            storage.mdc_home = self

    @property
    def xstore_pages(self) -> int:
        """XSTORE pages the cache holds now."""
        return self.mdc.cached_pages if self.where == "xstore" else 0

    # ---- called by the minidisk cache ---------------------------------------

    def hit(self, user: Vmdbk, blocks: int) -> None:
        """A read served from the cache: from XSTORE, each block is moved to central first."""
        if self.where == "xstore":
            user.pending_cp_s += self._pgin_s * blocks

    def inserted(self, user: Vmdbk, units: int) -> None:
        """*units* were inserted: take their frames, or move them out to XSTORE."""
        pages = units * self.mdc.unit_blocks
        if self.where == "xstore":
            user.pending_cp_s += self._pgout_s * pages
            return
        self.settle()

    def settle(self) -> None:
        """Frames held follow the cache's pages: take frames for new ones (the demand
        scan may run), give back those of evicted ones."""
        if self.where != "central":
            return
        diff = self.mdc.cached_pages - self.frames
        if diff > 0:
            self.frames += diff
            self.storage.take_frames(diff)
        diff = self.mdc.cached_pages - self.frames  # the scan may have shrunk the cache
        if diff < 0:
            self.frames += diff
            self.storage.available -= diff

    # ---- called by the demand scan ------------------------------------------

    def give_back(self, need: int) -> int:
        """The arbiter: frames taken from the cache for a demand scan needing *need*."""
        if self.frames == 0:
            return 0
        in_use = self.storage.frames - self.storage.available
        share = self.frames / max(in_use, 1) / max(self.bias, 1e-6)
        units = -(-int(need * min(share, 1.0)) // self.mdc.unit_blocks)
        freed = self.mdc.shrink(units) * self.mdc.unit_blocks
        self.frames -= freed
        self.storage.available += freed
        self.given_back += freed
        return freed
