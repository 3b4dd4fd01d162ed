"""CP Monitor records: typed, with domain and record numbers modelled on CP's.

Every record starts with the 20-byte MRHDR (length, zero, domain, record
number, TOD clock); the body is a fixed layout of big-endian integers and
EBCDIC character fields, so a record set can be written to and read from a
MONWRITE file byte for byte. Counters are cumulative since the machine
started (a reader takes deltas between sample sets); fields marked *gauge*
are a value at the moment of the sample.

Record names follow CP's (MRIODDEV, MRUSEACT, ...). Where the real layout is
not public the fields are ours, chosen to carry what the reports need.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from ..errors import ZvmsimError

__all__ = [
    "MRAPLEDT",
    "MRMTRSCH",
    "MRSYTCUG",
    "MRSYTCUP",
    "DOMAINS",
    "HEADER",
    "RECORD_TYPES",
    "MRIODCAD",
    "MRIODCST",
    "MRIODDEV",
    "MRIODLNK",
    "MRIODHSK",
    "MRIODVSW",
    "MRSYTEPM",
    "MRMTRDEV",
    "MRMTREND",
    "MRMTREPR",
    "MRMTRSPR",
    "MRMTRSYS",
    "MRMTRUSR",
    "MRPRCPRP",
    "MRSCLADL",
    "MRSCLDDL",
    "MRSTOASI",
    "MRSTOATC",
    "MRSTODSP",
    "MRSTOSHR",
    "MRSYTRSG",
    "MRSYTSXG",
    "MRSYTSYG",
    "MRSYTXSG",
    "MRUSEACT",
    "MRSTORSG",
    "MRUSEPAG",
    "MRPRCMST",
    "MRSYTLCK",
    "Record",
    "decode",
    "domain_mask",
    "domains_in",
]

HEADER = struct.Struct(">HHBxH8s4x")  # MRHDRLEN, MRHDRZER, MRHDRDM, MRHDRRC, MRHDRTOD
EBCDIC = "cp500"

# Monitor domains by number, as CP MONITOR names them.
DOMAINS: dict[int, str] = {
    0: "SYSTEM",
    1: "MONITOR",
    2: "SCHEDULER",
    3: "STORAGE",
    4: "USER",
    5: "PROCESSOR",
    6: "I/O",
    7: "SEEK",
    8: "NETWORK",
    9: "ISFC",
    10: "APPLDATA",
}


def domain_mask(*domains: int) -> int:
    """A profile's domain bit vector: domain *n* is bit *n* from the left of 2 bytes."""
    return sum(1 << (15 - d) for d in set(domains))


def domains_in(mask: int) -> list[int]:
    """The domain numbers whose bits are set in *mask*, in order."""
    return [d for d in range(16) if mask & (1 << (15 - d))]


def _char(length: int) -> Any:
    return field(metadata={"char": length})


def _gauge() -> Any:
    return field(default=0, metadata={"gauge": True})


