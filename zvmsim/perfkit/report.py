"""A Perfkit report: its identity, its DataFrame, and its text rendering."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from .domains import check_domains
from .reduce import Interval, RunData, merge
from .render import Column, header, table

__all__ = ["MEAN", "Report", "ReportSpec", "by_time_rows", "interval_label"]

MEAN = ">>Mean>>"


def interval_label(iv: Interval) -> str:
    """How a by-time report names an interval: the time it ended."""
    return iv.end.strftime("%H:%M:%S")


def by_time_rows(
    intervals: list[Interval], row: Callable[[Interval], dict], mean_gauges: bool = False
) -> list[dict]:
    """A by-time report's rows: ``>>Mean>>`` over all *intervals*, then one per interval."""
    whole = merge(intervals, mean_gauges=mean_gauges)
    return [
        {"interval_end": MEAN, **row(whole)},
        *({"interval_end": interval_label(iv), **row(iv)} for iv in intervals),
    ]


Builder = Callable[[RunData, list[Interval], "str | None"], pd.DataFrame]
Body = Callable[[pd.DataFrame], list[str]]


@dataclass(frozen=True)
class ReportSpec:
    """How to build and print one FCX report."""

    fcx: str
    name: str
    title: str
    build: Builder
    columns: list[Column]
    groups: str = ""
    by_time: bool = False
    per_user: bool = False  # `user` limits its rows to one guest or a pattern
    aliases: tuple[str, ...] = field(default_factory=tuple)
    body: Body | None = None  # a layout other than one table (settings, summaries)
    own: str = ""  # why zvmsim has this report, where Performance Toolkit has none
    data_only: tuple[tuple[str, str], ...] = ()  # (key, meaning) in the data, not printed

    def frame(
        self, run: RunData, *, user: str | None = None, interval: int | None = None
    ) -> pd.DataFrame:
        """The report's frame alone (what :meth:`make` builds before the text)."""
        check_domains(self.fcx, run)
        intervals = run.intervals if interval is None else [run.intervals[interval]]
        if self.by_time:
            return self.build(run, intervals, user)
        return self.build(run, [merge(intervals)], user)

    def make(self, run: RunData, *, user: str | None = None, interval: int | None = None) -> Report:
        """Build the report over the whole run, or over one interval (INTERIM)."""
        frame = self.frame(run, user=user, interval=interval)
        intervals = run.intervals if interval is None else [run.intervals[interval]]
        name = self.name if interval is None or self.by_time else f"INTERIM {self.name}"
        if user and self.by_time and self.per_user:
            name = f"{name} {user}"
        head = header(self.fcx, name, self.title, run.system, intervals[0].start, intervals[-1].end)
        note = frame.attrs.get("note")  # the report is not produced for this data
        if note:
            body = [note]
        elif self.body:
            body = self.body(frame)
        else:
            body = table(frame, self.columns, self.groups)
        return Report(self.fcx, self.name, self.title, frame, "\n".join(head + body))


@dataclass(frozen=True)
class Report:
    """One report: ``frame`` for analysis, ``text`` laid out like Perfkit."""

    fcx: str
    name: str
    title: str
    frame: pd.DataFrame
    text: str

    def __str__(self) -> str:
        return self.text

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:
        printer.text(self.text)  # type: ignore[attr-defined]
