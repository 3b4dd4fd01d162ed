"""PR/SM for the PU pools z/VM does not run in, and the wait for a physical PU.

The z/VM partition's own pool is shared out in :mod:`zvmsim.hardware.prsm`,
where z/VM's logical PUs really run. The other pools — standard CPs and
zIIPs for z/OS, ICFs for coupling facilities — hold partitions simulated as
*load*: each logical PU wants a share of the time (``busy``, times the CEC's
``zos_load`` for CP and zIIP partitions), perhaps swinging up and down over
time (``zos_swing``), plus whatever a server simulated in that partition
(:mod:`zvmsim.zos`) uses. Every PR/SM tick each pool is shared out by weight
(:func:`~zvmsim.hardware.prsm.share_pool`), and each logical PU is
dispatched its partition's grant divided by its logical PUs. A dedicated
logical PU has a physical PU of its own and runs what it wants.

**Waiting for a physical PU.** When a pool is oversubscribed a logical PU is
*dispatched* only a share *d* of the time although it wants *w* > *d*. PR/SM
hands out the physical PUs in dispatch intervals of length *s*, so a logical
PU gets *d*/*s* dispatches a second and spends *w* − *d* of each second
ready but not dispatched: by Little's law it waits *s*(*w* − *d*)/*d* for each
dispatch. Something that needs one particular logical PU of a partition to
run *now* (a HiperSockets rendezvous) finds it dispatched with probability
*d* and otherwise waits that long; something any of the partition's *n*
logical PUs can pick up (network input that an OSA adapter has already put
in storage) waits only when none of them is dispatched, probability
(1 − *d*)^*n*, and then for the first of *n*. A pool with room to spare
(*w* = *d*) makes nobody wait.
"""

from __future__ import annotations

import random
from collections.abc import Generator

import simpy

from .prsm import CecConfig, PartitionConfig, PoolShare

__all__ = ["OtherPools", "ZOS_TYPES"]

ZOS_TYPES = ("CP", "ZIIP", "ZAAP")  # the PU types z/OS partitions run on
SMOOTHING = 0.2  # weight of the newest tick in a server's demand estimate


