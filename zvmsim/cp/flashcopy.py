"""A guest's FlashCopy establish on minidisks, and what it costs the minidisk cache.

A z/OS guest (DFSMSdss, DFSMShsm, defragmentation and other utilities) asks
the storage controller to copy an extent of a source minidisk onto a target
with one short channel program: CP checks and translates it like any virtual
I/O and starts it on the source's real device, which answers in about a
millisecond; the copy itself happens inside the controller, behind CP's back.

So whatever MDC holds of the *target* may no longer be what the disk holds.
CP cannot tell from the channel program which of the target's tracks the
controller will overwrite, so it invalidates MDC for the whole target
minidisk: it looks up every one of its tracks and frees the cached ones,
giving their frames back to storage management (OUR MODELLING ASSUMPTION
of how the seed's "large numbers of MDC track invalidations" arise, which
is also what CP must do when it cannot know). That is CP's own work, no
user's: it holds a processor as system time while the guest waits for its
I/O to finish, and it holds MDC's lock meanwhile, so every other user's I/O
through MDC waits too. Costs: ``mdc_inval_us_per_track`` per track looked up and
``mdc_free_us_per_page`` per cached 4 KB page freed (``[mdc]`` in
``data/calibration/cp.toml``). A target minidisk whose MDC is off
(``MINIOPT NOMDC``) costs nothing of the kind.
"""

from __future__ import annotations

from collections.abc import Generator

from .dispatch import Processors
from .minidisk import Minidisk
from .vmdbk import IOW, Vmdbk

__all__ = ["FlashCopy"]

ESTABLISH_BYTES = 512  # the establish command's parameter list


class FlashCopy:
    """CP's handling of FlashCopy establishes aimed at minidisks."""

    __slots__ = ("processors", "_inval_s", "_free_s", "establishes", "system_s")

    def __init__(self, processors: Processors, path_us: dict[str, float]) -> None:
        self.processors = processors
        self._inval_s = path_us["mdc_inval_us_per_track"] / 1e6
        self._free_s = path_us["mdc_free_us_per_page"] / 1e6
        self.establishes = 0
        self.system_s = 0.0  # CP time spent invalidating MDC for targets

    def establish(self, user: Vmdbk, source: Minidisk, target: Minidisk) -> Generator:
        """One FlashCopy establish from *source* onto *target*; ``yield from`` it."""
        self.establishes += 1
        user.vio += 1
        user.vio_dasd += 1
        source.vio_by[user.userid] = source.vio_by.get(user.userid, 0) + 1
        user.pending_cp_s += source.vio_s
        yield from source.volume.io(user, ESTABLISH_BYTES, False, True)
        mdc = target.mdc
        if mdc is None:
            return
        user.state = IOW  # the guest's I/O is not complete until CP has done this
        while mdc.lock is not None:  # another invalidation holds the cache
            yield mdc.lock
        mdc.hold()
        keys = target.extent_keys()
        freed = mdc.invalidate(keys)
        cost = len(keys) * self._inval_s + freed * mdc.unit_blocks * self._free_s
        self.system_s += cost
        yield self.processors.run_system(cost)
        mdc.release()
