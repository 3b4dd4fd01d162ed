"""A CP formal spin lock, held by logical PUs that PR/SM may take away.

CP serialises its dispatch lists with a spin lock: a logical PU takes it to
pick its next user (and once more, when it found nothing, before it waits).
The hold is short — microseconds — and a logical PU that finds the lock held
*spins*: it loops, burning processor time that is CP's own (system time),
until the holder lets go. Lock requests are served first come, first
served: each request waits until the lock is free (``free_at``), then holds
it for a time drawn around ``hold_us`` (a queue with one server, solved
request by request, without SimPy events).

**Lock-holder preemption.** The number of logical PUs of the pool that want
a physical PU at a given instant varies about its mean (PR/SM tells its
mean and spread: :meth:`zvmsim.hardware.prsm.Prsm.pool_state`); each
request draws it. When more want one than there are physical PUs, PR/SM
ends a running logical PU's dispatch after its dispatch interval ``s``, so
a holder is undispatched during its hold with probability
``1 - exp(-hold / s)``, and stays off its physical PU for a gap of mean
``s * (ready - physical) / physical`` (Little's law, as in
:mod:`zvmsim.hardware.pools`). Every request behind it waits the whole
gap — milliseconds instead of microseconds. The more logical PUs a demand
is spread over, the more the number wanting a PU varies, and the more
often the pool is oversubscribed for a moment although on average it is not.

**The two ways to yield** (seed 001, VM64927):

* ``diag44`` (the old way): a logical PU that senses contention spins a
  little (``yield_after_us``) and issues Diag x'44' to PR/SM, a plain "I
  give up my physical PU". Each Diag x'44' is a PR/SM dispatch (PR/SM's
  time, FCX126 %Ovhd). When no other logical PU of the pool is ready PR/SM
  dispatches the spinner again at once, and it loops; when one is, the
  physical PU goes to it — rarely the holder — and the spinner stays off
  for a gap of its own (suspended time).
* ``diag9c`` (the new way): the spinner knows which logical PU holds the
  lock and asks with SIGP Sense-Running whether it is running. If it is,
  the spinner just spins (no PR/SM at all); if not, it issues Diag x'9C'
  to have PR/SM run the holder, on the spinner's own physical PU, so the
  holder's gap ends at the first spinner that notices.

Counters (requests, collisions, wait and spin time, Diag x'44' and x'9C'
calls, preempted holds) go to CP Monitor (D0 R23) for FCX265 LOCKLOG.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ..calibration import PrsmCosts

__all__ = ["PoolState", "SpinLock"]


@dataclass(frozen=True)
class PoolState:
    """z/VM's shared pool as PR/SM runs it now: how many logical PUs want a physical
    PU at a random instant (mean, standard deviation, at most), the physical PUs
    (*capacity*) and PR/SM's time per dispatch (*dispatch_s*)."""

    ready_mean: float = 0.0
    ready_sd: float = 0.0
    ready_max: float = 0.0
    capacity: float = 1.0
    dispatch_s: float = 0.0


