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

from .spaces import Space
from .storage import Storage
from .vmdbk import DM

__all__ = ["DemandScan62"]


class DemandScan62:
    """The pre-6.3 three-pass demand scan (a :class:`ScanPolicy`)."""

    def __init__(self) -> None:
        self._turn = 0

    def replenish(self, storage: Storage, need: int) -> int:
        """Steal frames until *need* are freed (or nothing is left): the passes above.

        A visit that could take nothing is skipped before :meth:`Storage.steal`
        (which would return 0 at once, changing nothing), and so is a pass once
        the need is met; each guest's list is looked up once
        (:attr:`Space.listed`, inline)."""
        spaces = storage.spaces
        if not spaces:
            return 0
        turn = self._turn % len(spaces)
        self._turn += 1
        shared: list[Space] = []
        dormant: list[Space] = []
        eligible: list[Space] = []
        dispatch: list[Space] = []
        for s in spaces[turn:] + spaces[:turn]:
            if s.kind == "vdisk":
                shared.append(s)
                continue
            vm = s.vm
            if vm is None or vm.state == DM:
                dormant.append(s)
            elif vm.elisted:
                eligible.append(s)
            else:
                dispatch.append(s)
        got = 0
        # page reorder: periodic for each user in queue (SET REORDER); none is due or armed
        # without a reorder stream or while the storage history is placed
        if storage.reorder_rnd is not None and not storage.quiet:
            for space in dispatch:
                storage.reorder_due(space)
        taken_by_pass, steal, look = storage.taken_by_pass, storage.steal, storage.visit

        def visit(
            pass_no: int, visited: list[Space], keep: str, honour_ref: bool, reset_bits: bool = True
        ) -> None:
            """Steal from each of *visited* down to its *keep* ("": nothing kept,
            "wss" or "reserved")."""
            nonlocal got
            for space in visited:
                if got >= need:
                    return
                if pass_no == 0 and space.table is not None:
                    look(space)
                resident = space.resident
                if keep == "wss":
                    allowance = resident - space.wss
                elif keep:
                    allowance = resident - space.reserved
                else:
                    allowance = resident
                room = need - got
                if allowance < room:
                    room = allowance
                if room <= 0 or resident == 0:
                    continue  # steal would take none
                taken = steal(space, room, honour_ref, reset_bits)
                taken_by_pass[pass_no] += taken
                got += taken

        if storage.mdc_home is not None:  # MDC in central: the arbiter's share first
            taken = storage.mdc_home.give_back(need)
            storage.taken_by_pass[0] += taken
            got += taken
        if got < need:
            visit(0, shared, "", True, reset_bits=False)
        if got < need:
            visit(0, dormant, "", False)
        if got < need:
            visit(0, eligible, "", False)
        if got < need:
            visit(0, dispatch, "wss", True)
        if got < need:
            visit(1, dormant + eligible, "", False)
        if got < need:
            visit(1, dispatch, "reserved", True)
        if got < need:
            # emergency: anything, but in pass 1's order, so shared spaces' pages (the
            # VDISK pages that stick) go before the users' and dispatched users go last
            visit(2, shared + dormant + eligible + dispatch, "", False)
        return got
