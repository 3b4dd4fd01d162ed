"""Domain 2 (Scheduler): event records.

Layouts and their sources: ``docs/monwrite-format.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import Record, at, char

__all__ = ["MRSCLADL", "MRSCLDDL"]


@dataclass(frozen=True, slots=True)
class MRSCLADL(Record):
    """D2 R4 — event: a user was added to the dispatch list."""

    DOMAIN = 2
    NUMBER = 4
    KEY = "userid"
    IBM = "MRSCLADL"
    IBM_LENGTH = 232
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrscladl.html"
    tod: int
    userid: str = char(8, **at("SCLADL_VMDUSER", 20, 8, "c"))


@dataclass(frozen=True, slots=True)
class MRSCLDDL(Record):
    """D2 R5 — event: a user was dropped from the dispatch list."""

    DOMAIN = 2
    NUMBER = 5
    KEY = "userid"
    IBM = "MRSCLDDL"
    IBM_LENGTH = 196
    IBM_URL = "https://www.ibm.com/support/pages/zvm/pubs/mon730/mrsclddl.html"
    tod: int
    userid: str = char(8, **at("SCLDDL_VMDUSER", 20, 8, "c"))
