"""REORDMON and REORDLOG: how often CP reorders each guest's pages, and what it costs.

Before z/VM 6.3, CP periodically *reorders* a guest: it walks the guest's
user-frame-owned list and resets the reference bit of every resident frame,
and the guest (all its virtual processors) waits meanwhile. IBM's REORDMON
tool shows from monitor data how often that happens; Performance Toolkit has
no such screen, so this is ours, in the tool's spirit. Per user: whether CP
reorders it (SET REORDER), the reorders in the period, their rate and mean
time, the share of the period the guest was stopped, its resident storage
(pages at the end of the period, as FCX113 shows them) and the cost per GB
resident. The last columns put the same stops beside the high-frequency
samples: %CFW (FCX114's console function wait, where a guest that wants to
run waits for its reorder) and the CFW time per reorder per GB resident. A
guest idle during its reorder is not sampled in CFW, so the two agree only
"somewhat", as IBM says.

REORDLOG gives the reorders, the stopped share and %CFW per monitor interval
for each user. Neither is produced for z/VM 6.3 data: 6.3 has no reorder.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label
from .user import users_in
from .zvm63 import is_zvm63, note_frame

__all__ = ["REORDLOG", "REORDMON"]

PAGES_PER_GB = 262144
NAN = float("nan")


def _note(run: RunData, name: str) -> str | None:
    if not is_zvm63(run):
        return None
    level = run.system.zvm_level
    return f"{name}: z/VM 6.3 has no page reorder (this data is from z/VM {level})."


def _setting(iv: Interval, userid: str) -> str:
    """SET REORDER for the user as its last sample says (no samples: reorder is off)."""
    return "ON" if iv.upag.get(userid, {}).get("reorder_on", 0) else "OFF"


def _costs(iv: Interval, userid: str) -> dict:
    """A user's reorders in *iv*: counts, times, and the CFW samples beside them."""
    users, upag, seconds = iv.users[userid], iv.upag.get(userid, {}), iv.seconds
    reorders = upag.get("reorders", 0)
    stopped_ms = upag.get("reorder_us", 0) / 1000.0
    resident = users.get("resident", 0)
    gb = resident / PAGES_PER_GB
    samples = users.get("hf_samples", 0)
    pct_cfw = 100.0 * users.get("hf_cfw", 0) / samples if samples else NAN
    avg_ms = stopped_ms / reorders if reorders else NAN
    cfw_ms = pct_cfw / 100.0 * seconds * 1000.0 / reorders if reorders else NAN
    return {
        "reorders": reorders,
        "per_min": 60.0 * reorders / seconds,
        "gap_s": seconds / reorders if reorders else NAN,
        "avg_ms": avg_ms,
        "pct_stopped": 100.0 * stopped_ms / 1000.0 / seconds,
        "resident": resident,
        "resident_gb": gb,
        "ms_per_gb_resident": avg_ms / gb if gb else NAN,
        "pct_cfw": pct_cfw,
        "cfw_ms_per_gb_resident": cfw_ms / gb if gb else NAN,
    }


def _guests(run: RunData, iv: Interval, user: str | None) -> list[str]:
    """Users with an address space of their own (guests, not service machines without one)."""
    out = []
    for u in users_in(run, iv, user):
        cfg = run.user_config.get(u)
        if (cfg.storage_pages if cfg is not None else iv.users[u].get("resident", 0)) > 0:
            out.append(u)
    return out


def build_reordmon(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """REORDMON rows: one per guest over the whole period."""
    keys = [c.key for c in REORDMON.columns]
    note = _note(run, "REORDMON")
    if note:
        return note_frame(keys, note)
    iv = intervals[0]
    rows = [
        {
            "userid": u,
            "reorder": _setting(iv, u),
            **_costs(iv, u),
        }
        for u in _guests(run, iv, user)
    ]
    return pd.DataFrame(rows, columns=keys)


def build_reordlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """REORDLOG rows: for each guest, a ``>>Mean>>`` row and one row per interval."""
    keys = [c.key for c in REORDLOG.columns]
    note = _note(run, "REORDLOG")
    if note:
        return note_frame(keys, note)
    whole = merge(intervals, mean_gauges=True)
    rows = []
    for u in _guests(run, whole, user):
        rows.append({"userid": u, "interval_end": MEAN, **_costs(whole, u)})
        rows += [
            {"userid": u, "interval_end": interval_label(iv), **_costs(iv, u)}
            for iv in intervals
            if u in iv.users
        ]
    return pd.DataFrame(rows, columns=keys)


_COST_COLUMNS = [
    Column("reorders", ("", "Reord"), 5, "i"),
    Column("per_min", ("Reord", "/min"), 5, "1"),
    Column("gap_s", ("Every", "sec"), 5, "1"),
    Column("avg_ms", ("Mean", "msec"), 6, "i"),
    Column("pct_stopped", ("%Time", "Stopd"), 5, "1"),
]
_CFW_COLUMNS = [
    Column("pct_cfw", ("", "%CFW"), 5, "1"),
    Column("cfw_ms_per_gb_resident", ("CFW ms", "/GB"), 6, "i"),
]

REORDMON = ReportSpec(
    fcx="REORDMON",
    own="IBM's REORDMON tool, not Performance Toolkit, shows reorders",
    name="REORDMON",
    title="Page Reorder by User (zvmsim's own, after IBM's REORDMON tool)",
    build=build_reordmon,
    aliases=("REORDER",),
    groups=f"{'':18}<----------- Reorders ----------> <-- Resident --> {'':6}<-Sampled->",
    per_user=True,
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("reorder", ("Set", "Reord"), 5, "s"),
        *_COST_COLUMNS,
        Column("resident", ("", "Pages"), 8, "i"),
        Column("resident_gb", ("", "GB"), 5, "2"),
        Column("ms_per_gb_resident", ("msec", "/GB"), 5, "i"),
        *_CFW_COLUMNS,
    ],
)

REORDLOG = ReportSpec(
    fcx="REORDLOG",
    own="IBM's REORDMON tool, not Performance Toolkit, shows reorders",
    name="REORDLOG",
    title="Page Reorder by User and Time (zvmsim's own)",
    build=build_reordlog,
    by_time=True,
    per_user=True,
    aliases=("REORDERLOG",),
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        *_COST_COLUMNS,
        Column("resident_gb", ("Resid", "GB"), 5, "2"),
        *_CFW_COLUMNS,
    ],
)
