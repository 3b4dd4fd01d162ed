"""Monitor records about DASD beyond the measurement block: cache status and minidisk links.

* one D6 R30 record (:class:`~.records.MRIODCST`) per volume on a control
  unit whose cache is simulated: what ``QUERY DASD DETAILS`` would answer
  (caching on or off, DASD fast write, pinned data) and the cylinder its
  drive last moved to;
* one D6 R31 record (:class:`~.records.MRIODLNK`) per user's link to a
  minidisk, with its extent and the user's virtual I/Os to it.

The collector writes the status records at MONITOR START and both kinds in
every sample set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .records import MRIODCST, MRIODLNK, Record

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["cache_status_records", "link_records"]


def _yn(flag: bool) -> str:
    return "Y" if flag else "N"


def cache_status_records(machine: Machine, tod: int) -> list[Record]:
    """The cache status of every volume whose control unit's cache is simulated."""
    out: list[Record] = []
    cfg = machine.config
    pinned_units = {
        vol.cache.cu.name for vol in machine.volumes.values() if vol.cache and vol.cache.pinned
    }
    for volser, vol in machine.volumes.items():
        cache = vol.cache
        if cache is None:
            continue
        unit = cache.cu
        cu_type = cfg.volumes[volser].control_unit if volser in cfg.volumes else ""
        drive = cache.drive
        out.append(
            MRIODCST(
                tod=tod,
                rdev=vol.base.addr,
                volser=volser,
                cu_name=unit.name,
                cu_type=cu_type,
                sub_cache="Y",
                sub_nvs="Y",
                sub_cfw="Y",
                sub_pinned=_yn(unit.name in pinned_units),
                dev_cache=_yn(cache.caching),
                dev_dfw=_yn(cache.caching),
                dev_pinned=_yn(cache.pinned),
                cache_mb=int(unit.cache_mb),
                nvs_mb=int(unit.nvs_mb),
                last_seek=drive.cylinder if drive is not None else 0,
            )
        )
    return out


def link_records(machine: Machine, tod: int) -> list[Record]:
    """Every user's link to every minidisk its workload uses, with its virtual I/Os."""
    out: list[Record] = []
    cfg = machine.config
    for w in machine.workloads:
        userid = w.vm.userid
        for name in w.links:
            md = cfg.minidisks[name]
            disk = machine.minidisks[name]
            out.append(
                MRIODLNK(
                    tod=tod,
                    link=f"{userid} {md.owner} {md.vaddr}",
                    rdev=cfg.volumes[md.volser].base,
                    userid=userid,
                    owner=md.owner,
                    vaddr=md.vaddr,
                    first_cyl=md.start_cyl,
                    last_cyl=md.start_cyl + md.cylinders - 1,
                    vio=disk.vio_by.get(userid, 0),
                )
            )
    return out
