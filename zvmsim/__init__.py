"""zvmsim — a z/VM system emulated end to end, for learning performance analysis.

Simulate a case study, get CP Monitor records, read them with our own
Performance Toolkit::

    >>> import zvmsim
    >>> data = zvmsim.simulate("pav-mdc", {"mdc": "on"})
    >>> print(zvmsim.report(data, "FCX108"))       # doctest: +SKIP
"""

from __future__ import annotations

from . import native  # noqa: F401 - first: it installs the compiled modules, if built
from .api import monwrite, reduced_run, report, reports, simulate
from .errors import ZvmsimError
from .machine import Machine
from .monitor.stream import MonitorData
from .perfkit import REPORTS, Report
from .scenario import Knob, Scenario, load_scenario, scenario_names

__all__ = [
    "REPORTS",
    "Knob",
    "Machine",
    "MonitorData",
    "Report",
    "Scenario",
    "ZvmsimError",
    "load_scenario",
    "monwrite",
    "reduced_run",
    "report",
    "reports",
    "scenario_names",
    "simulate",
]

__version__ = "0.1.0"
