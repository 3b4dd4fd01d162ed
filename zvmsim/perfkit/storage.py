"""Storage reports: FCX103 STORAGE and FCX146 AUXLOG.

STORAGE summarises real storage over the run: central frames (total, the
available list as the high-frequency samples saw it, in use), its
thresholds, expanded storage and paging slots (used at the end of the
period), the demand scan's work and the paging rates; and, when the minidisk
cache's storage is modelled (D0 R14 names where it lives), a minidisk cache
section: its size in central and in expanded storage, its read hit ratio
and the frames the arbiter took back from it for the demand scan. AUXLOG
gives the page slots on CP-owned volumes, and expanded storage, interval by
interval; its ``>>Mean>>`` row averages the interval values over time.

A run without modelled storage gives frames with the columns and no rows.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .paging import paging_rates
from .reduce import Interval, RunData
from .render import Column, Item, labelled
from .report import ReportSpec, by_time_rows

__all__ = ["FCX103", "FCX146", "frames_available", "has_storage", "storage_log"]

PAGES_PER_MB = 256


def has_storage(intervals: list[Interval]) -> bool:
    """Whether the monitor data carries real-storage records."""
    return any(iv.storage for iv in intervals)


def frames_available(st: dict) -> float:
    """Mean available-list length over the high-frequency samples (else the gauge)."""
    n = st.get("hf_samples", 0)
    return st["hf_available"] / n if n else float(st["available"])


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else float("nan")


def aux_usage(iv: Interval) -> dict:
    """Page slots and expanded storage: totals, used, percent used."""
    st = iv.storage
    slots = sum(p["slots"] for p in iv.pagevols.values())
    used = sum(p["used"] for p in iv.pagevols.values())
    return {
        "slots_total": slots,
        "slots_used": used,
        "pct_slots_used": _pct(used, slots),
        "xstore_total": st["xstore_pages"],
        "xstore_used": st["xstore_used"],
        "pct_xstore_used": _pct(st["xstore_used"], st["xstore_pages"]),
    }


def storage_log(
    intervals: list[Interval], row: Callable[[Interval], dict], keys: list[str]
) -> pd.DataFrame:
    """A by-time storage report: ``>>Mean>>`` then one row per interval."""
    if not has_storage(intervals):
        return pd.DataFrame(columns=keys)
    return pd.DataFrame(by_time_rows(intervals, row, mean_gauges=True), columns=keys)


def build_storage(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX103: one row summarising real, expanded and auxiliary storage."""
    keys = [it.key for _, items in _SECTIONS for it in items]
    iv = intervals[0]
    if not iv.storage:
        return pd.DataFrame(columns=keys)
    st, secs = iv.storage, iv.seconds
    available = frames_available(st)
    taken = st["pass1"] + st["pass2"] + st["emergency"]
    paging = paging_rates(iv)
    row = {
        "central_mb": st["frames"] / PAGES_PER_MB,
        "frames_total": st["frames"],
        "frames_available": available,
        "frames_in_use": st["frames"] - available,
        "pct_in_use": _pct(st["frames"] - available, st["frames"]),
        "wss_total": sum(u.get("wss", 0) for u in iv.users.values()),
        "low_threshold": st["low_threshold"],
        "high_threshold": st["high_threshold"],
        "times_empty": st["times_empty"] / secs,
        "scans": st["scans"] / secs,
        "frames_needed": st["frames_needed"] / secs,
        "frames_taken": taken / secs,
        "pass1_frames": st["pass1"] / secs,
        "pass2_frames": st["pass2"] / secs,
        "emergency_frames": st["emergency"] / secs,
        **aux_usage(iv),
        "xstore_migrate": st["migrated"] / secs,
        **{k: paging[k] for k in ("xstore_in", "xstore_out", "dasd_reads", "dasd_writes")},
    }
    if iv.storage63:  # z/VM 6.3: the aging list and the available lists by type
        row.update(storage63_summary(iv))
        keys += [it.key for _, items in _SECTIONS_63 for it in items]
    if run.mdc_home:  # the minidisk cache's storage, where the scenario models it
        row.update(mdc_summary(iv, run.mdc_home))
        keys += [it.key for it in _MDC_ITEMS]
    return pd.DataFrame([row], columns=keys)


