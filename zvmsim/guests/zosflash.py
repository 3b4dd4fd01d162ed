"""A z/OS guest whose storage utilities FlashCopy its minidisks and read the copies.

z/OS's DFSMS and other utilities (DFSMSdss copies and dumps, defragmentation)
use FlashCopy a great deal: a data set or a whole volume is copied inside the
storage controller in an instant and the copy is then read (backed up, or
used in place of the original). Here the guest issues FlashCopy establishes
from its source minidisk onto one of its target minidisks, ``flashcopy_rate``
a second on average (Poisson arrivals; each goes to the next target in
turn), and meanwhile reads the targets and the source, ``reads_per_s`` a
second, ``blocks_per_read`` 4 KB blocks at a time at random places, with
``vcpu_us`` of its own CPU per read. A rate of 0 means no FlashCopy at all.

CP's side of a FlashCopy, the minidisk cache invalidation of the target, is
in :mod:`zvmsim.cp.flashcopy`.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..errors import ZvmsimError
from .base import Workload

__all__ = ["ZosFlashCopy"]


class ZosFlashCopy(Workload):
    """FlashCopy establishes onto target minidisks, and reads of the copies."""

    PARAMS = {
        "source": "",
        "targets": "",  # one or more, comma-separated
        "flashcopy_rate": 1.0,
        "reads_per_s": 50.0,
        "blocks_per_read": 12,
        "vcpu_us": 400.0,
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        p = self.p
        self.source = self.minidisk(p["source"])
        self.targets = [self.minidisk(n.strip()) for n in p["targets"].split(",") if n.strip()]
        if not self.targets:
            raise ZvmsimError(f"user {self.vm.userid}: needs at least one target minidisk")
        if p["flashcopy_rate"] < 0 or p["reads_per_s"] < 0 or p["blocks_per_read"] < 1:
            raise ZvmsimError(
                f"user {self.vm.userid}: flashcopy_rate and reads_per_s cannot be negative, "
                "blocks_per_read must be at least 1"
            )

    @property
    def links(self) -> list[str]:
        return [self.source.name, *(t.name for t in self.targets)]

    def run(self) -> Generator:
        m, vm, rnd = self.machine, self.vm, self.rnd
        env, flash, cpu_run = m.env, m.flashcopy, m.processors.run
        p = self.p
        rate, read_rate = p["flashcopy_rate"], p["reads_per_s"]
        count, vcpu_s = p["blocks_per_read"], p["vcpu_us"] / 1e6
        disks = [self.source, *self.targets]
        never = float("inf")
        next_copy = env.now + rnd.expovariate(rate) if rate > 0 else never
        next_read = env.now + rnd.expovariate(read_rate) if read_rate > 0 else never
        turn = rnd.randrange(len(self.targets))
        m.add_to_dispatch_list(vm)  # a z/OS guest is never idle long enough to drop
        while next_copy < never or next_read < never:
            # one stream of work at a time: the next FlashCopy or the next read of a copy
            due = min(next_copy, next_read)
            if due > env.now:
                yield env.timeout(due - env.now)
            yield cpu_run(vm, vcpu_s, 0.0)
            if next_copy <= next_read:
                target = self.targets[turn]
                turn = (turn + 1) % len(self.targets)
                yield from flash.establish(vm, self.source, target)
                next_copy = max(next_copy + rnd.expovariate(rate), env.now)
            else:
                disk = disks[rnd.randrange(len(disks))]
                block = rnd.randrange(max(1, disk.blocks // count)) * count
                yield from disk.io(vm, block, count, write=False)
                next_read = max(next_read + rnd.expovariate(read_rate), env.now)
