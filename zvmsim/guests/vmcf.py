"""A pure VMCF workload: client and server virtual machines in pairs.

A client builds a message (``send_us`` of its own instructions) and sends it
to its server with VMCF SEND, then waits for the reply. The server takes the
message-pending external interrupt (``receive_us``), RECEIVEs the message,
works on it (``serve_us``) and REPLYs; the reply's interrupt wakes the
client, which builds the next message. While it waits for the reply the
client waits for a service machine (CP's SVM wait): USTAT finds it *SVM and
test idle* (%TI), not in plain test idle (%TIW). With probability ``smsg_share`` an
exchange uses SMSG instead: the client's SMSG command, the server's RECEIVE,
an SMSG back, and the client's RECEIVE of it. Where CP runs each function,
and what moving there costs, is :mod:`zvmsim.cp.vmcf`'s business.

Client *i* talks to server *i*: the server's userid is ``server`` with the
client's own number appended (``VMCFC3`` -> ``VMCFS3``).
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

__all__ = ["VmcfClient", "VmcfServer"]


def _jitter(rnd: Any, mean_us: float) -> float:
    """Seconds of guest time around *mean_us* (uniform, +/-50 %)."""
    return mean_us * (0.5 + rnd.random()) / 1e6


class _VmcfUser(Workload):
    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        m, who = self.machine, self.vm.userid
        if m.vmcf.family is None:
            model = m.config.system.cpu_model
            raise ZvmsimError(
                f"user {who}: no VMCF path lengths for processor {model} "
                "(data/calibration/cp.toml [cpu_families])"
            )
        for key, value in self.p.items():
            if isinstance(value, float) and value < 0:
                raise ZvmsimError(f"user {who}: {key} cannot be negative")
        m.vmcf.users.add(who)


class VmcfServer(_VmcfUser):
    """Waits for messages; for each: RECEIVE, work, REPLY (or an SMSG back)."""

    PARAMS = {"receive_us": 20.0, "serve_us": 100.0}

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd = self.machine, self.vm, self.rnd
        box = m.vmcf.mailbox(vm.userid)
        m.add_to_dispatch_list(vm)
        while True:
            vm.state = TIW  # in an enabled wait for the next message
            reply, smsg = yield box.get()
            steps = [
                (_jitter(rnd, self.p["receive_us"]), "smsg_receive" if smsg else "receive"),
                (_jitter(rnd, self.p["serve_us"]), "smsg" if smsg else "reply"),
            ]
            yield from m.vmcf.dispatch(vm, steps, interrupted=True)
            reply.succeed()


class VmcfClient(_VmcfUser):
    """Sends a message to its server and waits for the answer, over and over."""

    PARAMS = {"server": "VMCFS", "send_us": 100.0, "smsg_share": 0.0}

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        if not 0.0 <= self.p["smsg_share"] <= 1.0:
            raise ZvmsimError(f"user {self.vm.userid}: smsg_share must be 0 to 1")
        who = self.vm.userid
        number = who[len(who.rstrip("0123456789")) :]
        self.server = f"{self.p['server']}{number}"
        logged = {u for g in self.machine.config.guests.values() for u in g.userids}
        if self.server not in logged:
            raise ZvmsimError(f"user {who}: its VMCF server {self.server} is not logged on")

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd = self.machine, self.vm, self.rnd
        box = m.vmcf.mailbox(self.server)
        yield m.env.timeout(rnd.uniform(0.0, 1e-3))
        m.add_to_dispatch_list(vm)
        first, answered_by_smsg = True, False
        while True:
            smsg = rnd.random() < self.p["smsg_share"]
            steps = [(0.0, "smsg_receive")] if answered_by_smsg else []
            steps.append((_jitter(rnd, self.p["send_us"]), "smsg" if smsg else "send"))
            yield from m.vmcf.dispatch(vm, steps, interrupted=not first)
            reply = m.env.event()
            yield box.put((reply, smsg))
            vm.state = TIW  # waiting for the reply's interrupt: for a service machine
            vm.svm_wait = True  # (CP's SVM wait: USTAT's *SVM and test idle*, %TI)
            yield reply
            vm.svm_wait = False
            first, answered_by_smsg = False, smsg
