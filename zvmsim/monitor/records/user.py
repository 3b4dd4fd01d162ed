"""Domain 4 (User): sample records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char, gauge

__all__ = ["MRUSEACT", "MRUSEPAG"]


@dataclass(frozen=True, slots=True)
class MRUSEACT(Record):
    """D4 R3 — user activity: CPU times, virtual I/O, sampled wait states."""

    DOMAIN = 4
    NUMBER = 3
    KEY = "userid"
    # Partly IBM's: only USEACT_VMDUSER (and the zero VMDCPUAD after it) at IBM's
    # offsets; the rest of IBM's layout is not yet known to us (docs/monwrite-format.md).
    IBM = "MRUSEACT"
    IBM_LENGTH = 32
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mruseact.html"
    tod: int
    userid: str = char(8, **at("USEACT_VMDUSER", 20, 8, "c"))
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
    wss: int = gauge()
    reserved: int = gauge()
    resident: int = gauge()
    xstor: int = gauge()
    dasd: int = gauge()
    cls_q0: int = 0  # HF samples in transaction class Q0 (QUICKDSP) ... Q3,
    cls_q1: int = 0
    cls_q2: int = 0
    cls_q3: int = 0
    cls_e1: int = 0  # ... and waiting in the eligible list as E1 ... E3
    cls_e2: int = 0
    cls_e3: int = 0
    hf_samples: int = 0  # HF samples taken of the user; its states (hf_run ...
    # hf_oth) are filed for the samples that found it active only (hf_act)
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
    # (ours: CP's user HF state counters, MRUSEINT D4 R4, count states per
    # monitor interval and have no such count; fidelity.py, pct_act@LMRLN1P)
    hf_act: int = 0


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
    userid: str = char(8)
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
    pages: int = gauge()  # base address space size
    instantiated: int = gauge()
    reserved: int = gauge()
    wss: int = gauge()
    resident: int = gauge()
    ibr: int = gauge()
    pnr: int = gauge()
    aged: int = gauge()
    xstor: int = gauge()
    dasd: int = gauge()
    reorder_on: int = gauge()  # 1 when CP reorders its pages (SET REORDER ON, z/VM 6.2 and earlier)
