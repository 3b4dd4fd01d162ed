"""NVS: one control-unit cluster's non-volatile storage for DASD fast write.

A DASD fast write completes when its data is in cache and in NVS; the
control unit *destages* modified tracks from NVS to its back-end disks later,
oldest first, at the calibrated destage rate. NVS is finite: a write that
finds no room for its tracks cannot be a fast write. The control unit then
*bypasses* DASD fast write (the "DFW bypass" of the cache counters) and
writes the data through to the back-end disks while the channel program
waits, disconnected: a write miss, as slow as a back-end write.

A control unit with two clusters (the ESS) has one NVS per cluster, each of
half the NVS size, and a volume's writes use its logical subsystem's
cluster.

The control unit serves other systems too. What they write takes NVS room
like ours; they are not simulated one I/O at a time: their modified data
is a *level* in the NVS, filled at their write rate while they write (a
burst of ``on_s`` seconds at the start of every ``period_s``) and drained
by destaging. While their bursts outrun the destage rate the level rises
to the NVS size, and every write that arrives then -- theirs or ours -- is
a DFW bypass until destaging makes room again.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

__all__ = ["Nvs", "OtherWrites"]


@dataclass(frozen=True)
class OtherWrites:
    """Other systems' writes into one cluster's NVS: *mb_s* for *on_s* of every *period_s*.

    *cluster* None: their volumes lie in every cluster, and each cluster's NVS
    takes *mb_s* while they write.
    """

    mb_s: float
    on_s: float
    period_s: float
    cluster: int | None = 0


class Nvs:
    """One cluster's NVS: our modified tracks one by one, the other systems' as a level."""

    __slots__ = (
        "capacity",
        "rate",
        "_dirty",
        "_credit",
        "_drained_at",
        "_other",
        "_other_at",
        "_other_rate",
        "_on_s",
        "_period_s",
    )

    def __init__(self, capacity: int, rate: float) -> None:
        self.capacity = capacity  # tracks
        self.rate = rate  # tracks destaged a second
        self._dirty: OrderedDict[int, None] = OrderedDict()  # our modified tracks, oldest first
        self._credit = 0.0  # destaging progress towards our next track
        self._drained_at = 0.0
        self._other = 0.0  # the other systems' modified tracks
        self._other_at = 0.0
        self._other_rate = 0.0  # their tracks a second while they write
        self._on_s = 0.0
        self._period_s = 1.0

    def other_writes(self, other: OtherWrites, track_bytes: int) -> None:
        """Let other systems write into this NVS as *other* says."""
        self._other_rate = other.mb_s * 1e6 / track_bytes
        self._on_s = other.on_s
        self._period_s = other.period_s

    @property
    def tracks(self) -> int:
        """Our modified tracks in NVS now."""
        return len(self._dirty)

    def other_tracks(self, now: float) -> float:
        """The other systems' modified tracks in NVS at time *now* (not before the last call)."""
        level, t = self._other, self._other_at
        rate = self._other_rate
        if rate <= 0.0 or now <= t:
            return level
        on_s, period, out, cap = self._on_s, self._period_s, self.rate, float(self.capacity)
        while t < now:
            pos = t % period
            if pos < on_s:
                end, slope = t + on_s - pos, rate - out
            else:
                end, slope = t + period - pos, -out
            step = min(end, now) - t
            if step <= 0.0:  # rounding at a boundary: move on by a hair
                step = min(1e-9, now - t)
            level = min(cap, max(0.0, level + slope * step))
            t += step
        self._other, self._other_at = level, now
        return level

    def _drain(self, now: float) -> None:
        """Destage our tracks up to *now*, oldest first."""
        dirty = self._dirty
        credit = self._credit + (now - self._drained_at) * self.rate
        self._drained_at = now
        done = min(int(credit), len(dirty))
        for _ in range(done):
            dirty.popitem(last=False)
        self._credit = credit - done if dirty else 0.0  # an idle destager banks nothing

    def write(self, keys: range, now: float) -> bool:
        """A fast write of tracks *keys* at *now*: True if NVS took them (a DFW hit).

        A track still waiting in NVS takes no new room. When the rest do not
        fit, the write is a DFW bypass and NVS is left as it was.
        """
        self._drain(now)
        dirty = self._dirty
        new = [k for k in keys if k not in dirty]
        if len(dirty) + len(new) + self.other_tracks(now) > self.capacity:
            return False
        for k in new:
            dirty[k] = None
        return True
