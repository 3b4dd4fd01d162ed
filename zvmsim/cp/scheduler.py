"""The z/VM scheduler: dispatch list, eligible list and transaction classes.

A user with work is *in queue*: in the **dispatch list**, where the
dispatcher runs it, or in the **eligible list**, waiting for the scheduler
to admit it. Dormant users are in neither.

* **Transaction classes.** A user entering the dispatch list starts in
  class Q1 (a short transaction is expected). If it is still there after
  Q1's elapsed time slice it counts as Q2, and after Q2's as Q3 — a
  long-running user, as every busy Linux guest is. A QUICKDSP user is Q0:
  never held in the eligible list.
* **STORBUF.** Admitting a user must not overcommit real storage more than
  SET SRM STORBUF allows: the working sets of the dispatch list's Q1–Q3
  users may use STORBUF(1)% of the dynamic paging area, those of Q2–Q3
  users STORBUF(2)%, those of Q3 users STORBUF(3)%. A user who does not fit
  waits in the eligible list (E1, E2 or E3, by the class it is expected to
  be); while it waits, it does not run (USTAT's %EL).
* **Rotation.** A Q3 user that has used up its elapsed time slice while
  others wait is moved to the back of the eligible list, so that storage is
  shared out over time.
* **LIMITHARD.** A user with an absolute share and LIMITHARD may not use
  more than that share of the processors; its bursts are held back (USTAT's
  %LIM) so its consumption never runs ahead of the limit.

Relative shares only order the dispatcher's queue under CPU contention; the
dispatcher here serves bursts first come, first served, so shares are
recorded (FCX226) but do not reorder work.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass

import simpy

from .vmdbk import DM, EL, RUN, Vmdbk

__all__ = ["SrmConfig", "Scheduler"]


@dataclass(frozen=True)
class SrmConfig:
    """SET SRM settings and the elapsed time slices of the transaction classes."""

    storbuf: tuple[int, int, int] = (125, 105, 95)
    ldubuf: tuple[int, int, int] = (100, 75, 60)
    dspbuf: tuple[int, int, int] = (32767, 32767, 32767)
    ets_s: tuple[float, float, float] = (0.1, 0.8, 4.8)  # Q1, Q2, Q3 elapsed time slices


class Scheduler:
    """Keeps the dispatch and eligible lists of one z/VM system."""

    def __init__(
        self,
        env: simpy.Environment,
        srm: SrmConfig,
        dpa_pages: int,
        wss: Callable[[Vmdbk], int],
    ) -> None:
        self.env = env
        self.srm = srm
        self.dpa = dpa_pages
        self._wss = wss
        self.dispatch: set[Vmdbk] = set()
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

    # ---- admission ---------------------------------------------------------

    def _fits(self, vm: Vmdbk, klass: int) -> bool:
        now = self.env.now
        sums = [0, 0, 0]  # WSS of Q1-3, Q2-3 and Q3 users in the dispatch list
        for other in self.dispatch:
            q = self.qclass(other, now)
            if q >= 1:
                w = self._wss(other)
                for level in range(q):
                    sums[level] += w
        w = self._wss(vm)
        for level in range(klass):
            if sums[level] + w > self.srm.storbuf[level] * self.dpa / 100:
                return False
        return True

    def add(self, vm: Vmdbk, klass: int = 1) -> None:
        """*vm* has work: admit it to the dispatch list, or hold it in the eligible list."""
        if vm in self.dispatch or vm.elisted:
            return
        vm.added_at = self.env.now
        if vm.quickdsp or (not self.eligible and self._fits(vm, klass)):
            self.dispatch.add(vm)
            vm.state = RUN
            return
        vm.elisted = True
        vm.eclass = klass
        vm.state = EL
        self.eligible.append(vm)
        self._start_rotation()

    def drop(self, vm: Vmdbk) -> None:
        """*vm* went idle: it leaves the dispatch list; waiting users may now fit."""
        self.dispatch.discard(vm)
        vm.state = DM
        self._admit_waiting()

    def wait_admitted(self, vm: Vmdbk) -> simpy.Event:
        """An event that fires when the eligible-listed *vm* is admitted."""
        event = self._admitted.get(vm)
        if event is None:
            event = self._admitted[vm] = self.env.event()
        return event

    def _admit_waiting(self) -> None:
        while self.eligible:
            vm = self.eligible[0]
            if not self._fits(vm, vm.eclass):
                return
            self.eligible.popleft()
            vm.elisted = False
            vm.added_at = self.env.now
            self.dispatch.add(vm)
            vm.state = RUN
            event = self._admitted.pop(vm, None)
            if event is not None:
                event.succeed()

    # ---- rotation ----------------------------------------------------------

    def _start_rotation(self) -> None:
        if not self._rotating:
            self._rotating = True
            self.env.process(self._rotate())

    def _rotate(self) -> Generator:
        """While anyone waits: move Q3 users past their time slice to the eligible list."""
        t1, t2, t3 = self.srm.ets_s
        while self.eligible:
            now = self.env.now
            expired = [
                vm
                for vm in sorted(self.dispatch, key=lambda v: v.added_at)
                if not vm.quickdsp and now - vm.added_at >= t1 + t2 + t3
            ]
            for vm in expired[: len(self.eligible)]:
                self.dispatch.discard(vm)
                vm.elisted = True
                vm.eclass = 3
                vm.state = EL
                self.eligible.append(vm)
            self._admit_waiting()
            yield self.env.timeout(t1)
        self._rotating = False
