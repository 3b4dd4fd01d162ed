"""The dispatcher, reduced to what the current case studies need.

Logical processors are servers; a virtual machine with work asks for one,
waits in FIFO order if all are busy, and runs its burst of virtual (guest)
time plus the CP time spent on its behalf. Processor time is charged to the
user (TCPU, VCPU); CP work that no user can be charged for is recorded as
system time. Shares, the eligible list and PR/SM come with the processor issue.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator

import simpy

from .vmdbk import CPU, RUN, Vmdbk

__all__ = ["Processors"]


class Processors:
    """The partition's logical processors."""

    def __init__(self, env: simpy.Environment, count: int) -> None:
        self.env = env
        self.count = count
        self._free = list(range(count - 1, -1, -1))  # a stack: the lowest address first
        self._waiting: deque[simpy.Event] = deque()
        self.busy_s = [0.0] * count
        self.virtual_s = [0.0] * count
        self.system_s = [0.0] * count
        self._next_system = 0

    def run(self, user: Vmdbk, virtual_s: float, cp_s: float) -> Generator:
        """Dispatch *user* for *virtual_s* of guest time plus *cp_s* of CP time."""
        total = virtual_s + cp_s + user.pending_cp_s
        user.pending_cp_s = 0.0
        free = self._free
        if free:
            cpu = free.pop()
        else:
            user.state = CPU
            wait = self.env.event()
            self._waiting.append(wait)
            cpu = yield wait
        user.state = RUN
        yield self.env.timeout(total)
        self.busy_s[cpu] += total
        self.virtual_s[cpu] += virtual_s
        user.vcpu_s += virtual_s
        user.tcpu_s += total
        if self._waiting:
            self._waiting.popleft().succeed(cpu)
        else:
            free.append(cpu)

    def charge_system(self, seconds: float) -> None:
        """Record CP time no user is charged for (spread over the processors)."""
        cpu = self._next_system
        self._next_system = (cpu + 1) % self.count
        self.busy_s[cpu] += seconds
        self.system_s[cpu] += seconds
