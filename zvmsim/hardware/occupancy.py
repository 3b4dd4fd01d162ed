"""The physical PUs of z/VM's pool, moment by moment: who holds them.

PR/SM's tick (:mod:`zvmsim.hardware.prsm`) shares a pool out on average; a
pool with room to spare on average still runs short for a moment whenever
the logical PUs that want a physical one outnumber the physical PUs. Here
the other partitions' logical PUs in z/VM's pool are dispatched one at a
time: each alternates a run (on average ``other_run_ms`` / (1 − *u*)) and a
wait (``other_run_ms`` / *u*), so it holds a physical PU a share *u* of the
time, *u* being what it wants up to its weight's share of the pool (what
PR/SM guarantees it against z/VM). While they hold one, z/VM's logical PUs
have one less: a logical PU of z/VM that wants to run when the others and
z/VM's other running logical PUs hold every physical PU is *suspended*
(FCX126 %Susp) until one of them lets go (PR/SM gives the physical PU to a
partition under its share at once, so the others never wait for z/VM).

That is right for others well under their share (the undersized LPAR's
nearly idle sibling). For a sibling that wants its whole share it overstates
z/VM's wait: the others' dispatches do not look at z/VM, so for moments they
may hold more physical PUs than z/VM's weight leaves them, where PR/SM would
have preempted one for z/VM; and a sibling never takes more than its share,
even of what z/VM leaves idle.

Used where the scenario asks for it (``[cec] occupancy = true``) and z/VM's
logical PUs are shared; z/VM's logical PUs ask :meth:`Occupancy.place` when
a burst starts (:class:`zvmsim.cp.dispatch.Processors`).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import deque
from typing import Final

__all__ = ["Occupancy"]

HORIZON_S: Final = 1.0  # the others' dispatches are drawn this far ahead at a time
MAX_SHARE: Final = 0.999  # a logical PU lets go of its physical PU now and then


class Occupancy:
    """The other partitions' dispatches in z/VM's pool of *capacity* physical PUs."""

    def __init__(
        self, capacity: int, others: list[tuple[str, int, float]], run_s: float, rnd: random.Random
    ) -> None:
        """*others*: (partition, logical PUs, share of the time each holds a physical PU);
        *run_s*: ``other_run_ms`` in seconds; *rnd* draws the dispatches."""
        self.capacity = capacity
        self._rnd = rnd
        self._pus = [
            (name, min(share, MAX_SHARE), run_s)
            for name, n, share in others
            for _ in range(n)
            if share > 0
        ]
        self._logical = {name: n for name, n, _ in others}
        self._next = [rnd.expovariate(u / run) for _, u, run in self._pus]  # next dispatches
        self._drawn = 0.0  # the timeline is complete up to here
        self.times: list[float] = [0.0]  # change points of the count held by the others
        self.counts: list[int] = [0]  # ... and the count from each on
        self._pending: list[tuple[float, int]] = []  # drawn changes beyond _drawn
        # each partition's runs drawn and not yet wholly past, and the time of those past
        self._runs: dict[str, deque[tuple[float, float]]] = {n: deque() for n in self._logical}
        self._held: dict[str, float] = dict.fromkeys(self._logical, 0.0)
        # the span :meth:`held` found last: the others hold span_held physical PUs from
        # span_from until span_to (the next change, or the drawn end); emptied when more
        # is drawn (the drawn end moves). For a start inside it, a caller may answer
        # :meth:`free` from it as free does, without the call.
        self.span_from = self.span_to = 0.0
        self.span_held = 0

    @property
    def active(self) -> bool:
        """Whether any other logical PU in the pool ever runs."""
        return bool(self._pus)

    def _extend(self, until: float) -> None:
        """Draw the others' dispatches up to *until* (and a horizon beyond)."""
        if until < self._drawn:
            return
        self.span_from = self.span_to = 0.0  # the last span found may end at the drawn end
        upto = until + HORIZON_S
        rnd = self._rnd
        changes = self._pending  # (time, +1 or -1), all at or after _drawn
        runs: list[tuple[float, float, str]] = []
        for i, (name, u, run) in enumerate(self._pus):
            t = self._next[i]
            while t < upto:
                end = t + rnd.expovariate((1.0 - u) / run)
                changes.append((t, 1))
                changes.append((end, -1))
                runs.append((t, end, name))
                t = end + rnd.expovariate(u / run)
            self._next[i] = t
        for start, end, name in sorted(runs):
            self._runs[name].append((start, end))
        changes.sort()
        self._pending = [c for c in changes if c[0] >= upto]
        times, counts = self.times, self.counts
        count = counts[-1]
        for t, delta in changes:
            if t >= upto:
                break
            count += delta
            if t == times[-1]:
                counts[-1] = count
            else:
                times.append(t)
                counts.append(count)
        self._drawn = upto

    def held_s(self, name: str, now: float) -> list[float]:
        """Seconds each logical PU of partition *name* has held a physical PU by *now*
        (asked with *now* never going back: the monitor's samples)."""
        self._extend(now)
        runs = self._runs[name]
        while runs and runs[0][1] <= now:
            start, end = runs.popleft()
            self._held[name] += end - start
        partial = sum(now - start for start, _ in runs if start < now)
        n = self._logical[name]
        return [(self._held[name] + partial) / n] * n

    def held(self, t: float) -> tuple[int, float]:
        """Physical PUs the others hold at *t*, and when that next changes."""
        if self.span_from <= t < self.span_to:  # in the span found last (bursts start near now)
            return self.span_held, self.span_to
        self._extend(t)
        times = self.times
        i = bisect_right(times, t) - 1
        nxt = times[i + 1] if i + 1 < len(times) else self._drawn
        self.span_from, self.span_to, self.span_held = times[i], nxt, self.counts[i]
        return self.span_held, nxt

    def free(self, start: float, work: float, ours: int) -> bool:
        """Whether a burst of *work* from *start* surely runs straight through: a physical
        PU is left even if all *ours* other logical PUs of z/VM run, till it ends."""
        if self.span_from <= start < self.span_to:  # in the span found last: held(), inline
            return self.span_held + ours < self.capacity and start + work <= self.span_to
        held, nxt = self.held(start)
        return held + ours < self.capacity and start + work <= nxt

    def place(
        self, start: float, work: float, running: list[tuple[float, float]]
    ) -> list[tuple[float, float, float]]:
        """The segments of a burst of *work* seconds wanting a physical PU from *start*:
        ``(start, end, 1.0)`` while it runs, ``(start, end, 0.0)`` while every physical PU
        is held, by the others or by z/VM's other logical PUs *running* then (their
        placed busy spans)."""
        segs: list[tuple[float, float, float]] = []
        t, need = start, work
        cap = self.capacity
        self._trim(start)
        while True:
            others, nxt = self.held(t)
            ours = 0
            for s, e in running:
                if s <= t < e:
                    ours += 1
                    nxt = min(nxt, e)
                elif t < s < nxt:
                    nxt = s
            if others + ours < cap:
                if t + need <= nxt:
                    _add(segs, t, t + need, 1.0)
                    return segs
                _add(segs, t, nxt, 1.0)
                need -= nxt - t
            else:
                _add(segs, t, nxt, 0.0)
            t = nxt

    def _trim(self, before: float) -> None:
        """Forget the change points before *before* (all but the one in force then),
        a thousand at a time (bursts start now or later)."""
        i = bisect_right(self.times, before) - 1
        if i > 1000:
            del self.times[:i]
            del self.counts[:i]


def _add(segs: list[tuple[float, float, float]], start: float, end: float, speed: float) -> None:
    """Append a segment, joined to the last one where it goes on at the same speed."""
    if end <= start:
        return
    if segs and segs[-1][2] == speed and segs[-1][1] == start:
        segs[-1] = (segs[-1][0], end, speed)
    else:
        segs.append((start, end, speed))
