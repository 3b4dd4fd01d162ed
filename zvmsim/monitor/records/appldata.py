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

    IBM's sample APPLDATA record, MRAPLSDT (the class keeps its old name):
    the MRHDR, then IBM's header — APLSDT_CALDATOF, APLSDT_CALDATLN, the
    guest that handed CP the data (APLSDT_USERID: ``userid``), the product
    identifier (APLSDT_MDGPROD: ``ZVMSIM  MRAPLEDT``) and APLSDT_STATUS —
    then the application's data. That data belongs to the application;
    zvmsim's workloads all report the same thing: the workload's name,
    transactions completed and the sum of their response times.
    """

    DOMAIN = 10
    NUMBER = 2
    KEY = "userid"
    APPL_USER_FIELD = "userid"
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mraplsdt.html"
    tod: int
    userid: str = char(8)  # APLSDT_USERID, in IBM's header
    workload: str = char(8)
    txns: int = 0
    resp_us: int = 0
