"""Domain 1 (Monitor): configuration and control records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char, gauge

SYSTMID_AT = 88  # where MRMTRSYS keeps the system identifier (MTRSYS_SYSTMID)

__all__ = ["MRMTRDEV", "MRMTREND", "MRMTREPR", "MRMTRSCH", "MRMTRSPR", "MRMTRSYS", "MRMTRUSR"]


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
    tod: int
    rdev: str = char(4)
    devtype: str = char(8)
    volser: str = char(6)
    base: str = char(4)
    control_unit: str = char(16)  # the calibration entry naming the controller
    chpids: str = char(32)
    usage: str = char(8)  # PAGE for a CP-owned paging volume, blank for user volumes
    links: int = gauge()
    subchannel: int = gauge()  # the subchannel number the channel subsystem gave the RDEV
    cu_model: str = char(8)  # control unit type-model: 2105-E8


@dataclass(frozen=True, slots=True)
class MRMTRSPR(Record):
    """D1 R9 — sample profile: interval length and high-frequency sampling rate."""

    DOMAIN = 1
    NUMBER = 9
    tod: int
    interval_ms: int = gauge()
    hf_rate_cs: int = gauge()  # hundredths of a second, as CP keeps it
    sample_domains: int = gauge()  # domain bit vector (see domain_mask)


@dataclass(frozen=True, slots=True)
class MRMTREPR(Record):
    """D1 R1 — event profile: which domains are enabled for event records."""

    DOMAIN = 1
    NUMBER = 1
    tod: int
    event_domains: int = gauge()  # domain bit vector (see domain_mask)


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
    """D1 R16 — scheduler settings: SET SRM STORBUF, LDUBUF, DSPBUF, time slices."""

    DOMAIN = 1
    NUMBER = 16
    tod: int
    storbuf1: int = gauge()
    storbuf2: int = gauge()
    storbuf3: int = gauge()
    ldubuf1: int = gauge()
    ldubuf2: int = gauge()
    ldubuf3: int = gauge()
    dspbuf1: int = gauge()
    dspbuf2: int = gauge()
    dspbuf3: int = gauge()
    ets_q1_us: int = gauge()
    ets_q2_us: int = gauge()
    ets_q3_us: int = gauge()
    loading_faults: int = gauge()  # page faults per dispatch slice that make a loading user
    loading_capacity: int = gauge()  # paging exposures LDUBUF is a share of
    limithard_consumption: int = gauge()  # SET SRM LIMITHARD: 1 CONSUMPTION, 0 DEADLINE
