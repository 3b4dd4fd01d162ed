"""Domain 1 (Monitor): configuration and control records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import IbmField, Record, at, char, gauge

__all__ = ["MRMTRDEV", "MRMTREND", "MRMTREPR", "MRMTRSCH", "MRMTRSPR", "MRMTRSYS", "MRMTRUSR"]

SYSTMID_AT = 88  # where MRMTRSYS keeps the system identifier (MTRSYS_SYSTMID)
SID_BASE = 0x0001_0000  # a subsystem-identification word: X'0001', then the subchannel number


@dataclass(frozen=True)
class DomainByte(IbmField):
    """IBM's 1-byte domain mask (domain *n* is bit *n* from the left) from our 2-byte one.

    Domains 0-7 fit; a mask with a higher domain is not exact, so our
    APPLDATA carries the whole mask.
    """

    def pack(self, value: Any) -> bytes:
        return bytes([(int(value) >> 8) & 0xFF])

    def unpack(self, raw: bytes) -> Any:
        return raw[0] << 8

    def exact(self, value: Any, raw: bytes) -> bool:
        return self.unpack(raw) == value


@dataclass(frozen=True)
class SubchannelId(IbmField):
    """A subchannel number as CP keeps the RDEV's subsystem-identification word (RDEVSID)."""

    def pack(self, value: Any) -> bytes:
        return (SID_BASE | (int(value) & 0xFFFF)).to_bytes(4, "big")

    def unpack(self, raw: bytes) -> Any:
        return int.from_bytes(raw, "big") & 0xFFFF

    def exact(self, value: Any, raw: bytes) -> bool:
        return self.unpack(raw) == value


@dataclass(frozen=True)
class DeviceType(IbmField):
    """The device type number (``3390`` of ``3390-9``) as 2 bytes of packed decimal.

    The model suffix has no place here: a type with one is not exact, so our
    APPLDATA carries it.
    """

    def pack(self, value: Any) -> bytes:
        digits = str(value)[:4]
        number = int(digits, 16) if len(digits) == 4 and digits.isdigit() else 0
        return number.to_bytes(2, "big")

    def unpack(self, raw: bytes) -> Any:
        number = int.from_bytes(raw, "big")
        return f"{number:04X}" if number else ""

    def exact(self, value: Any, raw: bytes) -> bool:
        return self.unpack(raw) == value


@dataclass(frozen=True)
class Chpids(IbmField):
    """Our CHPID list (``20,21``) as IBM's RDEVCHPS: one byte per channel path, 8 paths.

    More than 8 paths, or a CHPID 00 at the end, is not exact (our APPLDATA
    carries the list).
    """

    def pack(self, value: Any) -> bytes:
        try:
            chpids = [int(c, 16) for c in str(value).split(",") if c]
        except ValueError:
            chpids = []
        return bytes(chpids[:8]).ljust(8, b"\0")

    def unpack(self, raw: bytes) -> Any:
        return ",".join(f"{b:02X}" for b in raw.rstrip(b"\0"))

    def exact(self, value: Any, raw: bytes) -> bool:
        return self.unpack(raw) == value


@dataclass(frozen=True, slots=True)
class MRMTRSYS(Record):
    """D1 R4 — system configuration: who and what is being monitored."""

    DOMAIN = 1
    NUMBER = 4
    IBM = "MRMTRSYS"
    IBM_LENGTH = 184
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrsys.html"
    tod: int
    sysid: str = char(8, **at("MTRSYS_SYSTMID", 88, 8, "c"))
    cpu_model: str = char(16)  # type-model, e.g. 9121-742 (ours: IBM splits type and model)
    serial: str = char(8, **at("MTRSYS_SYSMSEQC", 128, 16, "c"))
    zvm_level: str = char(8)
    title: str = char(64)
    processors: int = gauge(**at("MTRSYS_CPUCFGCT", 154, 2))


@dataclass(frozen=True, slots=True)
class MRMTRDEV(Record):
    """D1 R6 — device configuration: one per RDEV (a PAV alias names its base)."""

    DOMAIN = 1
    NUMBER = 6
    KEY = "rdev"
    # IBM's fields up to RDEVSER (offset 52) only: the 5.3 transcription's tail
    # sums to 416 bytes while IBM's 7.3 page gives 320 (docs/monwrite-format.md)
    IBM = "MRMTRDEV"
    IBM_LENGTH = 320
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrdev.html"
    tod: int
    rdev: str = char(4, **at("MTRDEV_RDEVDEV", 26, 2, "hex"))
    devtype: str = char(8, ibm=DeviceType("MTRDEV_RDEVDVID", 22, 2, "dvid"))
    volser: str = char(6, **at("MTRDEV_RDEVSER", 46, 6, "c"))
    base: str = char(4)
    control_unit: str = char(16)  # the calibration entry naming the controller
    chpids: str = char(32, ibm=Chpids("MTRDEV_RDEVCHPS", 32, 8, "chpids"))
    usage: str = char(8)  # PAGE for a CP-owned paging volume, blank for user volumes
    links: int = gauge()
    # the subchannel number the channel subsystem gave the RDEV
    subchannel: int = gauge(ibm=SubchannelId("MTRDEV_RDEVSID", 28, 4, "sid"))
    cu_model: str = char(8)  # control unit type-model: 2105-E8


