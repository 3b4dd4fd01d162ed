"""Frames moving through z/VM 6.3's lists: where they are and how fast they move.

From a run's reports only: per monitor interval, where the frames are —
valid in the guests' own lists, invalid but resident there (trial
invalidated, or read and not yet touched), on the global aging list, free on
the available lists — and the flows between those places per second:
trial invalidation (valid to invalid), revalidation (back to valid),
aging (to the top of the aging list), reclaim ready or not ready (from its
bottom to the available lists) and page reads and instantiations (from the
available lists to valid).
"""

from __future__ import annotations

import pandas as pd

from ..api import report
from ..perfkit.reduce import RunData

__all__ = ["FLOWS", "PLACES", "frame_flow", "frame_flow_plot"]

PLACES = ("valid", "invalid", "aging list", "available")
FLOWS = (
    ("read or new", "available", "valid"),
    ("invalidated", "valid", "invalid"),
    ("revalidated", "invalid", "valid"),
    ("aged", "invalid", "aging list"),
    ("reclaimed", "aging list", "available"),
)


def frame_flow(run: RunData) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(places, flows): frames in each place and frames per second along each flow,
    one row per monitor interval (z/VM 6.3 data; empty frames otherwise)."""
    utl = report(run, "FCX293").frame
    age = report(run, "FCX297").frame
    steal = report(run, "FCX296").frame
    below = report(run, "FCX294").frame
    above = report(run, "FCX295").frame
    acts = report(run, "FCX291").frame
    if utl.empty or age.empty:
        return pd.DataFrame(columns=PLACES), pd.DataFrame(columns=[f[0] for f in FLOWS])
    ends = [e for e in age["interval_end"] if e != ">>Mean>>"]
    places, flows = [], []
    for end in ends:
        users = utl[utl["interval_end"] == end]
        free = [f[f["interval_end"] == end].iloc[0] for f in (below, above)]
        a = age[age["interval_end"] == end].iloc[0]
        s = steal[steal["interval_end"] == end].iloc[0]
        act = acts[acts["interval_end"] == end]
        places.append(
            {
                "valid": users["valid"].sum(),
                "invalid": users["ufo"].sum() + users["pnr"].sum(),
                "aging list": a["current"],
                "available": sum(f["avail_sing"] + f["avail_cont"] for f in free),
            }
        )
        flows.append(
            {
                "read or new": act["reads"].sum() + act["pgin"].sum() + act["inst"].sum(),
                "invalidated": s["inval"],
                "revalidated": s["reval"],
                "aged": s["pushed"],
                "reclaimed": s["ready"] + s["not_ready"],
            }
        )
    return pd.DataFrame(places, index=ends), pd.DataFrame(flows, index=ends)


def frame_flow_plot(run: RunData):  # noqa: ANN201 - a matplotlib Figure
    """Two panels: the frames that are not valid, by place, per interval (MB,
    stacked), and the mean flows between the places (frames per second)."""
    import matplotlib.pyplot as plt

    places, flows = frame_flow(run)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
    if places.empty:
        left.text(0.5, 0.5, "z/VM 6.3 data only", ha="center")
        right.axis("off")
        return fig
    mb = places / 256
    bottom = None
    for name in PLACES[1:]:  # valid frames dwarf the rest: their total goes in the title
        left.bar(mb.index, mb[name], bottom=bottom, label=name)
        bottom = mb[name] if bottom is None else bottom + mb[name]
    left.set_ylabel("MB of frames")
    left.set_xlabel("interval end")
    left.set_title(f"Frames on their way out (valid: {mb['valid'].mean() / 1024:.1f} GB)")
    left.legend(fontsize=8, loc="lower right")
    left.tick_params(axis="x", labelrotation=45, labelsize=7)
    mean = flows.mean()
    labels = [f"{name}\n{src} -> {dst}" for name, src, dst in FLOWS]
    right.barh(labels, [mean[f[0]] for f in FLOWS], color="tab:gray")
    right.invert_yaxis()
    right.set_xlabel("frames per second (mean)")
    right.set_title("How fast they move")
    right.tick_params(axis="y", labelsize=8)
    fig.tight_layout()
    return fig
