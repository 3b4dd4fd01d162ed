"""Minidisk cache (MDC): a track cache in central storage.

On a read, MDC looks up every track the guest's blocks live on. If all are
cached the virtual I/O is *avoided*: CP copies the blocks to the guest and no
real I/O happens. Otherwise MDC reads the missing tracks whole (a full-track
read, bigger than the guest asked for) and inserts them, evicting the least
recently used tracks when full. A read that needs a track another user is
already staging waits for that I/O instead of starting its own, and still
counts as avoided. Writes go through to the device (write-through) and
refresh any cached copy; they do not insert.

MDC starts its real I/Os itself, and it must mark them PAV-eligible for the
I/O layer to fan them out over aliases. Before APAR VM64199 it never did, so
every I/O for a cached minidisk ran on the base RDEV.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Generator

import simpy

from .io import VolumeIO
from .vmdbk import IOW, Vmdbk

__all__ = ["MinidiskCache"]


class MinidiskCache:
    """CP's minidisk cache: LRU over tracks, with staging in flight."""

    def __init__(
        self,
        env: simpy.Environment,
        capacity_tracks: int,
        track_bytes: int,
        pav_eligible: bool,
        path_us: dict[str, float],
    ) -> None:
        self.env = env
        self.capacity = capacity_tracks
        self.track_bytes = track_bytes
        self.pav_eligible = pav_eligible
        self._lru: OrderedDict[int, None] = OrderedDict()
        self._staging: dict[int, simpy.Event] = {}
        self._lookup_s = path_us["mdc_lookup_us"] / 1e6
        self._copy_s = path_us["mdc_copy_us_per_block"] / 1e6
        self._insert_s = path_us["mdc_insert_us_per_track"] / 1e6
        self.hits = 0
        self.misses = 0
        self.inserts = 0

    @property
    def cached_tracks(self) -> int:
        """Tracks held in the cache now."""
        return len(self._lru)

    def read(
        self, user: Vmdbk, volume: VolumeIO, tracks: range, blocks: int
    ) -> Generator[simpy.Event, object, bool]:
        """Serve a guest read of *blocks* on *tracks*; return True if avoided."""
        lru, staging = self._lru, self._staging
        waits: list[simpy.Event] = []
        to_stage: list[int] = []
        for track in tracks:
            if track in lru:
                lru.move_to_end(track)
            elif track in staging:
                waits.append(staging[track])
            else:
                to_stage.append(track)
        user.pending_cp_s += self._lookup_s + self._copy_s * blocks
        avoided = not to_stage
        if to_stage:
            self.misses += 1
            done = self.env.event()
            for track in to_stage:
                staging[track] = done
            yield from volume.io(user, self.track_bytes * len(to_stage), True, self.pav_eligible)
            for track in to_stage:
                del staging[track]
                lru[track] = None
            self.inserts += len(to_stage)
            while len(lru) > self.capacity:
                lru.popitem(last=False)
            user.pending_cp_s += self._insert_s * len(to_stage)
            done.succeed()
        else:
            self.hits += 1
            volume.base.avoided += 1
        for wait in waits:
            if not wait.processed:
                user.state = IOW
                yield wait
        return avoided

    def write(self, user: Vmdbk, volume: VolumeIO, tracks: range, nbytes: int) -> Generator:
        """Write through to the device, then refresh cached copies of *tracks*."""
        user.pending_cp_s += self._lookup_s
        yield from volume.io(user, nbytes, False, self.pav_eligible)
        lru = self._lru
        for track in tracks:
            if track in lru:
                lru.move_to_end(track)
