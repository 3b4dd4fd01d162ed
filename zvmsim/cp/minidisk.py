"""Virtual DASD I/O to minidisks: CP's simulation of a guest's disk I/O.

A minidisk is an extent of a real volume. A guest's virtual I/O costs CP
processor time (charged to the guest, which is what raises T/V) and then goes
either through the minidisk cache — when MDC is on for the system, the volume
and the minidisk — or straight to the real I/O layer, where it is always
PAV-eligible.
"""

from __future__ import annotations

from collections.abc import Generator

from .io import VolumeIO
from .mdc import MinidiskCache
from .vmdbk import Vmdbk

__all__ = ["Minidisk"]

BLOCK_BYTES = 4096


class Minidisk:
    """A minidisk formatted in 4 KB blocks, as CMS does."""

    def __init__(
        self,
        name: str,
        volume: VolumeIO,
        first_track: int,
        tracks: int,
        blocks_per_track: int,
        mdc: MinidiskCache | None,
        vio_us: float,
    ) -> None:
        self.name = name
        self.volume = volume
        self.first_track = first_track
        self.blocks = tracks * blocks_per_track
        self.blocks_per_track = blocks_per_track
        self.mdc = mdc
        self._vio_s = vio_us / 1e6

    def _tracks(self, block: int, count: int) -> range:
        bpt = self.blocks_per_track
        first = self.first_track + block // bpt
        last = self.first_track + (block + count - 1) // bpt
        return range(first, last + 1)

    def io(self, user: Vmdbk, block: int, count: int, write: bool) -> Generator:
        """One virtual I/O of *count* blocks starting at *block* (wraps at the end)."""
        block %= self.blocks
        count = min(count, self.blocks - block)
        user.vio += 1
        user.vio_dasd += 1
        user.pending_cp_s += self._vio_s
        nbytes = count * BLOCK_BYTES
        tracks = self._tracks(block, count)
        if self.mdc is None:
            yield from self.volume.io(user, nbytes, not write, True)
        elif write:
            yield from self.mdc.write(user, self.volume, tracks, nbytes)
        else:
            avoided = yield from self.mdc.read(user, self.volume, tracks, count)
            user.vio_avoid += avoided
