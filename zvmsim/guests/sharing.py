"""Another system's users on volumes this system shares with it.

A volume behind a control unit can be shared by several systems (other
partitions or other machines: the volume's status is SHARABLE). This system
sees only its own I/O to it, in its own measurement blocks; the other
systems' I/O is visible in two places only:

* the **device** is busy while another system's I/O runs on it, and an I/O
  CP starts then waits (device busy, part of its function-pending time);
* the **control unit's cache counters** count every I/O to the device,
  whichever system sent it, so a shared volume's cache I/O rate exceeds the
  SSCH rate this system measured.

Here the other system is not simulated, only its users: each runs the same
kind of query transactions a ``cms_query`` guest runs (think, then ``ios``
dependent I/Os against the shared minidisks, mostly on their hot tracks),
so their I/O rate falls by itself when the device slows down. Their I/Os
reach the device over the other system's own channels; they use the control
unit's cache (and the drive, when it serves them) like ours.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from ..config import SharingConfig
from ..cp.minidisk import BLOCK_BYTES
from ..errors import ZvmsimError
from ..hardware.dasd import DasdTiming
from .cms import CmsQuery, hot_layout, query_place

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["OtherSystem"]


class OtherSystem:
    """The users of one other system, doing I/O to minidisks on shared volumes."""

    def __init__(self, machine: Machine, config: SharingConfig) -> None:
        unknown = sorted(set(config.params) - set(CmsQuery.PARAMS) - {"vcpu_us", "name"})
        if unknown:
            raise ZvmsimError(f"[sharing.{config.name}]: unknown parameter '{unknown[0]}'")
        self.p = {**CmsQuery.PARAMS, **config.params}
        if self.p["ios"] < 1 or self.p["blocks_per_io"] < 1 or self.p["think_s"] <= 0:
            raise ZvmsimError(
                f"[sharing.{config.name}]: ios and blocks_per_io must be at least 1, "
                "think_s positive"
            )
        self.name = config.name
        self.users = config.users
        self.machine = machine
        self.disks = [machine.minidisks[n.strip()] for n in self.p["minidisks"].split(",")]
        self.places = [(d, hot_layout(machine, d, self.p["hot_mb"])) for d in self.disks]
        cal = machine.config.calibration
        self.timing: dict[str, DasdTiming] = {}
        for disk in self.disks:
            volume = disk.volume
            if volume.cache is None:
                raise ZvmsimError(
                    f"[sharing.{config.name}]: volume {volume.volser} is not behind a cached "
                    "control unit"
                )
            try:
                volume.share()
            except ValueError as err:
                raise ZvmsimError(f"[sharing.{config.name}]: {err}") from None
            if volume.volser not in self.timing:
                cu = machine.config.volumes[volume.volser].control_unit
                self.timing[volume.volser] = DasdTiming(
                    cal.control_units[cu],
                    machine.streams.stream(f"sharing:{config.name}:{volume.volser}"),
                )
        self.ios = 0  # I/Os the other system's users did (this system never counts them)

    def start(self) -> None:
        """Start the users' SimPy processes."""
        for i in range(self.users):
            rnd = self.machine.streams.stream(f"sharing:{self.name}:user{i + 1}")
            self.machine.env.process(self._user(rnd))

    def _user(self, rnd: Any) -> Generator:
        env = self.machine.env
        think, ios, count = self.p["think_s"], self.p["ios"], self.p["blocks_per_io"]
        writes, hot_share, scatter = self.p["write_share"], self.p["hot_share"], self.p["scatter"]
        yield env.timeout(rnd.uniform(0.0, think))
        while True:
            for _ in range(ios):
                disk, block, runs = query_place(self.places, count, hot_share, scatter, rnd)
                block %= disk.blocks
                bpt = disk.blocks_per_track
                track = disk.first_track + block // bpt
                tracks = (block + count - 1) // bpt - block // bpt + 1
                yield from self._io(
                    disk.volume, track, count * BLOCK_BYTES, rnd.random() >= writes, runs, tracks
                )
            yield env.timeout(rnd.expovariate(1.0 / think))

    def _io(
        self, volume: Any, track: int, nbytes: int, read: bool, runs: int, tracks: int = 1
    ) -> Generator:
        """One I/O of the other system: it holds the device from start to end."""
        env = self.machine.env
        hold = volume.device.request()
        yield hold
        timing, path = self.timing[volume.volser], volume.paths[0]
        pend, disc, conn = timing.sample(nbytes, path)  # its own channels, of the same kind
        xfer = timing.transfer_s(nbytes, path)
        disc, conn = volume.cache.times(
            track, read, env.now, (disc, conn), xfer, nbytes, runs, tracks
        )
        yield env.timeout(pend + disc + conn)
        volume.device.release(hold)
        self.ios += 1
