"""Reading MONWRITE files back, one record set at a time.

The reader walks the file control record by control record (see
:mod:`.monwrite` and ``docs/monwrite-format.md``). Each control record
(MWTBK) says, in its copy of the monitor control area, which segment
addresses the records of its message occupy; the pages that follow it hold
them. The records are walked by their length (MRHDRLEN) from the start
address to the end address, jumping to the next page at an end-of-frame
record (D1 R13).

A file zvmsim wrote carries a trailer in every control record, and then
nothing is trusted: each control record must carry its eye-catcher, its own
block number and a good CRC-32; each page must match the CRC its control
record gives for it and hold whole, known records; sets must be numbered
one after another; the last control record must say it is the last and its
totals must agree with what was read. A file that fails any check is
reported in one line naming the block and its byte offset, never decoded
into wrong numbers.

A file from a real z/VM system has no trailer. Its structure is still
checked, but records of a type zvmsim has no class for, or of a length its
class does not have, are counted and skipped (:attr:`MonwriteReader.skipped`,
:meth:`MonwriteReader.skipped_line`) instead of refused.

With ``salvage=True`` the reader instead drops every record set that a
damaged block touches, finds the next good control record, carries on, and
lists what it skipped in :attr:`MonwriteReader.damage`. Whole sample sets
go or stay, so the counters that survive still give true deltas: an
interval next to a lost set is simply longer.
"""

from __future__ import annotations

import io
import struct
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..errors import ZvmsimError
from .monwrite import (
    BLOCK,
    CONFIG,
    CONTINUED,
    CONTINUES,
    CRC_AT,
    CRCS_AT,
    EVENT,
    EVENT_DOMAINS,
    IPARML,
    LAST,
    MAX_FRAMES,
    MCE,
    MWTCAREA,
    SAMPLE,
    TOTALS,
    TOTALS_AT,
    TRAILER,
    TRAILER_AT,
    TRAILER_EYE,
    VERSION,
    crc,
)
from .records import EBCDIC, HEADER, Item, Record, decode_item, known, merge_items

__all__ = [
    "Damage",
    "MonwriteError",
    "MonwriteReader",
    "RecordSet",
    "is_monwrite",
    "read_monwrite",
]

KINDS = {CONFIG: "configuration", SAMPLE: "sample", EVENT: "event"}
MAX_ENTRIES = (BLOCK - MWTCAREA) // MCE.size  # control elements a control record can hold
MAX_PAGES = 0x8_0000  # a saved segment below 2 GB: no message spans more pages
EOF_KEY = (1, 13)  # D1 R13, the end-of-frame record
SYSREC = (1, 4)  # D1 R4, system configuration: sent in the configuration data only
CUT_SHORT = "MONWRITE's last control record (MONWSTOP): it was cut short"
INSIDE = "the file ends inside a record set: it was cut short"
MISMATCH = "the record set does not match its control record"


class MonwriteError(ZvmsimError):
    """A MONWRITE file that is truncated, damaged or not one at all."""

    def __init__(self, source: str, block: int, what: str, offset: int | None = None) -> None:
        self.block = block
        self.offset = block * BLOCK if offset is None else offset
        self.what = what
        super().__init__(f"{source}: block {block} (offset {self.offset}): {what}")


@dataclass(frozen=True)
class Damage:
    """One stretch of a file the salvaging reader skipped."""

    block: int
    offset: int
    what: str
    skipped_to: int  # the block where reading resumed (or the file's end)

    def __str__(self) -> str:
        return f"block {self.block} (offset {self.offset}): {self.what}"


@dataclass(frozen=True)
class RecordSet:
    """One record set as read: its kind, where it lies, its records."""

    number: int
    kind: str  # configuration, sample or event
    first_block: int
    blocks: int
    records: list[Record] = field(repr=False)
    wire: int = 0  # records as they lie in the file (zvmsim's APPLDATA counted apart)


