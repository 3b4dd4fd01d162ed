"""Widgets and plots for the notebooks: one function call per dashboard."""

from __future__ import annotations

from .dashboard import Dashboard, dashboard, pav_mdc_dashboard

__all__ = ["Dashboard", "dashboard", "pav_mdc_dashboard"]
