"""A compute-bound guest, or one that wants a set share of a processor."""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from ..cp.vmdbk import Vmdbk
from ..errors import ZvmsimError
from .base import Workload

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["Compute"]


class Compute(Workload):
    """Runs CPU bursts back to back (``demand_pct`` 100), or with pauses between them.

    With ``demand_pct`` below 100 the guest pauses after each burst long enough
    to want that percentage of one processor when nothing holds it back — the
    "LINUX04 wants only 3%" guest of a share experiment. It stays in the
    dispatch list while it pauses (a Linux guest waiting on its timer tick),
    unless ``dormant`` is on: then it leaves the dispatch list during each
    pause and comes back for the next burst (a guest that waits for work).
    Between ``rest_from_s`` and ``rest_until_s`` (simulated seconds from the
    start, warm-up included) it rests: no bursts at all, dormant or on its
    timer as ``dormant`` says — the others going quiet for a while.
    """

    PARAMS = {
        "demand_pct": 100.0,
        "burst_ms": 2.0,
        "dormant": False,
        "rest_from_s": 0.0,
        "rest_until_s": 0.0,
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        if not 0 < self.p["demand_pct"] <= 100:
            raise ZvmsimError(f"user {self.vm.userid}: demand_pct must be in (0, 100]")
        if self.p["burst_ms"] <= 0:
            raise ZvmsimError(f"user {self.vm.userid}: burst_ms must be positive")
        if not 0 <= self.p["rest_from_s"] <= self.p["rest_until_s"]:
            raise ZvmsimError(f"user {self.vm.userid}: rest_from_s must be 0 to rest_until_s")

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd = self.machine, self.vm, self.rnd
        mean = self.p["burst_ms"] / 1000.0
        pause = 100.0 / self.p["demand_pct"] - 1.0  # pause per second of burst
        yield m.env.timeout(rnd.uniform(0.0, mean))
        m.add_to_dispatch_list(vm)
        while True:
            if self.p["rest_from_s"] <= m.env.now < self.p["rest_until_s"]:
                yield from self.wait(self.p["rest_until_s"] - m.env.now, self.p["dormant"])
            burst = mean * (0.5 + rnd.random())
            yield m.processors.run(vm, burst, 0.0)
            if pause > 0:  # till the next burst: dormant, or on its timer in the dispatch list
                yield from self.wait(burst * pause, self.p["dormant"])