class Record:
    """Base of all monitor records: a TOD stamp plus a fixed body layout."""

    DOMAIN: ClassVar[int]
    NUMBER: ClassVar[int]
    KEY: ClassVar[str | None] = None  # the field naming the entity (userid, rdev, ...)
    _struct: ClassVar[struct.Struct]
    _spec: ClassVar[tuple[tuple[str, int | None], ...]]

    tod: int

    @classmethod
    def _layout(cls) -> tuple[struct.Struct, tuple[tuple[str, int | None], ...]]:
        if "_struct" not in cls.__dict__:
            spec, fmt = [], ">"
            for f in fields(cls):  # type: ignore[arg-type]
                if f.name == "tod":
                    continue
                length = f.metadata.get("char")
                spec.append((f.name, length))
                fmt += f"{length}s" if length else "q"
            cls._struct = struct.Struct(fmt)
            cls._spec = tuple(spec)
        return cls._struct, cls._spec

    @classmethod
    def counters(cls) -> tuple[str, ...]:
        """Names of the cumulative integer fields (what a reader takes deltas of)."""
        return tuple(
            f.name
            for f in fields(cls)  # type: ignore[arg-type]
            if f.name != "tod" and "char" not in f.metadata and not f.metadata.get("gauge")
        )

    def to_bytes(self) -> bytes:
        """The record as CP would store it: MRHDR followed by the body."""
        body_struct, spec = self._layout()
        values = []
        for name, length in spec:
            value = getattr(self, name)
            if length:
                value = str(value).ljust(length)[:length].encode(EBCDIC)
            values.append(value)
        body = body_struct.pack(*values)
        size = HEADER.size + len(body)
        return HEADER.pack(size, 0, self.DOMAIN, self.NUMBER, self.tod.to_bytes(8, "big")) + body

    @classmethod
    def from_body(cls, tod: int, body: bytes) -> Record:
        """Rebuild a record from its TOD and body bytes."""
        body_struct, spec = cls._layout()
        if len(body) != body_struct.size:
            raise ZvmsimError(
                f"monitor record D{cls.DOMAIN} R{cls.NUMBER} has {len(body)} body bytes, "
                f"expected {body_struct.size}"
            )
        values = body_struct.unpack(body)
        kwargs = {}
        for (name, length), value in zip(spec, values, strict=True):
            kwargs[name] = value.decode(EBCDIC).rstrip() if length else value
        return cls(tod=tod, **kwargs)  # type: ignore[call-arg]


# ---- Domain 1: Monitor (configuration and control) -------------------------


@dataclass(frozen=True, slots=True)
class MRMTRSYS(Record):
    """D1 R4 — system configuration: who and what is being monitored."""

    DOMAIN = 1
    NUMBER = 4
    tod: int
    sysid: str = _char(8)
    cpu_model: str = _char(16)
    serial: str = _char(8)
    zvm_level: str = _char(8)
    title: str = _char(64)
    processors: int = _gauge()


@dataclass(frozen=True, slots=True)
class MRMTRDEV(Record):
    """D1 R6 — device configuration: one per RDEV (a PAV alias names its base)."""

    DOMAIN = 1
    NUMBER = 6
    KEY = "rdev"
    tod: int
    rdev: str = _char(4)
    devtype: str = _char(8)
    volser: str = _char(6)
    base: str = _char(4)
    control_unit: str = _char(16)  # the calibration entry naming the controller
    chpids: str = _char(32)
    usage: str = _char(8)  # PAGE for a CP-owned paging volume, blank for user volumes
    links: int = _gauge()
    subchannel: int = _gauge()  # the subchannel number the channel subsystem gave the RDEV
    cu_model: str = field(default="", metadata={"char": 8})  # control unit type-model: 2105-E8


@dataclass(frozen=True, slots=True)
class MRMTRSPR(Record):
    """D1 R9 — sample profile: interval length and high-frequency sampling rate."""

    DOMAIN = 1
    NUMBER = 9
    tod: int
    interval_ms: int = _gauge()
    hf_rate_cs: int = _gauge()  # hundredths of a second, as CP keeps it
    sample_domains: int = _gauge()  # domain bit vector (see domain_mask)


@dataclass(frozen=True, slots=True)
class MRMTREPR(Record):
    """D1 R1 — event profile: which domains are enabled for event records."""

    DOMAIN = 1
    NUMBER = 1
    tod: int
    event_domains: int = _gauge()  # domain bit vector (see domain_mask)


@dataclass(frozen=True, slots=True)
class MRMTREND(Record):
    """D1 R11 — end of a sample set: closes one monitor interval."""

    DOMAIN = 1
    NUMBER = 11
    tod: int
    interval: int = _gauge()