def mdc_summary(iv: Interval, home: str) -> dict:
    """FCX103's minidisk cache section: where it lives, its size there, its hit ratio."""
    m, secs = iv.mdc, iv.seconds
    reads = m.get("reads", 0)
    size_mb = m.get("size_pages", 0) / PAGES_PER_MB
    return {
        "mdc_home": "Central" if home == "CENTRAL" else home,
        "mdc_central_mb": size_mb if home == "CENTRAL" else 0.0,
        "mdc_xstore_mb": m.get("xstore_pages", 0) / PAGES_PER_MB,
        "mdc_pct_hits": _pct(m.get("read_hits", 0), reads),
        "mdc_given_back": m.get("given_back", 0) / secs,
    }


def storage63_summary(iv: Interval) -> dict:
    """FCX103's z/VM 6.3 figures: the aging list, trial invalidation, the lists by type."""
    s63, secs = iv.storage63, iv.seconds
    n = iv.storage.get("hf_samples", 0)

    def free(name: str) -> float:
        return s63[f"hf_{name}"] / n if n else float(s63[f"free_{name}"])

    return {
        "agelist_target": s63["agelist_target"],
        "agelist_pages": s63["agelist_pages"],
        "agelist_ready": s63["agelist_written"],
        "early_writes_on": "Yes" if s63["early_writes"] >= 0.5 else "No",
        "ibr_pages": sum(u.get("ibr", 0) + u.get("pnr", 0) for u in iv.upag.values()),
        "inval_rate": s63["inval"] / secs,
        "reval_rate": s63["reval"] / secs,
        "ready_rate": s63["ready"] / secs,
        "not_ready_rate": s63["not_ready"] / secs,
        "early_rate": s63["early"] / secs,
        "free_a2g": free("a2g_sing") + free("a2g_cont"),
        "free_b2g": free("b2g_sing") + free("b2g_cont"),
        "cp_frames": s63["cp_frames"],
    }


def _storage_text(frame: pd.DataFrame) -> list[str]:
    if frame.empty:
        return ["No real-storage data in the monitor records."]
    row = frame.iloc[0].to_dict()
    sections = _SECTIONS
    if "agelist_target" in row:
        # z/VM 6.3: no passes, no reorder; the aging list and the lists by request type
        rest = [sec for sec in _SECTIONS if sec[0] != "Available list management:"]
        sections = rest[:1] + _SECTIONS_63 + rest[1:]
    if "mdc_home" in row:  # the minidisk cache's storage, after the rest (any release)
        sections = [*sections, ("Minidisk cache:", _MDC_ITEMS)]
    return labelled(row, sections)


