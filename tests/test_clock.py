"""The Clock runs events in SimPy's order, with SimPy's semantics."""

from __future__ import annotations

import random

import pytest
import simpy
from simpy.core import URGENT

from zvmsim.clock import Clock


def _trace(env: simpy.Environment) -> list[tuple]:
    """What a few processes with ties, zero delays, events and a failure do, in order."""
    rnd = random.Random(7)
    seen: list[tuple] = []
    gate = env.event()

    def worker(name: int):
        for step in range(30):
            delay = rnd.choice([0, 0.5, 1.0, rnd.random()])
            value = yield env.timeout(delay, value=(name, step))
            seen.append((env.now, "t", value))
            if step == 10 and name == 0:
                gate.succeed("open")
        return name

    def waiter():
        value = yield gate
        seen.append((env.now, "gate", value))
        done = yield env.process(worker(9))
        seen.append((env.now, "done", done))
        try:
            yield env.process(failing())
        except KeyError as exc:
            seen.append((env.now, "caught", str(exc)))

    def failing():
        yield env.timeout(0.25)
        raise KeyError("boom")

    for name in range(4):
        env.process(worker(name))
    env.process(waiter())
    env.run(until=7.5)
    seen.append((env.now, "paused", None))
    env.run()
    return seen


def test_clock_runs_events_in_simpy_order() -> None:
    assert _trace(Clock()) == _trace(simpy.Environment())


def test_clock_keeps_simpy_errors() -> None:
    env = Clock()
    with pytest.raises(ValueError, match="Negative delay"):
        env.timeout(-1)
    with pytest.raises(ValueError, match="not a generator"):
        env.process(42)
    env.run(until=1)
    with pytest.raises(ValueError, match="must be greater"):
        env.run(until=0.5)

    def failing():
        yield env.timeout(1)
        raise RuntimeError("unhandled")

    env.process(failing())
    with pytest.raises(RuntimeError, match="unhandled"):
        env.run()


def _stepped_trace(env: simpy.Environment) -> list[tuple]:
    """Events due now (zero delays, succeeded events, process starts, urgent
    schedules) among ones due later at the same moments, processed by ``step``:
    what happens, and what ``peek`` says before each step."""
    rnd = random.Random(5)
    seen: list[tuple] = []

    def worker(name: int):
        for step in range(25):
            gate = env.event()
            delay = rnd.choice([0, 0, 0.5, 1.0])
            env.timeout(delay).callbacks.append(lambda _e, gate=gate, step=step: gate.succeed(step))
            if step % 5 == 0:  # an urgent event now, among normal ones
                urgent = env.event()
                urgent._ok, urgent._value = True, None
                urgent.callbacks.append(lambda _e, name=name: seen.append((env.now, "u", name)))
                env.schedule(urgent, URGENT)
            value = yield gate
            seen.append((env.now, name, value))
            if step % 4 == 0:
                yield env.process(child(name))

    def child(name: int):
        yield env.timeout(0)
        seen.append((env.now, "child", name))

    for name in range(3):
        env.process(worker(name))
    while True:
        seen.append(("peek", env.peek()))
        try:
            env.step()
        except simpy.core.EmptySchedule:
            return seen


def test_clock_steps_and_peeks_in_simpy_order() -> None:
    assert _stepped_trace(Clock()) == _stepped_trace(simpy.Environment())


def test_clock_runs_until_an_event() -> None:
    env = Clock()
    stop = env.timeout(3, value="stopped")
    assert env.run(until=stop) == "stopped"
    assert env.now == 3


