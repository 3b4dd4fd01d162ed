"""The dispatcher: logical processors serving the dispatch list's CPU bursts.

A burst is what a user runs between two waits. When a processor is free it
starts at once; otherwise it waits in the dispatcher's ready queue, which is
ordered by **share**: each user has a virtual clock that a burst advances by
its length divided by the user's weight (its relative share, or what its
absolute share is worth against the relative ones), and the burst with the
earliest virtual start goes next (start-time fair queueing). Under
contention a user with twice the share so gets twice the processor; without
contention, order does not matter and every burst starts at once. What a
user does not want is spread over the others in proportion to their shares.
(With the excess-share defect switched on, :mod:`zvmsim.cp.excess` picks
the next burst instead, and the spare time goes to the largest share.)

A burst longer than the **dispatch time slice** runs one slice at a time,
going back to the ready queue between slices, so a compute-bound user cannot
hold a processor against users with more share.

Time is charged when a burst is placed on a processor; :meth:`ahead` and
:meth:`unrun` give back the part that has not run yet, so a monitor sample
taken in the middle of a burst sees only what has elapsed. Processor time is
charged to the user (TCPU, VCPU); CP work that no user can be charged for is
system time. System time runs on a processor too — a demand scan, page-outs,
interrupts, a spin on a lock — ahead of the guests (:meth:`run_system`,
:meth:`charge_system`), so it takes their capacity and no processor is ever
more than 100% busy (the utilization law).

Under PR/SM a logical processor may get less than a whole physical one:
:meth:`set_speed` tells the processors what fraction of real time they are
dispatched. A burst then takes longer in real time; the stretch is
*suspended* time (ready, not dispatched), which no CPU timer sees — the user
is charged the burst's own length only.

The **master processor** (processor 0) has a queue of its own, the
master-only PLDV: work that only the master may do (:meth:`run` with
``master=True``) waits there, and the master takes it before anything in
the common queue. A VMDBK that moved to the master stays there while it
goes on running: a burst it starts at the moment its last one ends (no wait
in between) runs on the master too, and it moves off only when it waits.
Where the processor family's switching costs are modelled
(:meth:`set_switching`), the move costs CP ``switch`` time, a burst started
on another processor than its user last ran on pays a cache (high-speed
buffer) refill, and a free processor prefers users that last ran on it.
"""

from __future__ import annotations

import heapq
import itertools
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Generator, Iterable
from operator import itemgetter
from typing import Any, Final

import simpy
from simpy.events import PENDING, Event

from ..clock import (
    ClockEvent,
    after,
    callbacks_of,
    due,
    due_urgent,
    pending,
    reinstate,
    still_to_come,
)
from .vmdbk import CFW, CPU, DM, DORM, EL, IOA, LDG, LIM, OTH, RUN, TI, TIW, Vmdbk

__all__ = ["Processors", "share_weights"]

_HEAPIFY: Final = heapq.heapify  # a C static when compiled (no module look-up)
_HEAPPOP: Final = heapq.heappop  # a C static when compiled (no module look-up)
_HEAPPUSH: Final = heapq.heappush  # a C static when compiled (no module look-up)
_NSMALLEST: Final = heapq.nsmallest  # a C static when compiled (no module look-up)
_MIN: Final = min  # a C static when compiled (``min`` is otherwise a builtins look-up)
_PENDING: Final = PENDING  # SimPy's not-yet-triggered value (a C static when compiled)

_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)

_END: Final = itemgetter(1)  # a segment's end
# placed segments a processor keeps before it lets go of those that have ended (which
# nothing reads again): a few at a time while they are fresh, not a monitor interval's
# worth (tens of thousands) at once when a sample asks what is left
SEGMENTS_KEPT: Final = 64

AFFINITY_LOOK: Final = 4  # ready entries a free processor looks through for one of its own
SYSTEM_FLUSH_S: Final = 0.0005  # CP time gathered (SystemTime) before it is placed


def _succeed_waiter(event: ClockEvent) -> None:
    """The end of a burst that waited in a queue: fire the event its user waits on
    (``waiter.succeed()``, its steps inline: no Python-level calls)."""
    waiter: ClockEvent = event._value
    if waiter._value is not _PENDING:
        raise RuntimeError(f"{waiter} has already been triggered")
    waiter._ok = True
    waiter._value = None
    due(waiter.env, waiter)  # env.schedule(waiter)


