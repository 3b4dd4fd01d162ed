"""The System Execution Space: CP's own 2 GB address space, and what fills it.

CP runs in a host-logical address space of 524,287 pages. Part of it is
fixed (the nucleus, identity-mapped; CP's other tables and pools), the rest
grows with what CP manages: a VMDBK and its related blocks for every
logged-on user, an RDEV and its blocks for every real device, DAT-table
pages for the resident storage of every address space, and work areas for
every I/O in flight. What is not used is on the available queues.

The costs per object come from ``data/calibration/cp.toml`` ``[sxs]``. The
usage is computed when the monitor samples it; nothing else in CP depends
on it yet (a full SXS would make CP wait, which no scenario reaches).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..calibration import SxsModel

__all__ = ["SxsUsage", "sxs_usage"]


@dataclass(frozen=True, slots=True)
class SxsUsage:
    """SXS pages by what holds them, at one moment."""

    size: int
    id_mapped: int
    fixed: int
    users: int
    devices: int
    tables: int
    io: int

    @property
    def used(self) -> int:
        """Pages in use: the sum of the parts."""
        return self.id_mapped + self.fixed + self.users + self.devices + self.tables + self.io

    @property
    def available(self) -> int:
        """Pages on the available queues (none once the parts fill the space)."""
        return max(0, self.size - self.used)


def sxs_usage(
    model: SxsModel, users: int, devices: int, resident: Iterable[int], io_in_flight: int
) -> SxsUsage:
    """SXS usage with *users* logged on, *devices* real devices (RDEVs, PAV aliases
    included), address spaces holding *resident* pages each and *io_in_flight* I/Os.

    An address space with any resident page has at least one page of tables.
    """
    per = model.resident_per_table_page
    tables = sum(-(-r // per) for r in resident if r > 0)
    return SxsUsage(
        size=model.size_pages,
        id_mapped=model.id_mapped_pages,
        fixed=model.fixed_pages,
        users=model.user_pages * users,
        devices=model.device_pages * devices,
        tables=tables,
        io=model.io_pages * io_in_flight,
    )
