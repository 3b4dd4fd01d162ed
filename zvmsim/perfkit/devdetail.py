"""FCX110 DEVICE details — "Detailed Analysis for Device xxxx".

Perfkit's drill-down on one real device: its type and volser, how many
minidisk links it carries and the cylinder it last sought to, the I/O rate
and each part of the service time (function pending, disconnected,
connected), the response time with CP's queue, the queue itself and how busy
the device was; its channel paths; the control unit's cache figures for it,
or a line saying the control unit is not caching it; and the *minidisk
table*: each minidisk's extent, the users linking it and the virtual I/Os
per second each of them did to it (MDIO/s) — who is doing the I/O.

The report has one row per base RDEV that did I/O or carries links. The
device figures are FCX108's (D6 R3); the cache status comes from D6 R30, the
cache figures from D6 R4 (absent while caching is off), the minidisk table
from D6 R31. The table travels with the DataFrame as ``frame.attrs["mdisks"]``
(one row per link), and the ``users`` column lists the users who did I/O to
the device. :func:`details_text` gives one device's page. For a PAV volume the
figures are the base exposure's; its aliases have their own FCX108 rows.
"""

from __future__ import annotations

import pandas as pd

from .device import IO_TIMES, device_rows
from .reduce import Interval, RunData
from .render import Column, fmt_number
from .report import ReportSpec

__all__ = ["FCX110", "details_text"]

NAN = float("nan")


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else NAN


def _links(run: RunData, iv: Interval, addr: str) -> list[dict]:
    """The minidisk table of device *addr*: one row per link, by extent then user."""
    rows = []
    for key, rec in run.link_info.items():
        if rec.rdev != addr:
            continue
        vio = iv.links.get(key, {}).get("vio", 0)
        rows.append(
            {
                "addr": addr,
                "first_cyl": rec.first_cyl,
                "last_cyl": rec.last_cyl,
                "owner": rec.owner,
                "userid": rec.userid,
                "vaddr": rec.vaddr,
                "status": "owner" if rec.userid == rec.owner else "RR",
                "mdio_rate": vio / iv.seconds,
            }
        )
    return sorted(rows, key=lambda r: (r["first_cyl"], r["status"] != "owner", r["userid"]))


def _cache(run: RunData, iv: Interval, addr: str) -> dict:
    status = run.cache_status.get(addr)
    c = iv.caches.get(addr)
    row = {
        "caching": "" if status is None else status.dev_cache,
        "pinned": "" if status is None else status.dev_pinned,
        "last_seek": status.last_seek if status is not None else pd.NA,
        "cache_io_rate": NAN,
        "pct_read": NAN,
        "pct_read_hits": NAN,
        "pct_write_hits": NAN,
    }
    if c is not None:
        reads, writes = c.get("reads", 0), c.get("writes", 0)
        row.update(
            cache_io_rate=(reads + writes) / iv.seconds,
            pct_read=_pct(reads, reads + writes),
            pct_read_hits=_pct(c.get("read_hits", 0), reads),
            pct_write_hits=_pct(c.get("dfw_hits", 0), writes),
        )
    return row


