"""The z/VM scheduler: dispatch list, eligible list and transaction classes.

A user with work is *in queue*: in the **dispatch list**, where the
dispatcher runs it, or in the **eligible list**, waiting for the scheduler
to admit it. Dormant users are in neither.

* **Transaction classes.** A user entering the dispatch list starts in
  class Q1 (a short transaction is expected). If it is still there after
  Q1's elapsed time slice it counts as Q2, and after Q2's as Q3 — a
  long-running user, as every busy Linux guest is. A QUICKDSP user is Q0:
  never held in the eligible list.
* **DSPBUF.** At most DSPBUF(1) users of Q1–Q3 may be in the dispatch
  list at once, DSPBUF(2) of Q2–Q3 and DSPBUF(3) of Q3 (Q0 is not counted).
* **LDUBUF.** A *loading user* is one that takes page faults faster than it
  uses the processor: at least LOADING_FAULTS faults per dispatch time
  slice of its own CPU time while it is in the dispatch list (judged, when it
  comes back, by its last stay). Loading users of Q1–Q3 may keep at most
  LDUBUF(1)% of the system's paging exposures busy, one each; of Q2–Q3
  LDUBUF(2)%, of Q3 LDUBUF(3)%. Another loading user waits in the eligible
  list, so the paging devices are not swamped.
* **STORBUF.** Admitting a user must not overcommit real storage more than
  SET SRM STORBUF allows: the working sets of the dispatch list's Q1–Q3
  users may use STORBUF(1)% of the dynamic paging area, those of Q2–Q3
  users STORBUF(2)%, those of Q3 users STORBUF(3)%. A user who does not fit
  waits in the eligible list (E1, E2 or E3, by the class it is expected to
  be); while it waits, it does not run (USTAT's %EL).
* **Rotation.** A user that has used up its elapsed time slice is looked
  at again: while others wait it moves to the back of the eligible list, so
  that storage and the paging devices are shared out over time; otherwise it
  stays for another Q3 slice if the limits would still admit it.
* **LIMITHARD.** A user with an absolute maximum and LIMITHARD may not use
  more than that share of the processors; its bursts are held back in the
  limit list (USTAT's %LIM) as SET SRM LIMITHARD says: by DEADLINE or by
  CONSUMPTION (:mod:`zvmsim.cp.limits`).

Shares do their work in the dispatcher (:mod:`zvmsim.cp.dispatch`), which
orders the ready users by share under CPU contention.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Final

import simpy

from .vmdbk import DM, EL, RUN, Vmdbk

__all__ = ["LOADING_FAULTS", "SrmConfig", "Scheduler", "faults_like_loading"]

# page faults per dispatch time slice of CPU time that make a user loading
LOADING_FAULTS: Final = 5


def faults_like_loading(faults: int, cpu_s: float, slice_s: float) -> bool:
    """Whether *faults* page faults over *cpu_s* of the user's CPU time make it a
    loading user: at least LOADING_FAULTS of them per dispatch time slice."""
    if faults < LOADING_FAULTS:
        return False
    return faults * slice_s >= LOADING_FAULTS * max(cpu_s, slice_s)


@dataclass(frozen=True)
class SrmConfig:
    """SET SRM settings and the elapsed time slices of the transaction classes."""

    storbuf: tuple[int, int, int] = (125, 105, 95)
    ldubuf: tuple[int, int, int] = (100, 75, 60)
    dspbuf: tuple[int, int, int] = (32767, 32767, 32767)
    ets_s: tuple[float, float, float] = (0.1, 0.8, 4.8)  # Q1, Q2, Q3 elapsed time slices
    # SET SRM LIMITHARD (VM64721): how a hard limit is held (zvmsim.cp.limits). z/VM's
    # own default then was DEADLINE; zvmsim's is the method that holds the limit
    limithard: str = "consumption"
    # the excess share distribution defect (zvmsim.cp.excess, our hypothesis): off
    excess_share_defect: bool = False


class Scheduler:
    """Keeps the dispatch and eligible lists of one z/VM system."""

    def __init__(
        self,
        env: simpy.Environment,
        srm: SrmConfig,
        dpa_pages: int,
        wss: Callable[[Vmdbk], int],
        paging_exposures: int = 0,
        slice_s: float = 0.005,
        spaces: dict[str, Any] | None = None,
    ) -> None:
        self.env = env
        self.srm = srm
        self.dpa = dpa_pages
        self._wss = wss
        # the guests' address spaces by userid, when *wss* is their WSS (``.wss``):
        # the dispatch list's sums read it directly, one call less per user
        self._spaces = spaces
        self.exposures = paging_exposures
        self.slice_s = slice_s  # the dispatch time slice, for judging loading users
        # the dispatch list, in the order users entered it (a dict: deterministic order)
        self.dispatch: dict[Vmdbk, None] = {}
        self.eligible: deque[Vmdbk] = deque()
        self._admitted: dict[Vmdbk, simpy.Event] = {}
        self._rotating = False

    # ---- classes -----------------------------------------------------------

    def qclass(self, vm: Vmdbk, now: float) -> int:
        """The user's transaction class now: 0 (QUICKDSP) to 3; -1 if not in queue."""
        if vm.quickdsp:
            return 0 if vm.state != DM else -1
        if vm.elisted:
            return -1
        if vm.state == DM:
            return -1
        t1, t2, _ = self.srm.ets_s
        age = now - vm.added_at
        return 1 if age < t1 else 2 if age < t1 + t2 else 3

    def is_loading(self, vm: Vmdbk) -> bool:
        """Whether *vm* is a loading user (see the module's LDUBUF)."""
        faults = vm.page_faults - vm.faults_at_add
        if vm not in self.dispatch or faults < LOADING_FAULTS:
            return vm.loading  # too little seen of this stay: as at the end of the last
        return faults_like_loading(faults, vm.tcpu_s - vm.tcpu_at_add, self.slice_s)

    # ---- admission ---------------------------------------------------------

    def _fits(self, vm: Vmdbk, klass: int) -> bool:
        return self._blocker(vm, klass) is None

    def _totals(self) -> tuple[list[int], list[int], list[int]]:
        """The dispatch list now: WSS of Q1-3, Q2-3 and Q3 users, how many of them,
        and how many of them are loading users.

        The same sums as :meth:`_count` over every user, in one loop: this runs
        at every admission and rotation, over the whole dispatch list."""
        now = self.env.now
        t1, t2, _ = self.srm.ets_s
        t12 = t1 + t2
        wss, slice_s, spaces = self._wss, self.slice_s, self._spaces
        s1 = s2 = s3 = u1 = u2 = u3 = l1 = l2 = l3 = 0
        for vm in self.dispatch:
            if vm.quickdsp or vm.elisted or vm.state == DM:
                continue  # class 0 or not in queue: not counted
            if spaces is not None:
                space = spaces.get(vm.userid)
                w = space.wss if space is not None else 0
            else:
                w = wss(vm)
            faults = vm.page_faults - vm.faults_at_add
            if faults < LOADING_FAULTS:
                ld = int(vm.loading)
            else:  # faults_like_loading, inline
                cpu_s = vm.tcpu_s - vm.tcpu_at_add
                ld = 1 if faults * slice_s >= LOADING_FAULTS * max(cpu_s, slice_s) else 0
            s1 += w
            u1 += 1
            l1 += ld
            age = now - vm.added_at
            if age >= t1:
                s2 += w
                u2 += 1
                l2 += ld
                if age >= t12:
                    s3 += w
                    u3 += 1
                    l3 += ld
        return ([s1, s2, s3], [u1, u2, u3], [l1, l2, l3])

    def _count(self, vm: Vmdbk, now: float, totals: tuple[list[int], ...], sign: int = 1) -> None:
        """Add dispatch-list user *vm* to *totals* (see :meth:`_totals`); with *sign*
        -1, take away a user that has just left it (:meth:`_leave`: it counts the same)."""
        q = self.qclass(vm, now)
        if q >= 1:
            sums, users, loading = totals
            w = self._wss(vm) * sign
            ld = self.is_loading(vm) * sign
            for level in range(q):
                sums[level] += w
                users[level] += sign
                loading[level] += ld

    def _blocker(
        self, vm: Vmdbk, klass: int, totals: tuple[list[int], ...] | None = None
    ) -> str | None:
        """What keeps *vm* (of class *klass*) out of the dispatch list now, or None.

        *totals* are the dispatch list's (:meth:`_totals`), when the caller keeps them."""
        w = self._wss(vm)
        ld = self.exposures > 0 and self.is_loading(vm)
        if totals is None and klass == 1:  # only the Q1-3 sums count: a lighter look
            return self._blocker_q1(w, ld)
        sums, users, loading = totals if totals is not None else self._totals()
        srm = self.srm
        for level in range(klass):
            if sums[level] + w > srm.storbuf[level] * self.dpa / 100:
                return "STORBUF"
            if users[level] + 1 > srm.dspbuf[level]:
                return "DSPBUF"
            if ld and loading[level] + 1 > srm.ldubuf[level] * self.exposures / 100:
                return "LDUBUF"
        return None

    def _blocker_q1(self, w: int, ld: bool) -> str | None:
        """:meth:`_blocker` for a user of class 1 (WSS *w*, loading *ld*): only the
        dispatch list's Q1-3 totals count, summed as :meth:`_totals` sums them (the
        loading users only when the user is loading)."""
        wss, slice_s, spaces = self._wss, self.slice_s, self._spaces
        s1 = u1 = l1 = 0
        for user in self.dispatch:
            if user.quickdsp or user.elisted or user.state == DM:
                continue  # class 0 or not in queue: not counted
            if spaces is not None:
                space = spaces.get(user.userid)
                s1 += space.wss if space is not None else 0
            else:
                s1 += wss(user)
            u1 += 1
            if ld:
                faults = user.page_faults - user.faults_at_add
                if faults < LOADING_FAULTS:
                    l1 += int(user.loading)
                else:  # faults_like_loading, inline
                    cpu_s = user.tcpu_s - user.tcpu_at_add
                    l1 += faults * slice_s >= LOADING_FAULTS * max(cpu_s, slice_s)
        srm = self.srm
        if s1 + w > srm.storbuf[0] * self.dpa / 100:
            return "STORBUF"
        if u1 + 1 > srm.dspbuf[0]:
            return "DSPBUF"
        if ld and l1 + 1 > srm.ldubuf[0] * self.exposures / 100:
            return "LDUBUF"
        return None

    def _enter(self, vm: Vmdbk, klass: int = 1) -> None:
        """*vm* joins the dispatch list now as class *klass* (an E3 user comes back as Q3)."""
        t1, t2, t3 = self.srm.ets_s
        now = self.env.now
        vm.added_at = now - (0.0, 0.0, t1, t1 + t2)[klass]
        vm.slice_end = vm.added_at + t1 + t2 + t3
        vm.faults_at_add = vm.page_faults
        vm.tcpu_at_add = vm.tcpu_s
        self.dispatch[vm] = None
        vm.state = RUN

    def _leave(self, vm: Vmdbk) -> None:
        """*vm* leaves the dispatch list; remember whether it was loading."""
        vm.loading = self.is_loading(vm)
        self.dispatch.pop(vm, None)

    def add(self, vm: Vmdbk, klass: int = 1) -> None:
        """*vm* has work: admit it to the dispatch list, or hold it in the eligible list."""
        if vm in self.dispatch or vm.elisted:
            return
        self._start_rotation()
        if vm.quickdsp or (not self.eligible and self._fits(vm, klass)):
            self._enter(vm)
        else:
            self._to_eligible(vm, klass)

    def _to_eligible(self, vm: Vmdbk, klass: int) -> None:
        """*vm* waits at the back of the eligible list, expected to be of class *klass*."""
        vm.elisted = True
        vm.eclass = klass
        vm.state = EL
        self.eligible.append(vm)

    def drop(self, vm: Vmdbk) -> None:
        """*vm* went idle: it leaves the dispatch list; waiting users may now fit."""
        if vm in self.dispatch:
            self._leave(vm)
        vm.state = DM
        self._admit_waiting()

    def wait_admitted(self, vm: Vmdbk) -> simpy.Event:
        """An event that fires when the eligible-listed *vm* is admitted."""
        event = self._admitted.get(vm)
        if event is None:
            event = self._admitted[vm] = self.env.event()
        return event

    def _admit_waiting(self, totals: tuple[list[int], ...] | None = None) -> None:
        """Admit eligible users in order while they fit. A loading user that only
        LDUBUF holds back is passed over; any other misfit stops the admissions.

        *totals* are the dispatch list's (:meth:`_totals`) when the caller kept them."""
        i = 0
        # (the dispatch list's totals, kept up to date as users are admitted)
        while i < len(self.eligible):
            vm = self.eligible[i]
            if totals is None:
                totals = self._totals()
            why = self._blocker(vm, vm.eclass, totals)
            if why == "LDUBUF":
                i += 1
                continue
            if why is not None:
                return
            del self.eligible[i]
            vm.elisted = False
            self._enter(vm, vm.eclass)
            self._count(vm, self.env.now, totals)
            event = self._admitted.pop(vm, None)
            if event is not None:
                event.succeed()

    # ---- rotation ----------------------------------------------------------

    def _start_rotation(self) -> None:
        if not self._rotating:
            self._rotating = True
            self.env.process(self._rotate())

    def _rotate(self) -> Generator[Any, Any, Any]:
        """Every Q1 time slice: look again at users whose elapsed time slice is over.

        While others wait, such a user goes to the back of the eligible list (one
        for each waiting user). Otherwise it gets a new Q3 slice if it would still
        be admitted now, and goes to the eligible list if not (it became a loading
        user, or storage got tighter).
        """
        t1, _, t3 = self.srm.ets_s
        while self.dispatch or self.eligible:
            now = self.env.now
            expired = sorted(
                (vm for vm in self.dispatch if not vm.quickdsp and vm.slice_end <= now),
                key=lambda v: (v.slice_end, v.userid),
            )
            waiting = len(self.eligible)
            totals = None  # the dispatch list's, kept up to date as users leave and come back
            for vm in expired:
                self._leave(vm)
                if totals is not None:
                    self._count(vm, now, totals, -1)
                if not waiting:
                    if totals is None:
                        totals = self._totals()
                    if self._blocker(vm, 3, totals) is None:  # it fits: another Q3 slice
                        self.dispatch[vm] = None
                        vm.slice_end = now + t3
                        self._count(vm, now, totals)
                        continue
                waiting = max(0, waiting - 1)
                self._to_eligible(vm, 3)
            self._admit_waiting(totals)
            yield self.env.timeout(t1)
        self._rotating = False
