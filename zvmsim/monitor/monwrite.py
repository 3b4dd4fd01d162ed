"""MONWRITE files: monitor records packed in 4096-byte blocks, written as they come.

MONWRITE, the CMS collector, copies the record sets CP leaves in MONDCSS to
a CMS file with fixed 4096-byte records (F 4096): for every record set, a
4 KB control record (MWTBK) that says what the set holds, then the 4 KB
frames of records themselves. zvmsim's files keep that shape (the full
layout is in ``docs/monwrite-format.md``):

* block 0, the *label*: format version, system id, the first record's TOD;
* the *configuration section*: the first record set, holding what CP writes
  at MONITOR START before the first sample set (system, profiles, devices,
  users);
* then sample sets (one per monitor interval, closed by the end-of-set
  record D1 R11) and event sets (records of the event-only domains), each a
  control block followed by its data frames;
* an *end block* with the totals, written when collection stops (MONWSTOP).

A data frame holds whole records back to back (a record never spans two
frames) closed by an end-of-frame record (D1 R13, the 20-byte header
alone). Every control block carries a CRC-32 of itself and of each frame it
announces, plus its own block number and the set's sequence number, so a
reader can tell a damaged, truncated or shuffled file from a good one.

:class:`MonwriteWriter` is fed records one at a time (during a run or from
:class:`~zvmsim.monitor.stream.MonitorData`) and never holds more than one
record set.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import ZvmsimError
from .records import EBCDIC, HEADER, MRMTREND, MRMTRSYS, Record
from .records.monitor import SYSTMID_AT

__all__ = [
    "BLOCK",
    "CONFIG",
    "EVENT",
    "EVENT_DOMAINS",
    "MAX_FRAMES",
    "SAMPLE",
    "MonwriteSummary",
    "MonwriteWriter",
    "set_kind",
    "write_monwrite",
]

BLOCK = 4096  # F 4096: every block of the file has this many bytes
VERSION = 1
# Eye-catchers (EBCDIC) at offset 0 of the three kinds of control block.
LABEL_EYE = "ZVMMONWR".encode(EBCDIC)
MWTBK_EYE = "MWTBK   ".encode(EBCDIC)
END_EYE = "MONWSTOP".encode(EBCDIC)
# Every control block: eye-catcher, block number, CRC-32 of the block (this field zero).
BLOCK_HEAD = struct.Struct(">8sII")
LABEL = struct.Struct(">HH8s8s16s")  # version, block size, sysid, first TOD, writer
# MWTBK: set number, flags, frames, records, first and last TOD ...
MWTBK = struct.Struct(">IBxHI8s8s")
# ... then at 0x30 the control element, as MONWRITE's: kind, domain bits, start, end.
ELEMENT = struct.Struct(">BHxII")
ELEMENT_AT = 0x30
CRCS_AT = 0x40  # the CRC-32 of each data frame that follows, 4 bytes each
MAX_FRAMES = (BLOCK - CRCS_AT) // 4
END = struct.Struct(">IIQ8s")  # sets, data blocks, records, last TOD
# Control element kinds: CP's X'E2' (S) sample and X'C5' (E) event; X'C3' (C) ours.
SAMPLE, EVENT, CONFIG = 0xE2, 0xC5, 0xC3
CONTINUED, CONTINUES = 0x80, 0x40  # MWTBK flags: a set spread over several control blocks
EOF_RECORD = HEADER.pack(HEADER.size, 0, 1, 13, bytes(8))  # D1 R13 end of frame
FRAME_ROOM = BLOCK - len(EOF_RECORD)
EVENT_DOMAINS = frozenset({2, 7})  # scheduler and seek: event data only
SYSTEM = 0
WRITER = "ZVMSIM MONWRITE".ljust(16).encode(EBCDIC)


def set_kind(record: Record) -> int:
    """The kind of record set *record* travels in once the configuration is written."""
    return EVENT if record.DOMAIN in EVENT_DOMAINS else SAMPLE


def crc(data: bytes | bytearray | memoryview) -> int:
    """CRC-32 of *data* (zlib's, as PKZIP and VMARC-era tools use)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def seal(block: bytearray, number: int) -> bytes:
    """Stamp a control block with its block number and CRC-32."""
    BLOCK_HEAD.pack_into(block, 0, bytes(block[:8]), number, 0)
    BLOCK_HEAD.pack_into(block, 0, bytes(block[:8]), number, crc(block))
    return bytes(block)


@dataclass(frozen=True)
class MonwriteSummary:
    """What a writer put in its file."""

    records: int
    sets: int
    blocks: int
    bytes: int


class MonwriteWriter:
    """Writes monitor records to *fh* as a MONWRITE file, one record set at a time."""

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        self._blocks = 0  # blocks written so far (the next block's number)
        self._sets = 0
        self._records = 0  # records in the file (our APPLDATA counted apart)
        self._given = 0  # records handed to write()
        self._kind = CONFIG  # the configuration section comes first
        self._pending: list[bytes] = []  # the current set's encoded records
        self._last_tod = bytes(8)  # of the last record written
        self._closed = False

    def __enter__(self) -> MonwriteWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._closed:
            self.close()

    def write(self, record: Record) -> None:
        """Add one record; a set is written out as soon as it is complete."""
        if self._closed:
            raise ZvmsimError("the MONWRITE file is already closed")
        if self._kind == CONFIG and record.DOMAIN == SYSTEM and self._sets == 0:
            self._flush()  # the first sample set begins: the configuration is complete
            self._kind = SAMPLE
        kind = CONFIG if self._kind == CONFIG and self._sets == 0 else set_kind(record)
        if kind != self._kind:
            self._flush()
        self._kind = kind
        self._given += 1
        for raw in record.encode():  # IBM's record, then our APPLDATA for it (if any)
            if len(raw) > FRAME_ROOM:
                raise ZvmsimError(f"monitor record D{record.DOMAIN} R{record.NUMBER} is too long")
            self._pending.append(raw)
        if type(record) is MRMTREND:
            self._flush()  # the end-of-set record closes a sample set

    def extend(self, records: Iterable[Record]) -> None:
        """Add records in order."""
        for record in records:
            self.write(record)

    def close(self) -> MonwriteSummary:
        """Write what is pending and the end block (MONWSTOP); the file stays open."""
        if not self._closed:
            self._flush()
            if self._blocks == 0:
                self._write_label(bytes(8), b"")
            block = bytearray(BLOCK)
            block[:8] = END_EYE
            END.pack_into(
                block, BLOCK_HEAD.size, self._sets, self._blocks, self._records, self._last_tod
            )
            self._put(block)
            self._closed = True
        return MonwriteSummary(self._given, self._sets, self._blocks, self._blocks * BLOCK)

    def _put(self, block: bytearray) -> None:
        self._fh.write(seal(block, self._blocks))
        self._blocks += 1

    def _write_label(self, tod: bytes, sysid: bytes) -> None:
        block = bytearray(BLOCK)
        block[:8] = LABEL_EYE
        LABEL.pack_into(block, BLOCK_HEAD.size, VERSION, BLOCK, sysid.ljust(8), tod, WRITER)
        self._put(block)

    def _flush(self) -> None:
        """Write the pending set: its control block(s), then its frames."""
        if not self._pending:
            return
        if self._blocks == 0:
            first = self._pending[0]
            sysid = first[SYSTMID_AT : SYSTMID_AT + 8] if _is_sysrec(first) else b""
            self._write_label(first[8:16], sysid)
        frames: list[bytearray] = []
        packed: list[list[bytes]] = []  # the records of each frame
        ends: list[int] = []  # bytes of records in each frame
        for raw in self._pending:
            if not frames or ends[-1] + len(raw) > FRAME_ROOM:
                frames.append(bytearray(BLOCK))
                packed.append([])
                ends.append(0)
            frames[-1][ends[-1] : ends[-1] + len(raw)] = raw
            ends[-1] += len(raw)
            packed[-1].append(raw)
        for frame, end in zip(frames, ends, strict=True):
            frame[end : end + len(EOF_RECORD)] = EOF_RECORD
        self._sets += 1
        for start in range(0, len(frames), MAX_FRAMES):
            stop = min(start + MAX_FRAMES, len(frames))
            raws = [raw for recs in packed[start:stop] for raw in recs]
            flags = (CONTINUED if start else 0) | (CONTINUES if stop < len(frames) else 0)
            block = bytearray(BLOCK)
            block[:8] = MWTBK_EYE
            MWTBK.pack_into(
                block, BLOCK_HEAD.size, self._sets, flags, stop - start, len(raws),
                raws[0][8:16], raws[-1][8:16],
            )  # fmt: skip
            domains = 0
            for raw in raws:
                domains |= 1 << (15 - raw[4])
            end_addr = (stop - start - 1) * BLOCK + ends[stop - 1] + len(EOF_RECORD) - 1
            ELEMENT.pack_into(block, ELEMENT_AT, self._kind, domains, 0, end_addr)
            for i, frame in enumerate(frames[start:stop]):
                struct.pack_into(">I", block, CRCS_AT + 4 * i, crc(frame))
            self._put(block)
            for frame in frames[start:stop]:
                self._fh.write(frame)
                self._blocks += 1
        self._records += len(self._pending)
        self._last_tod = self._pending[-1][8:16]
        self._pending = []


def _is_sysrec(raw: bytes) -> bool:
    domain, number = raw[4], int.from_bytes(raw[6:8], "big")
    return (domain, number) == (MRMTRSYS.DOMAIN, MRMTRSYS.NUMBER)


def write_monwrite(path: str | Path, records: Iterable[Record]) -> MonwriteSummary:
    """Write *records* to the MONWRITE file *path*."""
    try:
        with open(path, "wb") as fh:
            writer = MonwriteWriter(fh)
            writer.extend(records)
            return writer.close()
    except OSError as exc:
        raise ZvmsimError(f"cannot write {path}: {exc.strerror}") from None
