"""Widgets and plots for the notebooks: one function call per dashboard."""

from __future__ import annotations

from ..perfkit.qdasd import query_dasd_details, query_pinned
from .bytime import by_time_plot
from .calculators import loading_capacity, paging_space, paging_space_for, reorder_delay
from .cecview import cec_view, cec_view_plot
from .checklist import checklist_text, duress_checklist
from .dashboard import (
    Dashboard,
    dashboard,
    emergency_scan_dashboard,
    grinch_dashboard,
    hipersockets_dashboard,
    mdc_flashcopy_dashboard,
    mdc_record_level_dashboard,
    memory63_dashboard,
    paging_difficulties_dashboard,
    pav_mdc_dashboard,
    prsm_dashboard,
    reorder_dashboard,
    streaming_dashboard,
    thrasher_dashboard,
    undersized_dashboard,
    vmcf_master_dashboard,
)
from .frameflow import frame_flow, frame_flow_plot
from .health import health_check, health_text
from .healthboard import HealthBoard, health_dashboard
from .history import compare_runs, load_run, save_run
from .knobsweep import knob_sweep, sweep_plot
from .monboard import MonwriteBoard, monwrite_dashboard
from .mystery import Mystery, mystery, mystery_widget
from .prsmview import cpu_categories, cpu_categories_text, overhead_sweep, overhead_sweep_plot
from .rawdata import fields_frame, file_summary, records_frame, sets_frame
from .reorderview import resident_vs_cfw, resident_vs_cfw_plot
from .runs import run_data, sweep
from .shareboard import cpu_split, cpu_split_plot, excess_share_dashboard
from .starter import StarterBoard, starter_dashboard
from .vmcfsweep import vmcf_sweep, vmcf_sweep_plot
from .xstore import real_vs_expanded_dashboard, txn_summary, xstore_plot, xstore_sweep

__all__ = [
    "by_time_plot",
    "StarterBoard",
    "starter_dashboard",
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
    "hipersockets_dashboard",
    "cec_view",
    "cec_view_plot",
    "compare_runs",
    "load_run",
    "save_run",
    "query_dasd_details",
    "query_pinned",
    "pav_mdc_dashboard",
    "streaming_dashboard",
    "thrasher_dashboard",
    "undersized_dashboard",
    "Mystery",
    "mystery",
    "mystery_widget",
    "MonwriteBoard",
    "monwrite_dashboard",
    "fields_frame",
    "file_summary",
    "records_frame",
    "sets_frame",
    "loading_capacity",
    "paging_space",
    "paging_space_for",
    "reorder_delay",
    "memory63_dashboard",
    "frame_flow",
    "frame_flow_plot",
    "excess_share_dashboard",
    "cpu_split",
    "cpu_split_plot",
    "vmcf_master_dashboard",
    "vmcf_sweep",
    "vmcf_sweep_plot",
    "prsm_dashboard",
    "cpu_categories",
    "cpu_categories_text",
    "overhead_sweep",
    "overhead_sweep_plot",
    "reorder_dashboard",
    "resident_vs_cfw",
    "resident_vs_cfw_plot",
    "knob_sweep",
    "sweep_plot",
    "mdc_record_level_dashboard",
    "mdc_flashcopy_dashboard",
    "run_data",
    "sweep",
    "real_vs_expanded_dashboard",
    "txn_summary",
    "xstore_sweep",
    "xstore_plot",
]
