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

An event scheduled for now (a zero delay: an event that succeeds, a process
that starts) goes on one of two lists in the order scheduled (its id), one
for urgent and one for normal priority, instead of the heap: each is in
SimPy's order already, and the loop takes the first of the lists' heads and
the heap's (:meth:`Clock._head`), so the order is SimPy's. A Clock's schedule
entries are :class:`Entry` objects, not SimPy's tuples: compiled, the heap's
comparisons are of two C numbers each, not of tuples field by field.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappop, heappush
from itertools import count
from math import inf
from typing import Any, Final, cast, final

import simpy
from simpy.core import NORMAL as SIMPY_NORMAL
from simpy.core import URGENT, EmptySchedule, SimTime, StopSimulation
from simpy.events import PENDING, Event, EventPriority, Process, _describe_frame

__all__ = [
    "Clock",
    "ClockEvent",
    "Entry",
    "after",
    "callbacks_of",
    "due",
    "due_urgent",
    "later",
    "ok_of",
    "pending",
    "reinstate",
    "still_to_come",
    "value_of",
]

_PENDING: Final = PENDING  # SimPy's not-yet-triggered value (a C static when compiled)

_BOUND = ("process", "event", "all_of", "any_of")  # SimPy binds these per instance
# SimPy's normal priority, Final: the compiled code keeps it in a C static (no dict lookup)
NORMAL: Final = EventPriority(1)
if NORMAL != SIMPY_NORMAL:  # pragma: no cover (SimPy's own, should it ever change)
    raise ImportError(f"simpy.core.NORMAL is {SIMPY_NORMAL}, zvmsim.clock expects {NORMAL}")
_NORMAL_RANK: Final = 1  # int(NORMAL): compared as a C integer when compiled
if int(NORMAL) != _NORMAL_RANK:  # pragma: no cover
    raise ImportError("zvmsim.clock: NORMAL's rank is not 1")
_URGENT: Final = URGENT  # (a C static when compiled)
_URGENT_RANK: Final = 0  # int(URGENT)
if int(URGENT) != _URGENT_RANK:  # pragma: no cover
    raise ImportError("zvmsim.clock: URGENT's rank is not 0")
# an entry's key: its priority, then its event id (ids are below 2**48)
_KEY_SHIFT: Final = 1 << 48
_URGENT_KEY: Final = (_URGENT_RANK + 1) * _KEY_SHIFT
_NORMAL_KEY: Final = (_NORMAL_RANK + 1) * _KEY_SHIFT
# where the next entry is (Clock._head): the heap, or the urgent or normal list of now's
_HEAP: Final = 0
_NOW_URGENT: Final = 1
_NOW_NORMAL: Final = 2
_PUSH: Final = heappush
_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)


@final
class Entry:
    """One entry of a Clock's schedule: SimPy's ``(time, priority, event id, event)``
    with the priority and the id in one number, *key* (``(priority + 1) * 2**48 + id``),
    so that SimPy's order of entries is that of ``(at, key)``. Compiled, ``<`` (what
    ``heapq`` asks) compares two C doubles, then two C integers, if need be.
    """

    __slots__ = ("at", "key", "event")  # (as pure Python: no __dict__ per entry)

    at: float
    key: int
    event: Any

    def __init__(self, at: float, key: int, event: Any) -> None:
        self.at = at
        self.key = key
        self.event = event

    def __lt__(self, other: Entry) -> bool:
        if self.at != other.at:
            return self.at < other.at
        return self.key < other.key


def _key(priority: int, eid: int) -> int:
    """An entry's key for an event of *priority* (SimPy's: -1 to 1) numbered *eid*."""
    return (priority + 1) * _KEY_SHIFT + eid


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
    at: float
    if isinstance(env, Clock):  # (its fields read directly)
        now = env._now
        at = now + delay
        if at == now:  # due now: in order on the list of now's normal events
            env._now_normal.append(Entry(at, _NORMAL_KEY + _NEXT(env._eid), event))
        else:
            _PUSH(env._queue, Entry(at, _NORMAL_KEY + _NEXT(env._eid), event))
    else:
        now = env._now
        _PUSH(env._queue, (now + delay, NORMAL, _NEXT(env._eid), event))
    return event


