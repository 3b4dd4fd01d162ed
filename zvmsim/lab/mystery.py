"""A mystery system: one hidden problem from the case studies, diagnosed from reports alone.

``mystery(seed)`` draws a problem (the seed decides which, so a class can
share one, or each student can have their own), runs the scenario that
shows it under a neutral name, and hands back a :class:`Mystery` whose
reports carry no case-study title or system name. Their headers would still
give the case away by its date, CPU model and serial (a student who did the
PAV notebook knows "2007/03/20" and "2094-S18"), so :func:`disguise` moves
the run to a date and machine drawn from the seed, none of them a case
study's. ``check(diagnosis)`` says whether the diagnosis is right, and why.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import html
import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import ipywidgets as widgets

from ..api import report as build_report
from ..errors import ZvmsimError
from ..perfkit.reduce import RunData
from ..scenario import load_scenario, scenario_names
from .runs import run_data

__all__ = ["DIAGNOSES", "Mystery", "disguise", "mystery", "mystery_widget", "neutral_identity"]


@dataclass(frozen=True)
class Problem:
    """A hidden problem: the scenario that shows it and what gives it away."""

    scenario: str
    knobs: tuple[tuple[str, Any], ...]
    evidence: str  # which reports show it, for the explanation after a guess


DIAGNOSES: dict[str, str] = {
    "healthy": "nothing is wrong: the system is fine",
    "storage shortage": "too little real storage for the guests: heavy paging, high T/V",
    "thrashing guest": "one guest re-reads memory that was stolen while it slept",
    "emergency scan": "CP's demand scan has to run emergency passes (VDISK pages held)",
    "pav and mdc": "MDC's full-track reads are not PAV-eligible: a queue at the base, idle aliases",
    "escon pending": "paging volumes wait for a free ESCON channel path (pending time)",
    "pinned data": "pinned data turned the control unit's cache off for one volume",
}

PROBLEMS: dict[str, Problem] = {
    "healthy": Problem("fine", (), "FCX225 shows modest busy, T/V near 1, no paging"),
    "storage shortage": Problem(
        "undersized-lpar", (), "FCX225: T/V 1.25 and over a thousand pages/s; FCX109 queues"
    ),
    "thrashing guest": Problem(
        "thrasher", (), "FCX114/FCX164: one guest (LIN102) in page wait nearly always"
    ),
    "emergency scan": Problem(
        "emergency-scan", (), "FCX259: most frames come from the emergency pass"
    ),
    "pav and mdc": Problem(
        "pav-mdc", (("mdc", True),), "FCX108: Qued at the base E700 while E7FC-E7FE do nothing"
    ),
    "escon pending": Problem(
        "paging-difficulties", (), "FCX108: 45+ ms of Pend on the paging volumes; FCX161 ESCON"
    ),
    "pinned data": Problem(
        "grinch", (("pinned_data", True),), "FCX108: 1742 Disc ~20 ms, no FCX177 row for it"
    ),
}

HIDDEN_TITLE = "Mystery system"
HIDDEN_SYSID = "MYSTERY"
# IBM machine types and models no case study ran on (a test keeps it so)
NEUTRAL_MODELS = (
    "2064-116", "2066-0A2", "2084-C24", "2086-B04", "2096-R07", "2098-I04",
    "2817-M32", "2818-M10", "2827-H20", "2828-H06", "2964-N30", "2965-N20",
)  # fmt: skip
NEUTRAL_FIRST_DAY = _dt.date(2004, 1, 1)
NEUTRAL_DAYS = 11 * 365  # 2004 to 2014


@dataclass(frozen=True)
class Identity:
    """What a report header says about the machine and the day: a disguise."""

    start: _dt.datetime
    cpu_model: str
    serial: str


@cache
def _case_identities() -> tuple[frozenset[_dt.date], frozenset[str]]:
    """The case studies' run dates and serials, which a disguise must not reuse."""
    systems = [load_scenario(name).config().system for name in scenario_names()]
    return frozenset(s.start.date() for s in systems), frozenset(s.serial for s in systems)


def neutral_identity(seed: int) -> Identity:
    """A date (a weekday, working hours), CPU model and serial drawn from *seed*,
    none of them a case study's."""
    dates, serials = _case_identities()
    rng = random.Random(f"mystery identity {seed}")
    model = rng.choice(NEUTRAL_MODELS)
    while True:
        day = NEUTRAL_FIRST_DAY + _dt.timedelta(days=rng.randrange(NEUTRAL_DAYS))
        if day.weekday() < 5 and day not in dates:
            break
    while (serial := f"{rng.randrange(16**5):05X}") in serials:
        pass
    start = _dt.datetime.combine(day, _dt.time(rng.randrange(8, 17), rng.randrange(0, 60, 5)))
    return Identity(start, model, serial)


