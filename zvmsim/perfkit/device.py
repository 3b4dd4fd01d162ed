"""FCX108 DEVICE — General I/O Device Load and Performance.

One row per RDEV. A PAV alias shows its base as ``->E700``. The times are
per I/O from the measurement-block counters; *Resp* adds the time I/Os
waited in CP's queue (which lives at the base RDEV); *Req. Qued* is the
average of the high-frequency samples of that queue; *%Busy* is the share of
the interval the exposure spent serving I/O. The ``>>All DASD<<`` row is the
average per device. A CP-owned volume's label carries Perfkit's `` CP``
suffix. Perfkit's last columns show dots: SEEK Cyls (the average seek
distance, from CP's seek data), Recov SSCH (error recovery I/Os) and the
I/O throttle's settings and delays (SET THROTTLE) — zvmsim simulates none
of them.

CP times the queue wait of a guest's (or a page) I/O, but not of the
minidisk cache's own I/Os, which the queue samples still count (our
hypothesis, zvmsim.cp.io): where only such requests queue, Req. Qued is
more than I/O rate x (Resp - Serv). The PAV and MDC case's base without APAR
VM64199 showed Req. Qued 2.9 at 564 I/O/s with Resp only 0.2 ms above Serv
(see notebook 06).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import NOT_SIMULATED, Column, spans
from .report import ReportSpec

__all__ = ["FCX108", "ALL_DASD", "IO_TIMES", "device_rows"]

ALL_DASD = ">>All DASD<<"
_DOTS = ("seek_cyls", "recov_ssch", "throttle_set", "throttle_delay")  # not simulated
_TIMES = ("pend_us", "disc_us", "conn_us", "queue_us", "cuwt_us")


def device_rows(run: RunData, iv: Interval) -> list[dict]:
    """FCX108's figures for every RDEV over *iv*, in device-number order."""
    rows = []
    for rdev in sorted(run.devices):
        cfg = run.devices[rdev]
        c = iv.devices.get(rdev, {})
        n = c.get("ssch", 0)
        ms = {k: c.get(k, 0) / n / 1000.0 if n else 0.0 for k in _TIMES}
        pend, disc, conn = ms["pend_us"], ms["disc_us"], ms["conn_us"]
        serv = pend + disc + conn
        hf = c.get("hf_samples", 0)
        rows.append(
            {
                "addr": rdev,
                "base_addr": cfg.base or rdev,
                "type": f"->{cfg.base}" if cfg.base else cfg.devtype.split("-")[0],
                "volser": cfg.volser,
                "label": f"{cfg.volser} CP" if cfg.usage else cfg.volser,
                "mdisk_links": cfg.links,
                "paths": len([p for p in cfg.chpids.split(",") if p]),
                "io_rate": n / iv.seconds,
                "avoid_rate": c.get("avoided", 0) / iv.seconds,
                "pend_ms": pend,
                "disc_ms": disc,
                "conn_ms": conn,
                "serv_ms": serv,
                "resp_ms": serv + ms["queue_us"],
                "cuwt_ms": ms["cuwt_us"],
                "req_qued": c.get("hf_queued", 0) / hf if hf else 0.0,
                "pct_busy": 100.0 * n * serv / 1000.0 / iv.seconds,
                "pct_read": 100.0 * c.get("reads", 0) / n if n else 0.0,
                **dict.fromkeys(_DOTS, float("nan")),
            }
        )
    return rows


def _all_dasd(rows: list[dict]) -> dict:
    count = len(rows)
    ios = sum(r["io_rate"] for r in rows)
    out = {
        "addr": ALL_DASD,
        "base_addr": "",
        "type": "",
        "volser": "",
        "label": "",
        "mdisk_links": float("nan"),
        "paths": float("nan"),
    }
    for key in ("io_rate", "avoid_rate", "req_qued", "pct_busy"):
        out[key] = sum(r[key] for r in rows) / count
    for key in ("pend_ms", "disc_ms", "conn_ms", "serv_ms", "resp_ms", "cuwt_ms", "pct_read"):
        out[key] = sum(r[key] * r["io_rate"] for r in rows) / ios if ios else 0.0
    out.update(dict.fromkeys(_DOTS, float("nan")))
    return out


def build_device(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX108 rows for the (single, merged) interval given."""
    rows = device_rows(run, intervals[0])
    if not rows:
        return pd.DataFrame(columns=[c.key for c in FCX108.columns])
    columns = list(rows[0])
    frame = pd.DataFrame([_all_dasd(rows), *rows], columns=columns)
    for key in ("mdisk_links", "paths"):
        frame[key] = frame[key].astype("Int64")
    return frame


# The columns every device report shares: avoided I/O, the I/O's time in its
# phases (msec), CP's queue and the device's busy.
IO_TIMES = [
    Column("avoid_rate", ("", "Avoid"), 5, "1"),
    Column("pend_ms", ("", "Pend"), 4, "1"),
    Column("disc_ms", ("", "Disc"), 4, "1"),
    Column("conn_ms", ("", "Conn"), 4, "1"),
    Column("serv_ms", ("", "Serv"), 4, "1"),
    Column("resp_ms", ("", "Resp"), 4, "1"),
    Column("cuwt_ms", ("", "CUWt"), 4, "1"),
    Column("req_qued", ("", "Qued"), 5, "1"),
    Column("pct_busy", ("", "Busy"), 4, "i"),
]

_COLUMNS = [
    Column("addr", ("", "Addr"), 12, "s", left=True),
    Column("type", ("", "Type"), 6, "s", left=True),
    Column("label", ("", "Label/ID"), 9, "s", left=True),
    Column("mdisk_links", ("Mdisk", "Links"), 5, "i"),
    Column("paths", ("Pa-", "ths"), 3, "i"),
    Column("io_rate", ("", "I/O"), 6, "r"),
    *IO_TIMES,
    Column("pct_read", ("", "READ"), 4, "i"),
    Column("seek_cyls", ("SEEK", "Cyls"), 5, "i", origin=NOT_SIMULATED),
    Column("recov_ssch", ("Recov", "SSCH"), 5, "i", origin=NOT_SIMULATED),
    Column("throttle_set", ("", "Set/s"), 5, "1", origin=NOT_SIMULATED),
    Column("throttle_delay", ("", "Dly/s"), 5, "1", origin=NOT_SIMULATED),
]

FCX108 = ReportSpec(
    fcx="FCX108",
    name="DEVICE",
    title="General I/O Device Load and Performance",
    build=build_device,
    aliases=("DEVICE",),
    groups=spans(
        _COLUMNS,
        ("addr", "label", "Device Descr."),
        ("io_rate", "avoid_rate", "Rate/s"),
        ("pend_ms", "cuwt_ms", "Time (msec)"),
        ("req_qued", "req_qued", "Req."),
        ("pct_busy", "pct_read", "Percent"),
        ("throttle_set", "throttle_delay", "Throttle"),
    ),
    columns=_COLUMNS,
    data_only=(
        ("base_addr", "the RDEV's base (itself, or a PAV alias's base)"),
        ("volser", "the volume serial, without the ` CP` suffix of the label"),
    ),
)
