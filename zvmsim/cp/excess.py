"""The excess share distribution defect (seed 001, 2010): OUR HYPOTHESIS of its mechanism.

Shares are relative to the users that want to run: four compute-bound
guests with relative shares 100/100/200/200 on a 1-way get 17/17/33/33%,
and when LINUX04 wants only 3%, the 30% it leaves should go to the other
three in proportion to their shares (24.5/24.5/48). IBM recreated a defect
in which LINUX01 and LINUX02 stayed at 17% and LINUX03 took all the rest
(63%), but never published why. zvmsim's dispatcher normally orders ready
users by start-time fair queueing (:mod:`zvmsim.cp.dispatch`), which
spreads the excess correctly; with ``[scheduler] excess_share_defect`` it
orders them instead by the deadline rule below, which makes the seed's
pattern come out of its mechanism:

1. **Entitlement.** Each user's share is normalized against the weights of
   all the users *in the dispatch list* — including one that is nearly idle
   but stays there (a Linux guest's timer ticks keep it in queue). LINUX04's
   unused third still counts, so LINUX01 is entitled to 100/600 of the
   processor, not 100/400.
2. **Deadlines.** Each burst gets an eligible time (when the user's earlier
   bursts, run at its entitlement, would be done) and a deadline (that plus
   the burst over the entitlement). A user that got less than its
   entitlement is eligible at once; one that ran ahead must wait its turn.
3. **Eligible users first**, earliest deadline first: every user gets at
   least its entitlement, and a user that wants less (LINUX04) gets all it
   wants.
4. **The excess.** When no ready user is eligible, the processor would be
   spare time. The defect hands it to the ready user with the *largest
   entitlement* (the shortest deadline interval; ties by deadline), not to
   all in proportion to their shares. LINUX01 and LINUX02 never get more
   than their 17%; LINUX03 takes everything LINUX04 leaves.

With every user busy the entitlements add up to the whole system and there
is nothing left over: the defect gives 17/17/33/33 like the correct
dispatcher. On a 2-way LINUX03 cannot use more than its one virtual
processor, so the excess spills over to LINUX01 and LINUX02 and the defect
nearly hides.
"""

from __future__ import annotations

from typing import Any

from .vmdbk import Vmdbk

__all__ = ["ExcessShareDefect"]

_EPS = 1e-12


class ExcessShareDefect:
    """The defective deadline order of the dispatcher's ready queue."""

    def __init__(self, count: int, scheduler: Any) -> None:
        self.count = count  # processors
        self.scheduler = scheduler  # whose dispatch list normalizes the shares
        self._deadline: dict[Vmdbk, float] = {}  # per user: deadline of its last burst
        # per queued burst: (eligible time, deadline, entitlement)
        self._tags: dict[int, tuple[float, float, float]] = {}

    def entitlement(self, user: Vmdbk) -> float:
        """Processors' worth *user* is entitled to: its weight against the dispatch list's."""
        competing = sum(u.weight for u in self.scheduler.dispatch)
        if user not in self.scheduler.dispatch:
            competing += user.weight
        return min(float(user.virtual_cpus), user.weight / competing * self.count)

    def tag(self, seq: int, user: Vmdbk, total: float, now: float) -> None:
        """Give burst *seq* of *user* (*total* seconds) its eligible time and deadline."""
        share = self.entitlement(user)
        eligible = max(now, self._deadline.get(user, 0.0))
        deadline = eligible + total / share
        self._deadline[user] = deadline
        self._tags[seq] = (eligible, deadline, share)

    def pick(self, ready: list[tuple[Any, ...]], now: float) -> int:
        """Index in *ready* of the burst to run next (entries: ``(tag, seq, user, ...)``)."""
        best, best_key = 0, None
        for i, entry in enumerate(ready):
            seq = entry[1]
            eligible, deadline, share = self._tags[seq]
            if eligible <= now + _EPS:
                key: tuple[float, ...] = (0.0, deadline, seq)
            else:  # spare time: the defect favours the largest entitlement
                key = (1.0, -share, deadline, seq)
            if best_key is None or key < best_key:
                best, best_key = i, key
        return best

    def forget(self, seq: int) -> None:
        """Burst *seq* was dispatched."""
        self._tags.pop(seq, None)
