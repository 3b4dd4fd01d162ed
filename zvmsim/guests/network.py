"""Network guests: a VSWITCH controller, and a Linux guest that moves data.

**VSWITCH controller** (``vswitch_controller``). The DTCVSWn virtual machine
that drives a VSWITCH's uplink. A QDIO signal wakes it (the uplink OSA's
interrupt for frames in, a guest's frames queued out); it takes the packets
its switches queued since it last looked and works them off in one CPU burst
(the calibrated controller time per packet). Between bursts it waits for
the next interrupt in the dispatch list (test idle), as a real controller
does, so it shows up in USTAT and USER like any other guest.

**Linux network guest** (``linux_network``). Every ``tick_s`` it sends
``out_kb_per_s`` and receives ``in_kb_per_s`` kilobytes (1000 bytes) per
second's worth of data through its VSWITCH in one transfer, and spends
``vcpu_us_per_kb`` of guest CPU per kilobyte on its own network stack.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from ..cp.vmdbk import TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["LinuxNetwork", "VSwitchController"]


class VSwitchController(Workload):
    """The controller virtual machine of one or more VSWITCHes.

    It waits for QDIO signals: an interrupt from the uplink OSA for frames that
    came in, a guest's frames queued out. Each wakes it (if it waits) to work
    off the packets queued since it last looked, in one CPU burst; signals that
    come while it works are served by its next look.
    """

    PARAMS = {"virtual_mb": 32.0}

    def __init__(  # the Workload's arguments, spelled out (mypyc: no *args to super())
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        # what its switches see of it (they signal it, :meth:`VSwitch.transfer_packets`)
        self.env = self.machine.env
        self.working = False  # in a burst (or waiting for a processor to run one)
        self.work_s = 0.0  # its time for the packets signalled and not yet worked off

    def run(self) -> Generator:
        m, vm = self.machine, self.vm
        channels = m.config.calibration.channels
        for vs in m.vswitches.values():
            if vs.controller == vm.userid:
                vs.controller_vm = self
                vs.round_trip_s = 2 * channels[vs.osa.kind].latency_us / 1e6
        m.add_to_dispatch_list(vm)
        vm.state = TIW
        # from here on the signals drive it (callbacks, not a process resumed at each)
        yield m.env.event()

    def arrive(self, event: Any) -> None:
        """A signal that came later (an ACK's round trip): its work is the event's value."""
        self.work_s += event._value
        if not self.working:
            self.burst(None)

    def burst(self, _event: Any) -> None:
        """Work off what was signalled (at a wake, or at the end of the last burst)."""
        work, self.work_s = self.work_s, 0.0
        if not work:  # nothing came meanwhile: idle in the dispatch list
            self.working = False
            self.vm.state = TIW
            return
        self.working = True
        self.machine.processors.run(self.vm, work, 0.0).callbacks.append(self.burst)


class LinuxNetwork(Workload):
    """A Linux guest streaming data out and in through a VSWITCH."""

    PARAMS = {
        "vswitch": "",
        "out_kb_per_s": 100.0,
        "in_kb_per_s": 25.0,
        "tick_s": 0.1,
        "vcpu_us_per_kb": 2.0,
        "virtual_mb": 512.0,
    }

    def __init__(  # the Workload's arguments, spelled out (mypyc: no *args to super())
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        p = self.p
        switch = self.machine.vswitches.get(p["vswitch"])
        if switch is None:
            raise ZvmsimError(f"user {self.vm.userid}: no VSWITCH '{p['vswitch']}'")
        self.switch = switch
        if p["tick_s"] <= 0 or min(p["out_kb_per_s"], p["in_kb_per_s"], p["vcpu_us_per_kb"]) < 0:
            raise ZvmsimError(
                f"user {self.vm.userid}: tick_s must be > 0 and rates and costs not negative"
            )

    def run(self) -> Generator:
        m, vm, p, switch = self.machine, self.vm, self.p, self.switch
        tick = p["tick_s"]
        out_bytes = round(p["out_kb_per_s"] * 1000.0 * tick)
        in_bytes = round(p["in_kb_per_s"] * 1000.0 * tick)
        vcpu_s = (out_bytes + in_bytes) / 1000.0 * p["vcpu_us_per_kb"] / 1e6
        yield m.env.timeout(self.rnd.uniform(0.0, tick))
        m.add_to_dispatch_list(vm)
        due = m.env.now
        while True:
            switch.transfer(vm, out_bytes, in_bytes)
            yield m.processors.run(vm, vcpu_s, 0.0)
            vm.state = TIW
            due += tick  # keep the rate: the next transfer is due one tick after this one
            yield m.env.timeout(max(0.0, due - m.env.now))
