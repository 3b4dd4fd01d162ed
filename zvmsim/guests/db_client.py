"""A Linux application whose transactions call a z/OS database in another partition.

Each transaction does what a :class:`~zvmsim.guests.linux_app.LinuxApp`
transaction does (CPU, its own disk I/O), then ``db_calls`` calls to the
database server (:mod:`zvmsim.zos.dbserver`): a request of
``request_bytes`` goes over, the server works on it, a reply of
``reply_bytes`` comes back and Linux spends ``call_cpu_ms`` on it. The
transaction's response time (arrival to last reply handled) is what the
application reports (TXN).

How a message travels depends on ``transport``:

* ``hipersockets`` — the IQD CHPID ``iqd_chpid``. The send is synchronous:
  the sender's processor is busy until the receiving partition's logical PU
  takes the data (:mod:`zvmsim.hardware.hipersockets`). Going over, that is
  the Linux guest's virtual CPU, waiting for a z/OS logical CP to be
  dispatched; coming back, the z/OS CP, waiting for a z/VM logical IFL.
* ``osa`` — the guest's VSWITCH and its uplink OSA. The adapter has
  processors of its own: the guest hands the frames to CP (CP's time per
  packet, charged to the guest) and goes on; the adapter delivers them into
  z/OS storage after its latency, and z/OS picks them up as soon as any of
  its logical CPs is dispatched. The reply comes back the same way.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ..cp.vmdbk import TIW
from ..errors import ZvmsimError
from .linux_app import LinuxApp

__all__ = ["LinuxDbClient"]

TRANSPORTS = ("hipersockets", "osa")


class LinuxDbClient(LinuxApp):
    """A Linux server whose transactions call a database in a z/OS partition."""

    PARAMS = {
        **LinuxApp.PARAMS,
        "db_server": "",
        "transport": "hipersockets",
        "iqd_chpid": "",
        "db_calls": 2,
        "request_bytes": 500,
        "reply_bytes": 700,
        "call_cpu_ms": 0.3,
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        m, p, who = self.machine, self.p, self.vm.userid
        self.server = m.zos_servers.get(p["db_server"])
        if self.server is None:
            raise ZvmsimError(f"user {who}: no z/OS server '{p['db_server']}'")
        if p["transport"] not in TRANSPORTS:
            raise ZvmsimError(f"user {who}: transport must be hipersockets or osa")
        if min(p["db_calls"], p["request_bytes"], p["reply_bytes"]) < 0 or p["call_cpu_ms"] < 0:
            raise ZvmsimError(f"user {who}: database calls, sizes and costs cannot be negative")
        self.iqd = m.hipersockets.get(p["iqd_chpid"])
        if p["transport"] == "hipersockets" and self.iqd is None:
            raise ZvmsimError(f"user {who}: no HiperSockets CHPID '{p['iqd_chpid']}'")
        if p["transport"] == "osa" and self.vswitch is None:
            raise ZvmsimError(f"user {who}: the osa transport needs a vswitch")
        own = m.prsm.own
        self._here = (own.name, own.pu_type)
        self._there = (self.server.partition, "CP")
        self._net = m.streams.stream(f"network:{who}")  # waits for PR/SM, per message
        latency = m.config.calibration.channels["OSD"].latency_us
        self._osa_s = latency / 1e6

    def _transaction(self) -> Generator:
        """The application's own work, then its calls to the database."""
        yield from super()._transaction()
        for _ in range(self.p["db_calls"]):
            yield from self._call()

    def _call(self) -> Generator:
        m, vm, p, server = self.machine, self.vm, self.p, self.server
        assert server is not None
        env = m.env
        if self.iqd is not None and p["transport"] == "hipersockets":
            held = self.iqd.send(m.prsm, self._there, p["request_bytes"], True, self._net)
            yield m.processors.run(vm, held, 0.0)  # Linux's CPU in the synchronous send
            vm.state = TIW  # waiting for the answer
            yield from server.serve()
            held = self.iqd.send(m.prsm, self._here, p["reply_bytes"], False, self._net)
            server.use_cp(held)  # z/OS's CP in the synchronous send back
            yield env.timeout(held)
        else:
            assert self.vswitch is not None
            self.vswitch.transfer(vm, p["request_bytes"], 0)
            pickup = m.prsm.dispatch_wait(*self._there, self._net, any_of=True)
            vm.state = TIW  # waiting for the answer
            yield env.timeout(self._osa_s + pickup)
            yield from server.serve()
            self.vswitch.transfer(vm, 0, p["reply_bytes"])
            yield env.timeout(self._osa_s)
        yield m.processors.run(vm, p["call_cpu_ms"] / 1000.0, 0.0)
