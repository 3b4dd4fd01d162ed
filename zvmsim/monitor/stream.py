"""Monitor data: the ordered records of one run, in memory or as bytes.

As bytes, monitor data is a MONWRITE file (:mod:`.monwrite`): 4096-byte
blocks, a configuration section first, every block checked when read back.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field

from .monread import MonwriteReader
from .monwrite import MonwriteWriter
from .records import Record

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
        """The records as a MONWRITE file (F 4096 blocks), as ``zvmsim monwrite`` writes it."""
        out = io.BytesIO()
        with MonwriteWriter(out) as writer:
            writer.extend(self.records)
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> MonitorData:
        """Read a MONWRITE file's bytes (see :meth:`to_bytes`); damage is a ZvmsimError."""
        return cls(list(MonwriteReader(data)))
