"""Domain 10 (APPLDATA): application data.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, char

__all__ = ["MRAPLEDT"]


@dataclass(frozen=True, slots=True)
class MRAPLEDT(Record):
    """D10 R2 — application data a guest hands to CP Monitor (APPLDATA).

    Its layout belongs to the application; zvmsim's workloads all report the
    same thing: transactions completed and the sum of their response times.
    """

    DOMAIN = 10
    NUMBER = 2
    KEY = "userid"
    tod: int
    userid: str = char(8)
    workload: str = char(8)
    txns: int = 0
    resp_us: int = 0
