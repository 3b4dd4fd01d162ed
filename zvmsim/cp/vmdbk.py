"""The VMDBK: CP's control block for one virtual machine.

It holds the user's current *state* (what the high-frequency monitor sampler
sees) and the cumulative counters that monitor sample records carry.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["DORM", "STATES", "Vmdbk"]

# The wait states of FCX114 USTAT, in its column order. A sampler files every
# observation of a user under exactly one of these, or as DORM. %TI, %EL and %DM
# stand under USTAT's heading "<-SVM and->": test idle, eligible and dormant
# while waiting for a service virtual machine (CP's high-frequency counters
# HFTSVM, HFESVM and HFDSVM); test idle without that wait is %TIW (HFTIDL).
STATES: tuple[str, ...] = (
    "run",
    "cpu",
    "ldg",
    "pgw",
    "iow",
    "sim",
    "tiw",
    "cfw",
    "ti",
    "el",
    "dm",
    "ioa",
    "pga",
    "lim",
    "oth",
)
# each state's index in STATES, Final: compiled code holds them as constants (no look-up)
RUN: Final = 0
CPU: Final = 1
LDG: Final = 2
PGW: Final = 3
IOW: Final = 4
SIM: Final = 5
TIW: Final = 6
CFW: Final = 7
TI: Final = 8
EL: Final = 9
DM: Final = 10
IOA: Final = 11
PGA: Final = 12
LIM: Final = 13
OTH: Final = 14
# Dormant and waiting for no service machine: CP counts it (HFDORM) apart from
# dormant in SVM wait (HFDSVM, %DM); USTAT has no column for it.
DORM: Final = 15  # (len(STATES))
_ORDER = (RUN, CPU, LDG, PGW, IOW, SIM, TIW, CFW, TI, EL, DM, IOA, PGA, LIM, OTH, DORM)
if _ORDER != tuple(range(len(STATES) + 1)):  # pragma: no cover
    raise ImportError("zvmsim.cp.vmdbk: the states' indexes do not match STATES")


class Vmdbk:
    """One virtual machine as CP sees it."""

    __slots__ = (
        "userid",
        "state",
        "vcpu_s",
        "tcpu_s",
        "vio",
        "vio_dasd",
        "vio_avoid",
        "pending_cp_s",
        "burst",
        "quickdsp",
        "share_relative",
        "share_absolute",
        "limithard",
        "added_at",
        "slice_end",
        "elisted",
        "eclass",
        "limit_free_at",
        "virtual_cpus",
        "weight",
        "vfinish",
        "page_faults",
        "loading",
        "faults_at_add",
        "tcpu_at_add",
        "reorder_until",
        "reorder_done",
        "reorder_at",
        "reorder_space",
        "limit_pct",
        "limit_weight",
        "limit_credit",
        "limit_at",
        "on_master",
        "reorder",
        "ios",
        "timer_hz",
        "timer_phase",
        "svm_wait",
    )

    def __init__(self, userid: str) -> None:
        self.userid = userid
        self.state = DM
        self.vcpu_s = 0.0
        self.tcpu_s = 0.0
        self.vio = 0
        self.vio_dasd = 0
        self.vio_avoid = 0
        self.pending_cp_s = 0.0  # CP work done for the user, charged at its next dispatch
        self.burst = (0.0, 0.0, 0.0, 0, 1.0)  # last CPU burst: start, end, share, CPU, speed
        # directory and scheduler settings
        self.quickdsp = False
        self.share_relative = 100  # SET SHARE RELATIVE (0 when the share is absolute)
        self.share_absolute = 0.0  # SET SHARE ABSOLUTE, % of the system
        self.limithard = False
        self.virtual_cpus = 1
        # scheduler state
        self.added_at = 0.0  # when it last entered the dispatch list
        self.slice_end = 0.0  # when its elapsed time slice in the dispatch list ends
        self.elisted = False  # waiting in the eligible list
        self.eclass = 0
        self.limit_free_at = 0.0  # earliest start its limit allows for the next burst
        # dispatcher state
        self.weight = 100.0  # its share as a dispatcher weight (see dispatch.share_weights)
        self.vfinish = 0.0  # virtual time its last burst ends at
        self.page_faults = 0  # page faults it waited for (reads from paging DASD)
        self.loading = False  # a loading user when it last left the dispatch list
        self.faults_at_add = 0  # page_faults and tcpu_s when it entered the dispatch list
        self.tcpu_at_add = 0.0
        self.reorder_until = 0.0  # CP is reordering its pages until then: it may not run
        self.reorder_done: Any = None  # the event that ends the reorder in progress
        # a reorder is due once its processor time reaches this (armed by a demand
        # scan, see Storage.reorder_due); the space to reorder then
        self.reorder_at = float("inf")
        self.reorder_space: Any = None
        # LIMITHARD (see zvmsim.cp.limits): the maximum share, % of the system (0: none),
        # as a dispatcher weight (SET SRM LIMITHARD DEADLINE), and the consumption
        # account of SET SRM LIMITHARD CONSUMPTION (processor seconds, and when last kept)
        self.limit_pct = 0.0
        self.limit_weight = 0.0
        self.limit_credit = 0.0
        self.limit_at = 0.0
        self.on_master = False  # it moved to the master processor and has not waited since
        self.reorder = True  # SET REORDER userid ON (the default) or OFF (APAR VM64774)
        # I/Os the guest started and does not wait for (Linux's asynchronous I/O): a
        # sample that finds it idle in the dispatch list with one in flight sees I/O active
        self.ios = 0
        # the guest's own timer (Linux's hz, per virtual CPU; 0: none) and where in its
        # period it pops (a fraction of the period)
        self.timer_hz = 0.0
        self.timer_phase = 0.0
        # waiting for a service virtual machine (CP's VMDSVMWT): a reply to a request
        # of its own, or the data of a CP system service it serves (*MONITOR's)
        self.svm_wait = False
