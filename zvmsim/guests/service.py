"""CMS service machines: servers that sleep until work or their timer wakes them.

A CMS server (the performance monitor, accounting, backup, the SFS file pool)
waits in an enabled wait with nothing to do most of the time. Unlike a Linux
guest it has no 100 Hz timer: when it goes idle, CP keeps it in the dispatch
list for the test-idle time (``test_idle_s`` of the CP calibration) in case
work comes back at once, then drops it; it is dormant until the next wake.

A wake comes from the server's own timer (``timer_s``: every so many seconds,
e.g. the performance monitor's collection each monitor sample interval), or
from work arriving at random (``work_s``: the mean gap between requests). Each
wake costs ``cpu_ms`` of processor time. With ``timer_s`` set to
``"sample"`` (``-1``) the timer is the monitor's sample interval: the server
(the performance monitor) waits for the next interval's data from CP's
*MONITOR system service, and CP counts that wait as a wait for a service
machine (SVM wait): its idle samples are *SVM and* test idle (%TI), then
*SVM and* dormant (%DM), as seed 000's PERFSVM shows (%TI 5, %DM 60). Other
servers wait for no service machine: dormant, they are in no USTAT column.

A server may keep files on a minidisk (``disk``): after each wake by its timer
it writes ``write_ios`` block I/Os of ``blocks_per_io`` 4 KB blocks there, one
after the other, appending where the last left off. The performance monitor
does this: each interval Performance Toolkit appends the interval's figures to
its history files on its A-disk (the history log and trend files the z/VM
Performance Toolkit Guide describes; our reference search found no page giving
how many blocks, so the count is a scenario's choice); a CMS append
writes the data blocks, then the file's pointer block and the directory on
close. CMS starts the block I/O (DIAGNOSE X'250', asynchronous) and waits for
it in an enabled wait: CP samples the server I/O active (%IOA), not in I/O
wait.

With ``stay`` on, CP never drops the server: it sits in the dispatch list in
test idle between wakes (%TIW) and uses no processor time there, so the
samples find it active only around its wakes. z/VM's TCP/IP stack shows this
(seed 000: %TIW 99, %DM 0, %ACT 4); why CP keeps it in queue is not modelled.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..cp.vmdbk import TIW
from ..errors import ZvmsimError
from .base import Workload

__all__ = ["CmsService"]


class CmsService(Workload):
    """A CMS server: dormant between wakes by its timer or by work."""

    PARAMS = {
        "timer_s": 0.0,
        "work_s": 0.0,
        "cpu_ms": 5.0,
        "stay": False,
        "disk": "",  # a minidisk the server writes its files to after each timer wake
        "write_ios": 0,
        "blocks_per_io": 1,
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        timer = self.p["timer_s"]
        if timer < 0:  # the monitor's sample interval
            timer = float(self.machine.config.monitor.sample_interval)
        if timer <= 0 and self.p["work_s"] <= 0:
            raise ZvmsimError(f"user {self.vm.userid}: a service machine needs timer_s or work_s")
        if self.p["cpu_ms"] < 0:
            raise ZvmsimError(f"user {self.vm.userid}: cpu_ms must not be negative")
        self.timer = timer
        self.fed = self.p["timer_s"] < 0  # waits for *MONITOR's data (SVM wait)
        if self.p["write_ios"] < 0 or self.p["blocks_per_io"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: bad write_ios or blocks_per_io")
        self.disk = self.minidisk(self.p["disk"]) if self.p["disk"] else None
        self.append_at = 0  # the next block the server's files grow into

    @property
    def links(self) -> list[str]:
        return [self.disk.name] if self.disk is not None else []

    def _write_files(self) -> Generator:
        """Append to the server's files: ``write_ios`` asynchronous block writes (%IOA)."""
        vm, disk, count = self.vm, self.disk, self.p["blocks_per_io"]
        assert disk is not None
        vm.state = TIW
        for _ in range(self.p["write_ios"]):
            yield from self.async_io(disk, self.append_at, count, True)
            self.append_at = (self.append_at + count) % disk.blocks

    def _next_wake(self, now: float, timer_at: float) -> float:
        work = self.p["work_s"]
        wake = now + self.rnd.expovariate(1.0 / work) if work > 0 else float("inf")
        return min(wake, timer_at)

    def run(self) -> Generator:
        m, vm, rnd = self.machine, self.vm, self.rnd
        env = m.env
        timer_at = env.now + rnd.uniform(0.0, self.timer) if self.timer > 0 else float("inf")
        cpu_s = self.p["cpu_ms"] / 1000.0
        wake = self._next_wake(env.now, timer_at)
        stay = self.p["stay"]
        if stay:  # in queue from logon on, idle until the first wake
            m.add_to_dispatch_list(vm)
            vm.state = TIW
        yield env.timeout(wake - env.now)
        while True:
            timed = env.now >= timer_at - 1e-12
            if timed:
                timer_at += self.timer
            if not stay:
                m.add_to_dispatch_list(vm)
            vm.svm_wait = False
            yield m.processors.run(vm, cpu_s * (0.5 + rnd.random()), 0.0)
            wake = self._next_wake(env.now, timer_at)
            if timed and self.disk is not None:
                yield from self._write_files()
                wake = max(wake, env.now)
            vm.svm_wait = self.fed
            if stay:
                yield from self.wait(max(0.0, wake - env.now), dormant=False)
            else:
                yield from self.test_idle(max(0.0, wake - env.now))
            vm.svm_wait = False
