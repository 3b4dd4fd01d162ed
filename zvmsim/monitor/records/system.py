"""Domain 0 (System): system-wide sample records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char, gauge, ibm

__all__ = [
    "MRSYTPRP",
    "MRSYTCUG",
    "MRSYTCUP",
    "MRSYTEPM",
    "MRSYTLCK",
    "MRSYTLPU",
    "MRSYTRSG",
    "MRSYTSXG",
    "MRSYTSYG",
    "MRSYTXSG",
]


@dataclass(frozen=True, slots=True)
class MRSYTSYG(Record):
    """D0 R19 — system-wide data, with high-frequency list counts.

    Written in IBM's layout (z/VM 5.3, 112 bytes): IBM's D0 R19 carries
    user-exit, CPU-capability and STSI counts zvmsim does not simulate, all
    zero. None of our fields has an IBM place (IBM's dispatch-list counts
    are D0 R10's, a value at sample time, not sums over high-frequency
    samples), so every field travels in our APPLDATA extension.
    """

    DOMAIN = 0
    NUMBER = 19
    IBM = "MRSYTSYG"
    IBM_LENGTH = 112
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytsyg.html"
    tod: int
    logged: int = gauge()
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
class MRSYTCUG(Record):
    """D0 R15 — the logical partition configuration (global): the partition CP runs in.

    Written in IBM's layout (z/VM 5.3, 56 bytes): the number of partitions
    on the CEC and this partition's number, name and logical CPUs (in all,
    configured, dedicated, shared). IBM's fields whose meaning we could not
    read (``LCUTFLAG``, ``LCUTSLCE``, ``LCUTPCCT``, ``CPUCHAR``,
    ``CPUSTNBY``, ``CPURESVD``, ``LPARCAF``) are zero. Every partition's
    logical PUs, ours included, are in :class:`MRSYTLPU` records.
    """

    DOMAIN = 0
    NUMBER = 15
    IBM = "MRSYTCUG"
    IBM_LENGTH = 56
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytcug.html"
    tod: int
    partitions: int = gauge(**at("SYTCUG_LCUTNPAR", 20, 1))
    number: int = gauge(**at("SYTCUG_LPNUMBER", 28, 2))
    cpus: int = gauge(**at("SYTCUG_CPUCOUNT", 32, 2))  # logical CPUs, all types
    configured: int = gauge(**at("SYTCUG_CPUCFGCT", 34, 2))
    name: str = char(8, **at("SYTCUG_LPARNAME", 40, 8, "c"))
    dedicated: int = gauge(**at("SYTCUG_CPUDEDCT", 52, 2))
    shared: int = gauge(**at("SYTCUG_CPUSHARD", 54, 2))


@dataclass(frozen=True, slots=True)
class MRSYTLPU(Record):
    """D0 R30 (ours) — one logical PU of one partition on the CEC, as PR/SM reports it.

    IBM keeps the logical CPUs of each partition in D0 R16 (an array per
    partition) whose entry layout we have not confirmed; until then they
    travel here, one APPLDATA record per logical PU.
    """

    DOMAIN = 0
    NUMBER = 30
    KEY = "lpu"
    tod: int
    lpu: str = char(12)  # partition name and logical CPU number, e.g. "LMRPROD 01"
    partition: str = char(8)
    pu_type: str = char(4)
    number: int = gauge()  # partition number
    cpu: int = gauge()
    logical: int = gauge()  # logical PUs the partition has
    weight: int = gauge()
    capped: int = gauge()
    dedicated: int = gauge()
    own: int = gauge()  # 1 for the partition this z/VM runs in
    dispatched_us: int = 0
    overhead_us: int = 0
    upid: str = char(2)  # user partition ID (blank: unknown)
    wait_completion: int = gauge()  # 1 with PR/SM's WAIT COMPLETION YES


@dataclass(frozen=True, slots=True)
class MRSYTCUP(Record):
    """D0 R16 — one type of physical PU on the CEC: how many there are."""

    DOMAIN = 0
    NUMBER = 16
    KEY = "pu_type"
    tod: int
    pu_type: str = char(4)
    count: int = gauge()
    dispatch_interval_ms: int = gauge()  # PR/SM's dispatch interval; 0: determined dynamically


@dataclass(frozen=True, slots=True)
class MRSYTRSG(Record):
    """D0 R3 — real and expanded storage, demand scan and available list (global).

    Written in IBM's layout (z/VM 5.3, 492 bytes), IBM's fields zero: the
    field descriptions of IBM's D0 R3 were not available to us, so none of
    our fields is placed in one by its name alone; all travel in our
    APPLDATA extension.
    """

    DOMAIN = 0
    NUMBER = 3
    IBM = "MRSYTRSG"
    IBM_LENGTH = 492
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytrsg.html"
    tod: int
    frames: int = gauge()
    available: int = gauge()
    xstore_pages: int = gauge()
    xstore_used: int = gauge()
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
    low_threshold: int = gauge()  # available-list low threshold (frames)
    high_threshold: int = gauge()  # available-list high threshold (frames)


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
    chpid: str = char(4)
    chpid_type: str = char(8)
    shared: int = gauge()
    data_rate_kb_s: int = gauge()  # the channel's data rate, kilobytes (1000) per second
    cur_pct: int = gauge()  # busy % over the last high-frequency sample
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
    IBM = "MRSYTSXG"
    IBM_LENGTH = 84
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytsxg.html"
    tod: int
    size: int = gauge(**at("SYTSXG_SXSSIZE", 20, 4))
    available: int = gauge(**at("SYTSXG_RSASXAVL", 24, 4))
    used: int = gauge(**at("SYTSXG_RSASXUSD", 36, 4))
    id_mapped: int = gauge()  # CP nucleus, identity-mapped
    fixed: int = gauge()  # CP's other fixed tables and pools
    users: int = gauge()  # VMDBKs and related blocks of logged-on users
    devices: int = gauge()  # RDEVs and their blocks
    tables: int = gauge()  # DAT tables for the address spaces' resident pages
    io: int = gauge()  # work areas of I/Os in flight


@dataclass(frozen=True, slots=True)
class MRSYTLCK(Record):
    """D0 R23 — one CP formal spin lock: requests, collisions, spin, yields to PR/SM."""

    DOMAIN = 0
    NUMBER = 23
    KEY = "lock"
    tod: int
    lock: str = char(8)
    requests: int = 0  # times a logical PU took the lock
    collisions: int = 0  # ... and found it held
    wait_us: int = 0  # from request to acquisition, summed (spinning or off the PU)
    spin_us: int = 0  # processor time spent spinning (CP time)
    diag44: int = 0  # Diag x'44' calls (yield to anyone)
    diag9c: int = 0  # Diag x'9C' calls (have PR/SM run the holder)
    sense: int = 0  # SIGP Sense-Running of the holder
    preempted: int = 0  # holds during which PR/SM undispatched the holder


@dataclass(frozen=True, slots=True)
class MRSYTXSG(Record):
    """D0 R14 — the minidisk cache: its size, lookups, inserts and invalidations.

    CP's MDC record: what MDC caches (``TRACK`` or ``RECORD``), the 4 KB
    pages it holds now and may hold, the pages in one cached unit; read
    requests looked up and those wholly served from the cache (avoided
    I/O), units inserted, write requests, and invalidations: the requests,
    the units they looked up and the cached units they freed.

    Written in IBM's layout (z/VM 5.3, 188 bytes), IBM's fields zero: the
    descriptions of IBM's MDC counters (``SYTXSG_HCPMDC...``) were not
    available to us, so none of our fields is placed in one by its name
    alone; all travel in our APPLDATA extension.
    """

    DOMAIN = 0
    NUMBER = 14
    IBM = "MRSYTXSG"
    IBM_LENGTH = 188
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytxsg.html"
    tod: int
    level: str = char(6)
    size_pages: int = gauge()
    max_pages: int = gauge()
    unit_pages: int = gauge()
    reads: int = 0
    read_hits: int = 0
    inserts: int = 0
    writes: int = 0
    inval_calls: int = 0
    inval_units: int = 0
    inval_freed: int = 0
    # where its storage lives (CENTRAL or XSTORE; blank: not modelled), the XSTORE
    # pages it holds, and central frames the arbiter took back for the demand scan
    home: str = char(8)
    xstore_pages: int = gauge()
    given_back: int = 0


@dataclass(frozen=True, slots=True)
class MRSYTPRP(Record):
    """D0 R2 — one processor's time, as CP keeps it in the PFXPG (TOD-clock units).

    Emulation (problem-state) time is the guests' own instructions; user time
    is what CP charges to users, their emulation included; system time is
    CP's own work charged to nobody. Busy is user plus system.
    """

    DOMAIN = 0
    NUMBER = 2
    KEY = "cpu"
    IBM = "MRSYTPRP"
    IBM_LENGTH = 108
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsytprp.html"
    tod: int
    cpu: int = gauge(**at("SYTPRP_PFXCPUAD", 20, 2))
    prbtm_us: int = ibm("SYTPRP_PFXPRBTM", 24, 8, "tod")  # emulation time
    utime_us: int = ibm("SYTPRP_PFXUTIME", 32, 8, "tod")  # user time
    tmsys_us: int = ibm("SYTPRP_PFXTMSYS", 40, 8, "tod")  # system time