class SystemTime:
    """Small pieces of CP time (a scan, a page-out, a spin) gathered until there is
    ``SYSTEM_FLUSH_S`` of it, then placed as one burst by *place(seconds)*."""

    __slots__ = ("place", "debt_s")

    def __init__(self, place: Callable[[float], object]) -> None:
        self.place = place
        self.debt_s = 0.0  # CP time charged but not yet placed on a processor

    def add(self, seconds: float) -> None:
        self.debt_s += seconds
        if self.debt_s >= SYSTEM_FLUSH_S:
            debt, self.debt_s = self.debt_s, 0.0
            self.place(debt)


class _Sliced:
    """A burst longer than the time slice: one slice at a time, back in the queue
    between (:meth:`Processors.run` returns :attr:`done`, which fires at its end).

    The same events, in the same order, as a process doing it would have: it
    starts with an urgent event now, each slice's event moves it on (a callback
    where the process's resumption would be), and :attr:`done` is scheduled when
    the last slice ends, as the process's end would be; no generator to resume.
    """

    __slots__ = ("procs", "user", "virtual_s", "cp_s", "share", "left", "done")

    def __init__(self, procs: Processors, user: Vmdbk, virtual_s: float, cp_s: float) -> None:
        self.procs, self.user, self.virtual_s, self.cp_s = procs, user, virtual_s, cp_s
        self.share = self.left = 0.0
        env = procs.env
        # two events, as simpy.Event(env) builds them
        self.done = ClockEvent(env, [])
        start = ClockEvent(env, [self._start])  # as a process starts: urgent, now (env.process)
        start._ok = True
        start._value = None
        due_urgent(env, start)

    def _start(self, _event: Event) -> None:
        user = self.user
        total = self.virtual_s + self.cp_s + user.pending_cp_s
        user.pending_cp_s = 0.0
        self.share = self.virtual_s / total
        self.left = total
        self._slice(_event)

    def _slice(self, _event: Event) -> None:
        """Run the next slice (the last one has ended when none is left)."""
        procs = self.procs
        while self.left > 1e-12:
            left, slice_s = self.left, procs.slice_s
            piece = left if left < slice_s else slice_s  # min(slice_s, left), its tie
            self.left -= piece
            event = procs.run(self.user, piece * self.share, piece * (1.0 - self.share))
            # None once processed; typed, so the compiled append is the list's own
            callbacks: list[Any] | None = callbacks_of(event)
            if callbacks is not None:  # not processed yet: go on when it is
                callbacks.append(self._slice)
                return
        done = self.done  # as a process's end: scheduled now, at normal priority
        done._ok = True
        done._value = None
        due(procs.env, done)


