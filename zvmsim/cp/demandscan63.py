"""The demand scan of z/VM 6.3: reclaim from the aging list, visit users in a cycle.

When a request breaches an available-list threshold, CP reclaims frames from
the bottom of the global aging list, then refills the list from the top. To
refill it, it visits every logged-on user in turn — dispatched or not,
VDISKs included — resuming where the previous scan stopped (a visit
cursor) and taking only a little at each visit (see
:meth:`~zvmsim.cp.storage63.Storage63.visit`): a visit ages what it
trial-invalidated last time and was not touched since, and invalidates a
small share of the user's valid pages. No scheduler lists, no passes, no
reference bits, no reorder.

One scan goes round the users at most ``MAX_CYCLES`` times (it gives up
control rather than run for long); if the aging list is still short of what
the request needs, the users' valid pages go to the list directly, the
biggest users' first — the rare case where everything in storage is in use.
"""

from __future__ import annotations

from .storage63 import Storage63

__all__ = ["DemandScan63"]

MAX_CYCLES = 3


class DemandScan63:
    """The 6.3 demand scan (a :class:`~zvmsim.cp.storage.ScanPolicy`)."""

    def __init__(self) -> None:
        self.cursor = 0

    def replenish(self, storage: Storage63, need: int) -> int:  # type: ignore[override]
        got = storage.reclaim(need)
        cycles = 0
        while got < need and cycles < MAX_CYCLES:
            self.fill(storage, need - got)
            got += storage.reclaim(need - got)
            cycles += 1
        if got < need:
            for space in sorted(storage.spaces, key=lambda s: (-s.valid, s.name)):
                if got >= need:
                    break
                storage.visit(space, force=need - got)
                got += storage.reclaim(need - got)
        self.fill(storage, 0)
        return got

    def fill(self, storage: Storage63, extra: int) -> None:
        """Visit users in turn until the aging list holds its target plus *extra*
        pages, or every user has been visited once."""
        spaces = storage.spaces
        count = len(spaces)
        want = storage.agelist.target + extra
        visits = 0
        while storage.agelist.pages < want and visits < count:
            storage.visit(spaces[self.cursor % count])
            self.cursor += 1
            visits += 1