class SpinLock:
    """One CP spin lock shared by the partition's logical PUs."""

    def __init__(
        self,
        name: str,
        policy: str,
        costs: PrsmCosts,
        pool: Callable[[], PoolState],
        interval_s: float,
        rnd: random.Random,
        on_diag: Callable[[int, int], None],
    ) -> None:
        """*pool* tells the PR/SM state now; *on_diag(cpu, n)* counts Diag calls of *cpu*."""
        self.name = name
        self.policy = policy
        self.hold_s = costs.hold_us / 1e6
        self.yield_after_s = costs.yield_after_us / 1e6
        self.sense_s = costs.sense_us / 1e6
        self.interval_s = interval_s
        self.pool = pool
        self.rnd = rnd
        self.on_diag = on_diag
        self.free_at = 0.0
        self._windows: deque[tuple[float, float]] = deque()  # holders' preempted spans
        self._first = -1.0
        self.requests = 0
        self.collisions = 0
        self.wait_s = 0.0  # request to acquisition, summed
        self.spin_s = 0.0  # processor time spent spinning
        self.diag44 = 0
        self.diag9c = 0
        self.sense = 0
        self.preempted = 0  # holds during which PR/SM undispatched the holder

    def take(self, now: float, cpu: int, times: int = 1) -> tuple[float, float]:
        """*cpu* takes the lock *times* in a row from *now*: (CP processor seconds,
        seconds not dispatched by PR/SM) the requests cost it."""
        cpu_s = away_s = 0.0
        t = now
        for _ in range(times):
            c, a = self._acquire(t, cpu)
            cpu_s += c
            away_s += a
            t = now + cpu_s + away_s
        return cpu_s, away_s

    def _acquire(self, t: float, cpu: int) -> tuple[float, float]:
        state = self.pool()
        # the logical PUs wanting a physical PU at this instant (one draw)
        ready = min(state.ready_max, max(0.0, self.rnd.gauss(state.ready_mean, state.ready_sd)))
        waiting = max(0.0, ready - state.capacity)
        over = waiting > 1e-9
        # a logical PU of an oversubscribed pool waits s * (ready - capacity) / capacity
        # for each dispatch of length s (Little's law, as in zvmsim.hardware.pools)
        gap_mean = self.interval_s * waiting / max(state.capacity, 1e-3)
        p_other = min(1.0, waiting)
        if self._first < 0:
            self._first = t
        self.requests += 1
        while self._windows and self._windows[0][1] <= t:
            self._windows.popleft()
        spin = away = 0.0
        at = t
        if self.free_at > t:
            self.collisions += 1
            if self.policy == "diag9c":
                spin, away, at = self._wait_9c(t, cpu)
            else:
                spin, away, at = self._wait_44(t, cpu, p_other, gap_mean, state.dispatch_s)
            self.wait_s += at - t
            self.spin_s += spin
        hold = self.rnd.expovariate(1.0 / self.hold_s)
        gap = 0.0
        if over and self.rnd.random() < -math.expm1(-hold / self.interval_s):
            gap = self._gap(t, gap_mean, p_other, waiting, state.dispatch_s)
            begin = at + hold * self.rnd.random()
            self._windows.append((begin, begin + gap))
            self.preempted += 1
        if at <= self.free_at or self.free_at <= t:
            self.free_at = at + hold + gap
        # else: a spinner PR/SM kept away came back after the lock was freed; it takes
        # the lock then, and the requests in between were not held up by its absence
        return spin + hold, away + gap

    def _gap(self, t: float, mean: float, p_other: float, waiting: float, cost: float) -> float:
        """How long a preempted holder stays off its physical PU."""
        gap = self.rnd.expovariate(1.0 / mean) if mean > 0 else 0.0
        rate = self.requests / max(t - self._first, 1e-3)  # requests a second
        if self.policy == "diag9c":  # the first spinner to notice has PR/SM run it
            return min(gap, self.rnd.expovariate(rate) + self.sense_s + cost)
        picked = rate * p_other / max(1.0, waiting)  # a Diag x'44' happens to pick it
        if picked > 0:
            return min(gap, self.rnd.expovariate(picked) + cost)
        return gap

    def _preempted_in(self, start: float, end: float) -> tuple[float, int]:
        """Seconds of holders' preempted spans within [start, end], and how many spans."""
        total, count = 0.0, 0
        for begin, finish in self._windows:
            overlap = min(end, finish) - max(start, begin)
            if overlap > 0:
                total += overlap
                count += 1
        return total, count

    def _wait_9c(self, t: float, cpu: int) -> tuple[float, float, float]:
        """Sense the holder; spin while it runs, Diag x'9C' it when it does not."""
        preempted, spans = self._preempted_in(t, self.free_at)
        senses = max(1, spans)
        self.sense += senses
        if spans:
            self.diag9c += spans
            self.on_diag(cpu, spans)
        # while the holder is off, the spinner has given it its own physical PU
        spin = self.free_at - t - preempted + senses * self.sense_s
        return spin, preempted, self.free_at

    def _wait_44(
        self, t: float, cpu: int, p_other: float, gap_mean: float, cost: float
    ) -> tuple[float, float, float]:
        """Spin a little, Diag x'44', again; a yield may send the spinner off for a gap."""
        a, c = self.yield_after_s, cost
        x, spin, away, calls = t, 0.0, 0.0, 0
        while True:
            free = self.free_at
            k_yield = self._cycles_to_yield(p_other)
            left = free - x
            k_free = int(left // (a + c))
            if k_free < k_yield:  # sees the lock free before PR/SM gives its PU away
                rem = left - k_free * (a + c)
                calls += k_free
                spin += k_free * a
                away += k_free * c
                if rem <= a:
                    spin += rem
                    x = free
                else:  # freed during a Diag x'44': tests it again once back
                    calls += 1
                    spin += a
                    away += c
                    x += (k_free + 1) * (a + c)
                break
            calls += int(k_yield)  # finite here: an endless k_yield left at the break
            spin += k_yield * a
            away += k_yield * c
            x += k_yield * (a + c)
            gap = self.rnd.expovariate(1.0 / gap_mean) if gap_mean > 0 else 0.0
            away += gap
            x += gap
            if x >= self.free_at:
                break
        self.diag44 += calls
        self.on_diag(cpu, calls)
        return spin, away, x

    def _cycles_to_yield(self, p_other: float) -> float:
        """Diag x'44' calls until PR/SM gives the physical PU to another logical PU."""
        if p_other <= 0:
            return math.inf
        if p_other >= 1:
            return 1
        u = 1.0 - self.rnd.random()
        return 1 + math.floor(math.log(u) / math.log(1.0 - p_other))
