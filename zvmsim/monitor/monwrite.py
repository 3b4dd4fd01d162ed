"""MONWRITE files as IBM's MONWRITE writes them, with zvmsim's checks tucked inside.

MONWRITE, the CMS collector, copies what CP leaves in the monitor saved
segment (MONDCSS) to a CMS file of fixed 4096-byte records (F 4096). For
every IUCV message CP sends it, MONWRITE writes a 4 KB *control record*
(MWTBK) and then the 4 KB pages of the segment that hold the records the
message describes. The control record is the message-pending interrupt
buffer (IPARML, 40 bytes) followed by a copy of the monitor control area:
12-byte entries giving the kind of data (sample or event), the domains
present and the segment addresses of the first and last byte of the
records. The full layout, with IBM's sources, is in
``docs/monwrite-format.md``.

zvmsim writes exactly that shape. Records lie back to back in the pages;
a page whose records are followed by another page of the same message ends
with an end-of-frame record (D1 R13); the last page ends at the control
entry's end address. Our own checks sit where an IBM reader does not look:
a *trailer* in the unused end of the control area (an IBM reader takes the
number of control entries from the IUCV message, so it never reaches it):
eye-catcher, block number, CRC-32 of the control record and of every page,
the record-set number, counts, first and last TOD, and on the last control
record of the file the totals (MONWSTOP). A reader can so tell a damaged,
truncated or shuffled file from a good one.

:class:`MonwriteWriter` is fed records one at a time (during a run or from
:class:`~zvmsim.monitor.stream.MonitorData`); it holds the record set being
collected and the finished one before it (whose control record is marked
as the last one if the file closes behind it).
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

BLOCK = 4096  # F 4096: every record of the file has this many bytes
VERSION = 2
# ---- IBM's part of the control record (MWTBK) ----------------------------------
# MWTEXTBF: the IUCV message-pending external interrupt buffer (IPARML):
# path id, flags, type, message id, target class, then the parameter-list
# message: start and end address of the monitor control area in the segment.
IPARML = struct.Struct(">HBBI4sII20x")
IPRMDATA, PENDING = 0x80, 0x09  # message in the parameter list; interrupt type 9
PATHID = 1
MWTCAREA = 0x28  # the copy of the monitor control area
MCE = struct.Struct(">BHxII")  # MWTCAFLG, domain bits, reserved, MWTCASTR, MWTCAEND
# Control element kinds: CP's X'E2' (S) sample and X'C5' (E) event data.
SAMPLE, EVENT = 0xE2, 0xC5
CONFIG, DATA = 0xC3, 0xC4  # C, D: configuration or data (second byte of the target class)
# Where zvmsim puts the records in its simulated MONDCSS: the event area, then the
# sample area (the layout of the example in IBM's MONDCSS tip: 144 MB and 176 MB),
# each with its monitor control area in its first page.
EVENT_AREA, SAMPLE_AREA, AREA_PAGES = 0x0900_0000, 0x0B00_0000, 8192
# ---- zvmsim's trailer, in the unused end of MWTCAREA -----------------------------
TRAILER_AT = 0x800
TRAILER_EYE = "ZVMSIM  ".encode(EBCDIC)
# eye, version, flags, kind, block number, CRC-32 (this field zero), set number,
# frames, records, first TOD, last TOD, system id, totals: sets, records
TRAILER = struct.Struct(">8sHBBIIIH2xI8s8s8sIQ4x")
CRC_AT = TRAILER_AT + 16  # the CRC field, zeroed while the CRC is computed
TOTALS = struct.Struct(">IQ")  # on the last control record: sets and records in the file
TOTALS_AT = TRAILER_AT + 56
CRCS_AT = TRAILER_AT + TRAILER.size  # the CRC-32 of each page that follows
MAX_FRAMES = (BLOCK - CRCS_AT) // 4
CONTINUED, CONTINUES, LAST = 0x80, 0x40, 0x20  # trailer flags
EOF_RECORD = HEADER.pack(HEADER.size, 0, 1, 13, bytes(8))  # D1 R13 end of frame
FRAME_ROOM = BLOCK - len(EOF_RECORD)
EVENT_DOMAINS = frozenset({2, 7})  # scheduler and seek: event data only
SYSTEM = 0


def set_kind(record: Record) -> int:
    """The kind of record set *record* travels in once the configuration is written."""
    return EVENT if record.DOMAIN in EVENT_DOMAINS else SAMPLE


def crc(data: bytes | bytearray | memoryview) -> int:
    """CRC-32 of *data* (zlib's, as PKZIP and VMARC-era tools use)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def seal(block: bytearray, number: int) -> None:
    """Stamp a control record's trailer with its block number and CRC-32."""
    struct.pack_into(">II", block, CRC_AT - 4, number, 0)
    struct.pack_into(">I", block, CRC_AT, crc(block))


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
        self._blocks = 0  # blocks written or held so far (the next block's number)
        self._sets = 0
        self._messages = 0  # control records (IUCV messages) so far
        self._records = 0  # records in the file (our APPLDATA counted apart)
        self._given = 0  # records handed to write()
        self._kind = CONFIG  # the configuration section comes first
        self._pending: list[bytes] = []  # the current set's encoded records
        self._held: list[bytearray] = []  # the last finished set's blocks, not yet written
        self._last: tuple[bytearray, int] | None = None  # its last control record and number
        self._sysid = b" " * 8
        self._event_page = 1  # the next free page of the event area
        self._closed = False

    def __enter__(self) -> MonwriteWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._closed:
            self.close()

    def write(self, record: Record) -> None:
        """Add one record; a set goes out once the next one begins."""
        if self._closed:
            raise ZvmsimError("the MONWRITE file is already closed")
        if self._kind == CONFIG and record.DOMAIN == SYSTEM and self._sets == 0:
            self._flush()  # the first sample set begins: the configuration is complete
            self._kind = SAMPLE
        kind = CONFIG if self._kind == CONFIG and self._sets == 0 else set_kind(record)
        if kind != self._kind:
            self._flush()
        self._kind = kind
        if type(record) is MRMTRSYS and not self._sets:
            self._sysid = str(getattr(record, "sysid", "")).ljust(8)[:8].encode(EBCDIC)
        self._given += 1
        for raw in record.encode():  # IBM's record, then our APPLDATA for it (if any)
            if len(raw) > FRAME_ROOM:
                raise ZvmsimError(f"monitor record D{record.DOMAIN} R{record.NUMBER} is too long")
            self._pending.append(raw)
        if type(record) is MRMTREND:
            self._flush()  # the end-of-interval record closes a sample set

    def extend(self, records: Iterable[Record]) -> None:
        """Add records in order."""
        for record in records:
            self.write(record)

    def close(self) -> MonwriteSummary:
        """Write what is pending, its last control record marked (MONWSTOP); the file stays open."""
        if not self._closed:
            self._flush()
            if self._last is not None:
                block, number = self._last
                block[TRAILER_AT + 10] |= LAST
                TOTALS.pack_into(block, TOTALS_AT, self._sets, self._records)
                seal(block, number)
            self._release()
            self._closed = True
        return MonwriteSummary(self._given, self._sets, self._blocks, self._blocks * BLOCK)

    def _release(self) -> None:
        for block in self._held:
            self._fh.write(block)
        self._held = []

    def _area(self, frames: int) -> int:
        """The segment address where a message of *frames* pages of this kind begins."""
        if self._kind != EVENT:
            return SAMPLE_AREA + BLOCK  # CP has the sample area back once a set is read
        if self._event_page + frames > AREA_PAGES:
            self._event_page = 1  # the event area is used round and round
        start = EVENT_AREA + self._event_page * BLOCK
        self._event_page += frames
        return start

    def _flush(self) -> None:
        """Build the pending set: its control record(s), each followed by its pages."""
        if not self._pending:
            return
        self._release()
        frames: list[bytearray] = []
        first: list[int] = []  # index of each frame's first record
        ends: list[int] = []  # bytes of records in each frame
        for i, raw in enumerate(self._pending):
            if not frames or ends[-1] + len(raw) > FRAME_ROOM:
                frames.append(bytearray(BLOCK))
                first.append(i)
                ends.append(0)
            frames[-1][ends[-1] : ends[-1] + len(raw)] = raw
            ends[-1] += len(raw)
        first.append(len(self._pending))
        self._sets += 1
        for start in range(0, len(frames), MAX_FRAMES):
            stop = min(start + MAX_FRAMES, len(frames))
            for i in range(start, stop - 1):  # more pages follow in this message
                frames[i][ends[i] : ends[i] + len(EOF_RECORD)] = EOF_RECORD
            raws = self._pending[first[start] : first[stop]]
            flags = (CONTINUED if start else 0) | (CONTINUES if stop < len(frames) else 0)
            block = self._control(stop - start, flags, raws, ends[stop - 1])
            for i, frame in enumerate(frames[start:stop]):
                struct.pack_into(">I", block, CRCS_AT + 4 * i, crc(frame))
            seal(block, self._blocks)
            self._last = (block, self._blocks)
            self._held.append(block)
            self._held += frames[start:stop]
            self._blocks += 1 + stop - start
        self._records += len(self._pending)
        self._pending = []

    def _control(self, frames: int, flags: int, raws: list[bytes], used: int) -> bytearray:
        """The control record of one message: IPARML, one control element, our trailer."""
        block = bytearray(BLOCK)
        self._messages += 1
        start = self._area(frames)
        mca = (EVENT_AREA if self._kind == EVENT else SAMPLE_AREA) + MWTCAREA
        kind = EVENT if self._kind == EVENT else SAMPLE
        trgcls = bytes([kind, CONFIG if self._kind == CONFIG else DATA, 0, 0])
        IPARML.pack_into(
            block, 0, PATHID, IPRMDATA, PENDING, self._messages, trgcls, mca, mca + MCE.size - 1
        )
        domains = 0
        for raw in raws:
            domains |= 1 << (15 - raw[4])
        end = start + (frames - 1) * BLOCK + used - 1
        MCE.pack_into(block, MWTCAREA, kind, domains, start, end)
        TRAILER.pack_into(
            block, TRAILER_AT, TRAILER_EYE, VERSION, flags, self._kind, 0, 0, self._sets,
            frames, len(raws), raws[0][8:16], raws[-1][8:16], self._sysid, 0, 0,
        )  # fmt: skip
        return block


def write_monwrite(path: str | Path, records: Iterable[Record]) -> MonwriteSummary:
    """Write *records* to the MONWRITE file *path*."""
    try:
        with open(path, "wb") as fh:
            writer = MonwriteWriter(fh)
            writer.extend(records)
            return writer.close()
    except OSError as exc:
        raise ZvmsimError(f"cannot write {path}: {exc.strerror}") from None
