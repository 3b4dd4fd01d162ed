"""A VSWITCH: CP's virtual switch, uplinked to the LAN through a real OSA.

Guests hand it traffic with :meth:`VSwitch.transfer` (bytes out to the LAN,
bytes in from it). The switch cuts each direction into packets of at most
one MTU, counts bytes and packets as CP's VSWITCH record does, charges the
guest CP's time per packet (at its next dispatch, like any CP work done on
its behalf), adds the bytes and frames to its uplink OSA CHPID, and queues
the packets for its controller virtual machine (DTCVSWn) with a QDIO signal
that wakes it; it works them off in CPU bursts of its own (see
:mod:`zvmsim.guests.network`).

A request and its response over TCP (:meth:`VSwitch.exchange`) also carry
the acknowledgements. TCP acknowledges at least every second full-sized
segment at once and delays the acknowledgement of the rest (RFC 1122
4.2.3.2, RFC 5681 4.2): the far end answers a response of n segments with
about n/2 small ACK packets of headers only, while the guest's own ACK of a
request rides on its response (unless the request was long enough to need
ACKs before it). So a server sending bulky responses receives many small
packets: more packets in than the bytes in would suggest.

Nothing here waits: a transfer is bookkeeping at the moment it is made.
Discards are counted but never happen yet (no buffer limit is modelled).
"""

from __future__ import annotations

from typing import Any

from ..calibration import VSwitchModel
from ..clock import after
from ..errors import ZvmsimError
from ..hardware.channels import Chpid
from .vmdbk import Vmdbk

__all__ = ["VSwitch"]


