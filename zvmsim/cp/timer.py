"""Guests' timer interrupts, as they wake CP's waiting processors.

Each virtual CPU of a Linux guest takes a timer interrupt *hz* times a
second (``hz`` in :mod:`zvmsim.guests.linux`), and CP reflects each one. The
time that costs is charged with the guest's own work, tick by tick of its
workload. What the aggregate hides is *when* they come: an interrupt that
finds a logical processor waiting wakes it, and where PR/SM's redispatch is
modelled (:meth:`~zvmsim.cp.dispatch.Processors.set_redispatch`) the
processor is suspended until PR/SM dispatches it again (FCX126 %Susp), and
PR/SM counts one more dispatch. The guests' timers are not in step, so
together they make one stream of pops at the sum of their rates, evenly
spaced: one pop at a time, only where the redispatch is modelled (on a
:class:`~zvmsim.clock.Clock` each pop is its tick, in the place an event
would have had, and one that finds no processor waiting costs a comparison).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any, Final

import simpy

from ..clock import Clock, after
from .dispatch import Processors
from .vmdbk import RUN

__all__ = ["timer_hz", "timer_pops"]

_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)
_MIN: Final = min  # (as _NEXT)


def timer_hz(workloads: Iterable) -> float:
    """Timer interrupts a second of all guests: each workload's ``hz`` per virtual CPU."""
    return sum(float(w.p.get("hz", 0)) * w.vm.virtual_cpus for w in workloads)


def timer_pops(
    env: simpy.Environment, processors: Processors, hz: float
) -> Generator[Any, Any, Any]:
    """Pop the guests' timers *hz* times a second; each pop wakes a waiting processor.

    A process that starts the pops and then waits for good: each pop is a
    timeout whose callback wakes a processor and schedules the next pop (the
    same events, in the same order, as a loop of timeouts, without resuming a
    generator at each one). On a :class:`~zvmsim.clock.Clock` each pop is
    instead the clock's tick, run in the place that timeout would have had.
    """
    gap = 1.0 / hz
    wake = processors.wake
    if isinstance(env, Clock):  # each pop is its tick, in the same place, no event
        clock: Clock = env  # (typed: the closure writes its fields directly)
        ready, master_q, free_at = processors._ready, processors._master_q, processors.free_at
        wakes, susp_s = processors.wakes, processors.susp_s
        deferred, cp = processors._deferred, processors.cp
        eid = env._eid

        def tick_pop() -> None:
            now: float = clock._now  # (a C double when compiled)
            # wake's own first tests, inline: most pops find no processor waiting
            redispatch_s = processors.redispatch_s
            if redispatch_s and not ready and not master_q:
                low = _MIN(free_at)
                if low < now - 1e-9:
                    if processors.lock is not None or cp.limithard or not processors._deferring:
                        wake(0.0)
                    else:  # wake(0.0)'s steps, inline: a zero-length CP burst, deferred
                        cpu = free_at.index(low)
                        wakes[cpu] += 1
                        start = now + redispatch_s  # suspended until PR/SM dispatches it
                        susp_s[cpu] += redispatch_s
                        processors.segments_at(cpu, now).append((now, start, 0.0))
                        # it runs nothing: it ends as it starts, and no counter changes
                        free_at[cpu] = start
                        cp.burst = (start, start, 0.0, cpu, processors.speed[cpu])
                        cp.state = RUN
                        # _defer(cpu, start - now), inline
                        deferred[cpu] = (now + (start - now), _NEXT(eid))
                        processors._any_deferred = True
            clock._tick_at = now + gap  # tick(gap, tick_pop), inline
            clock._tick_eid = _NEXT(eid)
            clock._tick_fn = tick_pop

        clock.tick(gap, tick_pop)  # the first pop, a gap from now
        yield env.event()  # never triggered: the pops go on by themselves
        return

    def pop(_event: simpy.Event | None) -> None:
        if _event is not None:
            wake(0.0)
        after(env, gap, [pop])  # the next pop

    pop(None)  # the first pop, a gap from now
    yield env.event()  # never triggered: the pops go on by themselves
