"""VMCF and SMSG: messages between virtual machines, and where CP runs them.

A VMCF function (DIAGNOSE X'68': SEND, RECEIVE, REPLY) is a short CP path.
Up to VM/ESA 2.1.0 CP serialised VMCF on the **master processor**: a VMDBK
that issues one is moved to the master's master-only queue, the function
runs there, and the VMDBK stays on the master for the rest of its dispatch,
until it waits (see :mod:`zvmsim.cp.dispatch`). From VM/ESA 2.2.0 VMCF holds
multiprocessor locks and runs wherever its user runs. SMSG, the CP command
that delivers a special message through VMCF, stays on the master in both,
and so does the VMCF that results from it (the receiver's RECEIVE of the
special message).

A message or a reply arriving is an external interrupt for its receiver: CP
reflects it (``ext_int_us``) at the receiver's next dispatch.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import simpy

from ..calibration import CpuFamily
from .dispatch import Processors
from .vmdbk import Vmdbk

__all__ = ["FUNCTIONS", "Vmcf"]

FUNCTIONS = ("send", "receive", "reply", "smsg", "smsg_receive")


class Vmcf:
    """The facility: mailboxes per receiving user, function counts, and the paths' cost."""

    def __init__(
        self,
        env: simpy.Environment,
        processors: Processors,
        family: CpuFamily | None,
        master_bound: bool,
    ) -> None:
        self.env = env
        self.processors = processors
        self.family = family
        self.master_bound = master_bound  # VMCF runs only on the master (VM/ESA 2.1.0)
        self.functions = 0  # VMCF functions done (SEND, RECEIVE, REPLY)
        self.smsgs = 0  # SMSG commands done
        self.users: set[str] = set()  # users that use VMCF
        self._boxes: dict[str, simpy.Store] = {}

    def mailbox(self, userid: str) -> simpy.Store:
        """The messages pending for *userid* (each an external interrupt for it)."""
        box = self._boxes.get(userid)
        if box is None:
            box = self._boxes[userid] = simpy.Store(self.env)
        return box

    def _path(self, function: str) -> tuple[float, bool]:
        """CP's time for *function* (seconds) and whether only the master may run it."""
        fam = self.family
        assert fam is not None
        if function == "smsg":
            self.smsgs += 1
            return (fam.smsg_us + fam.vmcf_us) / 1e6, True  # the command, then VMCF delivery
        self.functions += 1
        # VMCF that results from an SMSG stays serialised with it, on the master
        return fam.vmcf_us / 1e6, self.master_bound or function == "smsg_receive"

    def dispatch(
        self, vm: Vmdbk, steps: list[tuple[float, str]], interrupted: bool
    ) -> Generator[Any, Any, Any]:
        """One dispatch of *vm* until it waits: per step, guest time then a function.

        *interrupted*: the dispatch starts with CP reflecting an external interrupt.
        Guest time and functions that may run anywhere are one burst; a function
        for the master ends that burst with a task switch to the master, where
        the rest of the dispatch stays.
        """
        procs = self.processors
        virtual = 0.0
        cp = self.family.ext_int_us / 1e6 if interrupted and self.family else 0.0
        for guest_s, function in steps:
            virtual += guest_s
            path, master = self._path(function)
            if not master:
                cp += path
            elif procs.staying(vm):  # already on the master: it goes on there
                yield procs.run(vm, virtual, cp + path, master=True)
                virtual = cp = 0.0
            else:  # the guest's work where it is, then a task switch to the master
                yield procs.run(vm, virtual, cp, handoff=True)
                yield procs.run(vm, 0.0, path, master=True)
                virtual = cp = 0.0
        if virtual or cp:
            yield procs.run(vm, virtual, cp)
