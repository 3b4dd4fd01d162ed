"""DASD service time: function pending, disconnect and connect, per I/O.

A cached control unit (2105 class) answers an I/O in three phases, the ones
the channel subsystem measures and Perfkit shows in FCX108:

* **pend** — from SSCH until the device starts: path and control-unit set-up;
* **disc** — the device works disconnected (reconnect after a cache hit or a
  DASD fast write);
* **conn** — connected to the channel: protocol overhead plus the data moved
  at the slower of the channel's data rate and the control unit's per-I/O
  transfer rate, so bigger I/Os take longer. A channel program of several
  CCWs (CP's paging I/O chains one a page: the control unit's ``ccw_bytes``)
  adds, on an ESCON channel, the channel's ``ccw_ms`` for each CCW after the
  first: ESCON interlocks every command with the control unit, where FICON
  pipelines them (its ``ccw_ms`` is 0).

Each phase varies around its mean by the control unit's ``jitter``.
"""

from __future__ import annotations

import random

from ..calibration import ControlUnitTiming
from .channels import Chpid

__all__ = ["DasdTiming"]


class DasdTiming:
    """Draws (pend, disc, conn) in seconds for I/Os to one volume."""

    __slots__ = ("_pend", "_disc", "_conn0", "_cu_rate", "_ccw_bytes", "_lo", "_span", "_rand")

    def __init__(self, cu: ControlUnitTiming, rnd: random.Random) -> None:
        self._pend = cu.pend_ms / 1000.0
        self._disc = cu.disc_ms / 1000.0
        self._conn0 = cu.conn_overhead_ms / 1000.0
        self._cu_rate = cu.transfer_mb_s * 1e6
        self._ccw_bytes = cu.ccw_bytes
        self._lo = 1.0 - cu.jitter
        self._span = 2.0 * cu.jitter
        self._rand = rnd.random

    def sample(self, nbytes: int, path: Chpid) -> tuple[float, float, float]:
        """One I/O's pend, disc and conn times (seconds) over channel *path*."""
        r, lo, span = self._rand, self._lo, self._span
        pend = self._pend * (lo + span * r())
        disc = self._disc * (lo + span * r())
        rate, cu_rate = path.bytes_per_s, self._cu_rate
        if cu_rate < rate:  # the slower of the two (min)
            rate = cu_rate
        conn0 = self._conn0
        if self._ccw_bytes and path.ccw_s:  # the CCWs after the first, interlocked
            conn0 += (-(-nbytes // self._ccw_bytes) - 1) * path.ccw_s
        conn = (conn0 + nbytes / rate) * (lo + span * r())
        return pend, disc, conn

    def transfer_s(self, nbytes: int, path: Chpid) -> float:
        """The part of a cache hit's connect time that moves *nbytes* (before jitter)."""
        return nbytes / min(path.bytes_per_s, self._cu_rate)