@dataclass(frozen=True, slots=True)
class MRMTRUSR(Record):
    """D1 R15 — a logged-on user (configuration): its directory settings."""

    DOMAIN = 1
    NUMBER = 15
    KEY = "userid"
    tod: int
    userid: str = _char(8)
    virtual_cpus: int = _gauge()
    storage_pages: int = _gauge()  # defined virtual storage (0: not modelled)
    reserved: int = _gauge()  # SET RESERVED pages
    share_relative: int = _gauge()  # SHARE RELATIVE n (0 when the share is absolute)
    share_absolute_tenths: int = _gauge()  # SHARE ABSOLUTE n% in tenths of a percent
    quickdsp: int = _gauge()  # 1 with OPTION QUICKDSP
    nomdcfs: int = _gauge()  # 1 with OPTION NOMDCFS (exempt from MDC fair share)
    limit_max_tenths: int = _gauge()  # SHARE ... m% LIMITHARD: the maximum, tenths of a % (0: none)


# ---- Domain 0: System; Domain 5: Processor (sample) ------------------------


@dataclass(frozen=True, slots=True)
class MRSYTSYG(Record):
    """D0 R19 — system-wide data, with high-frequency list counts."""

    DOMAIN = 0
    NUMBER = 19
    tod: int
    logged: int = _gauge()
    hf_samples: int = 0
    hf_dispatch: int = 0  # users found in the dispatch list, summed over samples
    hf_eligible: int = 0  # users found in the eligible list, summed over samples
    cls_q0: int = 0  # users found in each class, summed over samples
    cls_q1: int = 0
    cls_q2: int = 0
    cls_q3: int = 0
    cls_e1: int = 0
    cls_e2: int = 0
    cls_e3: int = 0
    hf_loading: int = 0  # loading users found in the dispatch list, summed over samples
    hf_loading_e1: int = 0  # loading users found in the eligible list as E1, E2, E3
    hf_loading_e2: int = 0
    hf_loading_e3: int = 0


@dataclass(frozen=True, slots=True)
class MRMTRSCH(Record):
    """D1 R16 — scheduler settings: SET SRM STORBUF, LDUBUF, DSPBUF, time slices."""

    DOMAIN = 1
    NUMBER = 16
    tod: int
    storbuf1: int = _gauge()
    storbuf2: int = _gauge()
    storbuf3: int = _gauge()
    ldubuf1: int = _gauge()
    ldubuf2: int = _gauge()
    ldubuf3: int = _gauge()
    dspbuf1: int = _gauge()
    dspbuf2: int = _gauge()
    dspbuf3: int = _gauge()
    ets_q1_us: int = _gauge()
    ets_q2_us: int = _gauge()
    ets_q3_us: int = _gauge()
    loading_faults: int = _gauge()  # page faults per dispatch slice that make a loading user
    loading_capacity: int = _gauge()  # paging exposures LDUBUF is a share of
    limithard_consumption: int = _gauge()  # SET SRM LIMITHARD: 1 CONSUMPTION, 0 DEADLINE


@dataclass(frozen=True, slots=True)
class MRSYTCUG(Record):
    """D0 R15 — one logical PU of one partition on the CEC, as PR/SM reports it."""

    DOMAIN = 0
    NUMBER = 15
    KEY = "lpu"
    tod: int
    lpu: str = _char(12)  # partition name and logical CPU number, e.g. "LMRPROD 01"
    partition: str = _char(8)
    pu_type: str = _char(4)
    number: int = _gauge()  # partition number
    cpu: int = _gauge()
    logical: int = _gauge()  # logical PUs the partition has
    weight: int = _gauge()
    capped: int = _gauge()
    dedicated: int = _gauge()
    own: int = _gauge()  # 1 for the partition this z/VM runs in
    dispatched_us: int = 0
    overhead_us: int = 0
    upid: str = field(default="", metadata={"char": 2})  # user partition ID (blank: unknown)
    wait_completion: int = _gauge()  # 1 with PR/SM's WAIT COMPLETION YES


@dataclass(frozen=True, slots=True)
class MRSYTCUP(Record):
    """D0 R16 — one type of physical PU on the CEC: how many there are."""

    DOMAIN = 0
    NUMBER = 16
    KEY = "pu_type"
    tod: int
    pu_type: str = _char(4)
    count: int = _gauge()
    dispatch_interval_ms: int = _gauge()  # PR/SM's dispatch interval; 0: determined dynamically


