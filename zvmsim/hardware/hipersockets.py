"""HiperSockets: an internal LAN between the partitions of one CEC (CHPID type IQD).

There is no adapter and no wire. A send is a *synchronous* memory-to-memory
copy done by firmware on the processors of both partitions taking part: the
sender's PU issues the send and stays busy until the data is in the
receiver's buffers, and the two PUs must meet — the receiving partition's
logical PU has to be dispatched by PR/SM at the time. In a CEC with cycles
to spare that costs microseconds; when the receiver's pool is
oversubscribed, the sender waits until PR/SM dispatches the receiver
(:meth:`~zvmsim.hardware.prsm.Prsm.dispatch_wait`), and every message pays.

A message longer than the MTU (the frame size less 8 KB) takes several
frames. The counters (messages and bytes sent and received by the z/VM
partition) are what CP Monitor reports per IQD CHPID (FCX231 HIPSOCK).
"""

from __future__ import annotations

import random

from ..calibration import HiperSocketsModel
from .channels import Chpid
from .prsm import Prsm

__all__ = ["HiperSockets"]


class HiperSockets:
    """One IQD CHPID and the z/VM partition's traffic over it."""

    __slots__ = (
        "chpid",
        "frame_kb",
        "mtu",
        "_siga_s",
        "_copy_s_per_byte",
        "msgs_out",
        "msgs_in",
        "bytes_out",
        "bytes_in",
    )

    def __init__(self, chpid: Chpid, model: HiperSocketsModel) -> None:
        self.chpid = chpid
        self.frame_kb = model.frame_kb
        self.mtu = max(1, (model.frame_kb - 8) * 1024)
        self._siga_s = model.siga_us / 1e6
        self._copy_s_per_byte = 1.0 / chpid.bytes_per_s
        self.msgs_out = 0  # frames the z/VM partition sent
        self.msgs_in = 0  # frames it received
        self.bytes_out = 0
        self.bytes_in = 0

    def frames(self, nbytes: int) -> int:
        """Frames needed for a message of *nbytes*: one per MTU, at least one."""
        return max(1, -(-nbytes // self.mtu))

    def send(
        self,
        prsm: Prsm,
        receiver: tuple[str, str],
        nbytes: int,
        outbound: bool,
        rnd: random.Random,
    ) -> float:
        """Move *nbytes* to partition ``receiver = (name, PU type)``; the sender's busy time.

        *outbound*: the z/VM partition sends (else it receives). The time is
        the firmware's per-frame work and copy, plus the wait for the
        receiving logical PU to be dispatched (drawn from *rnd*).
        """
        frames = self.frames(nbytes)
        if outbound:
            self.msgs_out += frames
            self.bytes_out += nbytes
            self.chpid.count(0, nbytes, frames)
        else:
            self.msgs_in += frames
            self.bytes_in += nbytes
            self.chpid.count(nbytes, 0, frames)
        wait = prsm.dispatch_wait(receiver[0], receiver[1], rnd)
        return frames * self._siga_s + nbytes * self._copy_s_per_byte + wait