@dataclass(frozen=True, slots=True)
class MRMTRSPR(Record):
    """D1 R9 — sample profile: interval length and high-frequency sampling rate."""

    DOMAIN = 1
    NUMBER = 9
    IBM = "MRMTRSPR"
    IBM_LENGTH = 36
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrspr.html"
    tod: int
    # MTRSPR_INTERVAL and MTRSPR_HFRATE (20, 24) stay zero: their units are not
    # in the layouts we could read, so our values travel in our APPLDATA
    interval_ms: int = gauge()
    hf_rate_cs: int = gauge()  # hundredths of a second
    # domain bit vector (see domain_mask); IBM's byte holds domains 0-7
    sample_domains: int = gauge(ibm=DomainByte("MTRSPR_SDOMAINS", 28, 1, "domains"))


@dataclass(frozen=True, slots=True)
class MRMTREPR(Record):
    """D1 R1 — event profile: which domains are enabled for event records."""

    DOMAIN = 1
    NUMBER = 1
    IBM = "MRMTREPR"
    IBM_LENGTH = 24
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrepr.html"
    tod: int
    # domain bit vector (see domain_mask); IBM's byte holds domains 0-7
    event_domains: int = gauge(ibm=DomainByte("MTREPR_EDOMAINS", 20, 1, "domains"))


@dataclass(frozen=True, slots=True)
class MRMTREND(Record):
    """D1 R11 — end of a sample set: closes one monitor interval."""

    DOMAIN = 1
    NUMBER = 11
    IBM = "MRMTREND"
    IBM_LENGTH = 20
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrend.html"
    tod: int
    interval: int = gauge()


@dataclass(frozen=True, slots=True)
class MRMTRUSR(Record):
    """D1 R15 — a logged-on user (configuration): its directory settings."""

    DOMAIN = 1
    NUMBER = 15
    KEY = "userid"
    IBM = "MRMTRUSR"
    IBM_LENGTH = 124
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrusr.html"
    tod: int
    userid: str = char(8, **at("MTRUSR_VMDUSER", 20, 8, "c"))
    virtual_cpus: int = gauge(**at("MTRUSR_VMDCPUCT", 31, 1))
    storage_pages: int = gauge()  # defined virtual storage (0: not modelled)
    reserved: int = gauge()  # SET RESERVED pages
    # SHARE RELATIVE n (0 when the share is absolute)
    share_relative: int = gauge(**at("MTRUSR_VMDRELSH", 36, 4))
    share_absolute_tenths: int = gauge()  # SHARE ABSOLUTE n% in tenths of a percent
    quickdsp: int = gauge()  # 1 with OPTION QUICKDSP
    nomdcfs: int = gauge()  # 1 with OPTION NOMDCFS (exempt from MDC fair share)
    limit_max_tenths: int = gauge()  # SHARE ... m% LIMITHARD: the maximum, tenths of a % (0: none)


@dataclass(frozen=True, slots=True)
class MRMTRSCH(Record):
    """D1 R16 — scheduler settings: SET SRM STORBUF, LDUBUF, DSPBUF, time slices.

    At IBM's offsets: the DSPBUF user counts (MTRSCH_SRML1DSP ...) and the
    loading capacity (MTRSCH_SRMLDGCP). The STORBUF and LDUBUF percentages
    stay in our APPLDATA (the form CP keeps them in, MTRSCH_SRMP1WSS and
    MTRSCH_SRMP1LDG, is not in the layouts we could read), as do our time
    slices and LIMITHARD mode.
    """

    DOMAIN = 1
    NUMBER = 16
    IBM = "MRMTRSCH"
    IBM_LENGTH = 96
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrmtrsch.html"
    tod: int
    storbuf1: int = gauge()
    storbuf2: int = gauge()
    storbuf3: int = gauge()
    ldubuf1: int = gauge()
    ldubuf2: int = gauge()
    ldubuf3: int = gauge()
    dspbuf1: int = gauge(**at("MTRSCH_SRML1DSP", 76, 4))
    dspbuf2: int = gauge(**at("MTRSCH_SRML2DSP", 80, 4))
    dspbuf3: int = gauge(**at("MTRSCH_SRML3DSP", 84, 4))
    ets_q1_us: int = gauge()
    ets_q2_us: int = gauge()
    ets_q3_us: int = gauge()
    loading_faults: int = gauge()  # page faults per dispatch slice that make a loading user
    # paging exposures LDUBUF is a share of
    loading_capacity: int = gauge(**at("MTRSCH_SRMLDGCP", 56, 4))
    limithard_consumption: int = gauge()  # SET SRM LIMITHARD: 1 CONSUMPTION, 0 DEADLINE
