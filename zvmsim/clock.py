"""The simulation clock: SimPy's environment with its event loop made lean.

:class:`Clock` is a :class:`simpy.Environment` that processes events in
exactly SimPy's order (time, priority, then the order they were scheduled)
and with SimPy's semantics, but with less work per event: :meth:`Clock.run`
steps through the schedule in one loop instead of a method call per event,
and :meth:`Clock.timeout` and :meth:`Clock.process` build their events
without the generic constructor path; a process resumes with fewer lookups.
:meth:`Clock.tick` keeps one recurring callback (the guests' timer pops) off
the schedule: it is numbered as an event scheduled then would be and runs
in that event's place, without an event object or a heap entry.
Nothing in a run's outcome depends on which of the two is used.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush
from itertools import count
from math import inf
from typing import Any, Final, cast

import simpy
from simpy.core import NORMAL as SIMPY_NORMAL
from simpy.core import URGENT, EmptySchedule, SimTime, StopSimulation
from simpy.events import PENDING, Event, EventPriority, Process, _describe_frame

__all__ = ["Clock", "ClockEvent", "after", "callbacks_of", "ok_of", "pending", "value_of"]

_PENDING: Final = PENDING  # SimPy's not-yet-triggered value (a C static when compiled)

_BOUND = ("process", "event", "all_of", "any_of")  # SimPy binds these per instance
# SimPy's normal priority, Final: the compiled code keeps it in a C static (no dict lookup)
NORMAL: Final = EventPriority(1)
if NORMAL != SIMPY_NORMAL:  # pragma: no cover (SimPy's own, should it ever change)
    raise ImportError(f"simpy.core.NORMAL is {SIMPY_NORMAL}, zvmsim.clock expects {NORMAL}")
_NORMAL_RANK: Final = 1  # int(NORMAL): compared as a C integer when compiled
if int(NORMAL) != _NORMAL_RANK:  # pragma: no cover
    raise ImportError("zvmsim.clock: NORMAL's rank is not 1")
_PUSH: Final = heappush
_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)


class ClockEvent(Event):
    """A SimPy event whose fields are fixed: compiled, a C struct (read and written
    by the compiled code directly, not through the instance's ``__dict__``).

    It is a :class:`simpy.Event` (SimPy's code and ``isinstance`` see one) with
    the same fields and meaning: ``env``, ``callbacks`` (None once processed),
    ``_value`` (``PENDING`` until triggered) and ``_ok`` (unset until triggered);
    anything else (``_defused``) goes in its ``__dict__`` as on SimPy's events.
    The hot paths' events (timeouts, pending events, a process's start) are these.
    """

    env: simpy.Environment
    callbacks: list[Any] | None  # type: ignore[assignment]
    _value: Any
    _ok: bool

    def __init__(self, env: simpy.Environment, callbacks: list[Any]) -> None:
        self.env = env
        self.callbacks = callbacks
        self._value = _PENDING


def after(env: simpy.Environment, delay: float, callbacks: list[Callable[..., Any]]) -> ClockEvent:
    """``env.timeout(delay)`` with *callbacks* as its callbacks, built without the
    generic constructor (the hot paths' timeouts: the same time, priority and id)."""
    event = ClockEvent(env, callbacks)
    event._value = None
    event._ok = True
    now: float  # (a C double when compiled: SimPy types it int | float)
    if isinstance(env, Clock):  # (its fields read directly)
        now = env._now
        _PUSH(env._queue, (now + delay, NORMAL, _NEXT(env._eid), event))
    else:
        now = env._now
        _PUSH(env._queue, (now + delay, NORMAL, _NEXT(env._eid), event))
    return event


def pending(env: simpy.Environment) -> ClockEvent:
    """``env.event()``: a new event, not yet triggered (as ``Event.__init__`` makes it)."""
    return ClockEvent(env, [])


def _first(at: float, eid: int, head: tuple[Any, ...]) -> bool:
    """Whether ``(at, NORMAL, eid)`` (the tick's place) comes before the schedule's first
    entry *head*: that tuple comparison, field by field, without making the tuple."""
    # typed: compared as C numbers when compiled (no boxing; an int time compares the same)
    head_at: float = head[0]
    if at != head_at:
        return at < head_at
    priority: int = head[1]  # (an EventPriority: an int)
    if priority != _NORMAL_RANK:
        return _NORMAL_RANK < priority
    head_eid: int = head[2]
    return eid < head_eid  # (event ids are unique: never equal)


class _Process(Process):
    """A SimPy process whose :meth:`_resume` does SimPy's steps with fewer lookups
    (``_resumer`` is its bound method, made once: equal to ``_resume`` as SimPy's
    interruption compares them); its fields fixed as :class:`ClockEvent`'s are.

    It starts as ``simpy.Process`` does: its start, an urgent event now, calls
    :meth:`_resume` (a :class:`ClockEvent` where SimPy's is an ``Initialize``).
    """

    env: simpy.Environment
    callbacks: list[Any] | None  # type: ignore[assignment]
    _value: Any
    _ok: bool
    _generator: Any
    _target: Any
    _resumer: Any

    def __init__(self, env: simpy.Environment, generator: Any) -> None:
        self.env = env
        self.callbacks = []
        self._value = _PENDING
        self._generator = generator
        self._resumer = self._resume
        start = ClockEvent(env, [self._resumer])
        start._value = None
        start._ok = True
        _PUSH(env._queue, (env._now, URGENT, _NEXT(env._eid), start))
        self._target = start

    def _resume(self, event: Event) -> None:
        """Resume the generator with *event*'s value (as ``simpy.Process._resume``)."""
        env = self.env
        clock = env if isinstance(env, Clock) else None  # (its fields written directly)
        if clock is not None:
            clock._active_proc = self
        else:
            env._active_proc = self
        generator = self._generator
        while True:
            try:
                value = value_of(event)
                if ok_of(event):
                    event = generator.send(value)
                else:  # the process handles the failed event, or fails itself
                    event._defused = True
                    exc = type(value)(*value.args)
                    exc.__cause__ = value
                    event = generator.throw(exc)
            except StopIteration as e:  # the process has ended
                event = None  # type: ignore[assignment]
                self._ok = True
                self._value = e.args[0] if len(e.args) else None
                env.schedule(self)
                break
            except BaseException as e:  # the process has failed
                event = None  # type: ignore[assignment]
                self._ok = False
                e.__traceback__ = e.__traceback__.tb_next  # type: ignore[union-attr]
                self._value = e
                env.schedule(self)
                break
            # None once processed; typed, so the compiled append is the list's own
            callbacks: list[Any] | None
            try:
                callbacks = callbacks_of(event)
            except AttributeError:
                if hasattr(event, "callbacks"):
                    raise
                frame = getattr(generator, "gi_frame", None)  # none in a compiled one
                descr = _describe_frame(frame) if frame is not None else ""
                raise RuntimeError(f'\n{descr}Invalid yield value "{event}"') from None
            if callbacks is not None:  # not triggered yet: resume when it is
                callbacks.append(self._resumer)
                break
        self._target = event
        if clock is not None:
            clock._active_proc = None
        else:
            env._active_proc = None


# An event's fields, read (or cleared) directly where it is a ClockEvent or a _Process
# (compiled: a C struct's), and through SimPy's attributes on any other event.


def ok_of(event: Any) -> bool:
    """``event._ok``: whether the (triggered) event succeeded."""
    if isinstance(event, ClockEvent):
        return event._ok
    if isinstance(event, _Process):
        return event._ok
    return bool(event._ok)


def value_of(event: Any) -> Any:
    """``event._value``: its value (``PENDING`` until it is triggered)."""
    if isinstance(event, ClockEvent):
        return event._value
    if isinstance(event, _Process):
        return event._value
    return event._value


def callbacks_of(event: Any) -> list[Any] | None:
    """``event.callbacks``: None once the event has been processed."""
    if isinstance(event, ClockEvent):
        return event.callbacks
    if isinstance(event, _Process):
        return event.callbacks
    return event.callbacks  # type: ignore[no-any-return]


def _take_callbacks(event: Any) -> list[Any]:
    """The callbacks of *event*, now being processed (they become None)."""
    callbacks: list[Any]
    if isinstance(event, ClockEvent):
        callbacks = cast(list, event.callbacks)
        event.callbacks = None
    elif isinstance(event, _Process):
        callbacks = cast(list, event.callbacks)
        event.callbacks = None
    else:
        callbacks = event.callbacks
        event.callbacks = None
    return callbacks


class Clock(simpy.Environment):
    """A SimPy environment with a faster event loop and timeouts (same order, same results).

    SimPy's fields (``_now``, ``_queue``, ``_eid``, ``_active_proc``) are declared here,
    so compiled they are a C struct's (read and written directly by compiled code that
    knows it has a Clock), and :attr:`now` is a compiled property.
    """

    _now: SimTime
    _queue: list[tuple[SimTime, EventPriority, int, Event]]
    _eid: count[int]
    _active_proc: Process | None

    def __init__(self, initial_time: float = 0) -> None:
        super().__init__(initial_time)
        # the schedule entry (time, priority, id, event) being processed, or last processed
        self._current: tuple[Any, ...] = (initial_time, URGENT - 1, -1, None)
        # the tick (see tick): its time, event id and callback; none while _tick_at is inf
        self._tick_at = inf
        self._tick_eid = -1
        self._tick_fn: Callable[[], None] | None = None
        for name in _BOUND:  # SimPy binds only its own class's, not a subclass's
            setattr(self, name, getattr(self, name))

    def timeout(self, delay: float = 0, value: Any = None) -> ClockEvent:  # type: ignore[override]
        """An event that happens *delay* seconds from now (as ``simpy.Timeout``)."""
        if delay < 0:
            raise ValueError(f"Negative delay {delay}")
        event = ClockEvent(self, [])
        event._value = value
        event._ok = True
        heappush(self._queue, (self._now + delay, NORMAL, _NEXT(self._eid), event))
        return event

    def event(self) -> ClockEvent:  # type: ignore[override]
        """A new event, not yet triggered (as ``simpy.Event(env)``)."""
        return ClockEvent(self, [])

    @property
    def now(self) -> SimTime:
        """The current simulation time (as ``simpy.Environment.now``)."""
        return self._now

    @property
    def active_process(self) -> Process | None:
        """The process being resumed now (as ``simpy.Environment.active_process``)."""
        return self._active_proc

    def tick(self, delay: float, fn: Callable[[], None]) -> None:
        """Call *fn* *delay* seconds from now, where ``env.timeout(delay)`` made now
        would be processed (its time, priority and event id), without the event.

        One tick is pending at a time (a new one replaces it); *fn* may set the next.
        """
        if delay < 0:
            raise ValueError(f"Negative delay {delay}")
        self._tick_at = self._now + delay
        self._tick_eid = _NEXT(self._eid)
        self._tick_fn = fn

    def process(self, generator: Any) -> Process:  # type: ignore[override]
        """A process running *generator* from now on (as ``simpy.Process``)."""
        if not hasattr(generator, "throw"):
            raise ValueError(f"{generator} is not a generator.")
        return _Process(self, generator)

    def run(self, until: Any = None) -> Any:
        """Process events until *until* (a time or an event), as ``simpy.Environment.run``."""
        if until is not None:
            if not isinstance(until, Event):
                at = until if isinstance(until, int) else float(until)
                if at <= self._now:
                    raise ValueError(
                        f"until ({at}) must be greater than the current simulation time"
                    )
                until = Event(self)
                until._ok = True
                until._value = None
                self.schedule(until, URGENT, at - self._now)
            elif cast(Any, until).callbacks is None:  # processed (SimPy types it a list)
                return until.value
            until.callbacks.append(StopSimulation.callback)
        queue, pop = self._queue, heappop  # (a local: no global looked up per event)
        try:
            while True:
                tick_at = self._tick_at  # inf while no tick is pending
                if tick_at != inf and (not queue or _first(tick_at, self._tick_eid, queue[0])):
                    # the tick comes first: it runs in its event's place
                    fn = self._tick_fn
                    self._tick_at, self._tick_fn = inf, None
                    self._now = tick_at
                    self._current = (tick_at, NORMAL, self._tick_eid, None)
                    fn()  # type: ignore[misc]
                    continue
                try:
                    self._now, _, _, event = self._current = pop(queue)
                except IndexError:
                    raise EmptySchedule from None
                callbacks: list[Any] = _take_callbacks(event)  # (typed: a list's own loop)
                try:
                    for callback in callbacks:
                        callback(event)
                except StopSimulation:
                    event.callbacks = callbacks[callbacks.index(callback) + 1 :]
                    self.schedule(event, -1)  # type: ignore[arg-type]
                    raise
                if not ok_of(event) and not hasattr(event, "_defused"):
                    exc = type(event._value)(*event._value.args)
                    exc.__cause__ = event._value
                    raise exc
        except StopSimulation as stop:
            return stop.args[0]
        except EmptySchedule:
            if until is not None:
                assert not until.triggered
                raise RuntimeError(
                    f'No scheduled events left but "until" event was not triggered: {until}'
                ) from None
        return None
