"""CP's view of a device's control-unit cache: ``QUERY DASD DETAILS`` and ``QUERY PINNED``.

Not Perfkit reports but the CP commands an analyst types next, answered from
the monitor records the way CP would answer them on the live system: the
device configuration (D1 R6) and the cache status (D6 R30, the last one
written). A device whose control unit has pinned data for it shows PINNED Y
at the device and at the subsystem, and its caching off.
"""

from __future__ import annotations

from .reduce import RunData

__all__ = ["query_dasd_details", "query_pinned"]


def query_dasd_details(run: RunData, addr: str) -> str:
    """The answer to ``QUERY DASD DETAILS addr``."""
    addr = addr.upper()
    dev = run.devices.get(addr)
    if dev is None:
        return f"HCPQDD040E Device {addr} does not exist"
    status = run.cache_status.get(dev.base or addr)
    cca = f"{int(addr, 16) & 0x3F:02X}"  # the unit address within its control unit
    cutype = status.cu_type if status is not None else dev.control_unit
    lines = [f"{addr} CUTYPE = {cutype}, DEVTYPE = {dev.devtype}, VOLSER = {dev.volser}"]
    if status is None:
        lines.append("    CACHE DETAILS:  not available (the control unit reports no cache)")
    else:
        lines += [
            "    CACHE DETAILS:  CACHE  NVS  CFW  DFW  PINNED  CONCOPY",
            f"      -SUBSYSTEM    {status.sub_cache:<5}  {status.sub_nvs:<3}  {status.sub_cfw:<3}"
            f"  {'-':<3}  {status.sub_pinned:<6}  N",
            f"      -DEVICE       {status.dev_cache:<5}  {'-':<3}  {'-':<3}  {status.dev_dfw:<3}"
            f"  {status.dev_pinned:<6}  N",
        ]
    lines += [f"DEVICE DETAILS:  CCA = {cca}, DDC = {cca}", "DUPLEX DETAILS:  SIMPLEX"]
    return "\n".join(lines)


def query_pinned(run: RunData) -> str:
    """The answer to ``QUERY PINNED``: the devices with pinned data, or none."""
    pinned = [s for _, s in sorted(run.cache_status.items()) if s.dev_pinned == "Y"]
    if not pinned:
        return "No pinned data"
    return "\n".join(
        f"DASD {s.rdev} {s.volser} has pinned data in control unit {s.cu_name} ({s.cu_type})"
        for s in pinned
    )
