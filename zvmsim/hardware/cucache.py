"""A storage controller's cache: read hits and misses, DASD fast write into NVS.

One :class:`ControlUnitCache` belongs to one control-unit *instance* and is
shared by every volume behind it, so a busy volume can push another's tracks
out. It holds:

* the **cache**: an LRU of tracks, keyed by (volume, track), whose capacity
  is the cache size over the track size. A read whose track is cached is a
  *read hit*: the control unit answers from cache with its short, calibrated
  disconnect time. A *read miss* waits for the back-end disk (seek,
  rotational delay, staging: the calibrated miss time with jitter) and the
  track is *staged* into the cache, evicting the least recently used one.
* the **NVS** (non-volatile storage, :mod:`.nvs`, one per cluster): a DASD
  fast write puts the tracks in cache and NVS and completes at cache speed
  -- a *DFW hit*. Modified tracks leave NVS oldest first at the calibrated
  destage rate; a second write to a track still waiting there takes no new
  room. A write that finds NVS full (other systems' writes may fill it) is
  a *DFW bypass*: written through to the back-end disks, its disconnect
  time is theirs (the calibrated first-track and further-track times).

An I/O covers every track its blocks lie on: a read hits only when all of
them are cached (a miss stages the missing ones), a write takes NVS room
for each. The control unit counts its cache requests per *Locate Record
domain*, not per channel program: an ECKD channel program names each place
its records lie in with a Locate Record of its own, and the control unit
makes its caching decision (hit or miss, DASD fast write) and counts a
request for each. A read whose blocks lie in *runs* places on the cylinder
counts *runs* requests (all hits or all misses with the I/O), so a volume's
cache request rate can exceed its SSCH rate.

Every volume sees the cache through a :class:`VolumeCache`, which keeps that
volume's counters (what CP's cache-activity monitor record carries) and its
own random stream for the miss-time jitter. An I/O that names no track (a
CP paging I/O, say) does not go through the cache model at all.

**Drives.** When the control unit's drives are simulated (a 3990 with 3390s
behind it, :mod:`.drive`), a read miss waits for the volume's drive — seek
from where its arm is, rotational delay — and streams its data at the
drive's rate, so its connect time grows too.

**Pinned data.** Modified data the control unit cannot destage (a failing
drive or path) is *pinned* in cache and NVS. The control unit then stops
caching the device: every read goes to the drive, no write may use DASD fast
write, and the control unit stops reporting cache activity for it. A
volume's ``caching`` flag is that state; its I/Os queue behind the drive's
seeks and rotations.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Iterable

from ..calibration import CacheModel
from .drive import Drive
from .nvs import Nvs, OtherWrites

__all__ = ["ControlUnitCache", "VolumeCache"]

MB = 2**20
TRACK_KEY_BITS = 32  # a cache key is (volume number << 32) + track


class ControlUnitCache:
    """The cache and NVS of one control-unit instance."""

    __slots__ = (
        "name",
        "cache_mb",
        "nvs_mb",
        "capacity",
        "nvs",
        "miss_s",
        "bypass_s",
        "bypass_track_s",
        "lo",
        "span",
        "lru",
        "_volumes",
    )

    def __init__(self, name: str, model: CacheModel, track_bytes: int, jitter: float) -> None:
        self.name = name
        self.cache_mb = model.cache_mb
        self.nvs_mb = model.nvs_mb
        self.capacity = max(1, int(model.cache_mb * MB // track_bytes))  # tracks
        clusters = model.clusters
        per_cluster = max(1, int(model.nvs_mb / clusters * MB // track_bytes))  # tracks
        destage = model.destage_mb_s / clusters * 1e6 / track_bytes  # tracks per second
        self.nvs = [Nvs(per_cluster, destage) for _ in range(clusters)]
        self.miss_s = model.miss_disc_ms / 1000.0
        self.bypass_s = model.bypass_ms / 1000.0
        self.bypass_track_s = model.bypass_track_ms / 1000.0
        self.lo = 1.0 - jitter
        self.span = 2.0 * jitter
        self.lru: OrderedDict[int, None] = OrderedDict()
        self._volumes: dict[str, VolumeCache] = {}

    def volume(self, volser: str, rnd: random.Random, cluster: int = 0) -> VolumeCache:
        """The cache as volume *volser* sees it (one view per volume); its writes
        use the NVS of *cluster* (taken modulo the clusters there are)."""
        if volser not in self._volumes:
            index = len(self._volumes) + 1
            nvs = self.nvs[cluster % len(self.nvs)]
            self._volumes[volser] = VolumeCache(self, volser, index << TRACK_KEY_BITS, rnd, nvs)
        return self._volumes[volser]

    def other_writes(self, other: OtherWrites, track_bytes: int) -> None:
        """Other systems write into the NVS of cluster ``other.cluster`` (None: each cluster's)."""
        if other.cluster is None:
            for nvs in self.nvs:
                nvs.other_writes(other, track_bytes)
        else:
            self.nvs[other.cluster % len(self.nvs)].other_writes(other, track_bytes)

    @property
    def cached_tracks(self) -> int:
        """Tracks in the cache now."""
        return len(self.lru)

    @property
    def nvs_tracks(self) -> int:
        """Our modified tracks in NVS now, all clusters."""
        return sum(n.tracks for n in self.nvs)

    def stage(self, key: int) -> None:
        """Put track *key* in the cache (most recently used), evicting the oldest."""
        lru = self.lru
        if key in lru:
            lru.move_to_end(key)
            return
        lru[key] = None
        if len(lru) > self.capacity:
            lru.popitem(last=False)


class VolumeCache:
    """One volume's view of its control unit's cache, with its counters."""

    __slots__ = (
        "cu",
        "volser",
        "_base",
        "_rand",
        "reads",
        "read_hits",
        "writes",
        "dfw_hits",
        "staged",
        "icl",
        "bypass",
        "dfw_bypass",
        "nvs",
        "drive",
        "caching",
        "pinned",
        "uncached",
    )

    def __init__(
        self, cu: ControlUnitCache, volser: str, base: int, rnd: random.Random, nvs: Nvs
    ) -> None:
        self.cu = cu
        self.volser = volser
        self._base = base
        self._rand = rnd.random
        self.reads = 0
        self.read_hits = 0
        self.writes = 0
        self.dfw_hits = 0
        self.staged = 0  # tracks staged into the cache (read misses)
        self.icl = 0  # inhibit-cache-load I/Os: CP never asks for them
        self.bypass = 0  # cache-bypass I/Os: CP never asks for them
        self.dfw_bypass = 0  # writes that found NVS full: written through to the disks
        self.nvs = nvs  # the NVS of the volume's cluster
        self.drive: Drive | None = None  # the volume's drive, when drives are simulated
        self.caching = True  # off: the control unit does not cache this device
        self.pinned = False  # pinned data for this device (caching is then off)
        self.uncached = 0  # I/Os served by the drive with caching off

    def pin(self) -> None:
        """Data for this device is pinned: the control unit stops caching it."""
        self.pinned = True
        self.caching = False

    def warm(self, tracks: Iterable[int]) -> None:
        """Tracks a workload has been using for hours: in the cache before the run starts."""
        for track in tracks:
            self.cu.stage(self._base + track)

    def _lookup(self, key: int, tracks: int) -> int:
        """Tracks *key*.. (*tracks* of them) not in the cache; the cached ones become MRU."""
        lru = self.cu.lru
        missing = 0
        for k in range(key, key + tracks):
            if k in lru:
                lru.move_to_end(k)
            else:
                missing += 1
        return missing

    def disconnect(
        self, track: int, read: bool, now: float, hit_disc: float, tracks: int = 1, runs: int = 1
    ) -> float:
        """Disconnect time (s) of one I/O to *track* and the *tracks* - 1 after it;
        *hit_disc* is its time as a hit, *runs* its Locate Record domains (requests).

        A read is a hit when every track it covers is in the cache; a miss
        stages the missing ones. A write is a DFW hit when NVS takes every
        track it covers; when NVS is full it is a DFW bypass, written
        through to the back-end disks (a first track, then each further
        one).
        """
        cu = self.cu
        key = self._base + track
        if read:
            self.reads += runs
            missing = self._lookup(key, tracks)
            if not missing:
                self.read_hits += runs
                return hit_disc
            for k in range(key, key + tracks):
                cu.stage(k)
            self.staged += missing
            return cu.miss_s * (cu.lo + cu.span * self._rand())
        self.writes += runs
        keys = range(key, key + tracks)
        for k in keys:
            cu.stage(k)  # the written track is in cache now
        if self.nvs.write(keys, now):
            self.dfw_hits += runs
            return hit_disc
        self.dfw_bypass += runs
        through = cu.bypass_s + (tracks - 1) * cu.bypass_track_s
        return hit_disc + through * (cu.lo + cu.span * self._rand())

    def times(
        self,
        track: int,
        read: bool,
        now: float,
        hit: tuple[float, float],
        xfer_s: float,
        nbytes: int,
        runs: int = 1,
        tracks: int = 1,
    ) -> tuple[float, float]:
        """(disconnect, connect) of one I/O to *track* and the *tracks* - 1 after it.

        *hit* is the I/O's (disconnect, connect) as a cache hit and *xfer_s*
        the part of that connect time spent moving its *nbytes* out of cache.
        An I/O the drive serves swaps that transfer for the drive's own; its
        blocks lie in *runs* places on the track's cylinder.
        """
        hit_disc, conn = hit
        drive = self.drive
        if self.caching:
            if drive is None or not read:
                return self.disconnect(track, read, now, hit_disc, tracks, runs), conn
            self.reads += runs
            cu, key = self.cu, self._base + track
            missing = self._lookup(key, tracks)
            if not missing:
                self.read_hits += runs
                return hit_disc, conn
            for k in range(key, key + tracks):
                cu.stage(k)
            self.staged += missing
        else:
            self.uncached += 1
            if drive is None:
                return self.cu.miss_s * (self.cu.lo + self.cu.span * self._rand()), conn
        seek, data = drive.access(track, nbytes, runs)  # type: ignore[union-attr]
        return hit_disc + seek, conn - xfer_s + data
