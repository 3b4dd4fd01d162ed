"""Domain 6 (I/O): sample and configuration records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char, gauge, ibm

__all__ = ["MRIODCAD", "MRIODCST", "MRIODDEV", "MRIODHSK", "MRIODLNK", "MRIODVSW"]


@dataclass(frozen=True, slots=True)
class MRIODDEV(Record):
    """D6 R3 — device activity: measurement-block times, CP queue, HF samples."""

    DOMAIN = 6
    NUMBER = 3
    KEY = "rdev"
    IBM = "MRIODDEV"
    IBM_LENGTH = 260
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrioddev.html"
    tod: int
    rdev: str = char(4, **at("IODDEV_RDEVDEV", 200, 2, "hex"))
    ssch: int = ibm("IODDEV_SCGSSCH", 192, 4)  # start subchannels (the 4-byte count)
    reads: int = 0
    avoided: int = 0
    # channel measurement block times, kept by IBM in 128-microsecond units
    pend_us: int = ibm("IODDEV_SCMFPTIM", 60, 4, "u128")  # function pending
    disc_us: int = ibm("IODDEV_SCMDDTIM", 64, 4, "u128")  # device disconnect
    conn_us: int = ibm("IODDEV_SCMCNTIM", 56, 4, "u128")  # device connect
    cuwt_us: int = ibm("IODDEV_SCMCQTIM", 180, 4, "u128")  # control-unit queuing
    queue_us: int = 0  # queue wait CP timed (Resp - Serv)
    # the queue wait of requests CP queued without timing them (the minidisk
    # cache's own I/Os): zvmsim's, so the queueing laws can be checked; no report reads it
    untimed_us: int = 0
    hf_samples: int = 0
    hf_queued: int = 0
    hf_busy: int = 0


@dataclass(frozen=True, slots=True)
class MRIODCAD(Record):
    """D6 R4 — cache activity: one per volume whose control unit reports its cache.

    The control unit's counts for the volume (base RDEV): reads and read
    hits, writes and DASD-fast-write hits, tracks staged, and the I/Os that
    inhibited cache loading or bypassed the cache.
    """

    DOMAIN = 6
    NUMBER = 4
    KEY = "rdev"
    tod: int
    rdev: str = char(4)
    volser: str = char(6)
    reads: int = 0
    read_hits: int = 0
    writes: int = 0
    dfw_hits: int = 0
    staged: int = 0
    icl: int = 0
    bypass: int = 0


@dataclass(frozen=True, slots=True)
class MRIODVSW(Record):
    """D6 R21 — VSWITCH activity: bytes, packets and discards out to and in from the LAN."""

    DOMAIN = 6
    NUMBER = 21
    KEY = "name"
    tod: int
    name: str = char(8)
    rdev: str = char(4)  # the uplink OSA's device number
    controller: str = char(8)  # userid of the controller virtual machine
    out_bytes: int = 0
    out_packets: int = 0
    out_discards: int = 0
    in_bytes: int = 0
    in_packets: int = 0
    in_discards: int = 0


@dataclass(frozen=True, slots=True)
class MRIODCST(Record):
    """D6 R30 (ours) — cache status of one volume on a cached control unit.

    What ``QUERY DASD DETAILS`` shows: the control unit's type, whether the
    subsystem caches, has NVS and allows cache fast write, and for the device
    whether it is cached, uses DASD fast write and has *pinned* data (then
    its caching is off). Written at MONITOR START with the device
    configuration and again in every sample set, so a change shows; the last
    one describes the device. ``last_seek`` is the cylinder the device's
    drive last moved to (0 when its drives are not simulated).
    """

    DOMAIN = 6
    NUMBER = 30
    KEY = "rdev"
    tod: int
    rdev: str = char(4)
    volser: str = char(6)
    cu_name: str = char(16)  # the control-unit instance
    cu_type: str = char(16)  # its calibrated type
    sub_cache: str = char(1)  # Y/N: the subsystem caches
    sub_nvs: str = char(1)
    sub_cfw: str = char(1)
    sub_pinned: str = char(1)  # Y: some device of the subsystem has pinned data
    dev_cache: str = char(1)  # Y/N: this device is cached
    dev_dfw: str = char(1)
    dev_pinned: str = char(1)
    cache_mb: int = gauge()
    nvs_mb: int = gauge()
    last_seek: int = gauge()


@dataclass(frozen=True, slots=True)
class MRIODLNK(Record):
    """D6 R31 (ours) — one user's link to one minidisk: its extent and virtual I/Os.

    What Perfkit's device details list per minidisk: the extent (first and
    last cylinder), the owner and the linking user with their virtual
    addresses, and the user's virtual I/Os to it (cumulative).
    """

    DOMAIN = 6
    NUMBER = 31
    KEY = "link"
    tod: int
    link: str = char(24)  # "USERID OWNER VADDR": unique per link
    rdev: str = char(4)  # the volume's base RDEV
    userid: str = char(8)
    owner: str = char(8)
    vaddr: str = char(4)
    first_cyl: int = gauge()
    last_cyl: int = gauge()
    vio: int = 0


@dataclass(frozen=True, slots=True)
class MRIODHSK(Record):
    """D6 R32 (ours) — HiperSockets activity of one IQD CHPID, as the z/VM partition sees it.

    Frames (messages) and bytes the partition sent over the internal LAN and
    received from it, cumulative, and the frame size the CHPID is defined with.
    """

    DOMAIN = 6
    NUMBER = 32
    KEY = "chpid"
    tod: int
    chpid: str = char(4)
    frame_kb: int = gauge()
    msgs_out: int = 0
    msgs_in: int = 0
    bytes_out: int = 0
    bytes_in: int = 0
