"""Performance Toolkit's look: report headers, column groups, number style.

Perfkit prints numbers without a leading zero (``.3``), switches to whole
numbers when a value is large, and scales by ``k``/``M`` when even that does
not fit the column. Missing values are dots. Rendering only formats a
report's DataFrame; it computes nothing.
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

__all__ = ["Column", "Item", "fmt_number", "header", "labelled", "spans", "table"]

RULE_WIDTH = 100


@dataclass(frozen=True)
class Column:
    """One printed column: DataFrame key, header lines, width and style.

    *style* is ``s`` (text), ``y`` (a flag: Yes/No), ``i`` (whole number),
    ``1``/``2``/``3`` (fixed decimals), ``r`` (rate: one decimal below 100,
    whole above) or ``p`` (pages shown as bytes with a suffix, ``7787M``, as
    Performance Toolkit shows storage for z/VM 6.3). A first header line
    longer than the column spans the columns after it (``<-Seconds->`` over
    TCPU and VCPU), which then leave theirs empty.

    *origin* says where the column comes from, for the report reference:
    ``IBM`` (Perfkit's column, filled from the simulation), ``IBM, ...``
    with a remark (Perfkit's, computed differently, or not simulated and
    shown as dots), or ``ours: ...`` (zvmsim's own, with why).
    """

    key: str
    head: tuple[str, str]
    width: int
    style: str = "1"
    left: bool = False
    origin: str = "IBM"


# The origin of an IBM column zvmsim does not simulate: Perfkit prints dots for it.
NOT_SIMULATED = "IBM, not simulated (dots)"


def fmt_number(value: Any, width: int, style: str) -> str:
    """Format *value* Perfkit-style to fit *width* characters."""
    if style == "s":
        return str(value)
    if isinstance(value, str) and not value:
        return ""  # left blank on purpose (a continuation row)
    if style == "y":
        return "Yes" if value else "No"
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "..."
    v = float(value)
    if style == "p":
        return _bytes(v * 4096, width)
    if style == "i":
        decimals = 0
    elif style == "r":
        decimals = 0 if abs(v) >= 100 else 1
    else:
        decimals = int(style)
    while True:
        text = f"{v:.{decimals}f}"
        if text.startswith("0.") or text.startswith("-0."):
            text = text.replace("0.", ".", 1)
        if len(text) <= width or decimals == 0:
            break
        decimals -= 1
    if len(text) > width:
        for suffix, scale in (("k", 1e3), ("M", 1e6), ("G", 1e9)):
            text = f"{v / scale:.0f}{suffix}"
            if len(text) <= width:
                break
    return text


def _bytes(value: float, width: int) -> str:
    """Bytes with Perfkit's suffix, at most four digits: ``0``, ``24K``, ``7787M``."""
    if value < 1:
        return "0"
    for suffix, scale in (("", 1), ("K", 2**10), ("M", 2**20), ("G", 2**30), ("T", 2**40)):
        if value / scale < 9999.5 or suffix == "T":
            return f"{value / scale:.0f}{suffix}"
    return ""  # pragma: no cover - the loop always returns


def header(
    fcx: str,
    name: str,
    title: str,
    system: Any,
    start: _dt.datetime,
    end: _dt.datetime,
    page: int = 1,
) -> list[str]:
    """The batch-report header block: screen ID, times, system, title line."""
    secs = int(round((end - start).total_seconds()))
    hms = f"{secs // 3600:02d}:{secs % 3600 // 60:02d}:{secs % 60:02d}"
    stamp = "%Y/%m/%d %H:%M:%S"
    lines = [
        f"{fcx:<7} Run {end.strftime(stamp):<28}{name:<40}Page {page:>4}",
        f"{'':40}{title}",
        f"From {start.strftime(stamp):<74}{system.sysid}",
        f"To   {end.strftime(stamp):<74}CPU {system.cpu_model:<8} SN {system.serial}",
        f"For {secs:>6} Secs {hms:<10}{chr(34) + system.title + chr(34):<54}"
        f"z/VM   V.{system.zvm_level}   SLU 0000",
        "_" * RULE_WIDTH,
    ]
    return lines


def table(frame: pd.DataFrame, columns: list[Column], groups: str = "") -> list[str]:
    """Render *frame* under two-line column headers, optionally a group line."""

    def cell(text: str, col: Column) -> str:
        return text.ljust(col.width) if col.left else text.rjust(col.width)

    lines = [groups] if groups else []
    for row in (0, 1):
        line = _head_line(columns, row, cell)
        if line:
            lines.append(line)
    for rec in frame.to_dict("records"):
        lines.append(
            " ".join(cell(fmt_number(rec[c.key], c.width, c.style), c) for c in columns).rstrip()
        )
    return lines


def spans(columns: list[Column], *groups: tuple[str, str, str]) -> str:
    """A group line: each ``(first, last, label)`` as ``<-- label -->`` drawn from
    the start of column *first* to the end of column *last* (a label too long
    for the span is printed plain, starting there)."""
    starts, pos = {}, 0
    for c in columns:
        starts[c.key] = (pos, pos + c.width)
        pos += c.width + 1
    line = ""
    for first, last, label in groups:
        begin, end = starts[first][0], starts[last][1]
        width = end - begin
        text = f" {label} " if label else ""
        if first == last:
            drawn = label.rjust(width)
        elif len(text) + 2 > width:
            drawn = f"<{label}>".center(width) if len(label) + 2 <= width else label
        else:
            dashes = width - 2 - len(text)
            drawn = "<" + "-" * (dashes // 2) + text + "-" * (dashes - dashes // 2) + ">"
        line = line.ljust(begin) + drawn
    return line.rstrip()


def _head_line(columns: list[Column], row: int, cell: Any) -> str:
    """One header line; a head wider than its column runs on over the next ones."""
    buf: list[str] = []
    pos = 0
    for c in columns:
        text = c.head[row]
        text = text if len(text) > c.width else cell(text, c)
        buf.extend(" " * max(0, pos + len(text) - len(buf)))
        for i, ch in enumerate(text):
            if ch != " ":
                buf[pos + i] = ch
        pos += c.width + 1
    return "".join(buf).rstrip()


@dataclass(frozen=True)
class Item:
    """One labelled value of a summary report: DataFrame key, label, style, unit."""

    key: str
    label: str
    style: str = "i"
    unit: str = ""


def labelled(row: dict, sections: list[tuple[str, list[Item]]], width: int = 10) -> list[str]:
    """Render one row as titled sections of ``label ..... value unit`` lines."""
    lines: list[str] = []
    for title, items in sections:
        if lines:
            lines.append("")
        lines.append(title)
        for it in items:
            value = fmt_number(row[it.key], width, it.style)
            lines.append(f"  {it.label + ' ':.<44} {value:>{width}} {it.unit}".rstrip())
    return lines
