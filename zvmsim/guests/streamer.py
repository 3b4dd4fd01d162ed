"""A Linux guest streaming data to a partner over TCP: seed 001's AWM benchmark.

Each of ``connections`` TCP connections answers a tiny request with
``request_mb`` megabytes of data, sent a window (``window_kb``) at a time:
Linux's TCP/IP stack cuts the window into packets of one MSS (the MTU less
the IP and TCP headers) and spends CPU on each packet and each byte
(:class:`~zvmsim.calibration.LinuxStackModel`); the packets go out either
through a *dedicated* OSA device (``path = "osa"``: the guest drives the
adapter's queues itself) or through a VSWITCH (``path = "vswitch"``: CP
moves every packet, at a cost per packet charged to the guest, and the
controller handles the uplink). The adapter moves the frames at its data
rate, with a small time per frame; one latency later the data is at the
partner, whose acknowledgement comes back one latency after that and opens
the window again.

A connection's packets are handled on one virtual CPU at a time (Linux
keeps a connection's work on the processor that takes its interrupts), so
one connection can use one processor, and many connections spread over the
guest's virtual CPUs. Whichever stage runs out first — the CPUs, CP's work
for a VSWITCH, the adapter, or one connection's window and round trip —
sets the throughput, and nothing else does.

The application counts a megabyte sent as its unit of work: TXN's ETR is
megabytes of application data per second (headers not included; FCX240 and
FCX215, which count what goes on the wire, show more).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import simpy

from ..cp.vmdbk import TIW
from ..errors import ZvmsimError
from .base import Workload

__all__ = ["LinuxStreamer"]

MB = 1_000_000
PATHS = ("osa", "vswitch")


class LinuxStreamer(Workload):
    """A Linux guest sending streams of data over dedicated OSA or a VSWITCH."""

    APPLDATA = True
    PARAMS = {
        "workload": "AWM",
        "connections": 10,
        "request_mb": 20.0,
        "window_kb": 512.0,
        "mtu": 1500,
        "path": "osa",
        "osa_chpid": "",
        "vswitch": "",
        "virtual_mb": 2048.0,
    }

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        m, p, who = self.machine, self.p, self.vm.userid
        stack = m.config.calibration.linux_stack
        if p["path"] not in PATHS:
            raise ZvmsimError(f"user {who}: path must be osa or vswitch, not '{p['path']}'")
        if not 1 <= p["connections"] <= 1000 or p["request_mb"] <= 0 or p["window_kb"] <= 0:
            raise ZvmsimError(f"user {who}: needs 1 to 1000 connections and positive sizes")
        if not stack.header_bytes < p["mtu"] <= 9000:
            raise ZvmsimError(f"user {who}: mtu must be {stack.header_bytes + 1} to 9000")
        self.switch = None
        if p["path"] == "vswitch":
            self.switch = m.vswitches.get(p["vswitch"])
            if self.switch is None:
                raise ZvmsimError(f"user {who}: no VSWITCH '{p['vswitch']}'")
            if self.switch.mtu != p["mtu"]:
                raise ZvmsimError(
                    f"user {who}: its MTU {p['mtu']} differs from VSWITCH "
                    f"{self.switch.name}'s {self.switch.mtu}"
                )
            self.osa = self.switch.osa
        else:
            self.osa = m.chpids.get(p["osa_chpid"])
            if self.osa is None or not self.osa.kind.startswith("OSD"):
                raise ZvmsimError(f"user {who}: no OSA CHPID '{p['osa_chpid']}'")
        speed = m.config.calibration.channels[self.osa.kind]
        self._latency_s = speed.latency_us / 1e6
        self._frame_s = speed.packet_us / 1e6
        self._byte_s = 1.0 / (speed.data_rate_mb_s * 1e6)
        self._packet_cpu_s = stack.us_per_packet / 1e6
        self._byte_cpu_s = stack.ns_per_byte / 1e9
        self._mss = p["mtu"] - stack.header_bytes
        self._overhead = stack.header_bytes + stack.frame_bytes  # wire bytes per packet
        self._window = int(p["window_kb"] * 1024)
        self._adapter_free = 0.0  # when the adapter has sent what it was given
        self.sent = 0  # application bytes the partner has acknowledged (whole megabytes)
        self._counted = 0
        self._busy_s = 0.0  # each megabyte's time on its connection, summed

    def appldata(self) -> tuple[str, int, float] | None:
        """(workload, megabytes of application data sent, the time each took on its connection).

        By Little's law ETR x response time = connections busy.
        """
        return self.p["workload"], self._counted, self._busy_s

    def run(self) -> Generator:
        m, vm = self.machine, self.vm
        m.add_to_dispatch_list(vm)
        lanes = [simpy.Resource(m.env, capacity=1) for _ in range(max(1, vm.virtual_cpus))]
        for k in range(self.p["connections"]):
            m.env.process(self._connection(lanes[k % len(lanes)]))
        yield m.env.timeout(0)

    def _connection(self, lane: simpy.Resource) -> Generator:
        m, vm, env = self.machine, self.vm, self.machine.env
        request = int(self.p["request_mb"] * MB)
        acked, mark = 0, env.now  # this connection's bytes acknowledged; its last megabyte's end
        while True:
            left = request
            while left > 0:
                size = min(self._window, left)
                left -= size
                packets = -(-size // self._mss)
                wire = size + packets * self._overhead
                with lane.request() as turn:  # the virtual CPU this connection's work runs on
                    yield turn
                    cpu = packets * self._packet_cpu_s + size * self._byte_cpu_s
                    yield m.processors.run(vm, cpu, 0.0)
                if self.switch is not None:  # CP moves each packet to the uplink
                    self.switch.transfer_packets(vm, wire, packets, 0, 0)
                else:  # the guest's own QDIO queues on the adapter
                    self.osa.count(0, wire, packets)
                now = env.now
                self._adapter_free = max(now, self._adapter_free)
                self._adapter_free += packets * self._frame_s + wire * self._byte_s
                vm.state = TIW  # waiting for the adapter and the partner's acknowledgement
                yield env.timeout(self._adapter_free - now + 2 * self._latency_s)
                acked += size
                while acked >= MB:  # a megabyte of this connection's data is through
                    acked -= MB
                    self.sent += MB
                    self._counted += 1
                    self._busy_s += env.now - mark
                    mark = env.now
