"""Virtual DASD I/O to minidisks: CP's simulation of a guest's disk I/O.

A minidisk is an extent of a real volume. A guest's virtual I/O costs CP
processor time (charged to the guest, which is what raises T/V) and then goes
either through the minidisk cache — when MDC is on for the system, the volume
and the minidisk — or straight to the real I/O layer, where it is always
PAV-eligible. Each real I/O names the track it starts on, which the control
unit's cache (when simulated) looks up.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable

import simpy

from .io import VolumeIO
from .mdc import MinidiskCache
from .vmdbk import IOW, Vmdbk

__all__ = ["Minidisk"]

BLOCK_BYTES = 4096


class Minidisk:
    """A minidisk formatted in 4 KB blocks, as CMS does."""

    __slots__ = (
        "name",
        "volume",
        "first_track",
        "blocks",
        "blocks_per_track",
        "mdc",
        "vio_by",
        "_vio_s",
    )

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
        self.vio_by: dict[str, int] = {}  # virtual I/Os by linking user

    def _tracks(self, block: int, count: int) -> range:
        bpt = self.blocks_per_track
        first = self.first_track + block // bpt
        last = self.first_track + (block + count - 1) // bpt
        return range(first, last + 1)

    def io(self, user: Vmdbk, block: int, count: int, write: bool, runs: int = 1) -> Iterable:
        """One virtual I/O of *count* blocks from *block* (wrapping); ``yield from`` it.

        Returns the real I/O's process steps, or nothing to wait for when MDC
        avoids the I/O outright.
        """
        blocks = self.blocks
        if block >= blocks:
            block %= blocks
        if count > blocks - block:
            count = blocks - block
        user.vio += 1
        user.vio_dasd += 1
        self.vio_by[user.userid] = self.vio_by.get(user.userid, 0) + 1
        user.pending_cp_s += self._vio_s
        mdc, volume = self.mdc, self.volume
        track = None if volume.cache is None else self.first_track + block // self.blocks_per_track
        if mdc is None:
            return volume.io(user, count * BLOCK_BYTES, not write, True, track=track, runs=runs)
        if write:  # write-through: the cached copy is refreshed as the write starts
            mdc.write_lookup(user)
            mdc.refresh(self._tracks(block, count))
            return volume.io(
                user, count * BLOCK_BYTES, False, mdc.pav_eligible, track=track, runs=runs
            )
        to_stage, waits, done = mdc.lookup(user, self._tracks(block, count), count)
        if done is None:
            volume.base.avoided += 1
            user.vio_avoid += 1
            if not waits:
                return ()
        return self._staged_read(user, to_stage, waits, done)

    def _staged_read(
        self, user: Vmdbk, to_stage: list[int], waits: list, done: simpy.Event | None
    ) -> Generator:
        """Stage missing tracks (full-track read), then wait for others' stagings."""
        mdc, volume = self.mdc, self.volume
        if done is not None:
            nbytes = mdc.track_bytes * len(to_stage)  # type: ignore[union-attr]
            track = to_stage[0] if volume.cache is not None else None
            yield from volume.io(user, nbytes, True, mdc.pav_eligible, track=track)  # type: ignore[union-attr]
            mdc.staged(user, to_stage, done)  # type: ignore[union-attr]
        for wait in waits:
            if not wait.processed:
                user.state = IOW
                yield wait
