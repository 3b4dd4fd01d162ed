"""The CEC and PR/SM: physical PUs shared among logical partitions by weight.

A CEC has physical processing units (PUs) of several types (CP, IFL, ICF,
zIIP). Each logical partition (LPAR) has logical PUs of one type, either
*dedicated* (a physical PU of its own) or *shared* from the pool of that
type. PR/SM divides a shared pool among the partitions that want it in
proportion to their *weights*: a partition gets at least its weight's share
when it wants it; what others leave unused goes to those that want more,
again by weight — unless a partition is *capped* at its share.

The z/VM partition we simulate runs its logical PUs in
:class:`~zvmsim.cp.dispatch.Processors`; the other partitions are load
(a busy fraction per logical PU, from a given time on). Every PR/SM tick the
pool is shared out afresh; when z/VM's logical PUs get less physical time
than they want, their work is stretched: a logical PU that is ready but not
dispatched is *suspended* (FCX126 %Susp), and its CPU timer does not run.
Managing the logical PUs costs PR/SM physical time (FCX126 %Ovhd) for every
*dispatch* of a logical PU — each start of work on a waiting one, each
dispatch it ends in an oversubscribed pool, each Diag x'44' or x'9C' — and a
dispatch costs more the more logical PUs share the pool
(``data/calibration/prsm.toml``): so a logical PU's %Ovhd follows how often
it is dispatched, not how busy it is. That time comes out of the pool before
it is shared out. Where the CEC says so (``[cec] dispatch_cost``), PR/SM's
dispatches also weigh on z/VM's own pool tick by tick: the dispatches it ends
in an oversubscribed pool, its cost in CP's spin locks.

A shared logical PU that leaves its wait state is not running: PR/SM must
dispatch it on a physical PU again, and until then it is suspended too.
Where the scenario describes its CEC (``[cec] redispatch``, on by default)
z/VM's logical PUs wait :meth:`Prsm.redispatch_s` each time they wake (for
work, an I/O interrupt or a guest's timer), which is most of the %Susp a
pool with room to spare shows.
"""

from __future__ import annotations

import math
import random
from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import simpy

from ..cp.dispatch import Processors
from ..cp.spinlock import PoolState

if TYPE_CHECKING:
    from ..calibration import PrsmCosts
    from .occupancy import Occupancy
    from .pools import OtherPools

