"""A scheduled batch job: quiet, then a stretch of heavy work, then quiet again.

Month-end processing, a nightly backup, "that really big thing you do": the
job logs on idle (dormant, off the dispatch list), and ``start_s`` seconds
after the measurement window opens it runs for ``run_s`` seconds. While it
runs it reads its minidisk sequentially in chunks of ``blocks_per_io``
blocks, writing every ``write_every``-th chunk back, with ``cpu_ms`` of
guest CPU per chunk. Then it goes dormant again.

How its burst looks in the reports depends on how the monitor was set up:
a by-time report with short sample intervals shows the burst as it was, a
long interval averages it with the quiet minutes around it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..errors import ZvmsimError
from .base import Workload

__all__ = ["BatchJob"]


class BatchJob(Workload):
    """Dormant except for ``run_s`` seconds from ``start_s`` (after the warm-up)."""

    PARAMS = {
        "minidisk": "",
        "start_s": 240.0,
        "run_s": 120.0,
        "blocks_per_io": 8,
        "cpu_ms": 2.0,
        "write_every": 4,
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.disk = self.minidisk(self.p["minidisk"])
        if self.p["start_s"] < 0 or self.p["run_s"] <= 0:
            raise ZvmsimError(f"user {self.vm.userid}: start_s must be >= 0 and run_s > 0")
        if self.p["blocks_per_io"] < 1 or self.p["write_every"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: blocks_per_io and write_every must be >= 1")

    @property
    def links(self) -> list[str]:
        return [self.disk.name]

    def run(self) -> Generator:
        m, vm = self.machine, self.vm
        env = m.env
        start = m.config.warmup + self.p["start_s"]
        yield env.timeout(start)
        stop = start + self.p["run_s"]
        chunk, cpu_s = self.p["blocks_per_io"], self.p["cpu_ms"] / 1000.0
        block, n = 0, 0
        m.add_to_dispatch_list(vm)
        while env.now < stop:
            yield m.processors.run(vm, cpu_s * (0.5 + self.rnd.random()), 0.0)
            n += 1
            write = n % self.p["write_every"] == 0
            yield from self.disk.io(vm, block, chunk, write=write)
            block = (block + chunk) % max(self.disk.blocks - chunk, 1)
        m.drop_from_dispatch_list(vm)
