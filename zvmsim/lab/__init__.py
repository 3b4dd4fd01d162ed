"""Widgets and plots for the notebooks: one function call per dashboard."""

from __future__ import annotations

from ..perfkit.qdasd import query_dasd_details, query_pinned
from .calculators import loading_capacity, paging_space, paging_space_for, reorder_delay
from .checklist import checklist_text, duress_checklist
from .dashboard import (
    Dashboard,
    dashboard,
    emergency_scan_dashboard,
    grinch_dashboard,
    memory63_dashboard,
    paging_difficulties_dashboard,
    pav_mdc_dashboard,
    thrasher_dashboard,
    undersized_dashboard,
)
from .frameflow import frame_flow, frame_flow_plot
from .health import health_check, health_text
from .healthboard import HealthBoard, health_dashboard
from .history import compare_runs, load_run, save_run

__all__ = [
    "Dashboard",
    "HealthBoard",
    "checklist_text",
    "dashboard",
    "duress_checklist",
    "health_check",
    "health_dashboard",
    "health_text",
    "emergency_scan_dashboard",
    "paging_difficulties_dashboard",
    "grinch_dashboard",
    "compare_runs",
    "load_run",
    "save_run",
    "query_dasd_details",
    "query_pinned",
    "pav_mdc_dashboard",
    "thrasher_dashboard",
    "undersized_dashboard",
    "loading_capacity",
    "paging_space",
    "paging_space_for",
    "reorder_delay",
    "memory63_dashboard",
    "frame_flow",
    "frame_flow_plot",
]
