"""Virtual DASD I/O to minidisks: CP's simulation of a guest's disk I/O.

A minidisk is an extent of a real volume. A guest's virtual I/O costs CP
processor time (charged to the guest, which is what raises T/V) and then goes
either through the minidisk cache — when MDC is on for the system, the volume
and the minidisk — or straight to the real I/O layer, where it is always
PAV-eligible. Each real I/O names the track it starts on, which the control
unit's cache (when simulated) looks up.

MDC keys its units by volume and track (track MDC) or by volume and 4 KB
record (record-level MDC), so minidisks on different volumes never share
a cache entry.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any, Final

import simpy

from .io import VolumeIO
from .mdc import MinidiskCache
from .vmdbk import IOW, Vmdbk

__all__ = ["Minidisk"]

BLOCK_BYTES: Final = 4096


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
        "_key_base",
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
        volume_number: int = 0,
    ) -> None:
        self.name = name
        self.volume = volume
        self.first_track = first_track
        self.blocks = tracks * blocks_per_track
        self.blocks_per_track = blocks_per_track
        self.mdc = mdc
        self._vio_s = vio_us / 1e6
        self.vio_by: dict[str, int] = {}  # virtual I/Os by linking user
        self._key_base = volume_number << 40  # MDC keys of different volumes never meet

    @property
    def vio_s(self) -> float:
        """CP's processor time to simulate one virtual I/O to this minidisk."""
        return self._vio_s

    def _tracks(self, block: int, count: int, base: int = 0) -> range:
        """The volume's tracks blocks *block*.. lie on (plus *base*)."""
        bpt = self.blocks_per_track
        base += self.first_track
        return range(base + block // bpt, base + (block + count - 1) // bpt + 1)

    def _span(self, block: int, count: int) -> int:
        """How many tracks blocks *block*.. (*count* of them) lie on."""
        bpt = self.blocks_per_track
        return (block + count - 1) // bpt - block // bpt + 1

    def mdc_keys(self, block: int, count: int) -> range:
        """The MDC units (tracks, or records for record-level MDC) blocks *block*.. occupy."""
        mdc = self.mdc
        if mdc is not None and mdc.record_level:
            first = self._key_base + self.first_track * self.blocks_per_track + block
            return range(first, first + count)
        return self._tracks(block, count, self._key_base)

    def key_track(self, key: int) -> int:
        """The volume track an MDC unit (a key of :meth:`mdc_keys`) lies on."""
        key -= self._key_base
        mdc = self.mdc
        return key // self.blocks_per_track if mdc is not None and mdc.record_level else key

    def extent_keys(self) -> range:
        """Every MDC unit of the whole minidisk (what an invalidation of it looks up)."""
        return self.mdc_keys(0, self.blocks)

    def warm(self, block: int, count: int) -> None:
        """A read from before the run: through MDC, and to the control unit's cache if missed.

        No timing and no counters: it only leaves the caches as such reads would.
        """
        mdc, cache = self.mdc, self.volume.cache
        if mdc is not None and mdc.touch(self.mdc_keys(block, count)):
            return
        if cache is not None and cache.caching:
            cache.warm(self._tracks(block, count))

    def io(
        self,
        user: Vmdbk,
        block: int,
        count: int,
        write: bool,
        runs: int = 1,
        state: int | None = IOW,
    ) -> Iterable:
        """One virtual I/O of *count* blocks from *block* (wrapping); ``yield from`` it.

        Returns the real I/O's process steps, or nothing to wait for when MDC
        avoids the I/O outright. The user waits in *state* (None: an
        asynchronous I/O the guest does not wait for).
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
            return volume.io(
                user,
                count * BLOCK_BYTES,
                not write,
                True,
                state,
                track=track,
                runs=runs,
                tracks=self._span(block, count),
            )
        if mdc.lock is not None:  # CP is invalidating part of the cache: wait for it
            return self._after_lock(user, block, count, write, track, runs, state)
        return self._through_mdc(user, block, count, write, track, runs, state)

    def _after_lock(
        self,
        user: Vmdbk,
        block: int,
        count: int,
        write: bool,
        track: int | None,
        runs: int,
        state: int | None = IOW,
    ) -> Generator[Any, Any, Any]:
        """Wait until MDC's lock is free, then go through MDC."""
        mdc = self.mdc
        while mdc.lock is not None:  # type: ignore[union-attr]
            if state is not None:
                user.state = state
            yield mdc.lock  # type: ignore[union-attr]
        yield from self._through_mdc(user, block, count, write, track, runs, state)

    def _through_mdc(
        self,
        user: Vmdbk,
        block: int,
        count: int,
        write: bool,
        track: int | None,
        runs: int = 1,
        state: int | None = IOW,
    ) -> Iterable:
        """A virtual I/O through the minidisk cache: avoided, staged, or written through."""
        mdc, volume = self.mdc, self.volume
        assert mdc is not None
        if mdc.record_level:
            keys = self.mdc_keys(block, count)
        else:  # the tracks the blocks lie on (mdc_keys, inline)
            bpt = self.blocks_per_track
            base = self._key_base + self.first_track
            keys = range(base + block // bpt, base + (block + count - 1) // bpt + 1)
        if write:  # write-through: the cached copy is refreshed as the write starts
            mdc.write_lookup(user)
            mdc.refresh(keys)
            return volume.io(
                user,
                count * BLOCK_BYTES,
                False,
                mdc.pav_eligible,
                state,
                track=track,
                runs=runs,
                tracks=self._span(block, count),
                timed=False,
            )
        to_stage, waits, done = mdc.lookup(user, keys, count)
        if done is None:
            volume.base.avoided += 1
            user.vio_avoid += 1
            if not waits:
                return ()
        return self._staged_read(user, to_stage, waits, done, state)

    def _staged_read(
        self,
        user: Vmdbk,
        to_stage: list[int],
        waits: list,
        done: simpy.Event | None,
        state: int | None = IOW,
    ) -> Generator[Any, Any, Any]:
        """Stage missing units (full tracks, or records), then wait for others' stagings."""
        mdc, volume = self.mdc, self.volume
        assert mdc is not None  # (narrowed, so the compiled code calls it directly)
        if done is not None:
            unit = BLOCK_BYTES if mdc.record_level else mdc.track_bytes
            nbytes = unit * len(to_stage)
            track = self.key_track(to_stage[0]) if volume.cache is not None else None
            tracks = 1 if mdc.record_level else len(to_stage)
            eligible = mdc.pav_eligible
            yield from volume.io(
                user, nbytes, True, eligible, state, track=track, tracks=tracks, timed=False
            )
            mdc.staged(user, to_stage, done)
        for wait in waits:
            if not wait.processed:
                if state is not None:
                    user.state = state
                yield wait
