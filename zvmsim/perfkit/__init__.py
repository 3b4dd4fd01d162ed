"""Performance Toolkit, our own: reports computed from monitor records only.

This package imports nothing from the simulator (``cp``, ``hardware``,
``guests``, ``machine``): the monitor records are the only bridge.
"""

from __future__ import annotations

from .catalog import REPORTS, find_report
from .reduce import Interval, RunData, reduce
from .report import Report, ReportSpec

__all__ = ["REPORTS", "Interval", "Report", "ReportSpec", "RunData", "find_report", "reduce"]
