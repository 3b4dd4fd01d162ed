"""Dashboards: turn a scenario's knobs, watch its Performance Toolkit reports change.

``dashboard(scenario, reports)`` builds one control per knob and an output
area with the chosen reports in Perfkit's layout. Every change re-runs the
simulation (results are cached per setting, so going back is instant). A
setting the scenario refuses shows its one-line reason instead of reports.
Notebooks call one function per dashboard, e.g. :func:`pav_mdc_dashboard`.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import ipywidgets as widgets

from ..api import reduced_run
from ..api import reports as build_reports
from ..errors import ZvmsimError
from ..perfkit.qdasd import query_dasd_details, query_pinned
from ..perfkit.reduce import RunData
from ..scenario import load_scenario
from .checklist import checklist_text
from .controls import control_for
from .health import health_text
from .prsmview import cpu_categories_text

__all__ = [
    "Dashboard",
    "dashboard",
    "emergency_scan_dashboard",
    "paging_difficulties_dashboard",
    "grinch_dashboard",
    "hipersockets_dashboard",
    "streaming_dashboard",
    "memory63_dashboard",
    "mdc_record_level_dashboard",
    "mdc_flashcopy_dashboard",
    "pav_mdc_dashboard",
    "prsm_dashboard",
    "thrasher_dashboard",
    "undersized_dashboard",
    "vmcf_master_dashboard",
    "reorder_dashboard",
    "WINDOWS",
]

# The window a dashboard simulates where the scenario's own is too long to answer a
# knob within a second (issue 20), in seconds after the scenario's warm-up. Every
# target row of the scenario passes over it too, or tests/test_dashboard_windows.py
# lists the row with its reason; the notebooks say so beside the dashboard.
WINDOWS: dict[str, float] = {
    "undersized-lpar": 90.0,
    "paging-difficulties": 60.0,
    "memory63": 60.0,
    "reorder": 60.0,
    "real-vs-expanded": 40.0,
    "mdc-record-level": 20.0,
    "mdc-flashcopy": 20.0,
    "prsm-overhead": 6.0,
    "vmcf-master": 2.0,
}

_PRE = "<pre style='font-family: monospace; font-size: 12px; line-height: 1.25; margin: 0'>{}</pre>"


# the progress bar of the dashboard whose run is going now (runs are cached, so
# the bar cannot be an argument of _run)
_BAR: list[widgets.FloatProgress] = []


def _progress(done: float) -> None:
    for bar in _BAR:
        bar.value = done


def _progress_bar() -> widgets.FloatProgress:
    """A bar that is shown only while a new setting runs."""
    return widgets.FloatProgress(
        value=0.0, min=0.0, max=1.0, description="simulating", layout={"display": "none"}
    )


def _show_run(board: Any, compute: Callable[[], str], shown: str) -> None:
    """Run *compute* under *board*'s progress bar and show its text below the knobs.

    *board* has ``progress``, ``status`` and ``output`` widgets and ``text`` and
    ``error`` strings. A bad setting becomes one red line naming the problem
    (a bug too, rather than a traceback); otherwise *shown* goes on the status line.
    """
    board.progress.value = 0.0
    board.progress.layout.display = ""  # shown while a new setting runs
    _BAR[:] = [board.progress]
    try:
        board.text, board.error = compute(), ""
    except ZvmsimError as exc:
        board.text, board.error = "", str(exc)
    except Exception as exc:  # a bug: say so in one line rather than a traceback
        board.text = ""
        board.error = f"internal error: {type(exc).__name__}: {exc}".splitlines()[0]
    finally:
        _BAR.clear()
        board.progress.layout.display = "none"
    if board.error:
        board.status.value = f"<span style='color:#b00'>zvmsim: {html.escape(board.error)}</span>"
    else:
        board.status.value = f"<code>{html.escape(shown)}</code>"
    board.output.value = _PRE.format(html.escape(board.text))


@lru_cache(maxsize=32)
def _run(scenario: str, knobs: tuple, seed: int, duration: float | None = None) -> RunData:
    return reduced_run(scenario, dict(knobs), seed=seed, duration=duration, progress=_progress)


def _qdasd_text(run: RunData) -> str:
    """What CP says about the busiest device's cache (QUERY PINNED, QUERY DASD DETAILS)."""
    rates = {
        a: sum(iv.devices.get(a, {}).get("ssch", 0) for iv in run.intervals)
        for a in run.cache_status
    }
    lines = ["q pinned", query_pinned(run)]
    if rates:
        addr = max(sorted(rates), key=lambda a: rates[a])
        lines += ["", f"q dasd details {addr}", query_dasd_details(run, addr)]
    return "\n".join(lines)


EXTRAS: dict[str, Callable[[RunData], str]] = {
    "checklist": checklist_text,
    "health": health_text,
    "qdasd": _qdasd_text,
    "categories": cpu_categories_text,
}