def disguise(run: RunData, seed: int) -> RunData:
    """*run* with a neutral name, title, CPU model, serial and date drawn from *seed*.

    Every interval moves by the same amount, so lengths and times of day
    relative to the start stay; the monitor counters are untouched. The
    partition z/VM runs in, named after the system, takes the neutral name
    too. *run* itself is not changed.
    """
    who = neutral_identity(seed)
    shift = who.start - run.intervals[0].start
    system = dataclasses.replace(
        run.system,
        title=HIDDEN_TITLE,
        sysid=HIDDEN_SYSID,
        cpu_model=who.cpu_model,
        serial=who.serial,
    )
    intervals = [
        dataclasses.replace(iv, start=iv.start + shift, end=iv.end + shift) for iv in run.intervals
    ]
    lpars = {
        lpu: dataclasses.replace(d, partition=HIDDEN_SYSID)
        if d.partition == run.system.sysid
        else d
        for lpu, d in run.lpars.items()
    }
    partition = run.partition
    if partition is not None and partition.name == run.system.sysid:
        partition = dataclasses.replace(partition, name=HIDDEN_SYSID)
    return dataclasses.replace(
        run, system=system, intervals=intervals, lpars=lpars, partition=partition
    )


class Mystery:
    """One mystery system: its reports, and a check of a diagnosis."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._answer = random.Random(seed).choice(sorted(PROBLEMS))
        problem = PROBLEMS[self._answer]
        # a progress bar in a notebook, naming no scenario
        run = run_data(problem.scenario, dict(problem.knobs), seed=seed, label="mystery system")
        self.run: RunData = disguise(run, seed)

    def report(self, code: str, user: str | None = None) -> str:
        """The mystery system's report *code* (``FCX225``, ``USTAT``...), as text."""
        return build_report(self.run, code, user=user).text

    def show(self, *codes: str) -> None:
        """Print the reports named."""
        print("\n\n".join(self.report(c) for c in codes))

    def check(self, diagnosis: str) -> str:
        """Whether *diagnosis* (one of :data:`DIAGNOSES`) is right, with the evidence."""
        key = diagnosis.strip().lower()
        if key not in DIAGNOSES:
            choices = ", ".join(f"'{d}'" for d in DIAGNOSES)
            raise ZvmsimError(f"unknown diagnosis '{diagnosis}' (one of {choices})")
        problem = PROBLEMS[self._answer]
        if key == self._answer:
            return f"Right: {DIAGNOSES[key]}. The evidence: {problem.evidence}."
        return (
            f"Not this one: the system does not show '{key}'. "
            "Look again at the reports the case studies used (FCX225, FCX114, FCX108, "
            "FCX109, FCX126) and ask which one looks unlike a healthy system."
        )

    def reveal(self) -> str:
        """The answer (for the instructor, or after giving up)."""
        problem = PROBLEMS[self._answer]
        return f"{self._answer}: {DIAGNOSES[self._answer]} ({problem.evidence})"


def mystery(seed: int = 1) -> Mystery:
    """A mystery system; the seed decides the hidden problem and the run."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ZvmsimError(f"seed must be a whole number 0 or more, not {seed!r}")
    return Mystery(seed)


def mystery_widget(m: Mystery) -> widgets.VBox:
    """A report picker and a diagnosis checker for mystery *m*."""
    from ..perfkit.catalog import REPORTS

    picker = widgets.Dropdown(
        options=[f"{spec.fcx} {spec.name}" for spec in REPORTS.values()],
        value="FCX225 SYSSUMLG",
        description="report",
    )
    shown = widgets.HTML()
    answer = widgets.Dropdown(options=list(DIAGNOSES), description="diagnosis")
    button = widgets.Button(description="check")
    verdict = widgets.HTML()

    def show_report(_: Any = None) -> None:
        code = picker.value.split()[0]
        try:
            text = m.report(code)
        except ZvmsimError as exc:
            text = str(exc)
        shown.value = f"<pre style='font-size: 12px'>{html.escape(text)}</pre>"

    def check(_: Any) -> None:
        verdict.value = f"<b>{html.escape(m.check(answer.value))}</b>"

    picker.observe(show_report, names="value")
    button.on_click(check)
    show_report()
    return widgets.VBox([picker, shown, widgets.HBox([answer, button]), verdict])
