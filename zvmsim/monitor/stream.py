"""Monitor data: the ordered records of one run, in memory or as bytes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .records import Record, decode

__all__ = ["MonitorData"]


@dataclass
class MonitorData:
    """Every monitor record of a run, in the order CP produced them."""

    records: list[Record] = field(default_factory=list)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def to_bytes(self) -> bytes:
        """All records back to back, each with its MRHDR."""
        return b"".join(r.to_bytes() for r in self.records)

    @classmethod
    def from_bytes(cls, data: bytes) -> MonitorData:
        """Decode records written by :meth:`to_bytes`."""
        records, offset = [], 0
        while offset < len(data):
            record, offset = decode(data, offset)
            records.append(record)
        return cls(records)