def _is_ours(block: bytes) -> bool:
    return block[TRAILER_AT : TRAILER_AT + 8] == TRAILER_EYE


def _looks_ibm(block: bytes) -> bool:
    """Whether *block* has the shape of an IBM MONWRITE control record."""
    flag, _domains, start, end = MCE.unpack_from(block, MWTCAREA)
    return flag in (SAMPLE, EVENT) and start <= end and (end >> 12) - (start >> 12) < MAX_PAGES


def is_monwrite(data: bytes) -> bool:
    """Whether *data* starts like a MONWRITE file (zvmsim's or IBM's)."""
    return len(data) >= BLOCK and (_is_ours(data[:BLOCK]) or _looks_ibm(data[:BLOCK]))


class MonwriteReader:
    """Iterate the records of a MONWRITE file (a path, bytes or a binary file).

    Iterating yields records in the order CP wrote them; :meth:`sets`
    yields whole record sets. Both read the file lazily, one set at a time.
    """

    def __init__(
        self,
        source: str | Path | bytes | bytearray | BinaryIO,
        *,
        salvage: bool = False,
        name: str | None = None,
    ) -> None:
        self.source = source
        self.salvage = salvage
        self.name = name or (str(source) if isinstance(source, str | Path) else "monitor data")
        self.damage: list[Damage] = []
        self.sysid = ""
        self.complete = False  # zvmsim's: the last control record was read and agreed
        self.ibm = False  # a file without zvmsim's trailers: a real system's
        self.sets_read = 0  # record sets read whole (and handed on) so far
        self.skipped: Counter[tuple[int, int]] = Counter()  # records of types we do not know
        self.misfits: Counter[tuple[int, int]] = Counter()  # known types, another length

    def __iter__(self) -> Iterator[Record]:
        for rset in self.sets():
            yield from rset.records

    def sets(self) -> Iterator[RecordSet]:
        """The file's record sets in order (damaged ones dropped when salvaging)."""
        if isinstance(self.source, bytes | bytearray):
            yield from self._walk(io.BytesIO(self.source))
        elif isinstance(self.source, str | Path):
            try:
                with open(self.source, "rb") as fh:
                    yield from self._walk(fh)
            except OSError as exc:
                raise ZvmsimError(f"cannot read {self.source}: {exc.strerror}") from None
        else:
            yield from self._walk(self.source)

    def skipped_line(self) -> str:
        """One line on the records read but not reduced; ``""`` when there were none."""
        if not self.skipped and not self.misfits:
            return ""
        parts = []
        if self.skipped:
            total = sum(self.skipped.values())
            parts.append(f"skipped {total:,} records zvmsim does not reduce: {_top(self.skipped)}")
        if self.misfits:
            total = sum(self.misfits.values())
            parts.append(
                f"{total:,} records of a length zvmsim's layout does not have: {_top(self.misfits)}"
            )
        return "; ".join(parts)

    # ---- walking the blocks ------------------------------------------------

    def _error(self, block: int, what: str, offset: int | None = None) -> MonwriteError:
        return MonwriteError(self.name, block, what, offset)

    def _read(self, fh: BinaryIO, number: int) -> bytes | None:
        """Block *number* (read in order); None at the end of the file."""
        data = fh.read(BLOCK)
        if not data:
            return None
        if len(data) < BLOCK:
            raise self._error(number, f"cut short: the file ends {len(data)} bytes into the block")
        return data

    def _walk(self, fh: BinaryIO) -> Iterator[RecordSet]:
        blocks = _Blocks(fh, self)
        first = blocks.get(0)
        if first is None:
            raise self._error(0, "the file is empty: no MONWRITE control record")
        number = 0
        self.ibm = not _is_ours(first) and _looks_ibm(first)
        if not self.ibm and not _is_ours(first):
            exc = self._error(0, "not a MONWRITE file (no control record at its start)")
            if not self.salvage:
                raise exc
            number = self._skip(blocks, exc, 1)
        expected, totals = 1, [0, 0]  # next set number; sets and records read
        while True:
            block = blocks.get(number)
            if block is None:
                if self.ibm or self.complete:
                    return
                exc = self._error(number, f"the file ends without {CUT_SHORT}")
                if not self.salvage:
                    raise exc
                if not self.damage or self.damage[-1].skipped_to != number:
                    self._note(number, exc.what, number)
                return
            if self.complete:
                if not self.salvage:
                    raise self._error(number, "data after MONWRITE's last record set")
                self._note(number, "data after MONWRITE's last record set", number)
                return
            try:
                if self.ibm:
                    rset, number = self._ibm_set(blocks, number, block, expected)
                else:
                    rset, number = self._set(blocks, number, block, expected, totals)
            except MonwriteError as exc:
                if not self.salvage:
                    raise
                number = self._skip(blocks, exc, exc.block + 1)
                continue
            totals[0] += 1
            totals[1] += rset.wire
            expected = rset.number + 1
            self.sets_read += 1
            yield rset

    def _skip(self, blocks: _Blocks, exc: MonwriteError, start: int) -> int:
        """Salvaging: note the damage, return the next good control record's number."""
        number = start
        while True:
            try:
                block = blocks.get(number)
            except MonwriteError:
                block = None
            if block is None or _is_control(block, number, self.ibm):
                self._note(exc.block, exc.what, number, exc.offset)
                return number
            number += 1

    def _note(self, block: int, what: str, resumed: int, offset: int | None = None) -> None:
        offset = block * BLOCK if offset is None else offset
        self.damage.append(Damage(block, offset, what, resumed))

    def _check(self, block: bytes, number: int) -> tuple:
        """zvmsim's trailer of control record *number*, checked."""
        if not _is_ours(block):
            raise self._error(number, "not a control record where one should be")
        zeroed = bytearray(block)
        struct.pack_into(">I", zeroed, CRC_AT, 0)
        fields = TRAILER.unpack_from(block, TRAILER_AT)
        if crc(zeroed) != fields[5]:
            raise self._error(number, "the control record's checksum does not match: it is damaged")
        if fields[1] != VERSION:
            raise self._error(number, f"control record of format version {fields[1]}: not ours")
        if fields[4] != number:
            raise self._error(
                number, f"the control record says it is block {fields[4]}: blocks out of place"
            )
        return fields

    def _set(
        self, blocks: _Blocks, number: int, block: bytes, expected: int, totals: list[int]
    ) -> tuple[RecordSet, int]:
        """Read one record set of a zvmsim file (its control records and pages)."""
        first, records, part = number, [], 0
        while True:
            fields = self._check(block, number)
            _eye, _v, flags, kind, _n, _c, set_no, frames, count, tod0, tod1, sysid = fields[:12]
            if set_no != expected and not (self.salvage and set_no > expected and not part):
                raise self._error(number, f"record set {set_no} where set {expected} should be")
            if bool(flags & CONTINUED) != bool(part) or kind not in KINDS:
                raise self._error(number, "control record does not continue its record set")
            mca = IPARML.unpack_from(block)
            flag, domains, start, end = MCE.unpack_from(block, MWTCAREA)
            pages = (end >> 12) - (start >> 12) + 1
            if (
                (kind == CONFIG) != (set_no == 1)
                or not 1 <= frames <= MAX_FRAMES
                or mca[6] - mca[5] + 1 != MCE.size
                or flag != (EVENT if kind == EVENT else SAMPLE)
                or start > end
                or pages != frames
            ):
                raise self._error(number, "control record describes an impossible record set")
            crcs = struct.unpack_from(f">{frames}I", block, CRCS_AT)
            data = bytearray()
            for i in range(frames):
                frame_no = number + 1 + i
                frame = blocks.get(frame_no)
                if frame is None:
                    raise self._error(frame_no, INSIDE)
                if crc(frame) != crcs[i]:
                    raise self._error(
                        frame_no, "the data frame's checksum does not match: the block is damaged"
                    )
                data += frame
            got = self._records(data, number + 1, start & 0xFFF, end - (start & ~0xFFF), True)
            seen = 0
            for rec in got:
                seen |= 1 << (15 - rec.domain)
                if (kind == EVENT) != (rec.domain in EVENT_DOMAINS) and kind != CONFIG:
                    raise self._error(number, "a record in a set of the wrong kind")
            if not got or len(got) != count or seen != domains:
                raise self._error(number, MISMATCH)
            if got[0].tod != int.from_bytes(tod0, "big") or got[-1].tod != int.from_bytes(
                tod1, "big"
            ):
                raise self._error(number, MISMATCH)
            if not self.sysid:
                self.sysid = sysid.decode(EBCDIC).strip()
            records += got
            if flags & LAST:
                self._last(block, number, flags, totals[0] + 1, totals[1] + len(records))
            number += 1 + frames
            part += 1
            if not flags & CONTINUES:
                return RecordSet(
                    set_no, KINDS[kind], first, number - first, self._merge(first, records),
                    len(records),
                ), number  # fmt: skip
            block = blocks.get(number)
            if block is None:
                raise self._error(number, INSIDE)

    def _last(self, block: bytes, number: int, flags: int, sets: int, records: int) -> None:
        """The last control record of the file: its totals agree with what was read."""
        if flags & CONTINUES:
            raise self._error(number, "the last control record continues its set: damaged")
        if not self.salvage and TOTALS.unpack_from(block, TOTALS_AT) != (sets, records):
            raise self._error(number, "the file's totals do not match what was read: damaged")
        self.complete = True

    def _ibm_set(
        self, blocks: _Blocks, number: int, block: bytes, expected: int
    ) -> tuple[RecordSet, int]:
        """Read one IUCV message of a real system's file: its control elements and pages."""
        if _is_ours(block) or not _looks_ibm(block):
            raise self._error(number, "not a control record where one should be")
        mca = IPARML.unpack_from(block)
        size = mca[6] - mca[5] + 1
        entries = size // MCE.size if size % MCE.size == 0 and 0 < size // MCE.size else 0
        if not entries or entries > MAX_ENTRIES:  # no usable message: take the entries there are
            entries = 0
            while entries < MAX_ENTRIES and block[MWTCAREA + MCE.size * entries] in (SAMPLE, EVENT):
                entries += 1
        page, records, flags = number + 1, [], set()
        for i in range(entries):
            flag, _domains, start, end = MCE.unpack_from(block, MWTCAREA + MCE.size * i)
            if flag not in (SAMPLE, EVENT) or start > end:
                raise self._error(number, f"control element {i + 1} is not one CP writes")
            pages = (end >> 12) - (start >> 12) + 1
            if pages > MAX_PAGES:
                raise self._error(number, f"control element {i + 1} spans {pages} pages")
            data = bytearray()
            for k in range(pages):
                frame = blocks.get(page + k)
                if frame is None:
                    raise self._error(page + k, INSIDE)
                data += frame
            records += self._records(data, page, start & 0xFFF, end - (start & ~0xFFF), False)
            flags.add(flag)
            page += pages
        kind = "event" if flags == {EVENT} else "sample"
        merged = self._merge(number, records)
        for rec in merged:
            if (rec.DOMAIN, rec.NUMBER) == SYSREC:
                kind = "configuration"
                self.sysid = self.sysid or str(getattr(rec, "sysid", "")).strip()
        return RecordSet(expected, kind, number, page - number, merged, len(records)), page

    def _merge(self, number: int, items: list[Item]) -> list[Record]:
        """The set's records, zvmsim's APPLDATA merged into the IBM record before it."""
        try:
            return merge_items(items)
        except ZvmsimError as exc:
            raise self._error(number, f"{exc}: the record set is damaged") from None

    def _records(self, data: bytearray, page: int, pos: int, end: int, strict: bool) -> list:
        """Decode the records from *pos* to *end* (inclusive) of pages starting at block *page*."""
        out: list[Item] = []
        view = memoryview(data)
        unpack = HEADER.unpack_from
        while pos <= end:
            page_end = (pos // BLOCK + 1) * BLOCK
            block, where = page + pos // BLOCK, page * BLOCK + pos
            if pos + HEADER.size > end + 1:
                raise self._error(
                    block, f"a record runs past the end address at byte {pos % BLOCK}", where
                )
            size, zero, domain, rec_no, tod = unpack(data, pos)
            if (domain, rec_no) == EOF_KEY and size == HEADER.size and not zero:
                if strict and (page_end > end or not _zeros(data, pos + HEADER.size, page_end)):
                    raise self._error(block, "data after the end-of-frame record", where)
                pos = page_end
                continue
            if size == 0 and not strict and _zeros(data, pos, page_end):
                pos = page_end  # the rest of the page unused
                continue
            if zero or size < HEADER.size or pos + size > end + 1:
                raise self._error(block, f"no valid monitor record at byte {pos % BLOCK}", where)
            if strict and pos + size > page_end - HEADER.size and pos + size != end + 1:
                raise self._error(block, "a frame without its end-of-frame record", where)
            body = bytes(view[pos + HEADER.size : pos + size])
            if not known(domain, rec_no, body):
                if strict:
                    raise self._error(
                        block, f"no valid monitor record at byte {pos % BLOCK}", where
                    )
                self.skipped[(domain, rec_no)] += 1
            else:
                try:
                    out.append(decode_item(domain, rec_no, int.from_bytes(tod, "big"), body))
                except (ZvmsimError, UnicodeDecodeError, ValueError, TypeError, struct.error):
                    if strict:
                        what = f"record D{domain} R{rec_no} does not decode"
                        raise self._error(block, what, where) from None
                    self.misfits[(domain, rec_no)] += 1
            pos += size
        if strict and (pos != end + 1 or not _zeros(data, pos, (pos - 1) // BLOCK * BLOCK + BLOCK)):
            raise self._error(page + end // BLOCK, "data after the last record of the set")
        return out


def _zeros(data: bytearray, start: int, stop: int) -> bool:
    """Whether *data* holds only zeros from *start* to *stop*."""
    return data.count(0, start, stop) == max(0, stop - start)


def _top(counts: Counter[tuple[int, int]], shown: int = 8) -> str:
    """``D2 R4 (x200), D5 R10 (x3)``: the commonest record types first."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    text = ", ".join(f"D{d} R{r} (x{n:,})" for (d, r), n in ranked[:shown])
    if len(ranked) > shown:
        text += f" and {len(ranked) - shown} more types"
    return text


class _Blocks:
    """Block access by number, remembering the last block read."""

    def __init__(self, fh: BinaryIO, reader: MonwriteReader) -> None:
        self._fh, self._reader = fh, reader
        self._next = 0  # the block the file is positioned at
        self._last: tuple[int, bytes | None] = (-1, None)

    def get(self, number: int) -> bytes | None:
        if self._last[0] == number:
            return self._last[1]
        if number != self._next:
            self._fh.seek(number * BLOCK)
        block = self._reader._read(self._fh, number)
        self._next = number + 1
        self._last = (number, block)
        return block


def _is_control(block: bytes, number: int, ibm: bool) -> bool:
    """Whether *block* is a sound control record standing where it says it does."""
    if ibm:
        return _looks_ibm(block) and not _is_ours(block)
    if not _is_ours(block):
        return False
    zeroed = bytearray(block)
    struct.pack_into(">I", zeroed, CRC_AT, 0)
    fields = TRAILER.unpack_from(block, TRAILER_AT)
    return fields[4] == number and crc(zeroed) == fields[5]


def read_monwrite(path: str | Path, *, salvage: bool = False) -> MonwriteReader:
    """A reader over the MONWRITE file *path* (nothing is read until iterated)."""
    return MonwriteReader(path, salvage=salvage)
