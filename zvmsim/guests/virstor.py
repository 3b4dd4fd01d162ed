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

IBM's Apache workload runs its clients (the Application Workload Modeler,
AWM, imitating web browsers) as Linux guests on the same z/VM, joined to the
servers by a guest LAN or VSWITCH (z/VM performance reports, "Apache
Workload"). An Apache server given a ``client`` (a userid pattern) sends each
request's file, the pages it touched, to one of the matching
:class:`AwmClient` guests (the servers are spread over them in turn): its
Linux stack's time per packet and per byte (data/calibration/network.toml
[linux_stack]) on its own virtual CPU and CP's time per packet
([vswitch] cp_us_per_packet) charged to it; the client spends the same on
receiving the file, plus ``cpu_ms`` of its own work a request. That
processor time is the same on every z/VM release.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, Final

import simpy

from ..cp.spaces import ColdRun
from ..cp.vmdbk import TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload
from .linux import PAGES_PER_MB, _space

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["ApacheServer", "AwmClient", "Virstor"]


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

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
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
        self.client: AwmClient | None = None  # where each reply goes (ApacheServer)
        self.reply_s = (0.0, 0.0)  # the reply's (Linux stack, CP) time on the sender
        self.reply_bytes = 0

    def appldata(self) -> tuple[str, int, float] | None:
        """(workload name, transactions completed, their response times summed)."""
        return self.NAME, self.txns, self.resp_s

    def prepare(self) -> None:
        """The guest has touched ``used_mb`` of its storage since it logged on."""
        space, storage = self.space, self.machine.storage
        left = int(self.p["used_mb"] * PAGES_PER_MB)
        while left > 0:  # a segment's worth at a time, as a guest touches it
            n = min(left, 64 * PAGES_PER_MB)
            storage.first_touch_counted(space, n)  # type: ignore[union-attr]
            left -= n
        space.referenced = min(space.resident, space.wss)
        # its colder pages have been paged out and back since; those it only read
        # are unchanged since then (z/VM 6.3 keeps their copies on DASD)
        cold = space.resident - min(space.wss, space.resident)
        storage.history_clean(space, round(cold * (1.0 - self.p["write_pct"] / 100.0)))  # type: ignore[union-attr]

    def history(self, seconds: float) -> None:
        """Past transactions, without I/O timing: the hot set is touched all the
        time, so at the end of any stretch of the past it was resident (what the
        guests set up before it, :meth:`prepare`, stole from it came back)."""
        storage = self.machine.storage
        assert storage is not None
        storage.history_hot(self.space)

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd, p = self.machine, self.vm, self.rnd, self.p
        storage, cpu, space = m.storage, m.processors, self.space
        dormant = p["dormant"]
        self.connect()
        send_s, send_cp_s = self.reply_s
        yield m.env.timeout(rnd.uniform(0.0, max(p["think_s"], 0.01)))
        m.add_to_dispatch_list(vm)
        write = p["write_pct"] / 100.0
        slice_s = cpu.slice_s
        while True:
            start = m.env.now
            yield from storage.keep_hot(vm, space)  # type: ignore[union-attr]
            touches = p["touches"]
            work = p["cpu_ms"] / 1000.0 * (0.5 + rnd.random())
            per_touch = work / touches if touches else 0.0
            run = ColdRun(rnd, write, per_touch, slice_s)
            busy = yield from self.cold_touches(space, run, touches, 0.0 if touches else work)
            cp_s = p["cp_ms"] / 1000.0
            if self.client is not None:  # the file goes to the client over the LAN
                busy += send_s
                cp_s += send_cp_s
            if busy > 0 or cp_s > 0:
                yield cpu.run(vm, busy, cp_s)
            if self.client is not None:
                self.client.replies.put(self.reply_bytes)
            self.txns += 1
            self.resp_s += m.env.now - start
            think = rnd.expovariate(1.0 / p["think_s"]) if p["think_s"] > 0 else 0.0
            if think > 0:
                yield from self.wait(think, dormant)

    def connect(self) -> None:
        """Find this guest's client, if it has one (ApacheServer)."""


def lan_cost(machine: Any, nbytes: int) -> tuple[float, float]:
    """A Linux guest's (stack, CP) seconds to move *nbytes* over a guest LAN:
    the stack's time per packet and per byte, CP's per packet."""
    cal = machine.config.calibration
    stack, lan = cal.linux_stack, cal.vswitch
    packets = -(-nbytes // (lan.mtu_bytes - stack.header_bytes))
    cpu_s = packets * stack.us_per_packet / 1e6 + nbytes * stack.ns_per_byte / 1e9
    return cpu_s, packets * lan.cp_us_per_packet / 1e6


class ApacheServer(Virstor):
    """A Linux web server serving static pages from a file cache much larger than
    storage: every request touches pages the guest has not used for long."""

    NAME = "APACHE"
    PARAMS = {**Virstor.PARAMS, "dormant": False, "client": ""}

    def connect(self) -> None:
        """The AWM client (userid pattern ``client``) this server's replies go to:
        the servers are spread over the matching clients in turn."""
        pattern = self.p["client"]
        if not pattern:
            return
        m = self.machine
        clients = [w for w in m.workloads if isinstance(w, AwmClient)]
        clients = [w for w in clients if fnmatchcase(w.vm.userid, pattern)]
        if not clients:
            raise ZvmsimError(f"user {self.vm.userid}: no AWM client matches '{pattern}'")
        servers = [w for w in m.workloads if isinstance(w, ApacheServer) and w.p["client"]]
        self.client = clients[servers.index(self) % len(clients)]
        self.reply_bytes = self.p["touches"] * PAGES_BYTES
        self.reply_s = lan_cost(m, self.reply_bytes)


PAGES_BYTES: Final = 4096  # a 4 KB page of the file a request sends


class AwmClient(Virstor):
    """An AWM client guest: receives the Apache servers' replies, one at a time."""

    APPLDATA = False  # the servers report the requests
    NAME = "AWM"
    PARAMS = {**Virstor.PARAMS, "touches": 0, "cpu_ms": 0.5, "dormant": False}

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        self.replies: simpy.Store = simpy.Store(self.machine.env)
        self.received = 0

    def run(self) -> Generator[Any, Any, Any]:
        m, vm = self.machine, self.vm
        storage, cpu, space = m.storage, m.processors, self.space
        own_s = self.p["cpu_ms"] / 1000.0
        m.add_to_dispatch_list(vm)
        while True:
            vm.state = TIW  # idle in the dispatch list, waiting for the LAN
            nbytes = yield self.replies.get()
            yield from storage.keep_hot(vm, space)  # type: ignore[union-attr]
            stack_s, cp_s = lan_cost(m, nbytes)
            yield cpu.run(vm, own_s + stack_s, cp_s)
            self.received += 1
