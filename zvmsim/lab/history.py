"""Keeping history: save a run's reports, compare two saved runs device by device.

A performance analyst who keeps the reports of ordinary days can answer
"what changed?" the day something goes wrong. :func:`save_run` writes the
chosen reports of one run as CSV files (one per report) plus a small JSON
file naming the run, its date and its reports, in a folder of its own;
:func:`load_run` reads them back; :func:`compare_runs` lines up two saved
runs entity by entity (devices by address, users by userid) and shows each
figure before, after, and how it changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..api import reports as build_reports
from ..errors import ZvmsimError
from ..monitor.stream import MonitorData
from ..perfkit.reduce import RunData, reduce

__all__ = ["compare_runs", "load_run", "save_run"]

_KEYS = ("addr", "userid", "chpid", "partition", "interval_end")  # how rows are named
_META = "run.json"


def save_run(
    data: MonitorData | RunData,
    folder: str | Path,
    label: str,
    reports: tuple[str, ...] = ("FCX108", "FCX177", "FCX114"),
) -> Path:
    """Save *reports* of one run under ``folder/label``; return that folder."""
    run = data if isinstance(data, RunData) else reduce(data)
    where = Path(folder) / label
    where.mkdir(parents=True, exist_ok=True)
    saved = []
    for rep in build_reports(run, *reports):
        rep.frame.to_csv(where / f"{rep.fcx}.csv", index=False)
        saved.append(rep.fcx)
    start = run.intervals[0].start.isoformat(sep=" ")
    meta = {"label": label, "start": start, "reports": saved}
    (where / _META).write_text(json.dumps(meta, indent=1) + "\n")
    return where


def load_run(folder: str | Path) -> dict[str, pd.DataFrame]:
    """The reports saved in *folder* by :func:`save_run`, by FCX number."""
    where = Path(folder)
    try:
        meta = json.loads((where / _META).read_text())
    except (OSError, ValueError):
        raise ZvmsimError(f"{where} holds no saved run") from None
    return {
        fcx: pd.read_csv(where / f"{fcx}.csv", dtype={k: str for k in _KEYS})
        for fcx in meta["reports"]
    }


def compare_runs(
    before: str | Path,
    after: str | Path,
    report: str = "FCX108",
    columns: tuple[str, ...] = ("io_rate", "pend_ms", "disc_ms", "conn_ms", "resp_ms", "pct_busy"),
) -> pd.DataFrame:
    """Two saved runs side by side: per entity, each column before, after and the change.

    A device (or user) in only one of the runs shows dots on the other side;
    so does a report one run has no row for (FCX177 loses a device whose
    caching is off).
    """
    old, new = load_run(before).get(report), load_run(after).get(report)
    if old is None or new is None:
        raise ZvmsimError(f"both runs must have saved {report}")
    key = next((k for k in _KEYS if k in old.columns), None)
    if key is None:
        raise ZvmsimError(f"{report} has no column naming its rows")
    missing = [c for c in columns if c not in old.columns]
    if missing:
        raise ZvmsimError(f"{report} has no column '{missing[0]}'")
    both = old[[key, *columns]].merge(
        new[[key, *columns]], on=key, how="outer", suffixes=("_before", "_after")
    )
    out = pd.DataFrame({key: both[key]})
    for col in columns:
        out[f"{col}_before"] = both[f"{col}_before"]
        out[f"{col}_after"] = both[f"{col}_after"]
        out[f"{col}_change"] = both[f"{col}_after"] - both[f"{col}_before"]
    return out.sort_values(key, kind="stable").reset_index(drop=True)