try:  # for mypyc (zvmsim/native.py): a test subclasses Prsm in Python
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed (pure Python) the decorator does nothing

    def mypyc_attr(**attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


__all__ = [
    "CecConfig",
    "PartitionConfig",
    "PoolShare",
    "Prsm",
    "dispatch_rate",
    "pool_dispatch_s",
    "share_pool",
    "water_fill",
]

SMOOTHING: Final = 0.2  # weight of the newest tick in z/VM's demand estimate
SETTLE_S: Final = 1.0  # the others' dispatched time is settled over windows this long


@dataclass(frozen=True)
class PartitionConfig:
    """One logical partition: its logical PUs, weight and (if not ours) its load."""

    name: str
    number: int
    pu_type: str
    logical: int
    weight: int
    capped: bool = False
    dedicated: bool = False
    own: bool = False  # the z/VM partition being simulated
    busy: float = 0.0  # other partitions: share of each logical PU they want (0..1)
    busy_from_s: float = 0.0  # ... from this simulated time on (idle before)
    first_cpu: int = 0  # CPU address of its first logical PU (a z/OS's zIIPs follow its CPs)
    cpu_addrs: tuple[int, ...] = ()  # the logical PUs' CPU addresses, where given
    upid: str = ""  # the user partition ID of the image profile (two hex digits), if given
    wait_completion: bool = False  # PR/SM's WAIT COMPLETION setting for the partition


class PoolShare(NamedTuple):
    """A partition's logical PUs in one PR/SM tick: the share of the time each is
    *dispatched*, and the share it *wanted* (more, when its pool is oversubscribed).

    A named tuple rather than a frozen dataclass: one is made per partition every
    tick, and a tuple is made for a fraction of the cost."""

    dispatched: float
    wanted: float


@dataclass(frozen=True)
class CecConfig:
    """The machine: model, physical PUs by type, partitions, PR/SM tick."""

    model: str
    pus: dict[str, int]
    partitions: tuple[PartitionConfig, ...]
    tick_ms: float = 20.0
    zos_load: float = 1.0  # z/OS partitions' demand (CPs, zIIPs) as a multiple of their busy
    zos_swing: float = 0.0  # how much it swings about that (coefficient of variation)
    swing_s: float = 5.0  # ... redrawn this often
    dispatch_cost: bool = False  # PR/SM's overhead per logical-PU dispatch (prsm.toml)
    redispatch: bool = False  # a waking shared logical PU waits to be redispatched (prsm.toml)
    occupancy: bool = False  # the others in z/VM's pool hold physical PUs one dispatch at a time


def share_pool(
    capacity: float, demand: dict[str, float], weight: dict[str, int], capped: set[str]
) -> dict[str, float]:
    """PR/SM's division of *capacity* PUs among partitions wanting *demand* PUs.

    Water-filling by weight: each partition is offered its weight's share of
    what is left; those wanting less take what they want and the rest is
    offered again to the others. A capped partition never gets more than its
    weight's share of the whole pool.
    """
    names = list(demand)
    alloc = water_fill(
        capacity,
        [demand[p] for p in names],
        [weight[p] for p in names],
        [p in capped for p in names],
    )
    return dict(zip(names, alloc, strict=True))


def water_fill(
    capacity: float, wants: list[float], weights: list[int], capped: list[bool]
) -> list[float]:
    """:func:`share_pool` over lists in partition order (it runs every PR/SM tick)."""
    total_weight = sum(weights) or 1
    limit = [
        min(want, capacity * w / total_weight) if cap else want
        for want, w, cap in zip(wants, weights, capped, strict=True)
    ]
    alloc = [0.0] * len(wants)
    left = capacity
    hungry = [i for i, lim in enumerate(limit) if lim > 0]
    while hungry and left > 1e-12:
        w = sum(weights[i] for i in hungry) or 1
        offer = {i: left * weights[i] / w for i in hungry}
        sated = [i for i in hungry if limit[i] - alloc[i] <= offer[i]]
        if not sated:
            for i in hungry:
                alloc[i] += offer[i]
            break
        for i in sated:
            left -= limit[i] - alloc[i]
            alloc[i] = limit[i]
        hungry = [i for i in hungry if i not in sated]
    return alloc


def pool_dispatch_s(cec: CecConfig, pu_type: str, costs: PrsmCosts) -> float:
    """PR/SM's time for one dispatch of a logical PU in the shared *pu_type* pool of
    *cec*: more, the more logical PUs share it (PR/SM's dispatcher looks over them all)."""
    logical = sum(p.logical for p in cec.partitions if p.pu_type == pu_type and not p.dedicated)
    return (costs.dispatch_us + costs.scan_us_per_logical * logical) / 1e6


def dispatch_rate(dispatched: float, wanted: float, run_s: float, interval_s: float) -> float:
    """Dispatches a second of a logical PU simulated as load, dispatched *dispatched* of
    the time and wanting *wanted* (shares of one PU).

    Once dispatched it runs a busy period of its own, on average *run_s* / (1 −
    *wanted*), so a busier one is dispatched less often; while it wants more than
    it gets, PR/SM also ends its dispatch every *interval_s* to give the physical
    PU to another.
    """
    own = dispatched * max(0.0, 1.0 - min(1.0, wanted)) / run_s
    ended = dispatched / interval_s if wanted > dispatched + 1e-9 else 0.0
    return own + ended


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's stand-in overrides overhead
class Prsm:
    """PR/SM for one CEC, with the z/VM partition's logical PUs in *processors*."""

    def __init__(
        self,
        env: simpy.Environment,
        cec: CecConfig,
        processors: Processors,
        costs: PrsmCosts,
        pools: OtherPools | None = None,
        charged: bool = False,
    ) -> None:
        """*costs*: PR/SM's time per logical-PU dispatch (see :meth:`overhead`); with
        *charged* (``[cec] dispatch_cost``) z/VM's pool is shared out every tick even
        when it has room, counting the dispatches PR/SM ends there, and CP's spin
        locks pay the cost of a dispatch."""
        self.env = env
        self.pools = pools  # the pools z/VM does not run in (see :mod:`.pools`)
        self.cec = cec
        self.processors = processors
        self.charged = charged
        self.own = next(p for p in cec.partitions if p.own)
        # physical time each logical PU was dispatched (the partitions z/VM is not in)
        self.dispatched_s = {p.name: [0.0] * p.logical for p in cec.partitions}
        # what sampled_overhead saw last, by partition and PU type: (time, busy,
        # overhead, sampled overhead), each of the last three by logical PU
        self._sampled: dict[tuple[str, str], tuple[float, list, list, list]] = {}
        self._tick = cec.tick_ms / 1000.0
        self._last = 0.0
        self._own_busy = [0.0] * processors.count
        self._own_susp = [0.0] * processors.count
        self._demand = 0.0  # z/VM's smoothed demand, in PUs
        self._granted: dict[str, float] = {}  # last tick's allocation to the others, in PUs
        self._window_own = self._window_span = 0.0
        self._window_wanted: dict[str, float] = {}
        self.contended = self._can_be_contended()  # fixed by the configuration
        self.own_contended = self._can_be_contended(self.own.pu_type)  # z/VM's pool
        # the pools z/VM does not run in
        self.others_contended = any(
            self._can_be_contended(t) for t in cec.pus if t != self.own.pu_type
        )
        self.occupancy: Occupancy | None = None  # the others in z/VM's pool, dispatch by dispatch
        self.own_share: PoolShare | None = None  # z/VM's logical PUs' last PR/SM grant
        self.costs = costs
        self.intercepts = [0] * processors.count  # Diag x'44'/x'9C' calls of z/VM's PUs
        self.switches = [0.0] * processors.count  # dispatches PR/SM ended (pool oversubscribed)
        self._ready = PoolState()  # z/VM's pool: logical PUs wanting a physical PU
        self._ovhd_total = self._ovhd_rate = 0.0

    def _can_be_contended(self, only: str = "") -> bool:
        """Whether shared pools (or pool *only*) can ever be oversubscribed (else PR/SM
        never interferes)."""
        for pu_type, count in self.cec.pus.items():
            if only and pu_type != only:
                continue
            shared = [p for p in self.cec.partitions if p.pu_type == pu_type and not p.dedicated]
            dedicated = sum(
                p.logical for p in self.cec.partitions if p.pu_type == pu_type and p.dedicated
            )
            want = sum(p.logical if p.own else p.logical * p.busy for p in shared)
            if shared and want > count - dedicated + 1e-9:
                return True
        return False

    def start(self) -> None:
        """Begin sharing out the pools (only where they can be oversubscribed or vary)."""
        if self.own_contended or self.charged:  # charged: a moment's peaks matter too
            self.env.process(self._run())
        if self.pools is not None and (self.others_contended or self.pools.wanted()):
            self.pools.start()

    def attach_occupancy(self, occupancy: Occupancy) -> None:
        """The others in z/VM's pool hold physical PUs dispatch by dispatch (*occupancy*):
        that stands for PR/SM's sharing of z/VM's pool, tick by tick, and their time."""
        self.occupancy = occupancy
        self.own_contended = False

    def _others_demand(self, part: PartitionConfig, now: float) -> float:
        return part.logical * part.busy if now >= part.busy_from_s else 0.0

    def _run(self) -> Generator[Any, Any, Any]:
        procs, own = self.processors, self.own
        while True:
            now = self.env.now
            used = [procs.busy(c) for c in range(procs.count)]
            susp = [procs.suspended(c) for c in range(procs.count)]
            span = now - self._last
            demand_own = 0.0
            for cpu in range(procs.count):
                if span <= 0:
                    continue
                work = (used[cpu] - self._own_busy[cpu]) / span
                held = work + (susp[cpu] - self._own_susp[cpu]) / span
                # PR/SM sees a logical PU wanting a physical one while it is ready:
                # running or suspended, not waiting
                demand_own += min(1.0, held)
            own_used = sum(used, 0.0) - sum(self._own_busy, 0.0)  # (float sums: mypyc)
            self._own_busy, self._own_susp, self._last = used, susp, now
            # what z/VM wants, smoothed over several ticks (bursts outlast a tick)
            self._demand += SMOOTHING * (demand_own - self._demand)
            demand_own = self._demand
            pool = [p for p in self.cec.partitions if p.pu_type == own.pu_type and not p.dedicated]
            pool_pus = self.cec.pus.get(own.pu_type, 0) - sum(
                p.logical for p in self.cec.partitions if p.pu_type == own.pu_type and p.dedicated
            )
            demand = {p.name: (demand_own if p.own else self._others_demand(p, now)) for p in pool}
            # PR/SM's own time comes out of the pool first
            capacity = max(0.0, pool_pus - self._overhead_rate(pool, now, span))
            alloc = share_pool(
                capacity,
                demand,
                {p.name: p.weight for p in pool},
                {p.name for p in pool if p.capped},
            )
            speed = (
                1.0
                if own.dedicated or demand_own <= 0
                else min(1.0, alloc.get(own.name, 0.0) / demand_own)
            )
            procs.set_speed(speed)
            self._ready = self._spread(pool, demand, capacity)
            if self.charged:
                self._count_switches(own_used)
            if self.pools is not None and procs.count:
                got = alloc.get(own.name, 0.0) if not own.dedicated else demand_own
                self.own_share = PoolShare(got / procs.count, demand_own / procs.count)
            # the others ran what they were granted, within what z/VM left of the pool;
            # settled once per window, since z/VM's bursts outlast a tick
            self._window_own += own_used
            self._window_span += span
            for name, pus in self._granted.items():
                self._window_wanted[name] = self._window_wanted.get(name, 0.0) + pus * span
            if self._window_span >= SETTLE_S:
                self._settle(pool, capacity)
            self._granted = {p.name: alloc[p.name] for p in pool if not p.own}
            yield self.env.timeout(self._tick)

    def _settle(self, pool: list[PartitionConfig], capacity: float) -> None:
        """Give the other partitions their dispatched time for the window just past."""
        wanted = self._window_wanted
        total = sum(wanted.values(), 0.0)  # (*capacity*: PR/SM's own time is out already)
        spare = max(0.0, capacity * self._window_span - self._window_own)
        scale = min(1.0, spare / total) if total else 0.0
        for p in pool:
            if not p.own and p.logical and p.name in wanted:
                each = wanted[p.name] * scale / p.logical
                self.dispatched_s[p.name] = [d + each for d in self.dispatched_s[p.name]]
        self._window_own = self._window_span = 0.0
        self._window_wanted = {}

    def logical_busy(self, part: PartitionConfig, now: float) -> list[float]:
        """Seconds each logical PU of *part* has been dispatched by *now*."""
        if part.own:
            return [self.processors.busy(c) for c in range(self.processors.count)]
        pools = self.pools
        if pools is not None and pools.running and part.pu_type != self.own.pu_type:
            return pools.dispatched_s(f"{part.name} {part.pu_type}")
        if self.occupancy is not None and part.pu_type == self.own.pu_type and not part.dedicated:
            return self.occupancy.held_s(part.name, now)
        if not self.own_contended:  # never shared out: each PU ran what it wanted
            return [max(0.0, now - part.busy_from_s) * part.busy] * part.logical
        return list(self.dispatched_s[part.name])

    def overhead(
        self, part: PartitionConfig, now: float, busy: list[float] | None = None
    ) -> list[float]:
        """PR/SM's physical time spent managing each logical PU of *part*: its time
        for each dispatch of it (:meth:`dispatch_s`, :meth:`dispatches`)."""
        if busy is None:
            busy = self.logical_busy(part, now)
        cost = self.dispatch_s(part.pu_type)
        return [n * cost for n in self.dispatches(part, busy)]

    def sampled_overhead(self, part: PartitionConfig, now: float, busy: list[float]) -> list[float]:
        """PR/SM's time for each logical PU of *part* by *now*, as a monitor sample sees it
        (*busy*: each one's dispatched seconds by *now*, :meth:`logical_busy`).

        PR/SM manages a logical PU between its dispatches: on the physical PU,
        while the logical one is not running (it went into a wait, or PR/SM took
        the physical PU for another). So between two samples its time for a
        logical PU fits in the time that PU was not dispatched, and a logical PU
        dispatched the whole time cost PR/SM nothing meanwhile: dispatched time
        plus overhead never exceeds the time elapsed (FCX126 %Busy at most 100).
        Called with *now* never going back (the monitor's samples).
        """
        raw = self.overhead(part, now, busy)
        zeros = [0.0] * len(busy)
        key = (part.name, part.pu_type)
        then, busy0, raw0, sampled = self._sampled.get(key, (0.0, zeros, zeros, zeros))
        span = now - then
        sampled = [
            s + min(r - r0, max(0.0, span - (b - b0)))
            for s, r, r0, b, b0 in zip(sampled, raw, raw0, busy, busy0, strict=True)
        ]
        self._sampled[key] = (now, busy, raw, sampled)
        return sampled

    def dispatch_s(self, pu_type: str) -> float:
        """PR/SM's time for one dispatch of a logical PU in the shared *pu_type* pool."""
        return pool_dispatch_s(self.cec, pu_type, self.costs)

    def redispatch_s(self, costs: PrsmCosts) -> float:
        """How long one of z/VM's logical PUs, leaving its wait state, waits for PR/SM
        to dispatch it again: ``redispatch_passes`` dispatches' worth of PR/SM's path
        in its pool (none for a dedicated logical PU, which keeps its physical PU)."""
        if self.own.dedicated:
            return 0.0
        return costs.redispatch_passes * pool_dispatch_s(self.cec, self.own.pu_type, costs)

    def pool_others(self) -> tuple[int, list[tuple[str, int, float]]]:
        """z/VM's shared pool for :class:`~zvmsim.hardware.occupancy.Occupancy`: its
        physical PUs, and each other partition's logical PUs with the share of the time
        each holds a physical PU: what it wants, up to its weight's share of the pool
        (what PR/SM guarantees it against z/VM)."""
        own = self.own
        pool = [p for p in self.cec.partitions if p.pu_type == own.pu_type and not p.dedicated]
        capacity = self.cec.pus.get(own.pu_type, 0) - sum(
            p.logical for p in self.cec.partitions if p.pu_type == own.pu_type and p.dedicated
        )
        total_weight = sum(p.weight for p in pool) or 1
        others = [
            (p.name, p.logical, min(p.busy, capacity * p.weight / total_weight / p.logical))
            for p in pool
            if not p.own and p.logical
        ]
        return capacity, others

    def dispatches(self, part: PartitionConfig, busy: list[float]) -> list[float]:
        """Dispatches of each logical PU of *part* so far, given its dispatched *busy* seconds.

        z/VM's: each start of work on a waiting logical PU, each dispatch PR/SM
        ended to give the physical PU to another, each Diag x'44' or x'9C'. A
        partition simulated as load: as :func:`dispatch_rate` has it (the other
        pools count theirs as they share them out); none for a dedicated one.
        """
        if part.own:
            procs = self.processors
            if part.dedicated:
                return [float(self.intercepts[c]) for c in range(procs.count)]
            return [
                procs.wakes[c] + self.switches[c] + self.intercepts[c] for c in range(procs.count)
            ]
        if part.dedicated:
            return [0.0] * len(busy)
        pools = self.pools
        if pools is not None and pools.running and part.pu_type != self.own.pu_type:
            return pools.dispatches(f"{part.name} {part.pu_type}")
        # a logical PU busy u of the time runs, once dispatched, a whole busy period:
        # on average other_run_ms / (1 - u), so a busier one is dispatched less often
        run_s = self.costs.other_run_ms / 1000.0
        return [b * max(0.0, 1.0 - min(1.0, part.busy)) / run_s for b in busy]

    def intercept(self, cpu: int, calls: int) -> None:
        """z/VM's logical PU *cpu* issued *calls* Diag x'44' or x'9C' (each a dispatch)."""
        self.intercepts[cpu] += calls

    def pool_state(self) -> PoolState:
        """z/VM's pool as PR/SM runs it now (for CP's spin locks)."""
        return self._ready

    def _spread(
        self, pool: list[PartitionConfig], demand: dict[str, float], capacity: float
    ) -> PoolState:
        """How many of the pool's logical PUs want a physical PU at an instant.

        Each logical PU of a partition wanting *D* PUs over *n* logical PUs wants
        one a share ``u = D / n`` of the time, independently of the others: the
        count is a sum of such on-off PUs, with mean ``sum(D)`` and variance
        ``sum(n u (1 - u))``. The same demand over more logical PUs varies more.
        """
        mean = var = most = 0.0
        for p in pool:
            n = self.processors.count if p.own else p.logical
            if n <= 0:
                continue
            u = min(1.0, demand[p.name] / n)
            mean += u * n
            var += n * u * (1.0 - u)
            most += n
        cost = self.dispatch_s(self.own.pu_type) if self.charged else 0.0
        return PoolState(mean, math.sqrt(var), most, capacity, cost)

    def _count_switches(self, own_used: float) -> None:
        """While the pool is oversubscribed PR/SM ends a dispatch every dispatch interval."""
        ready = self._ready
        if self.pools is None or not self.processors.count or ready.ready_max <= ready.capacity:
            return
        if ready.ready_sd > 0:
            z = (ready.capacity - ready.ready_mean) / ready.ready_sd
            p_over = 0.5 * math.erfc(z / math.sqrt(2.0))
        else:
            p_over = 1.0 if ready.ready_mean > ready.capacity else 0.0
        each = own_used * p_over / self.processors.count / self.pools.interval_s
        self.switches = [s + each for s in self.switches]

    def _overhead_rate(self, pool: list[PartitionConfig], now: float, span: float) -> float:
        """PR/SM's overhead in the pool, in PUs, smoothed over the last ticks."""
        total = sum((sum(self.overhead(p, now), 0.0) for p in pool if p.logical), 0.0)
        if span > 0:
            rate = (total - self._ovhd_total) / span
            self._ovhd_rate += SMOOTHING * (rate - self._ovhd_rate)
        self._ovhd_total = total
        return self._ovhd_rate

    def dispatch_wait(
        self, name: str, pu_type: str, rnd: random.Random, any_of: bool = False
    ) -> float:
        """Seconds until a logical PU of partition *name* (its *pu_type* PUs) is dispatched.

        One draw from *rnd* for an event happening now (see :mod:`.pools`). z/VM's own
        logical PUs wait only when PR/SM gives them less than they want;
        other partitions in z/VM's pool are not modelled that finely (no wait).
        """
        pools = self.pools
        if pools is None:
            return 0.0
        if name == self.own.name:
            share = self.own_share
            if share is None:
                return 0.0
            return pools.wait(share, self.processors.count, rnd, any_of)
        if pools.running and pu_type != self.own.pu_type:
            return pools.dispatch_wait(f"{name} {pu_type}", rnd, any_of)
        return 0.0
