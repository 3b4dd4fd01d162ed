"""Channel paths (CHPIDs): data rate, the connect time they carry, the bytes they move.

A FICON channel multiplexes many I/Os, so on the loads of the current case
studies it adds no queueing of its own; it still records its busy time so a
channel report can be built. An ESCON channel is circuit switched: it
carries one I/O's connect phase at a time. An I/O that finds every path to
its device busy waits for one (:meth:`Chpid.acquire`), and the channel
subsystem counts that wait as function-pending time. A shared ESCON channel
also carries other partitions' I/Os, simulated as connect phases of their
own arriving at random (:meth:`Chpid.other_partitions`).

An OSA channel (type OSD) carries a VSWITCH's frames: bytes written (out to
the LAN) and read (in from it), a frame count, and the QDIO signals that
move them: a SIGA from the host for each batch of frames it queues out, an
interrupt to the host for each batch that arrives. The adapter's processor
works per frame and per signal far more than per byte, so small frames and
small batches (interactive traffic, ACKs) keep an OSA busy at low data rates.

How busy a channel is depends on its kind. One that runs one I/O at a time
(``concurrent_io`` 1, ESCON) is busy for the whole connect time of its I/Os.
One that multiplexes (FICON, OSD) is busy while its processor works — a
calibrated time per I/O and per frame — and while its link moves bytes at
its data rate.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Generator, Sequence
from typing import Any, Final

import simpy
from simpy.events import PENDING

from ..calibration import ChannelSpeed
from ..clock import due

__all__ = ["Chpid"]

_PENDING: Final = PENDING  # SimPy's not-yet-triggered value (a C static when compiled)


class Chpid:
    """One channel path and its measurement counters."""

    __slots__ = (
        "chpid",
        "kind",
        "bytes_per_s",
        "busy_s",
        "ios",
        "read_bytes",
        "write_bytes",
        "packets",
        "signals",
        "_serial",
        "_io_s",
        "_packet_s",
        "_signal_s",
        "active",
        "waiters",
        "other_busy_s",
        "ccw_s",
    )

    def __init__(self, chpid: str, kind: str, speed: ChannelSpeed) -> None:
        self.chpid = chpid
        self.kind = kind
        self.bytes_per_s = speed.data_rate_mb_s * 1e6
        self.busy_s = 0.0  # connect time of the I/Os it carried
        self.ios = 0
        self.read_bytes = 0  # into the host (DASD reads, frames in from the LAN)
        self.write_bytes = 0  # out of the host
        self.packets = 0  # network frames, both directions
        self.signals = 0  # QDIO signals: SIGAs from the host, interrupts to it
        self._serial = speed.concurrent_io <= 1
        self._io_s = speed.work_us_per_io / 1e6
        self._packet_s = speed.packet_us / 1e6
        self._signal_s = speed.signal_us / 1e6
        self.active = False  # a serial channel carrying a connect phase now
        self.waiters: deque[simpy.Event] = deque()  # I/Os waiting for this path
        self.other_busy_s = 0.0  # connect time of other partitions' I/Os (in busy_s)
        self.ccw_s = speed.ccw_ms / 1000.0  # connect time a chained CCW adds (ESCON)

    @property
    def serial(self) -> bool:
        """True for a channel that carries one I/O at a time (ESCON)."""
        return self._serial

    @staticmethod
    def acquire(
        env: simpy.Environment, paths: Sequence[Chpid], start: int
    ) -> Generator[Any, Any, Any]:
        """Take a free path among *paths* (looking from *start*), waiting if all are busy.

        A process step: ``path = yield from Chpid.acquire(...)``. A waiting
        I/O queues on every one of its paths and takes the first to free up.
        """
        path = Chpid.free_path(paths, start)
        if path is not None:
            return path
        wait = env.event()
        for path in paths:
            path.waiters.append(wait)
        path = yield wait
        return path

    @staticmethod
    def free_path(paths: Sequence[Chpid], start: int) -> Chpid | None:
        """Take the first free path among *paths* (looking from *start*); None if all
        are busy (:meth:`acquire` without the wait)."""
        for path in paths[start:]:
            if not path.active:
                path.active = True
                return path
        for path in paths[:start]:
            if not path.active:
                path.active = True
                return path
        return None

    def release(self) -> None:
        """The connect phase is over: hand the path to the oldest I/O waiting for it."""
        waiters = self.waiters
        while waiters:
            wait = waiters.popleft()
            if wait._value is _PENDING:  # not triggered (by another of its paths) yet
                wait._ok = True  # wait.succeed(self), inline: it stays active for that I/O
                wait._value = self
                due(wait.env, wait)
                return
        self.active = False

    def other_partitions(
        self, env: simpy.Environment, busy: float, conn_s: float, rnd: random.Random
    ) -> Generator[Any, Any, Any]:
        """Other partitions' I/Os on a shared serial channel: *busy* share, *conn_s* each.

        They arrive at random (Poisson) and hold the channel for an
        exponentially distributed connect time, so they both add to its busy
        time and make our I/Os wait for it now and then.
        """
        rate = busy / conn_s
        while True:
            yield env.timeout(rnd.expovariate(rate))
            env.process(self._other_io(env, rnd.expovariate(1.0 / conn_s)))

    def _other_io(self, env: simpy.Environment, conn: float) -> Generator[Any, Any, Any]:
        yield from Chpid.acquire(env, (self,), 0)
        yield env.timeout(conn)
        self.busy_s += conn
        self.other_busy_s += conn
        self.release()

    def count(self, read_bytes: int, write_bytes: int, packets: int = 0, signals: int = 0) -> None:
        """Add bytes moved (and network frames and QDIO signals) to the channel's counters."""
        self.read_bytes += read_bytes
        self.write_bytes += write_bytes
        self.packets += packets
        self.signals += signals

    def work_s(self) -> float:
        """Seconds the channel has been busy since the machine started."""
        if self._serial:
            return self.busy_s
        moved = (self.read_bytes + self.write_bytes) / self.bytes_per_s
        return (
            moved
            + self.ios * self._io_s
            + self.packets * self._packet_s
            + self.signals * self._signal_s
        )
