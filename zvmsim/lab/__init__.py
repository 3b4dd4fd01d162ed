"""Widgets and plots for the notebooks: one function call per dashboard."""

from __future__ import annotations

from .checklist import checklist_text, duress_checklist
from .dashboard import (
    Dashboard,
    dashboard,
    emergency_scan_dashboard,
    pav_mdc_dashboard,
    thrasher_dashboard,
)

__all__ = [
    "Dashboard",
    "checklist_text",
    "dashboard",
    "duress_checklist",
    "emergency_scan_dashboard",
    "pav_mdc_dashboard",
    "thrasher_dashboard",
]