@dataclass(frozen=True, slots=True)
class MRPRCPRP(Record):
    """D5 R3 — one logical processor: busy, emulation and system time (us)."""

    DOMAIN = 5
    NUMBER = 3
    KEY = "cpu"
    tod: int
    cpu: str = _char(4)
    pu_type: str = _char(4)
    elapsed_us: int = 0
    busy_us: int = 0
    virtual_us: int = 0
    system_us: int = 0
    susp_us: int = 0  # ready but not dispatched by PR/SM


@dataclass(frozen=True, slots=True)
class MRSYTRSG(Record):
    """D0 R3 — real and expanded storage, demand scan and available list (global)."""

    DOMAIN = 0
    NUMBER = 3
    tod: int
    frames: int = _gauge()
    available: int = _gauge()
    xstore_pages: int = _gauge()
    xstore_used: int = _gauge()
    scans: int = 0
    frames_needed: int = 0
    pass1: int = 0
    pass2: int = 0
    emergency: int = 0
    times_empty: int = 0
    migrated: int = 0
    xstore_in: int = 0  # pages brought back from XSTORE, every address space (X>MS)
    xstore_out: int = 0  # pages put in XSTORE (MS>X)
    hf_samples: int = 0
    hf_available: int = 0  # available frames, summed over high-frequency samples
    low_threshold: int = _gauge()  # available-list low threshold (frames)
    high_threshold: int = _gauge()  # available-list high threshold (frames)


@dataclass(frozen=True, slots=True)
class MRSYTEPM(Record):
    """D0 R20 — channel measurement, one per CHPID: busy time, bytes, HF busy bands.

    ``busy_us`` is the time the channel was busy (its processor's work units
    and its link moving data; the whole connect time for a one-at-a-time
    channel). At every high-frequency sample the collector files the
    channel's busy share since the previous sample in one of ten bands:
    ``hf_band0`` is 0-10 %, ``hf_band1`` 11-20 %, ... ``hf_band9`` 91-100 %.
    """

    DOMAIN = 0
    NUMBER = 20
    KEY = "chpid"
    tod: int
    chpid: str = _char(4)
    chpid_type: str = _char(8)
    shared: int = _gauge()
    data_rate_kb_s: int = _gauge()  # the channel's data rate, kilobytes (1000) per second
    cur_pct: int = _gauge()  # busy % over the last high-frequency sample
    busy_us: int = 0
    ios: int = 0
    read_bytes: int = 0
    write_bytes: int = 0
    packets: int = 0
    hf_samples: int = 0
    hf_band0: int = 0
    hf_band1: int = 0
    hf_band2: int = 0
    hf_band3: int = 0
    hf_band4: int = 0
    hf_band5: int = 0
    hf_band6: int = 0
    hf_band7: int = 0
    hf_band8: int = 0
    hf_band9: int = 0


@dataclass(frozen=True, slots=True)
class MRSYTSXG(Record):
    """D0 R21 — the System Execution Space (global): CP's 2 GB space, pages by use.

    All gauges, at the moment of the sample: the space's size, the pages on
    its available queues and in use, and the used pages split by what holds
    them (ours: CP's layout splits them otherwise).
    """

    DOMAIN = 0
    NUMBER = 21
    tod: int
    size: int = _gauge()
    available: int = _gauge()
    used: int = _gauge()
    id_mapped: int = _gauge()  # CP nucleus, identity-mapped
    fixed: int = _gauge()  # CP's other fixed tables and pools
    users: int = _gauge()  # VMDBKs and related blocks of logged-on users
    devices: int = _gauge()  # RDEVs and their blocks
    tables: int = _gauge()  # DAT tables for the address spaces' resident pages
    io: int = _gauge()  # work areas of I/Os in flight


# ---- Domain 3: Storage (sample) --------------------------------------------