def due(env: simpy.Environment, event: Event) -> None:
    """``env.schedule(event)``: *event* (triggered) is processed now, at normal priority."""
    if isinstance(env, Clock):
        env._now_normal.append(Entry(env._now, _NORMAL_KEY + _NEXT(env._eid), event))
    else:
        _PUSH(env._queue, (env._now, NORMAL, _NEXT(env._eid), event))


def due_urgent(env: simpy.Environment, event: Event) -> None:
    """``env.schedule(event, URGENT)``: *event* is processed now, before normal ones
    (as a process's start or an interruption is)."""
    if isinstance(env, Clock):
        env._now_urgent.append(Entry(env._now, _URGENT_KEY + _NEXT(env._eid), event))
    else:
        _PUSH(env._queue, (env._now, _URGENT, _NEXT(env._eid), event))


def later(env: simpy.Environment, delay: float, event: Event) -> None:
    """``env.schedule(event, delay=delay)``: *event* is processed *delay* from now."""
    if isinstance(env, Clock):
        env.schedule(event, NORMAL, delay)
    else:
        _PUSH(env._queue, (env._now + delay, NORMAL, _NEXT(env._eid), event))


def reinstate(env: simpy.Environment, at: float, eid: int, event: Event) -> None:
    """Schedule *event* at *at* (not before now) with the event id *eid* it was given
    earlier (:func:`~zvmsim.cp.dispatch` keeps some off the schedule until needed)."""
    if isinstance(env, Clock):
        _PUSH(env._queue, Entry(at, _NORMAL_KEY + eid, event))
    else:
        _PUSH(env._queue, (at, NORMAL, eid, event))


def still_to_come(clock: Clock, at: float, eid: int) -> bool:
    """Whether an event at *at* numbered *eid* (normal priority) comes after the
    entry *clock* is processing (or last processed)."""
    current = clock._current
    if at != current.at:
        return at > current.at
    return _NORMAL_KEY + eid > current.key


def pending(env: simpy.Environment) -> ClockEvent:
    """``env.event()``: a new event, not yet triggered (as ``Event.__init__`` makes it)."""
    return ClockEvent(env, [])


def _first(at: float, eid: int, head: Entry) -> bool:
    """Whether an entry ``(at, NORMAL, eid)`` (the tick's place) comes before the
    schedule's first entry *head* (without making the entry)."""
    if at != head.at:
        return at < head.at
    return _NORMAL_KEY + eid < head.key