def build_auxlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX146 rows: page slots and XSTORE use per interval."""
    return storage_log(intervals, aux_usage, [c.key for c in FCX146.columns])


_SECTIONS = [
    (
        "Main storage utilization:",
        [
            Item("central_mb", "Total real storage", "i", "MB"),
            Item("frames_total", "Frames total", "i", "frames"),
            Item("frames_available", "Frames on available list (mean)", "i", "frames"),
            Item("frames_in_use", "Frames in use", "i", "frames"),
            Item("pct_in_use", "Frames in use", "1", "%"),
            Item("wss_total", "Sum of user working sets", "i", "pages"),
        ],
    ),
    (
        "Available list management:",
        [
            Item("low_threshold", "Low threshold", "i", "frames"),
            Item("high_threshold", "High threshold", "i", "frames"),
            Item("times_empty", "Times list empty", "2", "/s"),
            Item("scans", "Demand scans", "2", "/s"),
            Item("frames_needed", "Frames needed by demand scans", "r", "/s"),
            Item("frames_taken", "Frames taken by demand scans", "r", "/s"),
            Item("pass1_frames", "  taken in pass 1", "r", "/s"),
            Item("pass2_frames", "  taken in pass 2", "r", "/s"),
            Item("emergency_frames", "  taken in emergency scan", "r", "/s"),
        ],
    ),
    (
        "Expanded storage:",
        [
            Item("xstore_total", "Total expanded storage", "i", "pages"),
            Item("xstore_used", "Used for paging", "i", "pages"),
            Item("pct_xstore_used", "Used for paging", "1", "%"),
            Item("xstore_out", "Page-outs to XSTORE (MS>X)", "r", "/s"),
            Item("xstore_in", "Page-ins from XSTORE (X>MS)", "r", "/s"),
            Item("xstore_migrate", "Migrations to DASD (X>DS)", "r", "/s"),
        ],
    ),
    (
        "Auxiliary storage (CP-owned PAGE volumes):",
        [
            Item("slots_total", "Page slots", "i", "slots"),
            Item("slots_used", "Page slots in use", "i", "slots"),
            Item("pct_slots_used", "Page slots in use", "1", "%"),
            Item("dasd_reads", "Page reads from DASD", "r", "/s"),
            Item("dasd_writes", "Page writes to DASD", "r", "/s"),
        ],
    ),
]

_MDC_ITEMS = [
    Item("mdc_home", "MDC storage in", "s", ""),
    Item("mdc_central_mb", "MDC size in central storage (mean)", "1", "MB"),
    Item("mdc_xstore_mb", "MDC size in expanded storage (mean)", "1", "MB"),
    Item("mdc_pct_hits", "MDC read hit ratio", "1", "%"),
    Item("mdc_given_back", "Frames taken from MDC by the arbiter", "r", "/s"),
]

_SECTIONS_63 = [
    (
        "Available list management (z/VM 6.3):",
        [
            Item("low_threshold", "Singles low threshold", "i", "frames"),
            Item("high_threshold", "Singles high threshold", "i", "frames"),
            Item("free_a2g", "Frames available above 2G (mean)", "i", "frames"),
            Item("free_b2g", "Frames available below 2G (mean)", "i", "frames"),
            Item("times_empty", "Times a request found no frame", "2", "/s"),
            Item("scans", "Demand scans", "2", "/s"),
            Item("cp_frames", "Frames in CP page-table blocks", "i", "frames"),
        ],
    ),
    (
        "Global aging list (z/VM 6.3):",
        [
            Item("agelist_target", "Target size", "i", "frames"),
            Item("agelist_pages", "Current size", "i", "frames"),
            Item("agelist_ready", "  ready to reclaim (copy on DASD)", "i", "frames"),
            Item("early_writes_on", "Early writes", "s", ""),
            Item("ibr_pages", "Invalid but resident in users' lists", "i", "pages"),
            Item("inval_rate", "Trial invalidations", "r", "/s"),
            Item("reval_rate", "Revalidations", "r", "/s"),
            Item("ready_rate", "Frames reclaimed ready", "r", "/s"),
            Item("not_ready_rate", "Frames reclaimed not ready", "r", "/s"),
            Item("early_rate", "Pages written early", "r", "/s"),
        ],
    ),
]

FCX103 = ReportSpec(
    fcx="FCX103",
    name="STORAGE",
    title="General Storage Utilization",
    build=build_storage,
    aliases=("STORAGE",),
    columns=[],
    body=_storage_text,
)

FCX146 = ReportSpec(
    fcx="FCX146",
    name="AUXLOG",
    title="Auxiliary Storage Utilization, by Time",
    build=build_auxlog,
    by_time=True,
    aliases=("AUXLOG",),
    groups="         <------ Page Slots ------> <--- Expanded Storage --->",
    columns=[
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        Column("slots_total", ("", "Total"), 9, "i"),
        Column("slots_used", ("", "Used"), 9, "i"),
        Column("pct_slots_used", ("", "Used%"), 6, "i"),
        Column("xstore_total", ("", "Total"), 9, "i"),
        Column("xstore_used", ("", "Used"), 9, "i"),
        Column("pct_xstore_used", ("", "Used%"), 6, "i"),
    ],
)
