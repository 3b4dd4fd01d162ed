"""CP's real I/O layer: RDEVs, PAV base and alias exposures, the base queue.

A volume with Parallel Access Volumes has one *base* RDEV and zero or more
*alias* RDEVs; each exposure can run one I/O at a time. CP starts an I/O on
the base if it is free, otherwise on any free alias — but only if the I/O is
marked PAV-eligible. An I/O that finds no usable exposure waits in CP's queue
at the base RDEV; when an exposure finishes, CP starts the oldest queued I/O
that may run there. So an ineligible I/O can only ever run on the base.

Counters follow the channel subsystem's measurement block (SSCH count, pend,
disconnect and connect time per RDEV) plus CP's own queue time, which belongs
to the base RDEV because that is where the queue lives.

CP times the queue wait only of the requests it stamps as it queues them:
a guest's I/O or a page I/O. The minidisk cache's own I/Os (its full-track
reads and write-throughs) queue on the same RDEV, and the high-frequency
sampler counts them there, but their wait is not added to the queue time
(our hypothesis for the PAV and MDC case without APAR VM64199: Req. Qued 2.9
at 564 I/Os a second with Resp only .2 ms above Serv, on aliases as well as
the base). zvmsim keeps that wait apart (``Rdev.untimed_s``), so Little's
law holds for the queue as sampled: Req. Qued = I/O rate x (timed + untimed
wait per I/O).

CP's path for a real I/O (``rio_us``: start it, field its end) is charged to
the user who asked for it when the I/O starts at once, on that user's own
path. An I/O that waited in the queue is started by CP on the interrupt path
of the I/O before it, which runs for no user: its path is system time (our
hypothesis, from the PAV and MDC case: without APAR VM64199, with nearly
every I/O queued at the base, the users' T/V fell from 2.3 with MDC off to
2.1, where MDC's own path lengths would have raised it, as they did to 2.6
with the fix).

Over multiplexing channels (FICON) CP rotates the I/Os over the volume's
paths. Over one-at-a-time channels (ESCON) an I/O needs a free path for its
connect phase: it takes the first free one, or waits for one, and that wait
is part of its function-pending time (the time from SSCH until the device
starts). The path is held for the connect time and freed for the disconnect.

A volume *shared* with other systems (:meth:`VolumeIO.share`) is also used
by I/Os this system never sees: while one of them holds the device, an I/O
CP starts waits for it, and the channel subsystem counts that device-busy
delay in its function-pending time, as it does the wait for a free path.

When the volume's control unit simulates its cache, an I/O that names the
track it starts on asks that cache for its disconnect and connect times
(hit, miss, a wait for NVS, or the drive's when caching is off); otherwise
every I/O is timed as a cache hit.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Generator
from typing import Any, Final

import simpy

from ..clock import ClockEvent, after, due, later, pending
from ..hardware.channels import Chpid
from ..hardware.cucache import VolumeCache
from ..hardware.dasd import DasdTiming
from .dispatch import Processors
from .vmdbk import IOW, Vmdbk

try:  # for mypyc (zvmsim/native.py): tests stand in for a volume with a subclass
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


__all__ = ["Rdev", "VolumeIO"]

_NEXT: Final = next  # a C static when compiled (``next`` is otherwise a builtins look-up)


def _disconnect(conn: Any) -> None:
    """A serial I/O's connect phase *conn* is over: free its path, and its I/O's
    *done* event fires *rest* later (as a timeout: at normal priority)."""
    conn.path.release()  # type: ignore[attr-defined]
    done: ClockEvent = conn.done  # type: ignore[attr-defined]
    done._ok = True
    done._value = None
    later(done.env, conn.rest, done)  # env.schedule(done, delay=rest)


class Rdev:
    """One real device exposure (a base or an alias) and its counters."""

    __slots__ = (
        "addr",
        "base",
        "volser",
        "busy",
        "ssch",
        "reads",
        "pend_s",
        "disc_s",
        "conn_s",
        "queue_s",
        "untimed_s",
        "avoided",
    )

    def __init__(self, addr: str, volser: str, base: Rdev | None = None) -> None:
        self.addr = addr
        self.base = base
        self.volser = volser
        self.busy = False
        self.ssch = 0
        self.reads = 0
        self.pend_s = 0.0
        self.disc_s = 0.0
        self.conn_s = 0.0
        self.queue_s = 0.0  # queue wait CP timed (the base's)
        self.untimed_s = 0.0  # queue wait of requests CP queued without timing them
        self.avoided = 0


@mypyc_attr(allow_interpreted_subclasses=True)
class VolumeIO:
    """The exposures of one volume and CP's I/O queue at its base RDEV."""

    __slots__ = (
        "env",
        "volser",
        "base",
        "aliases",
        "exposures",
        "paths",
        "timing",
        "cache",
        "processors",
        "_rio_s",
        "_queue",
        "_path_cycle",
        "_serial",
        "_turn",
        "started",
        "in_flight",
        "held",
        "device",
    )

    def __init__(
        self,
        env: simpy.Environment,
        volser: str,
        base: str,
        aliases: tuple[str, ...],
        paths: list[Chpid],
        timing: DasdTiming,
        processors: Processors,
        path_us: dict[str, float],
        cache: VolumeCache | None = None,
    ) -> None:
        self.env = env
        self.volser = volser
        self.base = Rdev(base, volser)
        self.aliases = [Rdev(a, volser, self.base) for a in aliases]
        self.exposures = [self.base, *self.aliases]
        self.paths = paths
        self.timing = timing
        self.cache = cache  # the control unit's cache, when it is simulated
        self.processors = processors
        self._rio_s = path_us["rio_us"] / 1e6
        self._queue: deque[tuple[bool, ClockEvent]] = deque()
        self._path_cycle = itertools.cycle(paths)  # CP rotates over the channel paths
        self._serial = bool(paths) and all(p.serial for p in paths)
        self._turn = 0  # where a serial path search starts (rotates)
        self.started = 0  # I/O requests CP accepted for this volume (queued or not)
        # requests accepted but not finished: queued plus running on an exposure
        # (kept as I/Os start and end, so CP's paging allocator reads it cheaply)
        self.in_flight = 0
        # requests CP's paging manager holds for this device before it starts
        # them (queued page writes): not yet I/O requests of this layer
        self.held = 0
        self.device: simpy.Resource | None = None  # the device, when other systems share it

    def share(self) -> simpy.Resource:
        """Other systems use this device too: from now on an I/O must hold the device."""
        if self.aliases:
            raise ValueError(f"volume {self.volser}: a shared volume cannot have PAV aliases")
        if self.device is None:
            self.device = simpy.Resource(self.env, capacity=1)
        return self.device

    @property
    def queued(self) -> int:
        """I/O requests waiting in CP's queue at the base RDEV right now."""
        return len(self._queue)

    def _free_exposure(self, pav_eligible: bool) -> Rdev | None:
        if not self.base.busy:
            return self.base
        if pav_eligible:
            for alias in self.aliases:
                if not alias.busy:
                    return alias
        return None

    def io(
        self,
        user: Vmdbk,
        nbytes: int,
        read: bool,
        pav_eligible: bool,
        state: int | None = IOW,
        *,
        track: int | None = None,
        runs: int = 1,
        tracks: int = 1,
        timed: bool = True,
    ) -> Generator[Any, Any, Any]:
        """Run one real I/O for *user*, who waits in *state* (I/O or page wait; None:
        the guest does not wait for it, and its state is left alone).

        *timed*: CP times the request's wait in its queue (False for the
        minidisk cache's own I/Os, whose wait only the queue samples see).

        *track* is the track the I/O starts on; given, and when the control
        unit's cache is simulated, the cache decides the disconnect time.
        *runs* is the number of separate places the I/O's blocks lie in,
        *tracks* the number of tracks they cover from *track* on.
        """
        env = self.env
        if state is not None:
            user.state = state
        self.started += 1
        self.in_flight += 1
        base = self.base
        queued = False
        rdev: Rdev  # typed (not Rdev | Any), so the compiled code reaches its fields directly
        if not base.busy:
            rdev = base
        else:
            free = self._free_exposure(pav_eligible)
            if free is None:
                queued = True
                wait = pending(env)
                queued_at = env._now
                self._queue.append((pav_eligible, wait))
                rdev = yield wait
                if timed:
                    base.queue_s += env._now - queued_at
                else:
                    base.untimed_s += env._now - queued_at
            else:
                rdev = free
        rdev.busy = True
        path: Chpid
        device, busy_s = self.device, 0.0
        if device is not None:  # another system's I/O may hold the device: wait for it
            asked = env._now
            hold = device.request()
            yield hold
            busy_s = env._now - asked
        if self._serial:  # the path: the first free one, or wait for one
            paths = self.paths
            asked = env._now
            self._turn = turn = (self._turn + 1) % len(paths)
            found = Chpid.free_path(paths, turn)
            if found is None:  # every path is busy: wait for the first to come free
                wait = pending(env)  # (Chpid.acquire, whose own look finds none free either)
                for p in paths:
                    p.waiters.append(wait)
                path = yield wait
            else:
                path = found
            waited = env._now - asked
            if track is None or self.cache is None:  # timed as a cache hit (_times)
                pend, disc, conn = self.timing.sample(nbytes, path)
            else:
                pend, disc, conn = self._times(nbytes, read, track, path, runs, tracks)
            # the connect phase holds the path; when it ends (_disconnect), the path is
            # released and the I/O goes on for its pend and disc (env.timeout(conn) with
            # that callback, built inline; no process step)
            done = ClockEvent(env, [])  # Event(env)
            ended = after(env, conn, [_disconnect])
            ended.path, ended.done, ended.rest = path, done, pend + disc  # type: ignore[attr-defined]
            yield done
            pend += waited
        else:
            path = _NEXT(self._path_cycle)
            if track is None or self.cache is None:  # _times without the cache, inline
                pend, disc, conn = self.timing.sample(nbytes, path)
            else:
                pend, disc, conn = self._times(nbytes, read, track, path, runs, tracks)
            yield after(env, pend + disc + conn, [])
        if device is not None:
            device.release(hold)
            pend += busy_s
        rdev.ssch += 1
        if read:
            rdev.reads += 1
        rdev.pend_s += pend
        rdev.disc_s += disc
        rdev.conn_s += conn
        path.busy_s += conn
        path.ios += 1
        if read:
            path.read_bytes += nbytes
        else:
            path.write_bytes += nbytes
        if queued:  # started on the interrupt path of the I/O before it
            self.processors.charge_system(self._rio_s)
        else:
            user.pending_cp_s += self._rio_s
        self.processors.field_interrupt()
        self.in_flight -= 1
        if self._queue:
            self._finish(rdev)
        else:
            rdev.busy = False

    def _times(
        self,
        nbytes: int,
        read: bool,
        track: int | None,
        path: Chpid,
        runs: int = 1,
        tracks: int = 1,
    ) -> tuple[float, float, float]:
        """One I/O's pend, disc and conn; the control unit's cache (or drive) may
        change disc and conn when the I/O names its track."""
        pend, disc, conn = self.timing.sample(nbytes, path)
        if track is not None and self.cache is not None:
            xfer = self.timing.transfer_s(nbytes, path)
            disc, conn = self.cache.times(
                track, read, self.env.now, (disc, conn), xfer, nbytes, runs, tracks
            )
        return pend, disc, conn

    def _finish(self, rdev: Rdev) -> None:
        """Start the oldest queued I/O that may use *rdev*, or free it."""
        queue = self._queue
        if queue:
            is_base = rdev.base is None
            for i, (eligible, wait) in enumerate(queue):
                if is_base or eligible:
                    del queue[i]
                    wait._ok = True  # wait.succeed(rdev), inline: it was pending
                    wait._value = rdev
                    due(self.env, wait)
                    return
        rdev.busy = False
