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

**PR/SM's time.** Each dispatch of a shared logical PU costs PR/SM
:func:`~zvmsim.hardware.prsm.pool_dispatch_s` of physical time (FCX126
%Ovhd): a logical PU is dispatched once per busy period of its own and, while
it wants more than it gets, once more per dispatch interval PR/SM ends
(:func:`~zvmsim.hardware.prsm.dispatch_rate`). That time comes out of the
pool before it is shared out (last tick's, in PUs). A dedicated logical PU
keeps its physical PU: PR/SM does not dispatch it.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Final, cast

import simpy

from .prsm import (
    CecConfig,
    PartitionConfig,
    PoolShare,
    dispatch_rate,
    pool_dispatch_s,
    water_fill,
)

if TYPE_CHECKING:
    from ..calibration import PrsmCosts

_TUPLE_NEW: Final = tuple.__new__  # what a named tuple's __new__ calls

__all__ = ["OtherPools", "ZOS_TYPES"]

ZOS_TYPES: Final = ("CP", "ZIIP", "ZAAP")  # the PU types z/OS partitions run on
SMOOTHING: Final = 0.2  # weight of the newest tick in a server's demand estimate


class OtherPools:
    """The pools other than z/VM's own: shared by weight every tick, waits on demand."""

    def __init__(
        self,
        env: simpy.Environment,
        cec: CecConfig,
        costs: PrsmCosts,
        dispatch_interval_s: float,
        rnd: random.Random,
    ) -> None:
        """*rnd* draws the swings of the z/OS partitions' demand; *costs*: PR/SM's time
        per dispatch and a load partition's run per dispatch (``prsm.toml``)."""
        self.env = env
        self.cec = cec
        self.run_s = costs.other_run_ms / 1000.0
        self.interval_s = dispatch_interval_s
        self._rnd = rnd
        own = next(p for p in cec.partitions if p.own)
        self.parts = [p for p in cec.partitions if p.pu_type != own.pu_type]
        self._dispatched = {_key(p): 0.0 for p in self.parts}  # seconds, each logical PU
        self._dispatches = {_key(p): 0.0 for p in self.parts}  # PR/SM's, each logical PU
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
        self._dispatch_s = {t: pool_dispatch_s(cec, t, costs) for t in self._groups}
        self._ovhd_pus = {t: 0.0 for t in self._groups}  # PR/SM's time last tick, in PUs
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

    def _run(self) -> Generator[Any, Any, Any]:
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
        capacity = self._groups[pu_type][1]
        shared = []  # (part, key, want) of the shared partitions, in the members' order
        now, zos_load = self.env.now, self.cec.zos_load
        level, server_demand = self._level, self._server_demand
        for p, key, scaled in self._members[pu_type]:
            # what each logical PU wants of its own accord (0..1), before swings
            busy = p.busy if now >= p.busy_from_s else 0.0
            if scaled:
                busy *= zos_load
            want = p.logical * min(1.0, busy * level[p.name])
            want += server_demand.get(key, 0.0)
            want = min(float(p.logical), want)
            if p.dedicated:  # its own physical PUs: runs what it wants
                self._dispatch(p, want, want, tick, key)
                continue
            shared.append((p, key, want))
        if not shared:
            return
        # PR/SM's own time for the logical PUs it dispatches comes out of the pool
        left = max(0.0, capacity - self._ovhd_pus[pu_type])
        rate = 0.0  # dispatches a second in the pool
        for (p, key, want), granted in zip(shared, _water_fill(left, shared), strict=True):
            rate += self._dispatch(p, granted, want, tick, key)
        self._ovhd_pus[pu_type] = rate * self._dispatch_s[pu_type]

    def _dispatch(
        self, part: PartitionConfig, granted: float, wanted: float, tick: float, key: str
    ) -> float:
        """Give *part* its grant for one tick; its logical PUs' dispatches a second."""
        n = part.logical
        if not n:
            return 0.0
        d, w = granted / n, wanted / n
        self._dispatched[key] += d * tick
        # PoolShare(d, w) as the named tuple's own __new__ makes it, without that call
        self.share[key] = cast(PoolShare, _TUPLE_NEW(PoolShare, (d, w)))
        if part.dedicated:
            return 0.0
        rate = dispatch_rate(d, w, self.run_s, self.interval_s)
        self._dispatches[key] += rate * tick
        return rate * n

    def dispatched_s(self, key: str) -> list[float]:
        """Seconds each logical PU of partition-and-type *key* has been dispatched."""
        return [self._dispatched[key]] * self._logical[key]

    def dispatches(self, key: str) -> list[float]:
        """PR/SM's dispatches of each logical PU of partition-and-type *key* so far."""
        return [self._dispatches[key]] * self._logical[key]

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


def _water_fill(capacity: float, shared: list[tuple[PartitionConfig, str, float]]) -> list[float]:
    """:func:`~zvmsim.hardware.prsm.water_fill` over (partition, key, want)."""
    return water_fill(
        capacity,
        [want for _, _, want in shared],
        [p.weight for p, _, _ in shared],
        [p.capped for p, _, _ in shared],
    )


def _key(part: PartitionConfig) -> str:
    """A partition's logical PUs of one type: ``"XXXA CP"``."""
    return f"{part.name} {part.pu_type}"
