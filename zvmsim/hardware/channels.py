"""Channel paths (CHPIDs): data rate, and the connect time they carry.

A FICON channel multiplexes many I/Os, so on the loads of the current case
studies it adds no queueing of its own; it still records its busy time so a
channel report can be built. (ESCON's one-I/O-at-a-time contention, which
shows up as function-pending time, is a later addition on this seam.)
"""

from __future__ import annotations

from ..calibration import ChannelSpeed

__all__ = ["Chpid"]


class Chpid:
    """One channel path."""

    __slots__ = ("chpid", "kind", "bytes_per_s", "busy_s", "ios")

    def __init__(self, chpid: str, kind: str, speed: ChannelSpeed) -> None:
        self.chpid = chpid
        self.kind = kind
        self.bytes_per_s = speed.data_rate_mb_s * 1e6
        self.busy_s = 0.0
        self.ios = 0
