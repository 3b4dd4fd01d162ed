"""The collector's channel and network part: busy bands, D0 R20, D6 R21 and D6 R32 records.

At every high-frequency sample each CHPID's busy share since the previous
sample is filed in one of ten bands (0-10 %, 11-20 %, ... 91-100 %, by the
rounded percentage), which is what FCX161's busy distribution counts. Every
sample set carries one channel measurement record per CHPID and one
VSWITCH record per virtual switch, with cumulative counters, and one
HiperSockets record per IQD CHPID.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .records import MRIODHSK, MRIODVSW, MRSYTEPM, Record

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["ChannelSampler", "band"]

BANDS = 10


def band(pct: float) -> int:
    """The busy band of *pct*: 0 for 0-10 %, 1 for 11-20 %, ... 9 for 91-100 %."""
    whole = round(pct)
    return 0 if whole <= 10 else min(BANDS - 1, (whole - 1) // 10)


class ChannelSampler:
    """High-frequency busy bands per CHPID, and the channel and VSWITCH sample records."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self._last: dict[str, tuple[float, float]] = {}  # chpid -> (time, busy seconds)
        self._cur: dict[str, float] = {c: 0.0 for c in machine.chpids}
        self._hf: dict[str, list[int]] = {c: [0] * (BANDS + 1) for c in machine.chpids}

    def start(self) -> None:
        """Monitor start: busy time is measured from now on."""
        now = self.machine.env.now
        self._last = {c: (now, chp.work_s()) for c, chp in self.machine.chpids.items()}

    def hf_sample(self) -> None:
        """File each channel's busy share since the previous sample in its band."""
        now = self.machine.env.now
        for c, chp in self.machine.chpids.items():
            then, busy_then = self._last[c]
            busy = chp.work_s()
            self._last[c] = (now, busy)
            if now <= then:
                continue
            pct = min(100.0, max(0.0, 100.0 * (busy - busy_then) / (now - then)))
            self._cur[c] = pct
            hf = self._hf[c]
            hf[0] += 1
            hf[1 + band(pct)] += 1

    def records(self, tod: int) -> list[Record]:
        """One D0 R20 record per CHPID, D6 R21 per VSWITCH, D6 R32 per IQD CHPID."""
        m = self.machine
        out: list[Record] = []
        shared = {c.chpid: c.shared for c in m.config.channels.values()}
        for c, chp in m.chpids.items():
            hf = self._hf[c]
            bands = {f"hf_band{i}": hf[1 + i] for i in range(BANDS)}
            out.append(
                MRSYTEPM(
                    tod=tod,
                    chpid=c,
                    chpid_type=chp.kind,
                    shared=int(shared.get(c, True)),
                    data_rate_kb_s=int(round(chp.bytes_per_s / 1000.0)),
                    cur_pct=int(round(self._cur[c])),
                    busy_us=int(round(chp.work_s() * 1e6)),
                    ios=chp.ios,
                    read_bytes=chp.read_bytes,
                    write_bytes=chp.write_bytes,
                    packets=chp.packets,
                    hf_samples=hf[0],
                    **bands,
                )
            )
        for vs in m.vswitches.values():
            out.append(
                MRIODVSW(
                    tod=tod,
                    name=vs.name,
                    rdev=vs.rdev,
                    controller=vs.controller,
                    out_bytes=vs.out_bytes,
                    out_packets=vs.out_packets,
                    out_discards=vs.out_discards,
                    in_bytes=vs.in_bytes,
                    in_packets=vs.in_packets,
                    in_discards=vs.in_discards,
                )
            )
        for c, hs in m.hipersockets.items():
            out.append(
                MRIODHSK(
                    tod=tod,
                    chpid=c,
                    frame_kb=hs.frame_kb,
                    msgs_out=hs.msgs_out,
                    msgs_in=hs.msgs_in,
                    bytes_out=hs.bytes_out,
                    bytes_in=hs.bytes_in,
                )
            )
        return out
