"""A guest's virtual FBA I/O to a VDISK: CP's time for it.

A VDISK is an FBA disk CP emulates in a pageable address space, so an I/O
to it is no real I/O: CP handles the virtual I/O (``vio_us``) and then moves
each 512-byte block into (or out of) the VDISK's pages itself
(``vdisk_us_per_block``: locating the page, checking the block's bounds,
copying it). Every guest's VDISK I/O takes this one path, reads and writes
alike: the formatter's 64-block writes, a Linux swap page's 8 blocks.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["FBA_BLOCK", "PAGE_BLOCKS", "vdisk_io_cp_s"]

FBA_BLOCK = 512  # bytes in an FBA block
PAGE_BLOCKS = 4096 // FBA_BLOCK  # FBA blocks in a 4 KB page (a swap page)


def vdisk_io_cp_s(path_us: Mapping[str, float], blocks: int) -> float:
    """CP's seconds for one guest I/O of *blocks* FBA blocks to a VDISK."""
    return path_us["vio_us"] / 1e6 + blocks * (path_us.get("vdisk_us_per_block", 0.0) / 1e6)