def _view_text(
    scenario: str,
    knobs: tuple,
    seed: int,
    codes: tuple[str, ...],
    extras: tuple[str, ...],
    user: str | None,
    duration: float | None = None,
) -> str:
    run = _run(scenario, knobs, seed, duration)
    parts = [r.text for r in build_reports(run, *codes, user=user)]
    parts += [EXTRAS[name](run) for name in extras]
    return "\n\n".join(parts)


class Dashboard:
    """A live view of one scenario: its knob controls and reports."""

    def __init__(
        self,
        scenario: str,
        reports: list[str],
        *,
        seed: int = 1,
        knobs: dict[str, Any] | None = None,
        extras: tuple[str, ...] = (),
        user: str | None = None,
        duration: float | None = None,
    ) -> None:
        self.scenario = load_scenario(scenario)
        if duration is None:  # the dashboard's window, else the scenario's own
            duration = WINDOWS.get(self.scenario.name)
        self.duration = duration  # seconds simulated (None: the scenario's own)
        self.user = user
        self.reports = tuple(reports)
        unknown = [name for name in extras if name not in EXTRAS]
        if unknown:
            known = ", ".join(EXTRAS)
            raise ZvmsimError(f"unknown dashboard extra '{unknown[0]}' (extras: {known})")
        self.extras = tuple(extras)
        self.seed = seed
        start = self.scenario.resolve(knobs)
        self.controls = {
            name: control_for(knob, start[name]) for name, knob in self.scenario.knobs.items()
        }
        self.status = widgets.HTML()
        self.progress = _progress_bar()
        self.output = widgets.HTML()
        self._following = False  # while knobs follow another knob's new value
        for name, control in self.controls.items():
            control.observe(lambda change, name=name: self._changed(change, name), names="value")
        title = widgets.HTML(f"<b>{html.escape(self.scenario.title)}</b>")
        self.widget = widgets.VBox(
            [title, *self.controls.values(), self.status, self.progress, self.output]
        )
        self.text = ""
        self.error = ""
        self.refresh()

    def values(self) -> dict[str, Any]:
        """The knob values the controls show now."""
        return {name: c.value for name, c in self.controls.items()}

    def _view(self, knobs: tuple) -> str:
        """The text to show for *knobs* (sorted name, value pairs)."""
        return _view_text(
            self.scenario.name,
            knobs,
            self.seed,
            self.reports,
            self.extras,
            self.user,
            self.duration,
        )

    def refresh(self) -> None:
        """Re-run the simulation for the current settings and show the reports."""

        def compute() -> str:
            return self._view(tuple(sorted(self.scenario.resolve(self.values()).items())))

        shown = ", ".join(f"{k}={self.scenario.knobs[k].show(v)}" for k, v in self.values().items())
        if self.duration is not None:  # a window of its own: say so beside the knobs
            shown += f" (over {self.duration:g} s)"
        _show_run(self, compute, shown)

    def _changed(self, change: dict, name: str = "") -> None:
        if self._following:
            return
        follow = self.scenario.defaults_for(name, change["new"]) if name else {}
        if follow:  # e.g. the release knob brings the storage that release had
            self._following = True
            try:
                for key, value in follow.items():
                    self.controls[key].value = value
            finally:
                self._following = False
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)


def dashboard(scenario: str, reports: list[str], **options: Any) -> Dashboard:
    """A dashboard for *scenario* showing *reports* (FCX numbers or names).

    Options as for :class:`Dashboard`: ``seed``, ``knobs`` (starting values),
    ``extras`` (``("checklist",)``), ``user`` (a userid or a pattern such as
    ``LIN1*`` limiting per-user reports) and ``duration`` (seconds to simulate,
    when the scenario's own window is too long for a dashboard).
    """
    return Dashboard(scenario, reports, **options)


def pav_mdc_dashboard(seed: int = 1) -> Dashboard:
    """The PAV and MDC case: MDC, the VM64199 fix, aliases, users; FCX108 and FCX112."""
    return dashboard("pav-mdc", ["FCX108", "FCX112"], seed=seed)


def thrasher_dashboard(seed: int = 1) -> Dashboard:
    """The thrasher case: thrashers, paging volumes, HFS interval; paging and wait reports."""
    return dashboard(
        "thrasher",
        ["FCX109", "FCX163", "FCX164"],
        seed=seed,
        extras=("checklist",),
        user="LIN1*",
    )


def emergency_scan_dashboard(seed: int = 1) -> Dashboard:
    """The emergency-scan case: swap target, experiment VDISKs; DEMNDLOG, TXN, the checklist."""
    return dashboard(
        "emergency-scan", ["FCX259", "FCX147", "TXN"], seed=seed, extras=("checklist",)
    )