@dataclass(frozen=True, slots=True)
class MRSTOATC(Record):
    """D3 R7 — the page area of one CP-owned volume: slots, pages moved, CP's paging queue."""

    DOMAIN = 3
    NUMBER = 7
    KEY = "rdev"
    tod: int
    rdev: str = _char(4)
    volser: str = _char(6)
    slots: int = _gauge()
    used: int = _gauge()
    pages_read: int = 0
    pages_written: int = 0
    blocks_read: int = 0
    blocks_written: int = 0
    queue_us: int = 0  # time paging requests waited in CP's paging queue for the volume
    hf_queued: int = 0  # paging requests in that queue, summed over high-frequency samples
    alloc_looks: int = 0  # times CP's page allocator looked at the volume for a block
    alloc_uses: int = 0  # ... and placed the block there
    extent_start: int = _gauge()  # the page area's first cylinder (FCX109 Area Extent)
    extent_end: int = _gauge()  # ... and its last


@dataclass(frozen=True, slots=True)
class MRSTOASI(Record):
    """D3 R14 — one address space (a guest's storage or a VDISK): pages and paging."""

    DOMAIN = 3
    NUMBER = 14
    KEY = "space"
    tod: int
    space: str = _char(24)  # the address space's name, unique in the system
    owner: str = _char(8)
    kind: str = _char(8)  # GUEST or VDISK
    pages: int = _gauge()  # size
    resident: int = _gauge()
    xstor: int = _gauge()
    dasd: int = _gauge()
    page_reads: int = 0
    page_writes: int = 0
    steals: int = 0


# ---- Domain 10: Application data (sample) ----------------------------------


@dataclass(frozen=True, slots=True)
class MRAPLEDT(Record):
    """D10 R2 — application data a guest hands to CP Monitor (APPLDATA).

    Its layout belongs to the application; zvmsim's workloads all report the
    same thing: transactions completed and the sum of their response times.
    """

    DOMAIN = 10
    NUMBER = 2
    KEY = "userid"
    tod: int
    userid: str = _char(8)
    workload: str = _char(8)
    txns: int = 0
    resp_us: int = 0


# ---- Domain 2: Scheduler (event) -------------------------------------------


@dataclass(frozen=True, slots=True)
class MRSCLADL(Record):
    """D2 R4 — event: a user was added to the dispatch list."""

    DOMAIN = 2
    NUMBER = 4
    KEY = "userid"
    tod: int
    userid: str = _char(8)


@dataclass(frozen=True, slots=True)
class MRSCLDDL(Record):
    """D2 R5 — event: a user was dropped from the dispatch list."""

    DOMAIN = 2
    NUMBER = 5
    KEY = "userid"
    tod: int
    userid: str = _char(8)


# ---- Domain 4: User (sample) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class MRUSEACT(Record):
    """D4 R3 — user activity: CPU times, virtual I/O, sampled wait states."""

    DOMAIN = 4
    NUMBER = 3
    KEY = "userid"
    tod: int
    userid: str = _char(8)
    tcpu_us: int = 0
    vcpu_us: int = 0
    vio: int = 0
    vio_dasd: int = 0
    vio_avoid: int = 0
    page_reads: int = 0
    page_writes: int = 0
    steals: int = 0
    x_to_ms: int = 0
    ms_to_x: int = 0
    x_to_ds: int = 0
    wss: int = _gauge()
    reserved: int = _gauge()
    resident: int = _gauge()
    xstor: int = _gauge()
    dasd: int = _gauge()
    cls_q0: int = 0  # HF samples in transaction class Q0 (QUICKDSP) ... Q3,
    cls_q1: int = 0
    cls_q2: int = 0
    cls_q3: int = 0
    cls_e1: int = 0  # ... and waiting in the eligible list as E1 ... E3
    cls_e2: int = 0
    cls_e3: int = 0
    hf_samples: int = 0
    hf_run: int = 0
    hf_cpu: int = 0
    hf_ldg: int = 0
    hf_pgw: int = 0
    hf_iow: int = 0
    hf_sim: int = 0
    hf_tiw: int = 0
    hf_cfw: int = 0
    hf_ti: int = 0
    hf_el: int = 0
    hf_dm: int = 0
    hf_ioa: int = 0
    hf_pga: int = 0
    hf_lim: int = 0
    hf_oth: int = 0
    # HF samples that found the user active: it had used processor time since
    # the sample before, or was running, waiting for a CPU or in a non-idle wait
    hf_act: int = 0