class OtherPools:
    """The pools other than z/VM's own: shared by weight every tick, waits on demand."""

    def __init__(
        self,
        env: simpy.Environment,
        cec: CecConfig,
        overhead_per_busy: float,
        dispatch_interval_s: float,
        rnd: random.Random,
    ) -> None:
        """*rnd* draws the swings of the z/OS partitions' demand."""
        self.env = env
        self.cec = cec
        self.overhead_per_busy = overhead_per_busy
        self.interval_s = dispatch_interval_s
        self._rnd = rnd
        own = next(p for p in cec.partitions if p.own)
        self.parts = [p for p in cec.partitions if p.pu_type != own.pu_type]
        self._dispatched = {_key(p): 0.0 for p in self.parts}  # seconds, each logical PU
        self._logical = {_key(p): p.logical for p in self.parts}
        self.share = {_key(p): PoolShare(1.0, 1.0) for p in self.parts}
        self._used: dict[str, float] = {}  # CPU seconds servers used, this tick
        self._server_demand: dict[str, float] = {}  # their smoothed demand, in PUs
        self._level = {p.name: 1.0 for p in self.parts}  # a partition's CPs and zIIPs together
        self._groups: dict[str, tuple[list[PartitionConfig], int]] = {}  # by PU type
        # by PU type: each partition with its key and whether zos_load scales it
        self._members: dict[str, list[tuple[PartitionConfig, str, bool]]] = {}
        for pu_type in sorted({p.pu_type for p in self.parts}):
            group = [p for p in self.parts if p.pu_type == pu_type]
            dedicated = sum(p.logical for p in group if p.dedicated)
            self._groups[pu_type] = (group, cec.pus.get(pu_type, 0) - dedicated)
            self._members[pu_type] = [
                (p, _key(p), p.pu_type in ZOS_TYPES and not p.dedicated) for p in group
            ]
        self.running = False

    def wanted(self) -> bool:
        """Whether these pools change over time (else each PU simply runs its ``busy``)."""
        cec = self.cec
        return bool(self.parts) and (
            cec.zos_load != 1.0 or cec.zos_swing > 0 or bool(self._server_demand)
        )

    def attach_server(self, name: str, pu_type: str) -> str:
        """A server runs in partition *name* on *pu_type* PUs: its use adds to the demand."""
        key = f"{name} {pu_type}"
        if key not in self._dispatched:
            raise KeyError(key)
        self._server_demand[key] = 0.0
        return key

    def use(self, key: str, seconds: float) -> None:
        """A server in partition-and-type *key* ran *seconds* of CPU."""
        self._used[key] = self._used.get(key, 0.0) + seconds

    def start(self) -> None:
        """Begin sharing out the pools every PR/SM tick."""
        self.running = True
        self.env.process(self._run())

    def _run(self) -> Generator:
        cec = self.cec
        tick = cec.tick_ms / 1000.0
        swing_every = max(1, round(cec.swing_s / tick))
        ticks = 0
        while True:
            if cec.zos_swing > 0 and ticks % swing_every == 0:
                self._swing()
            ticks += 1
            for key in self._server_demand:
                used = self._used.pop(key, 0.0) / tick
                self._server_demand[key] += SMOOTHING * (used - self._server_demand[key])
            for pu_type in self._groups:
                self._share_out(pu_type, tick)
            yield self.env.timeout(tick)

    def _swing(self) -> None:
        """Redraw each swinging partition's demand level (mean 1, never below 0)."""
        cv = self.cec.zos_swing
        drawn: set[str] = set()
        for p in self.parts:
            if p.pu_type in ZOS_TYPES and not p.dedicated and p.name not in drawn:
                self._level[p.name] = max(0.0, self._rnd.gauss(1.0, cv))
                drawn.add(p.name)

    def _share_out(self, pu_type: str, tick: float) -> None:
        """Share out the *pu_type* pool for one tick: :func:`share_pool` over the
        partitions' wants, then each logical PU dispatched its partition's grant.

        :func:`share_pool`'s water-filling is inline, over lists in the members'
        order instead of dicts by name: the same sums, in the same order."""
        capacity = self._groups[pu_type][1]
        now, zos_load = self.env.now, self.cec.zos_load
        level, server_demand = self._level, self._server_demand
        dispatched, share, ovhd = self._dispatched, self.share, self.overhead_per_busy
        shared = []  # (part, key, want) of the shared partitions, in the members' order
        for p, key, scaled in self._members[pu_type]:
            # what each logical PU wants of its own accord (0..1), before swings
            busy = p.busy if now >= p.busy_from_s else 0.0
            if scaled:
                busy *= zos_load
            n = p.logical
            want = n * min(1.0, busy * level[p.name])
            want += server_demand.get(key, 0.0)
            want = min(float(n), want)
            if p.dedicated:  # its own physical PUs: runs what it wants, PR/SM's time included
                if n:
                    granted = min(want, n / (1.0 + ovhd))
                    dispatched[key] += granted / n * tick
                    share[key] = PoolShare(granted / n, want / n)
                continue
            shared.append((p, key, want))
        if not shared:
            return
        # PR/SM's own time for the logical PUs it dispatches comes out of the pool
        left = capacity / (1.0 + ovhd)
        total_weight = sum(p.weight for p, _, _ in shared) or 1
        limit = [
            min(want, left * p.weight / total_weight) if p.capped else want for p, _, want in shared
        ]
        alloc = [0.0] * len(shared)
        hungry = [i for i, lim in enumerate(limit) if lim > 0]
        while hungry and left > 1e-12:
            w = sum(shared[i][0].weight for i in hungry) or 1
            offer = {i: left * shared[i][0].weight / w for i in hungry}
            sated = [i for i in hungry if limit[i] - alloc[i] <= offer[i]]
            if not sated:
                for i in hungry:
                    alloc[i] += offer[i]
                break
            for i in sated:
                left -= limit[i] - alloc[i]
                alloc[i] = limit[i]
            hungry = [i for i in hungry if i not in sated]
        for (p, key, want), granted in zip(shared, alloc, strict=True):
            n = p.logical
            if n:
                dispatched[key] += granted / n * tick
                share[key] = PoolShare(granted / n, want / n)

    def dispatched_s(self, key: str) -> list[float]:
        """Seconds each logical PU of partition-and-type *key* has been dispatched."""
        return [self._dispatched[key]] * self._logical[key]

    def speed(self, key: str) -> float:
        """Share of what partition-and-type *key* wants that PR/SM gives it now (0..1]."""
        s = self.share[key]
        return 1.0 if s.wanted <= s.dispatched else max(1e-3, s.dispatched / s.wanted)

    def dispatch_wait(self, key: str, rnd: random.Random, any_of: bool = False) -> float:
        """Seconds until a logical PU of *key* is dispatched, drawn from *rnd* for now.

        *any_of*: any of the partition's logical PUs will do (else one in particular).
        """
        return self.wait(self.share[key], self._logical[key], rnd, any_of)

    def wait(self, share: PoolShare, n: int, rnd: random.Random, any_of: bool = False) -> float:
        """One draw of the wait for a dispatch, for logical PUs holding *share* (see above)."""
        if share.wanted <= share.dispatched + 1e-12 or n < 1:
            return 0.0
        d = max(1e-3, share.dispatched)
        gap = self.interval_s * (share.wanted - d) / d  # mean wait per dispatch (Little's law)
        p_wait = (1.0 - d) ** n if any_of else 1.0 - d
        mean = gap / n if any_of else gap
        if rnd.random() >= p_wait:
            return 0.0
        return rnd.expovariate(1.0 / mean)


def _key(part: PartitionConfig) -> str:
    """A partition's logical PUs of one type: ``"XXXA CP"``."""
    return f"{part.name} {part.pu_type}"
