"""Page-touching transaction workloads: VIRSTOR (CMS) and Apache serving (Linux).

IBM's storage-management benchmarks drive guests whose memory reference
pattern and processor use are set by parameters. Each guest here runs
transactions in a closed loop: it thinks (``think_s`` on average, out of the
dispatch list when it is a CMS user that goes dormant, idle in it when it
is a Linux server), then touches its *hot set* (``wss_mb``, used by every
transaction), makes ``touches`` touches of pages drawn uniformly from the
rest of its storage (``write_pct`` of them change the page) and uses
``cpu_ms`` of processor time, spread over the touches, plus ``cp_ms`` of CP
time for the services it asks of CP (console I/O, DIAGNOSE), charged to it. A touch of a page
that is not valid costs what the release makes it cost: a revalidation, a
synchronous XSTORE page-in, or a page fault that waits for DASD. The guest
reports its transactions to CP Monitor (APPLDATA), so the TXN report gives
its ETR and response time.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..cp.spaces import ColdRun
from ..errors import ZvmsimError
from .base import Workload
from .linux import PAGES_PER_MB, _space

__all__ = ["ApacheServer", "Virstor"]


class Virstor(Workload):
    """A VIRSTOR user: think, then a transaction of page touches and CPU."""

    APPLDATA = True
    NAME = "VIRSTOR"
    PARAMS = {
        "virtual_mb": 1024.0,
        "used_mb": 1024.0,  # storage the guest has touched since it logged on
        "wss_mb": 64.0,  # the hot set: touched by every transaction
        "touches": 100,  # touches of other pages per transaction
        "write_pct": 50.0,  # share of those touches that change the page
        "cpu_ms": 10.0,  # processor time per transaction (mean)
        "cp_ms": 0.0,  # CP time per transaction for services it asks of CP (console, DIAGNOSE)
        "think_s": 1.0,  # mean think time between transactions
        "dormant": True,  # leaves the dispatch list while it thinks (CMS)
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.p
        if not 0 < p["wss_mb"] <= p["used_mb"] <= p["virtual_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: needs 0 < wss_mb <= used_mb <= virtual_mb")
        if p["touches"] < 0 or not 0 <= p["write_pct"] <= 100 or p["cpu_ms"] <= 0:
            raise ZvmsimError(
                f"user {self.vm.userid}: touches >= 0, write_pct 0..100 and cpu_ms > 0 please"
            )
        if p["think_s"] < 0:
            raise ZvmsimError(f"user {self.vm.userid}: think_s cannot be negative")
        self.space = _space(self, p["virtual_mb"], detailed=False)
        self.space.wss = int(p["wss_mb"] * PAGES_PER_MB)
        self.space.hot = self.space.wss
        self.txns = 0
        self.resp_s = 0.0

    def appldata(self) -> tuple[str, int, float] | None:
        """(workload name, transactions completed, their response times summed)."""
        return self.NAME, self.txns, self.resp_s

    def prepare(self) -> None:
        """The guest has touched ``used_mb`` of its storage since it logged on."""
        space, storage = self.space, self.machine.storage
        left = int(self.p["used_mb"] * PAGES_PER_MB)
        while left > 0:  # a segment's worth at a time, as a guest touches it
            n = min(left, 64 * PAGES_PER_MB)
            storage.first_touch_counted(space, n)
            left -= n
        space.referenced = min(space.resident, space.wss)
        # its colder pages have been paged out and back since; those it only read
        # are unchanged since then (z/VM 6.3 keeps their copies on DASD)
        cold = space.resident - min(space.wss, space.resident)
        storage.history_clean(space, round(cold * (1.0 - self.p["write_pct"] / 100.0)))

    def run(self) -> Generator:
        m, vm, rnd, p = self.machine, self.vm, self.rnd, self.p
        storage, cpu, space = m.storage, m.processors, self.space
        dormant = p["dormant"]
        yield m.env.timeout(rnd.uniform(0.0, max(p["think_s"], 0.01)))
        m.add_to_dispatch_list(vm)
        write = p["write_pct"] / 100.0
        slice_s = cpu.slice_s
        while True:
            start = m.env.now
            yield from storage.keep_hot(vm, space)
            touches = p["touches"]
            work = p["cpu_ms"] / 1000.0 * (0.5 + rnd.random())
            per_touch = work / touches if touches else 0.0
            busy = 0.0 if touches else work
            run = ColdRun(rnd, write, per_touch, slice_s)
            left = touches
            while left > 0:
                done, busy, step = storage.touch_cold_run(vm, space, run, left, busy)
                left -= done
                if step is not None or busy >= slice_s:
                    yield cpu.run(vm, busy, 0.0)
                    busy = 0.0
                if step is not None:
                    yield from step
            cp_s = p["cp_ms"] / 1000.0
            if busy > 0 or cp_s > 0:
                yield cpu.run(vm, busy, cp_s)
            self.txns += 1
            self.resp_s += m.env.now - start
            think = rnd.expovariate(1.0 / p["think_s"]) if p["think_s"] > 0 else 0.0
            if think > 0:
                yield from self.wait(think, dormant)


class ApacheServer(Virstor):
    """A Linux web server serving static pages from a file cache much larger than
    storage: every request touches pages the guest has not used for long."""

    NAME = "APACHE"
    PARAMS = {**Virstor.PARAMS, "dormant": False}
