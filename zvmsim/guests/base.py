"""What every workload shares: parameter checking and the machine it runs on."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar, Final

import simpy

from ..clock import callbacks_of, ok_of, value_of
from ..cp.vmdbk import TIW, Vmdbk
from ..errors import ZvmsimError

try:  # for mypyc (zvmsim/native.py): most workloads, not compiled, subclass Workload
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


if TYPE_CHECKING:
    from ..cp.spaces import ColdRun, Space
    from ..machine import Machine

__all__ = ["Idle", "Workload", "spawn"]

_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)


# what a process's start event gives it: success, no value (an object, not a class
# with these as class attributes: mypyc makes those its instances' defaults)
_STARTED: Final = SimpleNamespace(_ok=True, _value=None)


def spawn(env: simpy.Environment) -> Callable[[Generator[Any, Any, Any]], None]:
    """Take the place of a process start now for a generator nobody waits for (a
    guest's asynchronous I/O); return what starts one there.

    ``env.process(generator)`` starts with an urgent event now. This takes that
    event's place in the order (its event id) without scheduling it: the caller
    calls the returned function with the generator where the event would have
    been processed — at the end of its own step, when that step is the only
    callback of the event being processed and schedules nothing urgent after
    this (so an urgent event now would come next). The generator then resumes
    as each event it yields is processed, without the Process object and the
    event of its end, which nothing listens to. An exception in the generator
    stops the run.
    """
    _NEXT(env._eid)  # type: ignore[attr-defined]
    return _start


def _start(generator: Generator[Any, Any, Any]) -> None:
    """Start *generator* where its process's start event would have been processed."""
    _Spawned(generator)(_STARTED)


class _Spawned:
    """A spawned generator: called with each event it yields once that is processed.

    An object rather than a closure that refers to itself: nothing here refers
    back to it, so when its generator ends it is freed at once, not left as a
    reference cycle for the garbage collector (a guest spawns one per I/O).
    """

    def __init__(self, generator: Generator[Any, Any, Any]) -> None:
        self.generator = generator

    def __call__(self, event: Any) -> None:
        generator = self.generator
        while True:
            try:
                value = value_of(event)
                if ok_of(event):
                    event = generator.send(value)
                else:  # as a process: a failed event is thrown into the generator
                    event._defused = True
                    exc = type(value)(*value.args)
                    exc.__cause__ = value
                    event = generator.throw(exc)
            except StopIteration:
                return
            callbacks: list[Any] | None = callbacks_of(event)  # (typed: the list's own append)
            if callbacks is not None:
                callbacks.append(self)
                return


@mypyc_attr(allow_interpreted_subclasses=True)
class Workload:
    """Base class: subclasses declare ``PARAMS`` (name -> default) and ``run``."""

    PARAMS: ClassVar[dict[str, Any]] = {}
    APPLDATA: ClassVar[bool] = False  # the workload reports to CP Monitor (domain 10)

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise ZvmsimError(f"workload {type(self).__name__}: unknown parameter '{unknown[0]}'")
        self.p = {**self.PARAMS, **params}
        for key, default in self.PARAMS.items():
            if type(self.p[key]) is not type(default) and not (
                isinstance(default, float) and isinstance(self.p[key], int)
            ):
                raise ZvmsimError(
                    f"workload {type(self).__name__}: parameter '{key}' must be "
                    f"{type(default).__name__}"
                )
        self.machine = machine
        self.vm = vm
        self.rnd = rnd

    def minidisk(self, name: str) -> Any:
        """The machine's minidisk *name*, with ``{userid}`` filled in."""
        key = name.format(userid=self.vm.userid)
        try:
            return self.machine.minidisks[key]
        except KeyError:
            raise ZvmsimError(f"user {self.vm.userid}: no minidisk '{key}'") from None

    @property
    def links(self) -> list[str]:
        """Names of the minidisks this guest links."""
        return []

    def prepare(self) -> None:
        """Build the guest's history before the clock starts (optional)."""

    def history(self, seconds: float) -> None:
        """Replay *seconds* of past activity in storage, without I/O timing (optional)."""

    def appldata(self) -> tuple[str, int, float] | None:
        """What the application measures of itself, for CP Monitor's APPLDATA domain.

        ``(workload name, transactions completed, sum of their response times
        in seconds)``, cumulative; None for a guest that reports nothing.
        """
        return None

    def run(self) -> Generator[Any, Any, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def wait(self, seconds: float, dormant: bool) -> Generator[Any, Any, Any]:
        """Nothing to do for *seconds*: out of the dispatch list if *dormant*, else
        still in it on its timer (TIW); ``yield from`` it."""
        m, vm = self.machine, self.vm
        if dormant:
            m.drop_from_dispatch_list(vm)
            yield m.env.timeout(seconds)
            m.add_to_dispatch_list(vm)
        else:
            vm.state = TIW
            yield m.env.timeout(seconds)

    def async_io(
        self, disk: Any, block: int, count: int, write: bool, runs: int = 1
    ) -> Generator[Any, Any, Any]:
        """One I/O the guest starts and does not wait for in CP (``yield from`` it):
        counted in flight (``vm.ios``), which CP samples as I/O active."""
        vm = self.vm
        vm.ios += 1
        yield from disk.io(vm, block, count, write, runs, state=None)
        vm.ios -= 1

    def cold_touches(
        self, space: Space, run: ColdRun, touches: int, busy: float
    ) -> Generator[Any, Any, float]:
        """*touches* touches of *space*'s cold pages with the processor time between
        them (:meth:`Storage.touch_cold_run`): a page fault runs the time gathered so
        far before its wait, and a full time slice runs as it fills. ``yield from``
        it; it returns the time gathered and not yet run (*busy*: already gathered)."""
        m, vm = self.machine, self.vm
        storage, cpu = m.storage, m.processors
        while touches > 0:
            done, busy, step = storage.touch_cold_run(vm, space, run, touches, busy)  # type: ignore[union-attr]
            touches -= done
            if step is not None or busy >= run.slice_s:
                yield cpu.run(vm, busy, 0.0)
                busy = 0.0
            if step is not None:
                yield from step
        return busy

    def test_idle(self, seconds: float) -> Generator[Any, Any, Any]:
        """Idle for *seconds* with no timer ticking: CP keeps the user in the dispatch
        list (test idle) for its test-idle time, then drops it; ``yield from`` it."""
        m, vm = self.machine, self.vm
        keep = m.config.calibration.test_idle_s
        vm.state = TIW
        if seconds <= keep:  # work again before the test-idle time is up: still in queue
            yield m.env.timeout(seconds)
            return
        yield m.env.timeout(keep)
        m.drop_from_dispatch_list(vm)
        yield m.env.timeout(seconds - keep)


@mypyc_attr(allow_interpreted_subclasses=True)
class Idle(Workload):
    """A logged-on virtual machine with nothing to do (a service machine at rest)."""

    def run(self) -> Generator[Any, Any, Any]:
        return
        yield  # pragma: no cover - makes this a generator