# ---- Domain 6: I/O (sample) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class MRIODDEV(Record):
    """D6 R3 — device activity: measurement-block times, CP queue, HF samples."""

    DOMAIN = 6
    NUMBER = 3
    KEY = "rdev"
    tod: int
    rdev: str = _char(4)
    ssch: int = 0
    reads: int = 0
    avoided: int = 0
    pend_us: int = 0
    disc_us: int = 0
    conn_us: int = 0
    cuwt_us: int = 0
    queue_us: int = 0
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
    rdev: str = _char(4)
    volser: str = _char(6)
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
    name: str = _char(8)
    rdev: str = _char(4)  # the uplink OSA's device number
    controller: str = _char(8)  # userid of the controller virtual machine
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
    rdev: str = _char(4)
    volser: str = _char(6)
    cu_name: str = _char(16)  # the control-unit instance
    cu_type: str = _char(16)  # its calibrated type
    sub_cache: str = _char(1)  # Y/N: the subsystem caches
    sub_nvs: str = _char(1)
    sub_cfw: str = _char(1)
    sub_pinned: str = _char(1)  # Y: some device of the subsystem has pinned data
    dev_cache: str = _char(1)  # Y/N: this device is cached
    dev_dfw: str = _char(1)
    dev_pinned: str = _char(1)
    cache_mb: int = _gauge()
    nvs_mb: int = _gauge()
    last_seek: int = _gauge()


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
    link: str = _char(24)  # "USERID OWNER VADDR": unique per link
    rdev: str = _char(4)  # the volume's base RDEV
    userid: str = _char(8)
    owner: str = _char(8)
    vaddr: str = _char(4)
    first_cyl: int = _gauge()
    last_cyl: int = _gauge()
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
    chpid: str = _char(4)
    frame_kb: int = _gauge()
    msgs_out: int = 0
    msgs_in: int = 0
    bytes_out: int = 0
    bytes_in: int = 0


# ---- z/VM 6.3 storage management (sample) -----------------------------------


@dataclass(frozen=True, slots=True)
class MRSTORSG(Record):
    """D3 R1 — real storage management (global), z/VM 6.3: aging list and available lists.

    The global aging list (its target and current size, the pages on it with a
    current copy on DASD, what was pushed, revalidated, reclaimed and written
    early) and the available lists below and above 2 GB, singles and
    contigs: frames free (gauges, and summed over high-frequency samples),
    frames requested, returned, and the times a list was found empty.
    """

    DOMAIN = 3
    NUMBER = 1
    tod: int
    agelist_target: int = _gauge()
    agelist_pages: int = _gauge()
    agelist_written: int = _gauge()  # with a current copy on DASD: ready to reclaim
    early_writes: int = _gauge()  # 1: early writes are on
    agelist_pct_x100: int = _gauge()  # SET AGELIST, hundredths of a percent of DPA
    pushed: int = 0
    reval_written: int = 0  # revalidated off the list after an early write (wasted)
    reval_unwritten: int = 0
    ready: int = 0  # reclaims that needed no write
    not_ready: int = 0  # reclaims that waited for a write
    early: int = 0  # pages written early
    visits: int = 0  # demand-scan visits of a user
    inval: int = 0  # trial invalidations
    reval: int = 0  # revalidations (any invalid-but-resident page touched)
    free_b2g_sing: int = _gauge()
    free_b2g_cont: int = _gauge()
    free_a2g_sing: int = _gauge()
    free_a2g_cont: int = _gauge()
    hf_b2g_sing: int = 0  # free frames summed over high-frequency samples
    hf_b2g_cont: int = 0
    hf_a2g_sing: int = 0
    hf_a2g_cont: int = 0
    req_b2g_sing: int = 0  # frames given to singles/contigs requests from each side
    req_b2g_cont: int = 0
    req_a2g_sing: int = 0
    req_a2g_cont: int = 0
    ret_b2g_sing: int = 0  # frames returned to each list
    ret_b2g_cont: int = 0
    ret_a2g_sing: int = 0
    ret_a2g_cont: int = 0
    empty_b2g_sing: int = 0  # times a request found the list empty
    empty_b2g_cont: int = 0
    empty_a2g_sing: int = 0
    empty_a2g_cont: int = 0
    sing_low: int = _gauge()  # singles low threshold (frames)
    cont_low: int = _gauge()  # contigs low threshold
    cont_protect: int = _gauge()  # frames a singles request must leave on the contigs lists
    table_scans: int = 0  # frame-table scans (the below-2 GB lists ran empty)
    cp_frames: int = _gauge()  # frames CP holds for page-table blocks


