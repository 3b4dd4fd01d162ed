"""The demand scan of z/VM 6.2 and earlier: pass 1, pass 2, emergency scan.

When the available list runs low, CP visits address spaces in a fixed order
of friendliness and steals frames until it has what it needs:

* **pass 1** — when the minidisk cache lives in central storage, first
  the arbiter's share of its frames (:mod:`zvmsim.cp.mdchome`); then
  unreferenced pages of shared spaces (VDISKs: referenced VDISK
  pages are passed over and keep their bits, so a VDISK page in use sticks
  until an emergency scan), then dormant users, then eligible-list users (all
  their pages), then dispatch-list users' unreferenced pages down to their
  working-set size (WSS);
* **pass 2** — the same, but skipping shared spaces and taking dispatch-list
  users' pages down to their SET RESERVED amount;
* **emergency scan** — anything it can find, referenced or not, visiting the
  spaces in pass 1's order: shared spaces, dormant users, eligible-list users,
  then dispatch-list users. Referenced VDISK pages, which only this scan may
  take, go before the pages dispatched users are touching, so one guest
  faulting its hot set back in does not strip the others' (which would start
  the next scan's emergency, and so on).

A visit clears the reference bits of the pages it passes over, so a page
that is not touched again can be taken by the next pass. With SET REORDER
ON, every scan also reorders each dispatch-list user that is due (see
:meth:`~zvmsim.cp.storage.Storage.reorder`): its bits are reset and it is
stopped while CP walks its frames; a user not due yet is armed, and CP
reorders it at its own next dispatch once it is due
(:meth:`~zvmsim.cp.storage.Storage.reorder_due`). For a space with a
page table, the pass-1 visit also makes CP's new working-set projection
(:meth:`~zvmsim.cp.storage.Storage.visit`: every page held, for a user
faulting pages in like a loading user; otherwise halfway to the pages
referenced since the last visit), then clears every bit. Frames taken in each
pass are counted for the DEMNDLOG report. The visiting order rotates from one
scan to the next so no user is always first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .spaces import Space
from .storage import Storage

__all__ = ["DemandScan62"]


class DemandScan62:
    """The pre-6.3 three-pass demand scan (a :class:`ScanPolicy`)."""

    def __init__(self) -> None:
        self._turn = 0

    def replenish(self, storage: Storage, need: int) -> int:
        spaces = storage.spaces
        if not spaces:
            return 0
        turn = self._turn % len(spaces)
        self._turn += 1
        order = spaces[turn:] + spaces[:turn]
        shared = [s for s in order if s.kind == "vdisk"]
        guests = [s for s in order if s.kind != "vdisk"]
        dormant: list[Space] = []
        eligible: list[Space] = []
        dispatch: list[Space] = []
        lists = {"dormant": dormant, "eligible": eligible, "dispatch": dispatch}
        for s in guests:  # each guest's list looked up once
            lists[s.listed].append(s)
        got = 0
        for space in dispatch:  # page reorder: periodic for each user in queue (SET REORDER)
            storage.reorder_due(space)

        def visit(
            pass_no: int,
            visited: Iterable[Space],
            allowance: Callable[[Space], int],
            honour_ref: bool,
            reset_bits: bool = True,
        ) -> None:
            nonlocal got
            for space in visited:
                if got >= need:
                    return
                if pass_no == 0 and space.table is not None:
                    storage.visit(space)
                room = min(need - got, allowance(space))
                taken = storage.steal(space, room, honour_ref, reset_bits)
                storage.taken_by_pass[pass_no] += taken
                got += taken

        if storage.mdc_home is not None:  # MDC in central: the arbiter's share first
            taken = storage.mdc_home.give_back(need)
            storage.taken_by_pass[0] += taken
            got += taken
        everything = lambda s: s.resident  # noqa: E731
        visit(0, shared, everything, True, reset_bits=False)
        visit(0, dormant, everything, False)
        visit(0, eligible, everything, False)
        visit(0, dispatch, lambda s: s.resident - s.wss, True)
        visit(1, dormant + eligible, everything, False)
        visit(1, dispatch, lambda s: s.resident - s.reserved, True)
        # emergency: anything, but in pass 1's order, so shared spaces' pages (the
        # VDISK pages that stick) go before the users' and dispatched users go last
        visit(2, shared + dormant + eligible + dispatch, everything, False)
        return got
