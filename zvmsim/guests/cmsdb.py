"""A CMS database job: small records read from a large CMS file, randomly or in order.

The customers of seed 004 ran databases built on CMS flat files hundreds of
cylinders big. The job reads 4 KB records of one file (the first
``file_cyl`` cylinders of its minidisk) one record per virtual I/O and
rewrites a few (``write_share``); it processes a request's records
(``vcpu_us`` each) in one burst of CPU before reading them. Its unit of work,
a *request*, is ``records_per_request`` records; it reports requests and
their response times (APPLDATA) and thinks ``think_s`` between them (0: a
batch job that never waits for anyone).

* ``pattern = "random"`` — a database's access pattern: most reads
  (``hot_share``) go to the busy records (indexes, the popular rows),
  ``hot_pct`` of the file's records scattered over all of it, the rest to
  any record. Consecutive reads rarely share a track.
* ``pattern = "sequential"`` — a scan: the file from its first record to its
  last, then again; each job starts at its own place.

The job has been running for a while when the measurement starts: before the
clock starts its recent reads are replayed through the minidisk cache and
the control unit's cache without timing, so both hold what such a job would
have left in them (:meth:`Minidisk.warm`).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..errors import ZvmsimError
from .base import Workload

__all__ = ["CmsDatabase"]

PATTERNS = ("random", "sequential")


class CmsDatabase(Workload):
    """Requests of several one-record reads from a big CMS file."""

    APPLDATA = True
    PARAMS = {
        "minidisk": "",
        "file_cyl": 300.0,
        "pattern": "random",
        "records_per_request": 10,
        "hot_pct": 5.0,
        "hot_share": 0.8,
        "write_share": 0.05,
        "vcpu_us": 300.0,
        "think_s": 0.0,
        "warm_reads": 60000,
        "name": "DBJOB",
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.p
        self.disk = self.minidisk(p["minidisk"])
        if p["pattern"] not in PATTERNS:
            raise ZvmsimError(
                f"user {self.vm.userid}: pattern must be {' or '.join(PATTERNS)}, "
                f"not '{p['pattern']}'"
            )
        per_cyl = self.disk.blocks_per_track * self.machine.config.calibration.tracks_per_cylinder
        self.records = int(p["file_cyl"] * per_cyl)
        if not 1 <= self.records <= self.disk.blocks:
            raise ZvmsimError(
                f"user {self.vm.userid}: a file of {p['file_cyl']:g} cylinders does not fit "
                f"minidisk {self.disk.name} ({self.disk.blocks // per_cyl} cylinders)"
            )
        if p["records_per_request"] < 1 or not 0.0 <= p["hot_share"] <= 1.0:
            raise ZvmsimError(
                f"user {self.vm.userid}: records_per_request must be at least 1 "
                "and hot_share 0 to 1"
            )
        key = f"{self.disk.name}:{self.records}:{p['hot_pct']:g}"
        hot = max(1, int(self.records * p["hot_pct"] / 100.0))
        self.hot = self.machine.shared_layout(
            f"hot:{key}", lambda rnd: rnd.sample(range(self.records), hot)
        )
        self.sequential = p["pattern"] == "sequential"
        self.hot_share = p["hot_share"]
        self.txns = 0
        self.resp_s = 0.0
        self.position = self.rnd.randrange(self.records)  # where a scan goes on from
        self.machine.shared_layout(f"warm:{key}:{p['pattern']}", self._warm)

    @property
    def links(self) -> list[str]:
        return [self.disk.name]

    def appldata(self) -> tuple[str, int, float] | None:
        return self.p["name"], self.txns, self.resp_s

    def _next(self, rnd: Any) -> int:
        """The record the job reads next."""
        if self.sequential:
            record = self.position
            self.position = (record + 1) % self.records
            return record
        random = rnd.random
        if random() < self.hot_share:
            hot = self.hot
            return hot[int(random() * len(hot))]
        return int(random() * self.records)

    def _warm(self, rnd: Any) -> bool:
        """Replay the job's recent reads through MDC and the control unit's cache."""
        reads = self.p["warm_reads"]
        here = self.position
        self.position = (here - reads) % self.records  # a scan replays what led here
        warm = self.disk.warm
        for _ in range(reads):
            warm(self._next(rnd), 1)
        self.position = here
        return True

    def run(self) -> Generator:
        vm, m, rnd = self.vm, self.machine, self.rnd
        env = m.env
        p = self.p
        think, count = p["think_s"], p["records_per_request"]
        vcpu_s, writes = p["vcpu_us"] / 1e6, p["write_share"]
        io, cpu_run, pick = self.disk.io, m.processors.run, self._next
        if think <= 0.0:  # a batch job: always in the dispatch list
            m.add_to_dispatch_list(vm)
        while True:
            start = env.now
            if think > 0.0:
                m.add_to_dispatch_list(vm)
            yield cpu_run(vm, vcpu_s * count, 0.0)  # the request's processing, in one burst
            for _ in range(count):
                yield from io(vm, pick(rnd), 1, write=rnd.random() < writes)
            self.txns += 1
            self.resp_s += env.now - start
            if think > 0.0:
                m.drop_from_dispatch_list(vm)
                yield env.timeout(rnd.expovariate(1.0 / think))