@dataclass(frozen=True, slots=True)
class MRUSEPAG(Record):
    """D4 R30 (ours) — one user's page activity and residency (CP carries these in D4 R3).

    Transitions (instantiations, releases, trial invalidations,
    revalidations), reclaims ready and not ready, page movements (DASD reads
    and writes, XSTORE in and out, early writes) and page reorders (z/VM 6.2,
    with whether SET REORDER is on for the user), cumulative; and where its
    pages are now: instantiated, reserved, valid, invalid but resident in
    its own list (UFO), read but not referenced (PNR), on the global aging
    list, in XSTORE and on DASD.
    """

    DOMAIN = 4
    NUMBER = 30
    KEY = "userid"
    tod: int
    userid: str = _char(8)
    inst: int = 0
    relse: int = 0
    inval: int = 0
    reval: int = 0
    ready: int = 0
    not_ready: int = 0
    page_reads: int = 0
    page_writes: int = 0
    x_to_ms: int = 0
    ms_to_x: int = 0
    early: int = 0
    reorders: int = 0
    reorder_us: int = 0
    pages: int = _gauge()  # base address space size
    instantiated: int = _gauge()
    reserved: int = _gauge()
    wss: int = _gauge()
    resident: int = _gauge()
    ibr: int = _gauge()
    pnr: int = _gauge()
    aged: int = _gauge()
    xstor: int = _gauge()
    dasd: int = _gauge()
    reorder_on: int = (
        _gauge()
    )  # 1 when CP reorders its pages (SET REORDER ON, z/VM 6.2 and earlier)


# ---- The master processor and VMCF (sample) ---------------------------------


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
    master: str = _char(4)
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


@dataclass(frozen=True, slots=True)
class MRSYTLCK(Record):
    """D0 R23 — one CP formal spin lock: requests, collisions, spin, yields to PR/SM."""

    DOMAIN = 0
    NUMBER = 23
    KEY = "lock"
    tod: int
    lock: str = _char(8)
    requests: int = 0  # times a logical PU took the lock
    collisions: int = 0  # ... and found it held
    wait_us: int = 0  # from request to acquisition, summed (spinning or off the PU)
    spin_us: int = 0  # processor time spent spinning (CP time)
    diag44: int = 0  # Diag x'44' calls (yield to anyone)
    diag9c: int = 0  # Diag x'9C' calls (have PR/SM run the holder)
    sense: int = 0  # SIGP Sense-Running of the holder
    preempted: int = 0  # holds during which PR/SM undispatched the holder


# ---- Domain 0: the minidisk cache (sample) ----------------------------------