def build_devdetail(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX110 rows: one per base device with I/O or links; the minidisk table in attrs."""
    iv = intervals[0]
    rows, tables = [], []
    for dev in device_rows(run, iv):
        addr = dev["addr"]
        cfg = run.devices[addr]
        links = _links(run, iv, addr)
        if cfg.base or (dev["io_rate"] == 0 and not links):
            continue
        doing = sorted({r["userid"] for r in links if r["mdio_rate"] > 0})
        rows.append(
            {
                "addr": addr,
                "volser": cfg.volser,
                "type": cfg.devtype,
                "links": cfg.links,
                "io_rate": dev["io_rate"],
                "avoid_rate": dev["avoid_rate"],
                "pend_ms": dev["pend_ms"],
                "disc_ms": dev["disc_ms"],
                "conn_ms": dev["conn_ms"],
                "serv_ms": dev["serv_ms"],
                "resp_ms": dev["resp_ms"],
                "cuwt_ms": dev["cuwt_ms"],
                "req_qued": dev["req_qued"],
                "pct_busy": dev["pct_busy"],
                "paths": " ".join(p for p in cfg.chpids.split(",") if p),
                **_cache(run, iv, addr),
                "mdio_rate": sum(r["mdio_rate"] for r in links),
                "users": " ".join(doing),
            }
        )
        tables += links
    frame = pd.DataFrame(rows, columns=[c.key for c in FCX110.columns] + _EXTRA)
    frame.attrs["mdisks"] = pd.DataFrame(tables, columns=_MDISK_KEYS)
    return frame


def _ms(value: float) -> str:
    return f"{fmt_number(value, 6, '1'):>6}ms"


def _num(value: object, width: int, style: str) -> str:
    return f"{fmt_number(value, width, style):>{width}}"


def _page(dev: dict, mdisks: pd.DataFrame) -> list[str]:
    """One device's details, laid out like Perfkit's FCX110."""
    seek = dev["last_seek"]
    lines = [
        f"Detailed Analysis for Device {dev['addr']} ( SYSTEM )",
        "",
        f"Device type :  {dev['type']:>8}   Function pend.: {_ms(dev['pend_ms'])}"
        f"   Device busy   : {_num(dev['pct_busy'], 6, 'i')}%",
        f"VOLSER      :  {dev['volser']:>8}   Disconnected  : {_ms(dev['disc_ms'])}"
        f"   Req. queued   : {_num(dev['req_qued'], 6, '1')}",
        f"Nr. of LINKs:  {_num(dev['links'], 8, 'i')}   Connected     : {_ms(dev['conn_ms'])}"
        f"   CU queue time : {_ms(dev['cuwt_ms'])}",
        f"Last SEEK   :  {_num(None if seek is pd.NA else seek, 8, 'i')}"
        f"   Service time  : {_ms(dev['serv_ms'])}",
        f"SSCH rate/s :  {_num(dev['io_rate'], 8, 'r')}   Response time : {_ms(dev['resp_ms'])}",
        f"Avoided/s   :  {_num(dev['avoid_rate'], 8, '1')}",
        "",
        f"Path(s) to device {dev['addr']}: {dev['paths']}",
        "",
    ]
    if dev["caching"]:
        lines.append(f"{'Device':<14}Overall CU-Cache Performance   Caching  Pinned")
        lines.append("ADDR VOLSER     IO/S %READ %RDHIT %WRHIT")
        if dev["caching"] == "Y":
            figures = " ".join(
                _num(dev[k], w, s)
                for k, w, s in (
                    ("cache_io_rate", 8, "r"),
                    ("pct_read", 5, "i"),
                    ("pct_read_hits", 6, "i"),
                    ("pct_write_hits", 6, "i"),
                )
            )
        else:
            figures = f"{'.0':>8} {'0':>5} {'0':>6} {'0':>6}"
        lines.append(
            f"{dev['addr']} {dev['volser']:<6} {figures}   {dev['caching']:>7}  {dev['pinned']:>6}"
        )
        if dev["caching"] != "Y":
            lines.append("  the control unit is not caching this device: 'NORMAL' I/O only")
        lines.append("")
    lines.append("MDISK Extent  Userid   Addr Status   MDIO/s")
    shown = set()
    for rec in mdisks.to_dict("records"):
        extent = (rec["first_cyl"], rec["last_cyl"])
        head = f"{extent[0]:>5} - {extent[1]:<5}" if extent not in shown else " " * 13
        shown.add(extent)
        lines.append(
            f"{head} {rec['userid']:<8} {rec['vaddr']:<4} {rec['status']:<6} "
            f"{_num(rec['mdio_rate'], 7, '1')}"
        )
    return lines


def _body(frame: pd.DataFrame) -> list[str]:
    mdisks = frame.attrs.get("mdisks", pd.DataFrame(columns=_MDISK_KEYS))
    lines: list[str] = []
    for dev in frame.to_dict("records"):
        if lines:
            lines += ["", "-" * 60, ""]
        lines += _page(dev, mdisks[mdisks["addr"] == dev["addr"]])
    return lines or ["No DASD activity."]


def details_text(run: RunData, addr: str) -> str:
    """FCX110 for one device only (the page Perfkit shows for ``DEVICE addr``)."""
    frame = FCX110.build(run, [run.whole], None)
    mdisks = frame.attrs["mdisks"]
    rows = frame[frame["addr"] == addr.upper()].to_dict("records")
    if not rows:
        return f"No device details for {addr.upper()}."
    return "\n".join(_page(rows[0], mdisks[mdisks["addr"] == addr.upper()]))


_MDISK_KEYS = ["addr", "first_cyl", "last_cyl", "owner", "userid", "vaddr", "status", "mdio_rate"]
_EXTRA = ["paths", "caching", "pinned", "last_seek", "mdio_rate", "users"]

FCX110 = ReportSpec(
    fcx="FCX110",
    name="DEVICE DETAILS",
    title="Detailed Analysis for Devices",
    build=build_devdetail,
    aliases=("DEVDETL", "DEVICE DETAILS", "DEVICE DETAIL"),
    columns=[
        Column("addr", ("", "Addr"), 4, "s", left=True),
        Column("volser", ("", "Volser"), 6, "s", left=True),
        Column("type", ("", "Type"), 8, "s", left=True),
        Column("links", ("", "Links"), 5, "i"),
        Column("io_rate", ("", "I/O"), 6, "r"),
        *IO_TIMES,
        Column("cache_io_rate", ("", "CIO/S"), 6, "r"),
        Column("pct_read", ("", "%READ"), 5, "i"),
        Column("pct_read_hits", ("", "%RDHIT"), 6, "i"),
        Column("pct_write_hits", ("", "%WRHIT"), 6, "i"),
    ],
    body=_body,
)
