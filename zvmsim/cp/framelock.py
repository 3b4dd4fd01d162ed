"""The available-list lock: CP's spin lock over the lists of free frames.

Every request for frames (a page coming in, a first touch, a page-table
block) and every return of frames to the lists is made under one formal
spin lock — RSA2GLCK, the lock of the frames above 2 GB, on z/VM 6.2 and
6.3 (z/VM 6.4 split it into one lock per zone of storage). A request holds
it for ``avail_lock_us``: unchain the frames, adjust the counts.

What makes it contended is who else holds it, and for how long:

* **z/VM 6.2**: the demand scan puts the frames it steals on the lists
  as it walks the users, and holds the lock for the whole scan — the
  reference bits it tests, the pages it steals — tens of milliseconds when
  it must look through gigabytes. Every other processor that needs a frame
  meanwhile *spins* until the scan is done.
* **z/VM 6.3**: the scan reclaims from the bottom of the global aging list:
  no reference bits to test, no users' frames to walk while holding it.
  The lock is held only while the reclaimed frames go onto the lists
  (``steal_us_per_page`` each); visits work on a user's own frame list,
  under that user's lock.

A spinning processor runs nothing else: its spin is CP time no user is
charged for (system time) and takes processor capacity from the guests. At
most every processor but the holder's can spin at once; a request beyond
that comes from a guest that would not be running yet, and waits without
spinning. Requests made at one instant come from one guest's step (SimPy
runs one process at a time): the first may spin, the others follow it. Requests are served first
come, first served, solved request by request without SimPy events, like
:class:`~zvmsim.cp.spinlock.SpinLock`, and counted for CP Monitor (D0 R23,
FCX265 LOCKLOG) the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from .dispatch import SystemTime

__all__ = ["FrameLock"]


class FrameLock:
    """The available-list lock of one system (counters as :class:`SpinLock`'s)."""

    def __init__(
        self,
        name: str,
        hold_us: float,
        processors: int,
        run_system: Callable[[float], object],
    ) -> None:
        """*run_system(seconds)* places CP work that holds a processor (the spins)."""
        self.name = name
        self.hold_s = hold_us / 1e6
        self.spinners_max = max(0, processors - 1)
        self._spins = SystemTime(run_system)  # spin time, placed in bursts
        self.free_at = 0.0
        self._spinning: list[float] = []  # when each processor spinning now gets the lock
        self._last = -1.0  # when the last request came (one guest's step)
        self.requests = 0
        self.collisions = 0
        self.wait_s = 0.0
        self.spin_s = 0.0
        self.held_s = 0.0  # time the lock was held, summed
        # what the D0 R23 record carries for locks PR/SM can preempt: nothing here
        self.diag44 = self.diag9c = self.sense = self.preempted = 0

    def take(self, now: float, hold_s: float | None = None) -> float:
        """A processor takes the lock at *now* and holds it *hold_s* (default: one
        request's hold); returns its spin (system seconds)."""
        hold = self.hold_s if hold_s is None else hold_s
        self.requests += 1
        self.held_s += hold
        if now == self._last:  # the same guest's step goes on: it holds the lock already
            self.free_at = max(self.free_at, now) + hold
            return 0.0
        self._last = now
        spin = 0.0
        at = now
        if self.free_at > now:
            self.collisions += 1
            at = self.free_at
            self.wait_s += at - now
            self._spinning = [t for t in self._spinning if t > now]
            if len(self._spinning) < self.spinners_max:
                spin = at - now
                self._spinning.append(at)
                self.spin_s += spin
                self._spins.add(spin)
        self.free_at = at + hold
        return spin