def undersized_dashboard(seed: int = 1) -> Dashboard:
    """The undersized LPAR: IFLs, storage, paging volumes, the sibling, whose day's workload.

    Shows SYSSUMLG (FCX225), the paging volumes (FCX109), the partitions
    (FCX126) and the health check, over the dashboard's window (:data:`WINDOWS`,
    shorter than the scenario's own; every target row of the two days passes
    over it as well).
    """
    return dashboard(
        "undersized-lpar", ["FCX225", "FCX109", "FCX126"], seed=seed, extras=("health",)
    )


def paging_difficulties_dashboard(seed: int = 1) -> Dashboard:
    """Paging difficulties: phase, ESCON CHPIDs, channel type.

    Shows the paging volumes' I/O (FCX108), their page areas (FCX109), the
    channels (FCX161) and the system summary with its T/V (FCX225).
    """
    reports = ["FCX108", "FCX109", "FCX161", "FCX225"]
    return dashboard("paging-difficulties", reports, seed=seed)


def grinch_dashboard(seed: int = 1) -> Dashboard:
    """The Grinch case: pinned data on or off, the day; DEVICE, CACHEXT, USTAT and CP's answers."""
    return dashboard("grinch", ["FCX108", "FCX177", "FCX114"], seed=seed, extras=("qdasd",))


def hipersockets_dashboard(seed: int = 1) -> Dashboard:
    """HiperSockets in a CPU-constrained CEC: transport, standard CPs, z/OS load.

    Shows the transactions and pings as the applications time them (TXN),
    the HiperSockets traffic (FCX231) and the CEC view by PU type (CECLOG).
    """
    return dashboard("hipersockets", ["TXN", "FCX231", "CECLOG"], seed=seed)


def streaming_dashboard(seed: int = 1) -> Dashboard:
    """Streaming through an OSA: MTU, dedicated OSA or VSWITCH, connections, IFLs.

    Shows the application's megabytes per second (TXN), the processors
    (FCX100) and what the VSWITCH carried (FCX240).
    """
    return dashboard("streaming", ["TXN", "FCX100", "FCX240"], seed=seed)


def memory63_dashboard(seed: int = 1) -> Dashboard:
    """z/VM 6.3 memory management: release, workload, storage, aging list, early writes.

    Shows the system summary (FCX225), the transactions (TXN), the aging list
    (FCX297), the demand scan (FCX296), the users' pages (FCX292) and the
    available-list lock (FCX265). Choosing a release also sets the storage it
    was measured with.
    """
    reports = ["FCX225", "TXN", "FCX297", "FCX296", "FCX292", "FCX265"]
    return dashboard("memory63", reports, seed=seed)


def vmcf_master_dashboard(seed: int = 1) -> Dashboard:
    """VMCF and the master processor: release, processors, SMSG share, pairs, client work.

    Shows VMCF activity with the master's and the alternates' busy (VMCFLOG)
    and the processors with the master marked (FCX100), over two seconds.
    """
    return dashboard("vmcf-master", ["VMCFLOG", "FCX100"], seed=seed)


def prsm_dashboard(seed: int = 1) -> Dashboard:
    """Excessive PR/SM overhead: logical PUs of z/VM's and the other partitions, physical
    PUs, Diag x'44' or x'9C', the guests' demand.

    Shows where the processor time went (guests, CP, PR/SM), the CEC view by PU
    type with PR/SM's overhead (CECLOG) and the scheduler lock (FCX265 LOCKLOG).
    """
    return dashboard("prsm-overhead", ["CECLOG", "FCX265"], seed=seed, extras=("categories",))


def reorder_dashboard(seed: int = 1) -> Dashboard:
    """Page reorder: guest size, how many big guests, SET REORDER, request rate, release.

    Shows the requests as the applications time them (TXN) and how often CP
    reorders each guest, for how long, against its resident storage and its
    %CFW (REORDMON).
    """
    return dashboard("reorder", ["TXN", "REORDMON"], seed=seed)


def mdc_record_level_dashboard(seed: int = 1) -> Dashboard:
    """Record-level or track MDC: MDC, workload, file size, MDC size.

    Shows the jobs' requests and response times (TXN), the minidisk cache
    (FCX138: hit ratio, inserts) and the database volume (FCX108: I/O rate,
    avoided I/O, connect time), over the dashboard's window (:data:`WINDOWS`).
    """
    return dashboard("mdc-record-level", ["TXN", "FCX138", "FCX108"], seed=seed)


def mdc_flashcopy_dashboard(seed: int = 1) -> Dashboard:
    """MDC and FlashCopy: FlashCopy rate, MDC on the targets, MDC size.

    Shows the CMS users' transactions (TXN), the system summary with T/V and
    capture ratio (FCX225), the processors' system time (FCX100) and the
    minidisk cache's invalidations (FCX138), over the dashboard's window
    (:data:`WINDOWS`).
    """
    reports = ["TXN", "FCX225", "FCX100", "FCX138"]
    return dashboard("mdc-flashcopy", reports, seed=seed)
