"""Planning calculators from the z/VM 6.3 memory talk: paging space, LDUBUF, reorder.

* :func:`paging_space` — how much paging DASD to plan. z/VM 6.3 writes pages
  early and keeps a page's slot while the page is resident, so the paging
  space must hold every page the guests could instantiate: add up the
  guests' storage, their data spaces and VDISKs and the shared NSS/DCSS
  pages, allow 1% for the page-table blocks and friends, add the CP
  directory and the system's own pageable pages (10% of central storage, at
  most 4 GB), then a safety factor. Running out is a PGT004 abend.
* :func:`loading_capacity` — how many loading users SET SRM LDUBUF lets into
  the dispatch list: the LDUBUF percentage of the paging exposures.
* :func:`reorder_delay` — how long z/VM 6.2 and earlier stop a guest to
  reorder its pages: about 130 ms per GB resident on a z10, give or take 40%.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..calibration import load_calibration
from ..perfkit.reduce import RunData

__all__ = [
    "LoadingCapacity",
    "PagingSpacePlan",
    "loading_capacity",
    "paging_space",
    "paging_space_for",
    "reorder_delay",
]

PAGES_PER_GB = 262144
SLOTS_PER_CYLINDER = 180  # 15 tracks of 12 page slots on a 3390


@dataclass(frozen=True)
class PagingSpacePlan:
    """The paging-space calculation step by step, in GB."""

    virtual_gb: float  # guests' storage + data spaces + VDISKs + shared NSS/DCSS
    with_pgmbks_gb: float  # x 1.01 for page-table blocks and friends
    directory_gb: float
    system_gb: float  # min(10% of central, 4 GB)
    before_safety_gb: float
    safety: float
    total_gb: float

    def volumes(self, cylinders: int = 10017) -> int:
        """Paging volumes of *cylinders* (a 3390-9 by default) that hold the total."""
        slots = cylinders * SLOTS_PER_CYLINDER
        return math.ceil(self.total_gb * PAGES_PER_GB / slots)

    def lines(self) -> list[str]:
        """The calculation as the talk lays it out."""
        return [
            f"guests, data spaces, VDISKs, shared segments  {self.virtual_gb:10.1f} GB",
            f"x 1.01 for PGMBKs and friends                 {self.with_pgmbks_gb:10.1f} GB",
            f"+ CP directory                                {self.directory_gb:10.1f} GB",
            f"+ min(10% of central, 4 GB)                   {self.system_gb:10.1f} GB",
            f"= before safety                               {self.before_safety_gb:10.1f} GB",
            f"x safety factor {self.safety:<4g}                         {self.total_gb:10.1f} GB",
        ]


def paging_space(
    guests_gb: Iterable[float],
    central_gb: float,
    *,
    dataspaces_gb: float = 0.0,
    vdisks_gb: float = 0.0,
    shared_gb: float = 0.0,
    directory_pages: int = 0,
    safety: float = 1.25,
) -> PagingSpacePlan:
    """The talk's paging-space formula, for guests of the given sizes (GB)."""
    virtual = sum(guests_gb) + dataspaces_gb + vdisks_gb + shared_gb
    if virtual < 0 or central_gb <= 0 or safety < 1.0:
        raise ValueError("sizes must not be negative, central must be positive, safety >= 1")
    with_pgmbks = virtual * 1.01
    directory = directory_pages / PAGES_PER_GB
    system = min(0.10 * central_gb, 4.0)
    before = with_pgmbks + directory + system
    return PagingSpacePlan(virtual, with_pgmbks, directory, system, before, safety, before * safety)


def paging_space_for(run: RunData, safety: float = 1.25) -> PagingSpacePlan:
    """The formula applied to a run's monitor data: its users' defined storage,
    the VDISKs it saw, and its central storage."""
    guests = [c.storage_pages / PAGES_PER_GB for c in run.user_config.values()]
    vdisks = sum(s.pages for s in run.spaces.values() if s.kind == "VDISK") / PAGES_PER_GB
    frames = run.intervals[-1].storage.get("frames", 0)
    return paging_space(guests, frames / PAGES_PER_GB, vdisks_gb=vdisks, safety=safety)


@dataclass(frozen=True)
class LoadingCapacity:
    """What SET SRM LDUBUF allows: loading users per transaction class."""

    exposures: int
    ldubuf: tuple[int, int, int]
    users: tuple[float, float, float]  # loading users allowed, Q1-Q3 / Q2-Q3 / Q3
    first_held: tuple[int, int, int]  # the loading user that waits in the eligible list


def loading_capacity(
    exposures: int, ldubuf: tuple[int, int, int] = (100, 75, 60)
) -> LoadingCapacity:
    """Loading users LDUBUF admits with *exposures* paging exposures (the loading
    capacity): e.g. LDUBUF Q3 85% of 47 exposures is 39.95, so a 40th loading
    user in Q3 waits in the eligible list."""
    if exposures < 0 or any(not 0 < p for p in ldubuf):
        raise ValueError("exposures must not be negative and LDUBUF percentages positive")
    users = tuple(p / 100.0 * exposures for p in ldubuf)
    held = tuple(math.floor(u) + 1 for u in users)
    return LoadingCapacity(exposures, ldubuf, users, held)  # type: ignore[arg-type]


def reorder_delay(resident_gb: float) -> tuple[float, float, float]:
    """Seconds a guest with *resident_gb* resident is stopped by one page reorder:
    (fastest, typical, slowest), from the calibrated 0.5 us per page +/- 40%."""
    if resident_gb < 0:
        raise ValueError("resident storage cannot be negative")
    path = load_calibration().path_us
    typical = resident_gb * PAGES_PER_GB * path["reorder_us_per_page"] / 1e6
    spread = path.get("reorder_jitter", 0.0)
    return typical * (1.0 - spread), typical, typical * (1.0 + spread)
