"""Domain 3 (Storage): sample records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char, gauge, ibm

__all__ = ["MRSTOASI", "MRSTOASP", "MRSTODSP", "MRSTORSG", "MRSTOSHR"]


@dataclass(frozen=True, slots=True)
class MRSTOASP(Record):
    """D3 R4 — auxiliary storage of one CP-owned volume: slots, pages moved, CP's paging queue.

    (zvmsim wrote this as D3 R7 before; IBM's D3 R7, MRSTOATC, is an event
    describing a page or spool area when its volume is attached.)
    """

    DOMAIN = 3
    NUMBER = 4
    KEY = "rdev"
    IBM = "MRSTOASP"
    IBM_LENGTH = 172
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstoasp.html"
    tod: int
    rdev: str = char(4, **at("STOASP_RDEVDEV", 26, 2, "hex"))
    volser: str = char(6, **at("STOASP_CALVSER", 20, 6, "c"))
    slots: int = gauge()
    used: int = gauge()
    pages_read: int = ibm("STOASP_EXPCTPRD", 48, 4)
    pages_written: int = ibm("STOASP_EXPCTPWR", 52, 4)
    blocks_read: int = ibm("STOASP_EXPCTSRD", 40, 4)  # start subchannels that read
    blocks_written: int = ibm("STOASP_EXPCTSWR", 44, 4)  # ... and that wrote
    queue_us: int = 0  # time paging requests waited in CP's paging queue for the volume
    hf_queued: int = 0  # paging requests in that queue, summed over high-frequency samples
    # times CP's page allocator looked at the volume for a block, and placed the block there
    alloc_looks: int = ibm("STOASP_CPVLOKAT", 160, 4)
    alloc_uses: int = ibm("STOASP_CPVALOCD", 164, 4)
    extent_start: int = gauge()  # the page area's first cylinder (FCX109 Area Extent)
    extent_end: int = gauge()  # ... and its last


@dataclass(frozen=True, slots=True)
class MRSTOASI(Record):
    """D3 R14 — one address space (a guest's storage or a VDISK): pages and paging."""

    DOMAIN = 3
    NUMBER = 14
    KEY = "space"
    IBM = "MRSTOASI"
    IBM_LENGTH = 144
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstoasi.html"
    tod: int
    # the address space's name, unique in the system
    space: str = char(24, **at("STOASI_ASCNAME", 28, 24, "c"))
    owner: str = char(8, **at("STOASI_ASCUSRID", 20, 8, "c"))
    kind: str = char(8)  # GUEST or VDISK
    pages: int = gauge()  # size
    resident: int = gauge(**at("STOASI_ASCCTPRS", 60, 4))
    xstor: int = gauge(**at("STOASI_ASCCTXBK", 96, 4))
    dasd: int = gauge(**at("STOASI_ASCCTPGS", 92, 4))
    page_reads: int = ibm("STOASI_ASCCSPGR", 68, 4)
    page_writes: int = ibm("STOASI_ASCCSPGW", 72, 4)
    steals: int = ibm("STOASI_ASCCSPST", 64, 4)


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
    IBM = "MRSTORSG"
    IBM_LENGTH = 352
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstorsg.html"
    tod: int
    agelist_target: int = gauge()
    agelist_pages: int = gauge()
    agelist_written: int = gauge()  # with a current copy on DASD: ready to reclaim
    early_writes: int = gauge()  # 1: early writes are on
    agelist_pct_x100: int = gauge()  # SET AGELIST, hundredths of a percent of DPA
    pushed: int = 0
    reval_written: int = 0  # revalidated off the list after an early write (wasted)
    reval_unwritten: int = 0
    ready: int = 0  # reclaims that needed no write
    not_ready: int = 0  # reclaims that waited for a write
    early: int = 0  # pages written early
    visits: int = 0  # demand-scan visits of a user
    inval: int = 0  # trial invalidations
    reval: int = 0  # revalidations (any invalid-but-resident page touched)
    free_b2g_sing: int = gauge()
    free_b2g_cont: int = gauge()
    free_a2g_sing: int = gauge()
    free_a2g_cont: int = gauge()
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
    sing_low: int = gauge(**at("STORSG_RSAAVLLT", 40, 4))  # singles low threshold (frames)
    cont_low: int = gauge(**at("STORSG_RSAAVCLT", 300, 4))  # contigs low threshold
    cont_protect: int = gauge()  # frames a singles request must leave on the contigs lists
    table_scans: int = 0  # frame-table scans (the below-2 GB lists ran empty)
    cp_frames: int = gauge()  # frames CP holds for page-table blocks


@dataclass(frozen=True, slots=True)
class MRSTODSP(Record):
    """D3 R31 (ours) — one shared data space owned by CP (a PTRM space): its size,
    the users whose DAT tables it holds, the guest virtual it maps and its
    resident pages."""

    DOMAIN = 3
    NUMBER = 31
    KEY = "space"
    tod: int
    space: str = char(24)
    owner: str = char(8)
    users: int = gauge()
    pages: int = gauge()  # size
    resident: int = gauge()
    mapped_mb: int = gauge()  # guest virtual whose DAT tables it holds


@dataclass(frozen=True, slots=True)
class MRSTOSHR(Record):
    """D3 R3 — one saved segment (NSS or DCSS) in storage: users, pages, paging."""

    DOMAIN = 3
    NUMBER = 3
    KEY = "segment"
    IBM = "MRSTOSHR"
    IBM_LENGTH = 112
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrstoshr.html"

    tod: int
    segment: str = char(8, **at("STOSHR_SNTNAME", 20, 8, "c"))
    kind: str = char(4)  # NSS or DCSS
    users: int = gauge(**at("STOSHR_SNTUSRSH", 36, 2))  # users sharing it
    pages: int = gauge()  # size
    resident: int = gauge(**at("STOSHR_ASCCTPRS", 40, 4))
    reserved: int = gauge()  # SET RESERVED pages (z/VM 6.3)
    xstor: int = gauge(**at("STOSHR_ASCCTXBK", 96, 4))
    dasd: int = gauge(**at("STOSHR_ASCCTPGS", 92, 4))
    page_reads: int = ibm("STOSHR_ASCCSPGR", 68, 4)
    page_writes: int = ibm("STOSHR_ASCCSPGW", 72, 4)
    steals: int = ibm("STOSHR_ASCCSPST", 52, 4)