class Processors:
    """The partition's logical processors."""

    __slots__ = (
        "env",
        "count",
        "free_at",
        "guest_burst",
        "busy_s",
        "virtual_s",
        "system_s",
        "_system_time",
        "interrupts",
        "interrupt_s",
        "speed",
        "susp_s",
        "_segments",
        "scheduler",
        "slice_s",
        "_ready",
        "_seq",
        "_vclock",
        "cp",
        "limits",
        "excess",
        "master",
        "_master_q",
        "switch_s",
        "refill_s",
        "master_runs",
        "master_wait_s",
        "moves",
        "migrations",
        "switch_time_s",
        "refill_time_s",
        "wakes",
        "lock",
        "redispatch_s",
        "occupancy",
        "_freed_cbs",
        "_next_cbs",
        "_deferred",
        "_deferring",
        "_any_deferred",
        "reorder_hook",
    )

    def __init__(
        self,
        env: simpy.Environment,
        count: int,
        interrupt_us: float = 0.0,
        slice_us: float = 5000.0,
    ) -> None:
        self.env = env
        self.count = count
        self.free_at = [0.0] * count  # when each processor finishes the work placed on it
        # per processor, the (start, end) of the last guest burst placed on it
        self.guest_burst = [(0.0, 0.0)] * count
        self.busy_s = [0.0] * count  # placed busy time (user and system)
        self.virtual_s = [0.0] * count
        self.system_s = [0.0] * count
        self._system_time = SystemTime(self.run_system)  # charge_system's pieces
        self.interrupts = 0  # real I/O interrupts fielded (system time, see field_interrupt)
        self.interrupt_s = interrupt_us / 1e6
        self.speed = [1.0] * count  # share of real time PR/SM dispatches each, for new bursts
        self.susp_s = [0.0] * count  # placed suspended time (PR/SM did not dispatch us)
        # once PR/SM slows us down: per processor, the placed bursts (start, end, speed)
        # (each processor's in time order: a burst is placed only on a free processor,
        # so the ends never go back and the ended ones are a prefix, cut by bisection)
        self._segments: list[list[tuple[float, float, float]]] | None = None
        self.scheduler: Any = None  # the scheduler, for users waiting in the eligible list
        self.slice_s = slice_us / 1e6  # the dispatch time slice
        # the ready queue: (virtual start, sequence, user, total, virtual, event)
        self._ready: list[tuple[float, int, Vmdbk, float, float, ClockEvent]] = []
        self._seq = itertools.count()
        self._vclock = 0.0  # virtual start of the burst dispatched last
        # CP's own work that occupies a processor (see run_system): a pseudo-user
        # whose share puts its bursts ahead of the guests'
        self.cp = Vmdbk("*CP*")
        self.cp.weight = 1e9
        # page reorder (before z/VM 6.3): called with a user whose reorder has come due
        self.reorder_hook: Callable[[Vmdbk], object] | None = None
        self.limits: Any = None  # SET SRM LIMITHARD (zvmsim.cp.limits.LimitHard), once built
        self.excess: Any = None  # the excess-share defect's order (zvmsim.cp.excess), if on
        # the master processor and its master-only PLDV: (queued at, user, total, virtual, event)
        self.master = 0
        self._master_q: deque[tuple[float, Vmdbk, float, float, ClockEvent]] = deque()
        self.switch_s = 0.0  # CP's time to move a VMDBK to the master (set_switching)
        self.refill_s = 0.0  # cache refill of a burst on another processor than the last
        self.master_runs = 0  # bursts the master took from its master-only PLDV
        self.master_wait_s = 0.0  # their time waiting there, summed
        self.moves = 0  # VMDBKs moved to the master
        self.migrations = 0  # bursts started on another processor than their user's last
        self.switch_time_s = 0.0  # processor time those moves and refills cost
        self.refill_time_s = 0.0
        self.wakes = [0] * count  # bursts started on a waiting processor (PR/SM dispatches)
        self.lock: Any = None  # CP's scheduler spin lock, when modelled (see attach_lock)
        self.redispatch_s = 0.0  # PR/SM's time to dispatch a waking processor (set_redispatch)
        self.occupancy: Any = None  # who holds the pool's physical PUs (set_occupancy)
        # per processor, the callbacks a moment after a burst's end and at it (made once)
        self._next_cbs = [self._next_cb(cpu) for cpu in range(count)]
        self._freed_cbs = [self._freed_cb(cpu) for cpu in range(count)]
        # per processor, a wake's end not yet on the schedule: (time, event id)
        self._deferred: list[tuple[float, int] | None] = [None] * count
        self._deferring = False
        self._any_deferred = False

    def set_redispatch(self, seconds: float) -> None:
        """Each time a logical processor leaves its wait state, PR/SM takes *seconds*
        to dispatch it on a physical PU: suspended time before its work starts."""
        self.redispatch_s = seconds
        if seconds > 0:
            self._track_segments()
        # on a Clock (which tells the entry it is processing), a wake's end is put on
        # the schedule only if work queues before it (see _defer)
        self._deferring = seconds > 0 and hasattr(self.env, "_current")

    def set_occupancy(self, occupancy: Any) -> None:
        """The other partitions hold physical PUs of our pool now and then
        (:class:`~zvmsim.hardware.occupancy.Occupancy`): a burst that finds every
        physical PU held is suspended until one is let go."""
        self.occupancy = occupancy
        self._track_segments()

    def _running(self, cpu: int, after: float) -> list[tuple[float, float]]:
        """The other processors' placed spans of running (not suspended) ending after *after*."""
        spans = []
        for other, segs in enumerate(self._segments):  # type: ignore[arg-type]
            if other == cpu:
                continue
            for start, end, speed in reversed(segs):
                if end <= after:
                    break
                if speed > 0:
                    spans.append((start, end))
        return spans

    def segments_at(self, cpu: int, now: float) -> list[tuple[float, float, float]]:
        """*cpu*'s placed segments at *now* (the current time), to add to; those that
        ended by then are dropped once there are more than :data:`SEGMENTS_KEPT` (what
        is left, and so every reading of them, is the same either way: they end in
        order, and nothing asks about a time before now)."""
        segs = self._segments[cpu]  # type: ignore[index]
        if len(segs) > SEGMENTS_KEPT:
            _drop_ended(segs, now)
        return segs

    def _track_segments(self) -> None:
        """Keep each processor's placed segments (busy and suspended) from now on."""
        if self._segments is None:
            now = self.env.now
            self._segments = [[(now, f, 1.0)] if f > now else [] for f in self.free_at]

    def attach_lock(self, lock: Any) -> None:
        """Take *lock* (a :class:`~zvmsim.cp.spinlock.SpinLock`) at every dispatch, and
        once more on a processor that waited (it searched the lists before it waited)."""
        self.lock = lock
        self._track_segments()

    def run(
        self,
        user: Vmdbk,
        virtual_s: float,
        cp_s: float,
        master: bool = False,
        handoff: bool = False,
    ) -> Event:
        """Run a burst of *virtual_s* guest time plus *cp_s* of CP time; yield the result.

        CP time done earlier on the user's behalf (``pending_cp_s``) is charged here too.
        With *master*, the burst is work only the master processor may do; with
        *handoff*, the burst ends by moving the VMDBK to the master (a task switch,
        ``switch`` of CP time on the processor it leaves).
        """
        if handoff and self.count > 1:  # a uniprocessor's only processor is the master
            cp_s += self.switch_s
            self.moves += 1
            self.switch_time_s += self.switch_s
        env = self.env
        now: float = env._now  # (a C double when compiled: SimPy types it int | float)
        if user.elisted:  # not admitted: the burst waits for the scheduler first
            return env.process(self._after_admission(user, virtual_s, cp_s))
        if user.limithard and user.limit_free_at > now:  # over its limit: held back
            return env.process(self._after_limit(user, virtual_s, cp_s))
        if user.tcpu_s >= user.reorder_at:  # its reorder came due: CP does it now
            user.reorder_at = float("inf")
            if self.reorder_hook is not None:
                self.reorder_hook(user)
        if user.reorder_until > now:  # CP is reordering its pages: it is stopped
            return env.process(self._after_reorder(user, virtual_s, cp_s))
        if master or user.on_master:
            if master or self.staying(user):  # it goes on: it stays on the master
                return self._run_master(user, virtual_s, cp_s)
            user.on_master = False  # it waited: a reason to move off
        total = virtual_s + cp_s + user.pending_cp_s
        if total > self.slice_s * 1.000001:
            return _Sliced(self, user, virtual_s, cp_s).done
        user.pending_cp_s = 0.0
        vclock = self._vclock
        start_tag = vclock if vclock > user.vfinish else user.vfinish  # max(), its tie
        user.vfinish = start_tag + total / user.weight
        # a burst's sequence number breaks ties in the ready queue (only their order
        # matters, so one placed at once needs none), and keys the defect's deadlines
        seq = -1
        excess = self.excess
        if excess is not None:  # the defect orders bursts by its deadlines
            seq = _NEXT(self._seq)
            excess.tag(seq, user, total, env._now)  # SimPy's own (an int at 0)
        if not self._ready:
            free_at = self.free_at
            master_q = self._master_q
            cpu = free_at.index(_MIN(free_at))
            if master_q and cpu == self.master:  # the master has its own work waiting
                cpu = min(range(self.count), key=lambda c: (c == self.master, free_at[c]))
            if (
                self.refill_s
                and free_at[user.burst[3]] <= now
                and not (master_q and user.burst[3] == self.master)
            ):
                cpu = user.burst[3]  # its last processor is free: its cache is warm there
            if free_at[cpu] <= now and not (master_q and cpu == self.master):
                self._vclock = start_tag
                if excess is not None:
                    excess.forget(seq)
                if self._segments is None and not self.refill_s and not user.limithard:
                    return self._place_plain(cpu, user, total, virtual_s, None)
                return self._place(cpu, user, total, virtual_s)
        if excess is None:
            seq = _NEXT(self._seq)
        event = pending(env)
        if self._any_deferred:
            self._undefer()
        _HEAPPUSH(self._ready, (start_tag, seq, user, total, virtual_s, event))
        user.state = CPU
        return event

    def _place(
        self,
        cpu: int,
        user: Vmdbk,
        total: float,
        virtual_s: float,
        waiter: ClockEvent | None = None,
    ) -> ClockEvent:
        """Start *user*'s burst on the free processor *cpu* now (*waiter* fires at its end)."""
        start: float = self.env._now  # (a C double when compiled)
        if self._segments is None and not self.refill_s and not user.limithard:
            return self._place_plain(cpu, user, total, virtual_s, waiter)
        if self.refill_s and cpu != user.burst[3] and user is not self.cp and user.tcpu_s:
            total += self.refill_s  # its working set is in another processor's cache
            self.migrations += 1
            self.refill_time_s += self.refill_s
        if self._segments is not None:
            self.segments_at(cpu, start)  # (drops the ended ones, if many)
        free_at = self.free_at
        woke = free_at[cpu] < start - 1e-9
        if woke:
            self.wakes[cpu] += 1
            redispatch_s = self.redispatch_s
            if redispatch_s:  # it left its wait: suspended until PR/SM dispatches it
                self.susp_s[cpu] += redispatch_s
                self._segments[cpu].append((start, start + redispatch_s, 0.0))  # type: ignore[index]
                start = start + redispatch_s
        if self.lock is not None:
            start = self._take_lock(cpu, start, 2 if woke else 1)
        if user.limithard:
            if self.limits is not None:  # SET SRM LIMITHARD's method
                user.limit_free_at = self.limits.free_at(user, start, total)
            else:
                rate = user.share_absolute / 100.0 * self.count  # processors' worth it may use
                user.limit_free_at = start + total / rate
        speed = self.speed[cpu]
        occupancy = self.occupancy
        held = False  # the others may hold every physical PU before the burst ends
        if occupancy is not None and speed == 1.0 and total > 0:
            held = not occupancy.free(start, total, self.count - 1)
        if held:
            # the others may hold the physical PUs: running and suspended spans
            segs = occupancy.place(start, total, self._running(cpu, start))
            end = segs[-1][1]
            self.susp_s[cpu] += end - start - total
            free_at[cpu] = end
            self._segments[cpu].extend(segs)  # type: ignore[index]
            speed = total / (end - start)  # (what unrun sees of it)
        else:
            if speed == 1.0:
                end = start + total
            else:
                end = start + total / speed
                self.susp_s[cpu] += end - start - total
            free_at[cpu] = end
            if self._segments is not None and end != start:  # an empty one adds nothing
                self._segments[cpu].append((start, end, speed))
        return self._run_burst(cpu, user, start, end, speed, total, virtual_s, waiter)

    def _place_plain(
        self,
        cpu: int,
        user: Vmdbk,
        total: float,
        virtual_s: float,
        waiter: ClockEvent | None,
    ) -> ClockEvent:
        """:meth:`_place`'s steps, in its order, where nothing but the burst takes time:
        no PR/SM segments (so no redispatch, no lock, full speed), no switching costs,
        no LIMITHARD user."""
        env = self.env
        now: float = env._now
        free_at = self.free_at
        if free_at[cpu] < now - 1e-9:
            self.wakes[cpu] += 1
        end = now + total
        free_at[cpu] = end
        return self._run_burst(cpu, user, now, end, 1.0, total, virtual_s, waiter)

    def _run_burst(
        self,
        cpu: int,
        user: Vmdbk,
        start: float,
        end: float,
        speed: float,
        total: float,
        virtual_s: float,
        waiter: ClockEvent | None,
    ) -> ClockEvent:
        """Charge a placed burst to *cpu* and *user* and schedule its end at *end* (as
        ``env.timeout(end - now)``, its callbacks given at once)."""
        env = self.env
        now: float = env._now
        self.busy_s[cpu] += total
        self.virtual_s[cpu] += virtual_s
        if user is self.cp:
            self.system_s[cpu] += total
        user.vcpu_s += virtual_s
        user.tcpu_s += total
        user.burst = (start, end, virtual_s / total if total else 0.0, cpu, speed)
        user.state = RUN
        if user is not self.cp:
            self.guest_burst[cpu] = (start, end)
        if waiter is None:
            return after(env, end - now, [self._freed_cbs[cpu]])
        done = after(env, end - now, [_succeed_waiter, self._freed_cbs[cpu]])
        done._value = waiter  # its end fires the waiter (nothing else reads the value)
        return done

    def _take_lock(self, cpu: int, now: float, times: int) -> float:
        """*cpu* takes the scheduler lock before its burst: its spin and hold are system
        time, the time PR/SM kept it off its physical PU suspended; when the burst starts."""
        cp_s, away = self.lock.take(now, cpu, times)
        wall = cp_s / self.speed[cpu] + away
        self.busy_s[cpu] += cp_s
        self.system_s[cpu] += cp_s
        self.susp_s[cpu] += wall - cp_s
        if self._segments is not None and wall > 0:
            self._segments[cpu].append((now, now + wall, cp_s / wall))
        return now + wall

    def _freed_cb(self, cpu: int) -> Callable[[Event], None]:
        """The callback of a burst's end on *cpu*: if others are ready, choose among
        them a moment later, so that a user going on at once (the end of a time
        slice) competes too."""

        next_cb = self._next_cbs[cpu]

        def freed(_event: Event) -> None:
            if self._ready or (cpu == self.master and self._master_q):
                after(self.env, 0, [next_cb])

        return freed

    def _next_cb(self, cpu: int) -> Callable[[Event], None]:
        """The callback that starts the next ready burst on *cpu* (:meth:`_next`)."""
        return lambda _event: self._next(cpu)

    def _next(self, cpu: int) -> None:
        """Start the ready queue's first burst on *cpu*, if it is still free (the master
        takes its master-only work first)."""
        if self.free_at[cpu] > self.env._now:
            return
        if cpu == self.master and self._master_q:
            queued_at, user, total, virtual_s, event = self._master_q.popleft()
            self.master_runs += 1
            self.master_wait_s += self.env.now - queued_at
            self._place(cpu, user, total, virtual_s, event)
        elif self._ready:
            if self.excess is not None:  # the defect's order, not the fair one
                entry = self._ready.pop(self.excess.pick(self._ready, self.env.now))
                _HEAPIFY(self._ready)
                self.excess.forget(entry[1])
            elif self.refill_s:
                entry = self._affine(cpu)
            else:
                entry = _HEAPPOP(self._ready)
            start_tag, _, user, total, virtual_s, event = entry
            self._vclock = start_tag
            if self._segments is None and not self.refill_s and not user.limithard:
                self._place_plain(cpu, user, total, virtual_s, event)
            else:
                self._place(cpu, user, total, virtual_s, event)

    def _affine(self, cpu: int) -> tuple[float, int, Vmdbk, float, float, ClockEvent]:
        """The ready queue's entry for *cpu*: among the first few, one whose user last
        ran on *cpu* (its processor-local dispatch vector), else the first."""
        ready = self._ready
        for entry in _NSMALLEST(AFFINITY_LOOK, ready):
            if entry[2].burst[3] == cpu:
                ready.remove(entry)
                _HEAPIFY(ready)
                return entry
        return _HEAPPOP(ready)

    def _run_master(self, user: Vmdbk, virtual_s: float, cp_s: float) -> ClockEvent:
        """A burst for the master: it holds the master if it is there and going on,
        else it waits in the master-only PLDV."""
        now, master = self.env.now, self.master
        staying = self.staying(user)
        user.on_master = True
        total = virtual_s + cp_s + user.pending_cp_s
        user.pending_cp_s = 0.0
        user.vfinish = max(user.vfinish, self._vclock) + total / user.weight
        if self.free_at[master] <= now and (staying or not self._master_q):
            if not staying:
                self.master_runs += 1
            return self._place(master, user, total, virtual_s)
        event = pending(self.env)
        if self._any_deferred:
            self._undefer()
        self._master_q.append((now, user, total, virtual_s, event))
        user.state = CPU
        return event

    def staying(self, user: Vmdbk) -> bool:
        """Whether *user* is on the master and going on (it has not waited since)."""
        return user.on_master and self.env._now <= user.burst[1] + 1e-12

    def set_switching(self, switch_us: float, refill_us: float) -> None:
        """Model the processor family's switching costs (cp.toml ``[cpu_families]``)."""
        self.switch_s = switch_us / 1e6
        self.refill_s = refill_us / 1e6

    @property
    def master_queued(self) -> int:
        """Bursts waiting in the master-only PLDV now."""
        return len(self._master_q)

    @property
    def queued(self) -> int:
        """Bursts waiting in the common ready queue now."""
        return len(self._ready)

    def _after_admission(
        self, user: Vmdbk, virtual_s: float, cp_s: float
    ) -> Generator[Any, Any, Any]:
        yield self.scheduler.wait_admitted(user)
        yield self.run(user, virtual_s, cp_s)

    def _after_limit(self, user: Vmdbk, virtual_s: float, cp_s: float) -> Generator[Any, Any, Any]:
        user.state = LIM
        yield self.env.timeout(user.limit_free_at - self.env.now)
        yield self.run(user, virtual_s, cp_s)

    def _after_reorder(
        self, user: Vmdbk, virtual_s: float, cp_s: float
    ) -> Generator[Any, Any, Any]:
        while user.reorder_until > self.env.now:  # a console-function-like wait (%CFW)
            user.state = CFW
            yield user.reorder_done
        yield self.run(user, virtual_s, cp_s)

    def run_system(self, seconds: float) -> Event:
        """CP work that holds a processor for *seconds* (system time, no user charged).

        The work takes its processor away from the guests while it runs: it
        queues ahead of them and is sliced like any burst, so long CP work (a
        page reorder) competes for the processors. :meth:`charge_system`
        gathers small pieces of CP time and places them through here.
        """
        return self.run(self.cp, 0.0, seconds)

    def charge_system(self, seconds: float) -> None:
        """CP work no user is charged for (a demand scan, page-outs, timer interrupts).

        It runs on a processor like any CP work (:meth:`run_system`), so it takes
        capacity from the guests and no processor is ever more than 100% busy (the
        utilization law). Small pieces are gathered until there is
        ``SYSTEM_FLUSH_S`` of it, then placed as one burst ahead of the guests.
        """
        system = self._system_time  # system.add(seconds), inline
        system.debt_s += seconds
        if system.debt_s >= SYSTEM_FLUSH_S:
            debt, system.debt_s = system.debt_s, 0.0
            system.place(debt)

    def field_interrupt(self) -> None:
        """CP fields a real I/O interrupt: system time on a processor.

        Where PR/SM's redispatch is modelled, an interrupt that finds a processor
        waiting (and no work queued) wakes it: PR/SM dispatches it again and it fields
        the interrupt there. Otherwise its time joins CP's other small pieces."""
        self.interrupts += 1
        # wake's own first tests, inline (a processor waits, no work is queued): where
        # they fail, no call
        if (
            self.redispatch_s
            and not self._ready
            and not self._master_q
            and _MIN(self.free_at) < self.env._now - 1e-9
            and self.wake(self.interrupt_s)
        ):
            return
        system = self._system_time  # charge_system, inline
        system.debt_s += self.interrupt_s
        if system.debt_s >= SYSTEM_FLUSH_S:
            debt, system.debt_s = system.debt_s, 0.0
            system.place(debt)

    def wake(self, cp_s: float) -> bool:
        """An interrupt for CP: where PR/SM's redispatch is modelled and a processor
        waits (with no work queued), the one waiting longest wakes, is dispatched again
        and runs *cp_s* of system time. False where none woke."""
        redispatch_s = self.redispatch_s
        if not redispatch_s or self._ready or self._master_q:
            return False
        free_at = self.free_at
        low = _MIN(free_at)
        env = self.env
        now: float = env._now  # (a C double when compiled)
        if low >= now - 1e-9:
            return False
        cpu = free_at.index(low)
        cp = self.cp
        occupancy = self.occupancy
        # the lock, a limit, or the others holding every physical PU before its work
        # ends: _place's way (asked in this order: free() draws the others' dispatches)
        held = self.lock is not None or cp.limithard
        if not held and occupancy is not None and cp_s > 0:
            held = not occupancy.free(now + redispatch_s, cp_s, self.count - 1)
        if held:
            self._place(cpu, cp, cp_s, 0.0)
            return True
        # _place's steps for CP's own burst on a waiting processor, in its order
        self.wakes[cpu] += 1
        start = now + redispatch_s  # suspended until PR/SM dispatches it
        susp_s = self.susp_s
        susp_s[cpu] += redispatch_s
        segments = self.segments_at(cpu, now)
        segments.append((now, start, 0.0))
        speed = self.speed[cpu]
        if speed == 1.0:
            end = start + cp_s
        else:
            end = start + cp_s / speed
            susp_s[cpu] += end - start - cp_s
        free_at[cpu] = end
        if end != start:
            segments.append((start, end, speed))
        if cp_s:  # (a timer pop's wake runs none: adding nothing changes no counter)
            self.busy_s[cpu] += cp_s
            self.system_s[cpu] += cp_s
            cp.tcpu_s += cp_s
        cp.burst = (start, end, 0.0, cpu, speed)
        cp.state = RUN
        if self._deferring:  # _defer(cpu, end - now), inline
            self._deferred[cpu] = (now + (end - now), _NEXT(env._eid))  # type: ignore[attr-defined]
            self._any_deferred = True
        else:
            after(env, end - now, [self._freed_cbs[cpu]])
        return True

    def _defer(self, cpu: int, delay: float) -> None:
        """The end of *cpu*'s wake, *delay* from now, numbered as ``env.timeout(delay)``
        would be but kept off the schedule: at its end the processor only looks for
        queued work (:meth:`_freed_cb`), so it matters only if work queues before then,
        and :meth:`_undefer` schedules it then, in the same place."""
        env = self.env
        self._deferred[cpu] = (env._now + delay, _NEXT(env._eid))
        self._any_deferred = True

    def _undefer(self) -> None:
        """Work is about to queue: schedule every deferred wake's end still to come, with
        the time and event id it was given (so in its place in SimPy's order); forget
        those whose moment has passed (they would have found nothing queued)."""
        env = self.env
        deferred = self._deferred
        for cpu in range(self.count):
            entry = deferred[cpu]
            if entry is None:
                continue
            deferred[cpu] = None
            at, eid = entry
            if still_to_come(env, at, eid):  # type: ignore[arg-type]
                done = ClockEvent(env, [self._freed_cbs[cpu]])
                done._value = None
                done._ok = True
                reinstate(env, at, eid, done)
        self._any_deferred = False

    def busy(self, cpu: int) -> float:
        """Busy seconds of *cpu* that have elapsed (placed work that already ran)."""
        return self.busy_s[cpu] - self.ahead(cpu)

    def system(self, cpu: int) -> float:
        """System (unchargeable) seconds of *cpu*."""
        return self.system_s[cpu]

    def _left(self, cpu: int) -> tuple[float, float]:
        """(busy, suspended) seconds placed on *cpu* that have not elapsed yet."""
        now = self.env.now
        if self._segments is None:
            return max(0.0, self.free_at[cpu] - now), 0.0
        segs = self._segments[cpu]
        _drop_ended(segs, now)
        busy = susp = 0.0
        for start, end, speed in segs:
            wall = end - (start if start > now else now)
            busy += wall * speed
            susp += wall * (1.0 - speed)
        return busy, susp

    def ahead(self, cpu: int) -> float:
        """Placed busy time on *cpu* that has not run yet."""
        return self._left(cpu)[0]

    def suspended(self, cpu: int) -> float:
        """Seconds *cpu* has spent ready but not dispatched by PR/SM."""
        return self.susp_s[cpu] - self._left(cpu)[1]

    def set_speed(self, speed: float) -> None:
        """PR/SM now dispatches each logical processor *speed* of the time (0 < speed <= 1)."""
        speed = min(1.0, max(speed, 0.01))
        if self._segments is None:
            if speed == 1.0:
                return
            now = self.env.now  # bursts placed so far ran (or will run) at full speed
            self._segments = [[(now, f, 1.0)] if f > now else [] for f in self.free_at]
        self.speed = [speed] * self.count

    @staticmethod
    def unrun(user: Vmdbk, now: float) -> tuple[float, float]:
        """(total, virtual) seconds of *user*'s current burst still to run at *now*."""
        start, end, share, _, speed = user.burst
        left = (end - max(start, now)) * speed
        if left <= 0:
            return 0.0, 0.0
        return left, left * share

    def sampled_state(self, user: Vmdbk, now: float) -> int:
        """The user's state as a sampler sees it: waiting for a CPU until its burst starts,
        or while its timer's interrupt waits for one (:meth:`timer_pending`); idle in the
        dispatch list with an I/O of its own in flight, I/O active (%IOA); waiting for a
        service machine (``svm_wait``), *SVM and* test idle (%TI), eligible (%EL) or
        dormant (%DM); dormant waiting for none, :data:`~zvmsim.cp.vmdbk.DORM` (no
        USTAT column); eligible waiting for none, whatever CP tests next: loading
        (%LDG) or other (%OTH) (MRUSEINT's order: HFESVM, HFLOAD, ..., HFOTHR)."""
        state = user.state
        if state in (RUN, CPU):
            start, end = user.burst[0], user.burst[1]
            if now < start:
                return CPU
            if now < end:
                return RUN
        elif state == TIW:
            if user.timer_hz and self.timer_pending(user, now):
                return CPU
            if user.ios:
                return IOA
            if user.svm_wait:
                return TI
        elif state == DM:
            return DM if user.svm_wait else DORM
        elif state == EL and not user.svm_wait:
            return LDG if user.loading else OTH
        return state

    def timer_pending(self, user: Vmdbk, now: float) -> bool:
        """Whether the idle *user*'s last timer interrupt still waits for a processor.

        A Linux guest's timer pops ``hz`` times a second on each virtual CPU, and
        each pop makes it dispatchable for a few microseconds (their time is
        charged with its work, :mod:`zvmsim.guests.linux`). A pop that finds every
        processor busy waits until one of them chooses its next burst: a guest's
        burst or time slice ends (CP's own work in between returns to the guest it
        interrupted). So the guest is in CPU wait now if every processor has been
        running one guest burst since its last pop.
        """
        gap = 1.0 / (user.timer_hz * user.virtual_cpus)
        popped = now - (now / gap - user.timer_phase) % 1.0 * gap  # its last pop
        return all(start < popped and end > now for start, end in self.guest_burst)


def _drop_ended(segs: list[tuple[float, float, float]], now: float) -> None:
    """Drop the segments that ended by *now*: a prefix, since they end in order."""
    if segs:
        if segs[-1][1] <= now:  # all have ended
            segs.clear()
        elif segs[0][1] <= now:
            del segs[: bisect_right(segs, now, key=_END)]


def share_weights(users: Iterable[Vmdbk]) -> None:
    """Give each user the dispatcher weight of its SET SHARE.

    A relative share is its own weight. An absolute share of A% is worth
    what makes it A% of the system against all relative shares:
    ``A / (100 - total absolute) * total relative``.
    """
    users = list(users)
    relative = sum(u.share_relative for u in users if not u.share_absolute)
    absolute = sum(u.share_absolute for u in users)
    rest = max(100.0 - absolute, 1.0)
    for u in users:
        if u.share_absolute:
            u.weight = u.share_absolute / rest * relative if relative else u.share_absolute
        else:
            u.weight = float(max(u.share_relative, 1))