@dataclass(frozen=True, slots=True)
class MRSYTXSG(Record):
    """D0 R14 — the minidisk cache: its size, lookups, inserts and invalidations.

    CP's MDC record (its layout is ours): what MDC caches (``TRACK`` or
    ``RECORD``), the 4 KB pages it holds now and may hold, the pages in one
    cached unit; read requests looked up and those wholly served from the
    cache (avoided I/O), units inserted, write requests, and invalidations:
    the requests, the units they looked up and the cached units they freed.
    """

    DOMAIN = 0
    NUMBER = 14
    tod: int
    level: str = _char(6)
    size_pages: int = _gauge()
    max_pages: int = _gauge()
    unit_pages: int = _gauge()
    reads: int = 0
    read_hits: int = 0
    inserts: int = 0
    writes: int = 0
    inval_calls: int = 0
    inval_units: int = 0
    inval_freed: int = 0
    # where its storage lives (CENTRAL or XSTORE; blank: not modelled), the XSTORE
    # pages it holds, and central frames the arbiter took back for the demand scan
    home: str = field(default="", metadata={"char": 8})
    xstore_pages: int = _gauge()
    given_back: int = 0


@dataclass(frozen=True, slots=True)
class MRSTODSP(Record):
    """D3 R31 (ours) — one shared data space owned by CP (a PTRM space): its size,
    the users whose DAT tables it holds, the guest virtual it maps and its
    resident pages."""

    DOMAIN = 3
    NUMBER = 31
    KEY = "space"
    tod: int
    space: str = _char(24)
    owner: str = _char(8)
    users: int = _gauge()
    pages: int = _gauge()  # size
    resident: int = _gauge()
    mapped_mb: int = _gauge()  # guest virtual whose DAT tables it holds


@dataclass(frozen=True, slots=True)
class MRSTOSHR(Record):
    """D3 R3 — one saved segment (NSS or DCSS) in storage: users, pages, paging."""

    DOMAIN = 3
    NUMBER = 3
    KEY = "segment"
    tod: int
    segment: str = _char(8)
    kind: str = _char(4)  # NSS or DCSS
    users: int = _gauge()
    pages: int = _gauge()  # size
    resident: int = _gauge()
    reserved: int = _gauge()  # SET RESERVED pages (z/VM 6.3)
    xstor: int = _gauge()
    dasd: int = _gauge()
    page_reads: int = 0
    page_writes: int = 0
    steals: int = 0


RECORD_TYPES: dict[tuple[int, int], type[Record]] = {
    (cls.DOMAIN, cls.NUMBER): cls
    for cls in (
        MRMTRSYS,
        MRMTRDEV,
        MRMTRSPR,
        MRMTREPR,
        MRMTREND,
        MRMTRUSR,
        MRSYTSYG,
        MRPRCPRP,
        MRSCLADL,
        MRSCLDDL,
        MRUSEACT,
        MRIODDEV,
        MRIODCAD,
        MRIODVSW,
        MRSYTEPM,
        MRSYTRSG,
        MRSTOATC,
        MRSTOASI,
        MRAPLEDT,
        MRSYTCUG,
        MRSYTCUP,
        MRSYTSXG,
        MRMTRSCH,
        MRIODCST,
        MRIODLNK,
        MRIODHSK,
        MRSTORSG,
        MRUSEPAG,
        MRPRCMST,
        MRSYTLCK,
        MRSYTXSG,
        MRSTODSP,
        MRSTOSHR,
    )
}


def decode(data: bytes, offset: int = 0) -> tuple[Record, int]:
    """Decode the record at *offset*; return it and the offset of the next one."""
    if len(data) - offset < HEADER.size:
        raise ZvmsimError(f"monitor data truncated at byte {offset}")
    size, zero, domain, number, tod = HEADER.unpack_from(data, offset)
    if zero != 0 or size < HEADER.size or offset + size > len(data):
        raise ZvmsimError(f"corrupt monitor record header at byte {offset}")
    cls = RECORD_TYPES.get((domain, number))
    if cls is None:
        raise ZvmsimError(f"unknown monitor record D{domain} R{number} at byte {offset}")
    body = data[offset + HEADER.size : offset + size]
    return cls.from_body(int.from_bytes(tod, "big"), body), offset + size