def _ticks_trace(env: simpy.Environment) -> list[tuple]:
    """A tick every 0.25 s beside processes whose timeouts often land on the same
    moments (ties): on a Clock through :meth:`Clock.tick`, else a chain of timeouts."""
    rnd = random.Random(11)
    seen: list[tuple] = []
    pending: list[simpy.Event] = []  # SimPy's: the timeout of the tick still to come

    def tick() -> None:
        if isinstance(env, Clock):
            env.tick(0.25, ticked)
        else:  # a new tick replaces the pending one
            if pending and pending[-1].callbacks is not None:
                pending[-1].callbacks.clear()
            pending.append(env.timeout(0.25))
            pending[-1].callbacks.append(lambda _event: ticked())

    def ticked() -> None:
        seen.append((env.now, "tick"))
        tick()

    def worker(name: int):
        for step in range(40):
            yield env.timeout(rnd.choice([0, 0.25, 0.5, 0.125]))
            seen.append((env.now, name, step))
            if step % 7 == 0:  # a tick set from inside an event: the old one is replaced
                ticked()

    for name in range(3):
        env.process(worker(name))
    tick()
    env.run(until=2.0)  # a tick due at 2.0 comes after the stop
    seen.append((env.now, "paused"))
    env.run(until=4.0)
    return seen


def test_a_tick_runs_in_its_timeouts_place() -> None:
    assert _ticks_trace(Clock()) == _ticks_trace(simpy.Environment())


def _wakes_trace(env: simpy.Environment) -> list[tuple]:
    """Guests' bursts on two processors with PR/SM's redispatch and timer pops: every
    burst's start and end, and the processors' counters at the end."""
    from zvmsim.cp.dispatch import Processors
    from zvmsim.cp.timer import timer_pops
    from zvmsim.cp.vmdbk import Vmdbk

    rnd = random.Random(3)
    procs = Processors(env, 2, interrupt_us=20.0)
    procs.set_redispatch(0.001)  # long, so work often queues while a wake is ending
    env.process(timer_pops(env, procs, 700.0))
    seen: list[tuple] = []

    def guest(name: str):
        user = Vmdbk(name)
        for _ in range(60):
            yield env.timeout(rnd.choice([0.0, 0.0004, rnd.random() * 0.006]))
            yield procs.run(user, rnd.random() * 0.002, 0.0)
            seen.append((env.now, name, user.burst))
            procs.field_interrupt()

    for k in range(3):
        env.process(guest(f"LINUX{k}"))
    env.run(until=0.5)
    seen.append((procs.free_at, procs.wakes, procs.busy_s, procs.susp_s, procs.system_s))
    return seen


def test_a_deferred_wake_end_keeps_simpy_order() -> None:
    """On a Clock a wake's end stays off the schedule until work queues before it;
    on SimPy's environment it is always scheduled: the same bursts, the same counts."""
    assert _wakes_trace(Clock()) == _wakes_trace(simpy.Environment())


def _spawned_trace(spawned: bool) -> list[tuple]:
    """Fire-and-forget I/Os, beside a ticking process: what happens, in order. Each is
    started as :func:`~zvmsim.guests.base.spawn` has it (*spawned*: its start's place is
    taken, the next arrival scheduled, then it starts) or as a process."""
    from zvmsim.guests.base import spawn

    env = Clock()
    rnd = random.Random(3)
    seen: list[tuple] = []
    gate = env.event()

    def io(k: int):
        seen.append((env.now, "start", k))
        yield env.timeout(rnd.choice([0, 0.25, rnd.random()]))
        if k == 4:
            gate.succeed()
        yield gate if k > 4 else env.timeout(0)
        seen.append((env.now, "end", k))

    def arrivals():
        for k in range(12):
            if spawned:
                start = spawn(env)
                arrival = env.timeout(rnd.choice([0, 0.25, 0.5]))
                start(io(k))
                yield arrival
            else:
                env.process(io(k))
                yield env.timeout(rnd.choice([0, 0.25, 0.5]))

    def ticker():
        for _ in range(20):
            yield env.timeout(0.25)
            seen.append((env.now, "tick", len(env._queue)))

    env.process(arrivals())
    env.process(ticker())
    env.run()
    return seen


def test_a_spawned_generator_runs_as_a_process_would() -> None:
    ours = _spawned_trace(True)
    theirs = _spawned_trace(False)
    assert len(ours) == len(theirs) == 12 * 2 + 20
    # the same steps at the same moments; only the processes' own end events are gone
    assert [s[:2] for s in ours] == [s[:2] for s in theirs]
    assert [s for s in ours if s[1] != "tick"] == [s for s in theirs if s[1] != "tick"]
