"""A physical DASD drive behind a storage control: its arm, its rotation, its data rate.

Before RAID emulation, a 3390 volume was one drive with one actuator. An I/O
the control unit's cache cannot serve goes to the drive, disconnected from
the channel while the arm *seeks* from the cylinder of the previous access
to the one it needs (longer for longer distances: the seek time grows with
the square root of the distance) and the platter turns the record under the
head (*rotational delay*, uniform between none and one revolution). The
data then streams at the drive's data rate with the channel connected, much
slower than a transfer out of cache.

So a drive's service time depends on where the workload's I/Os fall: I/Os
kept to a small extent seek little, I/Os that alternate between distant
minidisks seek a lot.
"""

from __future__ import annotations

import math
import random

from ..calibration import DriveModel

__all__ = ["Drive"]


class Drive:
    """One drive: its arm position and the time each access takes."""

    __slots__ = (
        "cylinder",
        "accesses",
        "_rev_s",
        "_settle_s",
        "_per_sqrt_s",
        "_rate",
        "_tpc",
        "_rand",
    )

    def __init__(self, model: DriveModel, tracks_per_cylinder: int, rnd: random.Random) -> None:
        self.cylinder = 0  # where the arm is (the last seek's cylinder)
        self.accesses = 0
        self._rev_s = 60.0 / model.rpm
        self._settle_s = model.seek_settle_ms / 1000.0
        self._per_sqrt_s = model.seek_ms_per_sqrt_cyl / 1000.0
        self._rate = model.data_rate_mb_s * 1e6
        self._tpc = tracks_per_cylinder
        self._rand = rnd.random

    def seek_s(self, distance: int) -> float:
        """Seconds the arm takes to move *distance* cylinders."""
        return self._settle_s + self._per_sqrt_s * math.sqrt(distance) if distance else 0.0

    def access(self, track: int, nbytes: int, runs: int = 1) -> tuple[float, float]:
        """An access to *track*: (seek plus rotational delays, data transfer) in seconds.

        *runs* is the number of separate places on the cylinder the I/O's
        blocks lie in: the head waits for each to come round.
        """
        cylinder = track // self._tpc
        seek = self.seek_s(abs(cylinder - self.cylinder))
        self.cylinder = cylinder
        self.accesses += 1
        rand, rev = self._rand, self._rev_s
        latency = rev * rand()
        for _ in range(runs - 1):
            latency += rev * rand()
        return seek + latency, nbytes / self._rate