class VSwitch:
    """One virtual switch and its counters."""

    __slots__ = (
        "name",
        "rdev",
        "controller",
        "osa",
        "mtu",
        "_cp_s",
        "controller_s_per_packet",
        "out_bytes",
        "out_packets",
        "out_discards",
        "in_bytes",
        "in_packets",
        "in_discards",
        "controller_vm",
        "round_trip_s",
        "_plans",
    )

    def __init__(
        self, name: str, rdev: str, controller: str, osa: Chpid, model: VSwitchModel
    ) -> None:
        if model.mtu_bytes < 1:
            raise ZvmsimError(f"calibration: VSWITCH MTU must be at least 1, not {model.mtu_bytes}")
        self.name = name
        self.rdev = rdev  # the uplink OSA's device number
        self.controller = controller  # userid of the controller virtual machine
        self.osa = osa
        self.mtu = model.mtu_bytes
        self._cp_s = model.cp_us_per_packet / 1e6
        self.controller_s_per_packet = model.controller_us_per_packet / 1e6
        self.out_bytes = 0
        self.out_packets = 0
        self.out_discards = 0
        self.in_bytes = 0
        self.in_packets = 0
        self.in_discards = 0
        # the controller virtual machine (guests.network.VSwitchController) that QDIO
        # signals wake, once it waits for them: a signal adds its packets' time to its
        # ``work_s`` and starts a ``burst`` unless it is ``working``; a signal coming
        # later is a timeout whose value is that time, calling its ``arrive``
        self.controller_vm: Any = None
        self.round_trip_s = 0.0  # out through the uplink and an answer back in
        # exchange's packets and signals for each (out, in, ack bytes, received) it was asked
        self._plans: dict[tuple[int, int, int, bool], tuple[int, int, int, int, int, int]] = {}

    def packets(self, nbytes: int) -> int:
        """Packets needed to carry *nbytes*: one per MTU, the last one partly filled."""
        return -(-nbytes // self.mtu)

    def transfer(self, user: Vmdbk, out_bytes: int, in_bytes: int) -> None:
        """*user* sends *out_bytes* to the LAN and receives *in_bytes* from it, now."""
        if out_bytes < 0 or in_bytes < 0:
            raise ZvmsimError(
                f"VSWITCH {self.name}: user {user.userid} cannot move a negative number of bytes"
            )
        self.transfer_packets(
            user, out_bytes, self.packets(out_bytes), in_bytes, self.packets(in_bytes)
        )

    def acks(self, nbytes: int) -> tuple[int, int]:
        """ACKs a receiver sends for *nbytes* of data: (sent at once, delayed ones).

        One at once for every second full-sized segment; one delayed for what is
        left unacknowledged at the end (an odd full segment, or a part-filled one).
        """
        full, part = divmod(nbytes, self.mtu)
        return full // 2, 1 if (full % 2 or part) else 0

    def receive(self, user: Vmdbk, in_bytes: int) -> None:
        """A request of *in_bytes* for *user* comes in from the LAN now (its answer,
        later, is :meth:`exchange` with *received*)."""
        if in_bytes < 0:
            raise ZvmsimError(
                f"VSWITCH {self.name}: user {user.userid} cannot move a negative number of bytes"
            )
        self.transfer_packets(user, 0, 0, in_bytes, -(-in_bytes // self.mtu))  # its packets

    def exchange(
        self, user: Vmdbk, out_bytes: int, in_bytes: int, ack_bytes: int, received: bool = False
    ) -> None:
        """*user* answers a request of *in_bytes* with *out_bytes* over TCP, now.

        Data segments as :meth:`transfer`, plus the ACKs of *ack_bytes* each
        (headers only): the far end's for the response, and the guest's own
        ones for the request that its response does not carry. *received*: the
        request's own segments came in before (:meth:`receive`).
        """
        plan = self._plans.get((out_bytes, in_bytes, ack_bytes, received))
        if plan is None:  # a guest's exchanges are all alike: worked out once
            if out_bytes < 0 or in_bytes < 0:
                who = f"VSWITCH {self.name}: user {user.userid}"
                raise ZvmsimError(f"{who} cannot move a negative number of bytes")
            plan = self._plan(out_bytes, in_bytes, ack_bytes, received)
            self._plans[out_bytes, in_bytes, ack_bytes, received] = plan
        self.transfer_packets(user, *plan)

    def _plan(
        self, out_bytes: int, in_bytes: int, ack_bytes: int, received: bool
    ) -> tuple[int, int, int, int, int, int]:
        """:meth:`exchange`'s wire bytes, packets and signals: (bytes out, packets out,
        bytes in, packets in, signals, packets in a round trip later)."""
        now_in, delayed_in = self.acks(out_bytes) if out_bytes else (0, 0)
        now_out, delayed_out = self.acks(in_bytes) if in_bytes else (0, 0)
        acks_in = now_in + delayed_in
        acks_out = now_out + (0 if out_bytes else delayed_out)  # the rest rides the response
        data_in = 0 if received else in_bytes
        out_p, in_p = self.packets(out_bytes) + acks_out, self.packets(data_in)
        # the request comes in, the response goes out, its ACKs come in a round trip later
        signals = (out_p > 0) + (in_p > 0) + (acks_in > 0)
        return (
            out_bytes + acks_out * ack_bytes,
            out_p,
            data_in + acks_in * ack_bytes,
            in_p + acks_in,
            signals,
            acks_in,
        )

    def transfer_packets(
        self,
        user: Vmdbk,
        out_bytes: int,
        out_p: int,
        in_bytes: int,
        in_p: int,
        signals: int | None = None,
        later: int = 0,
    ) -> None:
        """As :meth:`transfer`, for a guest that cut its data into packets itself.

        The bytes are what goes on the wire (the guest's headers included).
        *signals*: the QDIO signals the uplink OSA handles for it (default: one
        SIGA for the frames out, one interrupt for the frames in). *later*: the
        last packets in, which come a round trip later (the far end's ACKs).
        """
        self.out_bytes += out_bytes
        self.out_packets += out_p
        self.in_bytes += in_bytes
        self.in_packets += in_p
        user.pending_cp_s += (out_p + in_p) * self._cp_s
        if signals is None:  # one SIGA queues the frames out, one interrupt the frames in
            signals = (out_p > 0) + (in_p > 0)
        osa = self.osa  # the uplink's counters (Chpid.count, inline)
        osa.read_bytes += in_bytes
        osa.write_bytes += out_bytes
        osa.packets += out_p + in_p
        osa.signals += signals
        controller = self.controller_vm
        if controller is None:  # no controller runs (none is logged on)
            return
        per_packet_s = self.controller_s_per_packet
        # a signal wakes it, unless it is working (then its next look takes the packets)
        if out_p + in_p - later:
            controller.work_s += (out_p + in_p - later) * per_packet_s
            if not controller.working:
                controller.burst(None)
        if later:  # the last *later* packets in come a round trip later
            if self.round_trip_s > 0:
                event = after(controller.env, self.round_trip_s, [controller.arrive])
                event._value = later * per_packet_s
            else:  # no round trip: a signal of their own, now
                controller.work_s += later * per_packet_s
                if not controller.working:
                    controller.burst(None)
