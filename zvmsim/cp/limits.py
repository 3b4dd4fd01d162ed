"""LIMITHARD: how CP holds a user to the maximum share of SET SHARE ... LIMITHARD.

A user with a hard limit (``ABSOLUTE 20% LIMITHARD``, or a relative minimum
with an absolute maximum, ``RELATIVE 50 ABSOLUTE 40% LIMITHARD``) may not
use more than its maximum share of the system's processors, even when they
would otherwise sit idle. Between bursts such a user waits in the **limit
list** (USTAT's %LIM). APAR VM64721 (z/VM 5.3 to 6.1, 2009) gave CP two ways
of deciding how long, chosen with ``SET SRM LIMITHARD``:

* **DEADLINE**, the older way and then the default: the limit works through
  the deadline scheduler. Each burst pushes the user's limit deadline out by
  the burst divided by its maximum share, and that share is *normalized*
  like every share the scheduler handles — as a dispatcher weight against
  the weights of the users **in the dispatch list** now. When everyone
  logged on is in the dispatch list this is exact; when few are (a system
  that is not very busy) the normalized maximum grows and the user gets more
  than its limit. Converting an absolute maximum into a weight also goes
  wrong in the seed's other problem configurations: when absolute shares add
  up to more than 100% (each weighs as if it had the system to itself, so a
  limited user is held to its share of the *contended* system even while
  the other absolute user is idle in the dispatch list), and when the
  minimum is relative (the user is counted in the relative total *and* its
  maximum in the absolute total, which inflates the limit).
* **CONSUMPTION**, the new way: CP measures what the user actually used.
  Its account is credited with the limit's worth of processor time as time
  passes (at most one window's worth saved up) and debited with every burst;
  below zero the user waits in the limit list until the account is back to
  zero. Over any window the user gets its limit and no more, busy system or
  not. It applies only to ABSOLUTE maximums (the only kind zvmsim models).

IBM published the symptoms (under- and over-limiting, and the three
configurations), not DEADLINE's internals: the normalization above is OUR
HYPOTHESIS of the mechanism, built on how the deadline scheduler treats
shares (shares are relative to the users that want to run).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .vmdbk import Vmdbk

__all__ = ["LIMITHARD_METHODS", "LimitHard", "limit_weights"]

LIMITHARD_METHODS = ("deadline", "consumption")


def limit_weights(users: Iterable[Vmdbk]) -> None:
    """Give each LIMITHARD user its maximum share as a dispatcher weight (DEADLINE's view).

    The maximum is converted as an absolute share is (see
    :func:`zvmsim.cp.dispatch.share_weights`): ``max / (100 - absolute total) *
    relative total``. The absolute total counts the maximum of a user whose
    minimum is relative, and the relative total still counts that user's
    minimum: the double count of our DEADLINE hypothesis.
    """
    users = list(users)
    relative = sum(u.share_relative for u in users if not u.share_absolute)
    absolute = sum(u.share_absolute for u in users)
    for u in users:
        if not u.limithard:
            continue
        counted = absolute + (u.limit_pct if not u.share_absolute else 0.0)
        rest = max(100.0 - counted, 1.0)
        u.limit_weight = u.limit_pct / rest * relative if relative else u.limit_pct


class LimitHard:
    """SET SRM LIMITHARD *method*: when a limited user's next burst may start."""

    def __init__(self, method: str, window_s: float, count: int, scheduler: Any) -> None:
        self.method = method
        self.window_s = window_s  # CONSUMPTION: the most credit a user may save up
        self.count = count  # processors
        self.scheduler = scheduler  # DEADLINE: whose dispatch list normalizes the maximum

    def free_at(self, user: Vmdbk, start: float, total: float) -> float:
        """The earliest start of *user*'s next burst, after one of *total* s starting at *start*."""
        if self.method == "consumption":
            return self._consumption(user, start, total)
        return start + total / self._deadline_rate(user)

    def _deadline_rate(self, user: Vmdbk) -> float:
        """Processors' worth the user may use: its maximum, normalized against the
        weights of the users in the dispatch list (the user itself included)."""
        competing = sum(u.weight for u in self.scheduler.dispatch)
        if user not in self.scheduler.dispatch:
            competing += user.weight
        return user.limit_weight / competing * self.count

    def _consumption(self, user: Vmdbk, start: float, total: float) -> float:
        rate = user.limit_pct / 100.0 * self.count  # processors' worth it may use
        credit = user.limit_credit + rate * (start - user.limit_at)
        user.limit_credit = min(credit, rate * self.window_s) - total
        user.limit_at = start
        if user.limit_credit >= 0:
            return start
        return start - user.limit_credit / rate
