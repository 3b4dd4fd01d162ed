"""The collection dashboard: MONITOR settings in, a MONWRITE file and its reports out.

One control per knob of the ``monwrite`` scenario (sample interval, HF rate,
the sample domains, scheduler events). For each setting it shows what the
monitor file would hold (records by domain and kind, blocks, bytes) and the
reports a student would run on it: MONSET, the system summary by time (its
rows are the sample intervals) and the batch job's wait states by time
(shares of HF samples). A report whose domain was switched off says so in
its place.
"""

from __future__ import annotations

from functools import lru_cache

from ..api import report, simulate
from ..perfkit.domains import DomainNotCollected
from ..perfkit.reduce import RunData, reduce
from .dashboard import Dashboard
from .rawdata import file_summary

__all__ = ["MonwriteBoard", "monwrite_dashboard"]

REPORTS = ("FCX149", "FCX225", "FCX164")
USER = "BATCH1"


@lru_cache(maxsize=32)
def _collect(knobs: tuple, seed: int) -> tuple[str, RunData]:
    data = simulate("monwrite", dict(knobs), seed=seed)
    line, table = file_summary(data)
    return f"{line}\n\n{table.to_string(index=False)}", reduce(data)


class MonwriteBoard(Dashboard):
    """The monwrite scenario's knobs; the file's make-up and MONSET, SYSSUMLG, USTATLOG."""

    def __init__(self, seed: int = 1) -> None:
        super().__init__("monwrite", list(REPORTS), seed=seed)

    def _view(self, knobs: tuple) -> str:
        summary, run = _collect(knobs, self.seed)
        parts = [summary]
        for code in self.reports:
            try:
                parts.append(report(run, code, user=USER if code == "FCX164" else None).text)
            except DomainNotCollected as exc:
                parts.append(str(exc))
        return "\n\n".join(parts)


def monwrite_dashboard(seed: int = 1) -> MonwriteBoard:
    """Collecting MONWRITE data: turn the MONITOR settings, see the file and the reports."""
    return MonwriteBoard(seed)
