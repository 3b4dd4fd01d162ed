"""FCX264 SXSUTIL — System Execution Space Utilization, by time.

From the D0 R21 record: the size of CP's execution space (524,287 pages),
the pages on its available queues and the pages in use, as Perfkit lays
them out: the used pages split into CP's identity-mapped pages and its
locked pages, those holding CP free storage and the others; then the
aliases (guest pages CP maps into the space), the pages backed by real
frames below and above 2 GB, the steal queue and the pages potentially
contiguous. Page counts are values at each sample; the ``>>Mean>>`` row is
their time-weighted mean. A monitor file without SXS records gives the
columns and no rows.

zvmsim's model of the space (``zvmsim.cp.sxs``) counts the used pages by
what holds them: the identity-mapped nucleus, CP's other fixed tables and
pools, the logged-on users' blocks, the real devices' blocks, DAT tables
and I/Os in flight. CP free storage holds the users', devices' and I/Os'
blocks, so they make Locked Free; the fixed tables and the DAT tables make
Locked Other. Those six counts stay in the data (csv/json) under their own
names. Aliases, frames below and above 2 GB, the steal queue and
contiguity are not simulated: dots, as Perfkit prints data it lacks.
"""

from __future__ import annotations

import pandas as pd

from .reduce import Interval, RunData
from .render import NOT_SIMULATED, Column, spans
from .report import ReportSpec, by_time_rows

__all__ = ["FCX264"]

NAN = float("nan")

# DataFrame column -> D0 R21 field (zvmsim's split of the used pages is kept in the data)
FIELDS = {
    "total_pages": "size",
    "avail_pages": "available",
    "used_pages": "used",
    "id_mapped": "id_mapped",
    "cp_fixed": "fixed",
    "user_pages": "users",
    "device_pages": "devices",
    "table_pages": "tables",
    "io_pages": "io",
}
# Perfkit's columns zvmsim does not simulate: printed as dots
BLANK = (
    "alias_total",
    "alias_cplock",
    "alias_no_owned",
    "backed_below_2gb",
    "backed_above_2gb",
    "steal_queue",
    "contiguous",
)


def _row(iv: Interval) -> dict:
    row = {col: float(iv.sxs[f]) for col, f in FIELDS.items()}
    row["locked_free"] = row["user_pages"] + row["device_pages"] + row["io_pages"]
    row["locked_other"] = row["cp_fixed"] + row["table_pages"]
    return {**row, **dict.fromkeys(BLANK, NAN)}


def build_sxsutil(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX264 rows: the >>Mean>> row, then one row per interval."""
    have = [iv for iv in intervals if iv.sxs]
    if not have:
        return pd.DataFrame(
            columns=["interval_end", *FIELDS, "locked_free", "locked_other", *BLANK]
        )
    return pd.DataFrame(by_time_rows(have, _row, mean_gauges=True))


_COLUMNS = [
    Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
    Column("total_pages", ("Total", "Pages"), 6, "i"),
    Column("avail_pages", ("Avail.", "Queues"), 6, "i"),
    Column("used_pages", ("", "Total"), 6, "i"),
    Column("id_mapped", ("ID", "Mapped"), 6, "i"),
    Column(
        "locked_free",
        ("Locked", "Free"),
        6,
        "i",
        origin="IBM; zvmsim's users', devices' and I/Os' blocks (CP free storage)",
    ),
    Column(
        "locked_other",
        ("Locked", "Other"),
        6,
        "i",
        origin="IBM; zvmsim's fixed tables and pools and DAT tables",
    ),
    Column("alias_total", ("", "Total"), 6, "i", origin=NOT_SIMULATED),
    Column("alias_cplock", ("", "CPLock"), 6, "i", origin=NOT_SIMULATED),
    Column("alias_no_owned", ("No-", "Owned"), 6, "i", origin=NOT_SIMULATED),
    Column("backed_below_2gb", ("", "<2GB"), 7, "i", origin=NOT_SIMULATED),
    Column("backed_above_2gb", ("", ">2GB"), 7, "i", origin=NOT_SIMULATED),
    Column("steal_queue", ("Steal", "Queue"), 6, "i", origin=NOT_SIMULATED),
    Column("contiguous", ("Poten.", "Contig"), 6, "i", origin=NOT_SIMULATED),
]

FCX264 = ReportSpec(
    fcx="FCX264",
    name="SXSUTIL",
    title="System Execution Space Utilization",
    build=build_sxsutil,
    by_time=True,
    aliases=("SXSUTIL",),
    groups=spans(
        _COLUMNS, ("total_pages", "contiguous", "System Execution Space Utilization (Pages)")
    )
    + "\n"
    + spans(
        _COLUMNS,
        ("used_pages", "locked_other", "Used"),
        ("alias_total", "alias_no_owned", "Aliases"),
        ("backed_below_2gb", "backed_above_2gb", "Pages Backed"),
    ),
    columns=_COLUMNS,
    data_only=(
        ("cp_fixed", "zvmsim's CP fixed tables and pools (part of Locked Other)"),
        ("table_pages", "zvmsim's DAT tables (part of Locked Other)"),
        ("user_pages", "zvmsim's logged-on users' blocks (part of Locked Free)"),
        ("device_pages", "zvmsim's real devices' blocks (part of Locked Free)"),
        ("io_pages", "zvmsim's I/Os in flight (part of Locked Free)"),
    ),
)
