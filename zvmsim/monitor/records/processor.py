"""Domain 5 (Processor): sample records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import IbmField, Record, char

__all__ = ["MRPRCMST", "MRPRCPRP"]


@dataclass(frozen=True)
class CpuAddress(IbmField):
    """A processor address we keep as two hex digits (``0A``), as IBM's unsigned halfword."""

    def pack(self, value: Any) -> bytes:
        try:
            return int(str(value), 16).to_bytes(2, "big")
        except (ValueError, OverflowError):  # not a number: our APPLDATA carries it
            return bytes(2)

    def unpack(self, raw: bytes) -> Any:
        return f"{int.from_bytes(raw, 'big'):02X}"

    def exact(self, value: Any, raw: bytes) -> bool:
        return self.unpack(raw) == value


@dataclass(frozen=True, slots=True)
class MRPRCPRP(Record):
    """D5 R3 — one logical processor: its PU type, elapsed and suspended time (us).

    IBM's record (z/VM 5.3, 384 bytes) keeps the processor address
    (PRCPRP_PFXCPUAD) and dispatcher counts but no processor times: CP keeps
    busy, emulation and system time in D0 R2 (MRSYTPRP), and so do we. The PU
    type, the elapsed time and PR/SM's suspension travel in our APPLDATA.
    """

    DOMAIN = 5
    NUMBER = 3
    KEY = "cpu"
    IBM = "MRPRCPRP"
    IBM_LENGTH = 384
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrprcprp.html"
    tod: int
    cpu: str = char(4, ibm=CpuAddress("PRCPRP_PFXCPUAD", 20, 2, "cpuad"))
    pu_type: str = char(4)
    elapsed_us: int = 0
    susp_us: int = 0  # ready but not dispatched by PR/SM


@dataclass(frozen=True, slots=True)
class MRPRCMST(Record):
    """D5 R11 (ours) — the master processor, its master-only PLDV, and VMCF.

    Which processor is the master; how many users CP found waiting in the
    master-only PLDV and in the other processors' dispatch vectors, summed
    over high-frequency samples (VM/ESA 2.2.0 started counting the master-only
    PLDV apart); the bursts the master took from its PLDV and their summed
    wait there; VMDBKs moved to the master, dispatches on another processor
    than the user's last (cache refills) and the processor time both cost;
    VMCF functions (SEND, RECEIVE, REPLY) and SMSG commands done.
    """

    DOMAIN = 5
    NUMBER = 11
    KEY = "master"
    tod: int
    master: str = char(4)
    hf_samples: int = 0
    hf_master_pldv: int = 0
    hf_pldv: int = 0
    master_runs: int = 0
    master_wait_us: int = 0
    moves: int = 0
    migrations: int = 0
    switch_us: int = 0
    refill_us: int = 0
    vmcf: int = 0
    smsg: int = 0
