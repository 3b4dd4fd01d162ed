"""Resident storage against console function wait: the seed's reorder diagnosis.

IBM's advice for suspected page reorder trouble is to put two Performance
Toolkit figures side by side: each guest's resident pages (FCX113 UPAGE)
and its share of samples in console function wait (FCX114 USTAT %CFW). A
guest is stopped for about 130 ms per GB it has resident each time CP
reorders it, so the big guests should stand out on both. This view takes
both from the reports (and the reorder count from REORDMON) and draws them
as one point per guest.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..api import report
from ..perfkit.reduce import RunData

__all__ = ["resident_vs_cfw", "resident_vs_cfw_plot"]

PAGES_PER_GB = 262144


def resident_vs_cfw(run: RunData) -> pd.DataFrame:
    """One row per guest: resident GB (FCX113), %CFW (FCX114) and reorders (REORDMON)."""
    upage = report(run, "FCX113").frame
    ustat = report(run, "FCX114").frame.set_index("userid")
    reord = report(run, "REORDMON").frame.set_index("userid")
    rows = []
    for rec in upage.to_dict("records"):
        user = rec["userid"]
        if user.startswith(">") or not rec["resident"] or user not in ustat.index:
            continue
        rows.append(
            {
                "userid": user,
                "resident_gb": rec["resident"] / PAGES_PER_GB,
                "pct_cfw": float(ustat.loc[user, "pct_cfw"]),
                "reorders": int(reord.loc[user, "reorders"]) if user in reord.index else 0,
            }
        )
    return pd.DataFrame(rows, columns=["userid", "resident_gb", "pct_cfw", "reorders"])


def resident_vs_cfw_plot(run: RunData, ax: Any = None, title: str | None = None) -> Any:
    """Scatter of %CFW against resident GB, one labelled point per guest; the axes."""
    import matplotlib.pyplot as plt

    table = resident_vs_cfw(run)
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.6))
    ax.scatter(table["resident_gb"], table["pct_cfw"], s=20 + 4 * table["reorders"])
    for rec in table.to_dict("records"):
        ax.annotate(
            rec["userid"],
            (rec["resident_gb"], rec["pct_cfw"]),
            fontsize=7,
            xytext=(3, 3),
            textcoords="offset points",
        )
    ax.set_xlabel("resident GB (FCX113 UPAGE)")
    ax.set_ylabel("%CFW (FCX114 USTAT)")
    ax.set_title(title or "Resident storage against console function wait")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    return ax