def _sooner(entry: Entry, other: Entry) -> bool:
    """Whether schedule entry *entry* comes before *other* (keys are unique)."""
    if entry.at != other.at:
        return entry.at < other.at
    return entry.key < other.key


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
        due_urgent(env, start)
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
                due(env, self)
                break
            except BaseException as e:  # the process has failed
                event = None  # type: ignore[assignment]
                self._ok = False
                e.__traceback__ = e.__traceback__.tb_next  # type: ignore[union-attr]
                self._value = e
                due(env, self)
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

    The schedule is SimPy's heap ``_queue`` and two lists of entries due now, each in
    the order scheduled: ``_now_urgent`` (urgent priority) and ``_now_normal``; an
    entry is an :class:`Entry` in all three. Each list's entries
    before its ``_head`` index have been taken (None); it is emptied once all are.
    """

    _now: SimTime
    _queue: list[Entry]  # type: ignore[assignment]
    _eid: count[int]
    _active_proc: Process | None
    _now_urgent: list[Any]  # (Entry | None: typed Any, compiled a list's own append)
    _now_normal: list[Any]
    _urgent_head: int
    _normal_head: int
    _source: int  # where _head found the next entry: _HEAP, _NOW_URGENT or _NOW_NORMAL
    _current: Entry  # the entry being processed, or last processed

    def __init__(self, initial_time: float = 0) -> None:
        super().__init__(initial_time)
        self._now_urgent = []
        self._now_normal = []
        self._urgent_head = self._normal_head = 0
        self._source = _HEAP
        self._current = Entry(initial_time, _key(-2, 0), None)  # before any entry
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
        now: float = self._now  # (C doubles when compiled: no float objects made here)
        at = now + delay
        if at == now:  # due now
            self._now_normal.append(Entry(at, _NORMAL_KEY + _NEXT(self._eid), event))
        else:
            heappush(self._queue, Entry(at, _NORMAL_KEY + _NEXT(self._eid), event))
        return event

    def schedule(  # type: ignore[override]
        self, event: Event, priority: EventPriority = NORMAL, delay: float = 0
    ) -> None:
        """Schedule *event* with *priority* *delay* from now (as SimPy's)."""
        now: float = self._now  # (C doubles when compiled)
        at = now + delay
        rank = int(priority)
        if at == now and rank == _NORMAL_RANK:
            self._now_normal.append(Entry(at, _NORMAL_KEY + _NEXT(self._eid), event))
        elif at == now and rank == _URGENT_RANK:
            self._now_urgent.append(Entry(at, _URGENT_KEY + _NEXT(self._eid), event))
        else:
            heappush(self._queue, Entry(at, _key(rank, _NEXT(self._eid)), event))

    def _head(self) -> Entry | None:
        """The schedule's next entry (None if it is empty), where it is in _source."""
        entry: Entry | None = None
        source = _HEAP
        if self._urgent_head < len(self._now_urgent):
            entry, source = self._now_urgent[self._urgent_head], _NOW_URGENT
        elif self._normal_head < len(self._now_normal):
            entry, source = self._now_normal[self._normal_head], _NOW_NORMAL
        queue = self._queue
        if queue and (entry is None or _sooner(queue[0], entry)):
            entry, source = queue[0], _HEAP
        self._source = source
        return entry

    def _drop(self) -> None:
        """Take the entry _head found off the schedule."""
        source = self._source
        if source == _HEAP:
            heappop(self._queue)
        elif source == _NOW_URGENT:
            urgent, head = self._now_urgent, self._urgent_head + 1
            if head == len(urgent):
                urgent.clear()
                head = 0
            else:
                urgent[head - 1] = None  # (not kept alive until the list is emptied)
            self._urgent_head = head
        else:
            normal, head = self._now_normal, self._normal_head + 1
            if head == len(normal):
                normal.clear()
                head = 0
            else:
                normal[head - 1] = None
            self._normal_head = head

    def peek(self) -> SimTime:
        """The time of the next event or tick (``inf`` if there is none), as SimPy's."""
        entry = self._head()
        at = inf if entry is None else entry.at
        return self._tick_at if self._tick_at < at else at

    def step(self) -> None:
        """Process the next event or tick (as SimPy's ``step``)."""
        entry = self._head()
        tick_at = self._tick_at
        if tick_at != inf and (entry is None or _first(tick_at, self._tick_eid, entry)):
            self._run_tick()
            return
        if entry is None:
            raise EmptySchedule
        self._drop()
        self._process(entry)

    def _run_tick(self) -> None:
        """Run the tick in its event's place."""
        tick_at, fn = self._tick_at, self._tick_fn
        self._tick_at, self._tick_fn = inf, None
        self._now = tick_at
        self._current = Entry(tick_at, _NORMAL_KEY + self._tick_eid, None)
        fn()  # type: ignore[misc]

    def _process(self, entry: Entry) -> None:
        """Process the event of *entry*, taken off the schedule (as SimPy's ``step``)."""
        self._current = entry
        self._now = entry.at
        event = entry.event
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
        queue, urgent, normal = self._queue, self._now_urgent, self._now_normal
        try:
            while True:
                # the next entry (_head, inline): the first of the lists' heads and the heap's
                entry: Entry | None = None
                source = _HEAP
                if self._urgent_head < len(urgent):
                    entry, source = urgent[self._urgent_head], _NOW_URGENT
                elif self._normal_head < len(normal):
                    entry, source = normal[self._normal_head], _NOW_NORMAL
                if queue and (entry is None or _sooner(queue[0], entry)):
                    entry, source = queue[0], _HEAP
                tick_at = self._tick_at  # inf while no tick is pending
                if tick_at != inf and (entry is None or _first(tick_at, self._tick_eid, entry)):
                    self._run_tick()  # the tick comes first: it runs in its event's place
                    continue
                if entry is None:
                    raise EmptySchedule
                if source == _HEAP:
                    heappop(queue)
                else:
                    self._source = source
                    self._drop()
                self._process(entry)
        except StopSimulation as stop:
            return stop.args[0]
        except EmptySchedule:
            if until is not None:
                assert not until.triggered
                raise RuntimeError(
                    f'No scheduled events left but "until" event was not triggered: {until}'
                ) from None
        return None
