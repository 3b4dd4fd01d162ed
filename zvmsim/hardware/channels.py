"""Channel paths (CHPIDs): data rate, the connect time they carry, the bytes they move.

A FICON channel multiplexes many I/Os, so on the loads of the current case
studies it adds no queueing of its own; it still records its busy time so a
channel report can be built. (ESCON's one-I/O-at-a-time contention, which
shows up as function-pending time, is a later addition on this seam.)

An OSA channel (type OSD) carries a VSWITCH's frames: bytes written (out to
the LAN) and read (in from it), and a frame count.

How busy a channel is depends on its kind. One that runs one I/O at a time
(``concurrent_io`` 1, ESCON) is busy for the whole connect time of its I/Os.
One that multiplexes (FICON, OSD) is busy while its processor works — a
calibrated time per I/O and per frame — and while its link moves bytes at
its data rate.
"""

from __future__ import annotations

from ..calibration import ChannelSpeed

__all__ = ["Chpid"]


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
        "_serial",
        "_io_s",
        "_packet_s",
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
        self._serial = speed.concurrent_io <= 1
        self._io_s = speed.work_us_per_io / 1e6
        self._packet_s = speed.packet_us / 1e6

    def count(self, read_bytes: int, write_bytes: int, packets: int = 0) -> None:
        """Add bytes moved (and network frames) to the channel's counters."""
        self.read_bytes += read_bytes
        self.write_bytes += write_bytes
        self.packets += packets

    def work_s(self) -> float:
        """Seconds the channel has been busy since the machine started."""
        if self._serial:
            return self.busy_s
        moved = (self.read_bytes + self.write_bytes) / self.bytes_per_s
        return moved + self.ios * self._io_s + self.packets * self._packet_s
