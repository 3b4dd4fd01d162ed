"""Minidisk cache (MDC): a track cache (or a record cache) in central storage.

On a read, MDC looks up every track the guest's blocks live on. If all are
cached the virtual I/O is *avoided*: CP copies the blocks to the guest and no
real I/O happens. Otherwise MDC reads the missing tracks whole (a full-track
read, bigger than the guest asked for) and inserts them, evicting the least
recently used tracks when full. A read that needs a track another user is
already staging waits for that I/O instead of starting its own, and still
counts as avoided. Writes go through to the device (write-through) and
refresh any cached copy; they do not insert.

**Record-level MDC** (VM/ESA 1.2.1's MDC, and APAR VM61045's for CMS data)
caches the 4 KB records the guest asked for instead of whole tracks: a miss
reads only the missing records, and a random small read no longer drags a
whole track (twelve records) into the cache. The cache's unit is then a
record; everything else works the same. Which one wins depends on the access
pattern: records for scattered reads, tracks for sequential ones (the other
eleven records of a track arrive with the first).

*Invalidation*: when something changes a minidisk's data behind CP's back (a
FlashCopy establish on a target), CP must drop every cached unit of the
changed extent: :meth:`invalidate` counts the units it looked up and the
cached ones it freed. CP holds the cache's lock meanwhile (:meth:`hold`,
:meth:`release`): every virtual I/O that goes through MDC waits for it.

MDC starts its real I/Os itself, and it must mark them PAV-eligible for the
I/O layer to fan them out over aliases. Before APAR VM64199 it never did, so
every I/O for a cached minidisk ran on the base RDEV.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

import simpy

from ..clock import due
from .vmdbk import Vmdbk

if TYPE_CHECKING:
    from .mdchome import MdcHome

__all__ = ["MinidiskCache"]


class MinidiskCache:
    """CP's minidisk cache: LRU over tracks, with staging in flight."""

    __slots__ = (
        "env",
        "capacity",
        "track_bytes",
        "pav_eligible",
        "_lru",
        "_staging",
        "_lookup_s",
        "_copy_s",
        "_insert_s",
        "hits",
        "misses",
        "inserts",
        "record_level",
        "unit_blocks",
        "writes",
        "inval_calls",
        "inval_units",
        "inval_freed",
        "lock",
        "lock_s",
        "_held_at",
        "home",
    )

    def __init__(
        self,
        env: simpy.Environment,
        capacity_tracks: int,
        track_bytes: int,
        pav_eligible: bool,
        path_us: dict[str, float],
        *,
        record_level: bool = False,
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
        self.inserts = 0  # units (tracks or records) inserted
        self.record_level = record_level
        self.unit_blocks = 1 if record_level else track_bytes // 4096  # 4 KB pages per unit
        if record_level:
            self._insert_s = path_us["mdc_insert_us_per_record"] / 1e6
        self.writes = 0  # write requests looked up
        self.inval_calls = 0  # invalidation requests
        self.inval_units = 0  # units looked up by invalidations
        self.inval_freed = 0  # cached units those invalidations freed
        # held while CP invalidates part of the cache: lookups wait until it succeeds
        self.lock: simpy.Event | None = None
        self.lock_s = 0.0  # time the lock was held
        self._held_at = 0.0
        self.home: MdcHome | None = None  # where its storage lives, when modelled

    @property
    def cached_tracks(self) -> int:
        """Tracks held in the cache now."""
        return len(self._lru)

    def lookup(
        self, user: Vmdbk, tracks: range, blocks: int
    ) -> tuple[list[int], list[simpy.Event], simpy.Event | None]:
        """Look up a guest read: (tracks to stage, stagings to wait for, our staging event).

        Charges CP's lookup and copy time. When nothing needs staging the read
        is avoided; otherwise the caller reads the tracks and calls :meth:`staged`.
        """
        lru, staging = self._lru, self._staging
        user.pending_cp_s += self._lookup_s + self._copy_s * blocks
        waits: list[simpy.Event] = []
        to_stage: list[int] = []
        for track in tracks:
            if track in lru:
                lru.move_to_end(track)
            elif track in staging:
                waits.append(staging[track])
            else:
                to_stage.append(track)
        if not to_stage:
            self.hits += 1
            if self.home is not None:
                self.home.hit(user, blocks)
            return to_stage, waits, None
        self.misses += 1
        done = self.env.event()
        for track in to_stage:
            staging[track] = done
        return to_stage, waits, done

    def staged(self, user: Vmdbk, tracks: list[int], done: simpy.Event) -> None:
        """The full-track read for *tracks* finished: insert them, wake any waiters."""
        lru, staging = self._lru, self._staging
        for track in tracks:
            del staging[track]
            lru[track] = None
        self.inserts += len(tracks)
        while len(lru) > self.capacity:
            lru.popitem(last=False)
        user.pending_cp_s += self._insert_s * len(tracks)
        if self.home is not None:
            self.home.inserted(user, len(tracks))
        done._ok = True  # done.succeed(), inline: it was pending (made by lookup)
        done._value = None
        due(self.env, done)

    def write_lookup(self, user: Vmdbk) -> None:
        """Charge CP's lookup for a write, which then goes through to the device."""
        self.writes += 1
        user.pending_cp_s += self._lookup_s

    def refresh(self, tracks: range) -> None:
        """A write went through: refresh cached copies of *tracks* (no insertion)."""
        lru = self._lru
        for track in tracks:
            if track in lru:
                lru.move_to_end(track)

    @property
    def cached_pages(self) -> int:
        """4 KB pages of storage the cached units occupy now."""
        return len(self._lru) * self.unit_blocks

    def touch(self, keys: range) -> bool:
        """Warm-up without timing or counters: use *keys*, inserting the missing; all hit?"""
        lru, hit = self._lru, True
        for key in keys:
            if key in lru:
                lru.move_to_end(key)
            else:
                hit = False
                lru[key] = None
        while len(lru) > self.capacity:
            lru.popitem(last=False)
        return hit

    def shrink(self, units: int) -> int:
        """Drop up to *units* least recently used units (storage taken back); how many."""
        lru = self._lru
        n = min(units, len(lru))
        for _ in range(n):
            lru.popitem(last=False)
        return n

    def invalidate(self, keys: range) -> int:
        """Drop the cached units among *keys*; count the lookups; return how many were freed."""
        lru = self._lru
        if len(keys) > len(lru):  # fewer cached units than keys: walk the cache instead
            doomed = [key for key in lru if key in keys]
        else:
            doomed = [key for key in keys if key in lru]
        for key in doomed:
            del lru[key]
        freed = len(doomed)
        if self.home is not None:
            self.home.settle()
        self.inval_calls += 1
        self.inval_units += len(keys)
        self.inval_freed += freed
        return freed

    def hold(self) -> None:
        """Take the cache's lock (the caller waited until :attr:`lock` was None)."""
        self.lock = self.env.event()
        self._held_at = self.env.now

    def release(self) -> None:
        """Release the cache's lock and wake everyone waiting for it."""
        lock, self.lock = self.lock, None
        self.lock_s += self.env.now - self._held_at
        if lock is not None:
            lock.succeed()
