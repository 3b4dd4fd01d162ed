"""Reading MONWRITE files back, one record set at a time, every block checked.

The reader walks the file block by block (see :mod:`.monwrite` and
``docs/monwrite-format.md``) and trusts nothing: each control block must
carry its eye-catcher, its own block number and a good CRC-32; each data
frame must match the CRC its control block gives for it and hold whole,
known records closed by an end-of-frame record; sets must be numbered one
after another; the end block's totals must agree with what was read. A file
that fails any check is reported in one line naming the block and its byte
offset, never decoded into wrong numbers.

With ``salvage=True`` the reader instead drops every record set that a
damaged block touches, finds the next good control block, carries on, and
lists what it skipped in :attr:`MonwriteReader.damage`. Whole sample sets
go or stay, so the counters that survive still give true deltas: an
interval next to a lost set is simply longer.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..errors import ZvmsimError
from .monwrite import (
    BLOCK,
    BLOCK_HEAD,
    CONFIG,
    CONTINUED,
    CONTINUES,
    CRCS_AT,
    ELEMENT,
    ELEMENT_AT,
    END,
    END_EYE,
    EOF_RECORD,
    EVENT,
    EVENT_DOMAINS,
    LABEL,
    LABEL_EYE,
    MAX_FRAMES,
    MWTBK,
    MWTBK_EYE,
    SAMPLE,
    VERSION,
    crc,
)
from .records import EBCDIC, HEADER, Item, Record, decode_item, merge_items

__all__ = ["Damage", "MonwriteError", "MonwriteReader", "RecordSet", "read_monwrite"]

KINDS = {CONFIG: "configuration", SAMPLE: "sample", EVENT: "event"}
IBM_MWTCAFLG = 0x28  # where an IBM MWTBK keeps its first control element
CUT_SHORT = "MONWRITE's end block (MONWSTOP): it was cut short"
INSIDE = "the file ends inside a record set: it was cut short"


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
    wire: int = 0  # records as they lie in the file (our APPLDATA counted apart)


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
        self.complete = False  # the end block was read and agreed
        self.sets_read = 0  # record sets read whole (and handed on) so far

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
            raise self._error(0, "the file is empty: no MONWRITE label")
        try:
            self._label(first)
            number = 1
        except MonwriteError as exc:
            if not self.salvage:
                raise
            number = self._skip(blocks, exc, 1)
        expected, totals = 1, [0, 0]  # next set number; sets and records read
        while True:
            block = blocks.get(number)
            if block is None:
                if self.salvage:
                    if not self.damage or self.damage[-1].skipped_to != number:
                        self._note(number, f"the file ends without {CUT_SHORT}", number)
                    return
                raise self._error(number, f"the file ends without {CUT_SHORT}")
            try:
                if block[:8] == END_EYE:
                    self._end(blocks, number, block, totals)
                    return
                rset, number = self._set(blocks, number, block, expected)
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
        """Salvaging: note the damage, return the next good control block's number."""
        number = start
        while True:
            try:
                block = blocks.get(number)
            except MonwriteError:
                block = None
            if block is None or _is_control(block, number):
                self._note(exc.block, exc.what, number, exc.offset)
                return number
            number += 1

    def _note(self, block: int, what: str, resumed: int, offset: int | None = None) -> None:
        offset = block * BLOCK if offset is None else offset
        self.damage.append(Damage(block, offset, what, resumed))

    def _label(self, block: bytes) -> None:
        if block[:8] != LABEL_EYE:
            what = "not a zvmsim MONWRITE file (no MONWRITE label)"
            if block[IBM_MWTCAFLG] in (SAMPLE, EVENT):
                what += "; it looks like an IBM MONWRITE file, which zvmsim cannot read"
            raise self._error(0, what)
        self._check(block, 0, "label")
        version, size, sysid, _tod, _writer = LABEL.unpack_from(block, BLOCK_HEAD.size)
        if version != VERSION or size != BLOCK:
            raise self._error(0, f"format version {version}, block size {size}: not ours")
        self.sysid = sysid.decode(EBCDIC).strip()

    def _check(self, block: bytes, number: int, what: str) -> None:
        eye, stored_number, stored_crc = BLOCK_HEAD.unpack_from(block)
        zeroed = bytearray(block)
        BLOCK_HEAD.pack_into(zeroed, 0, eye, stored_number, 0)
        if crc(zeroed) != stored_crc:
            raise self._error(number, f"the {what} block's checksum does not match: it is damaged")
        if stored_number != number:
            raise self._error(
                number, f"the {what} block says it is block {stored_number}: blocks out of place"
            )

    def _set(
        self, blocks: _Blocks, number: int, block: bytes, expected: int
    ) -> tuple[RecordSet, int]:
        """Read one record set (its control blocks and frames); return it and the next block."""
        first, records, part = number, [], 0
        while True:
            if block[:8] != MWTBK_EYE:
                raise self._error(number, "not a control block where one should be")
            self._check(block, number, "control")
            set_no, flags, frames, count, tod0, tod1 = MWTBK.unpack_from(block, BLOCK_HEAD.size)
            kind, domains, start, end = ELEMENT.unpack_from(block, ELEMENT_AT)
            if set_no != expected and not (self.salvage and set_no > expected and not part):
                raise self._error(number, f"record set {set_no} where set {expected} should be")
            if bool(flags & CONTINUED) != bool(part) or kind not in KINDS:
                raise self._error(number, "control block does not continue its record set")
            if (kind == CONFIG) != (set_no == 1) or not 1 <= frames <= MAX_FRAMES or start:
                raise self._error(number, "control block describes an impossible record set")
            crcs = struct.unpack_from(f">{frames}I", block, CRCS_AT)
            got: list[Item] = []
            for i in range(frames):
                frame_no = number + 1 + i
                frame = blocks.get(frame_no)
                if frame is None:
                    raise self._error(frame_no, INSIDE)
                if crc(frame) != crcs[i]:
                    raise self._error(
                        frame_no, "the data frame's checksum does not match: the block is damaged"
                    )
                used = self._frame(frame, frame_no, got)
            if (frames - 1) * BLOCK + used - 1 != end or len(got) != count:
                raise self._error(number, "the record set does not match its control block")
            seen = 0
            for rec in got:
                seen |= 1 << (15 - rec.domain)
                if (kind == EVENT) != (rec.domain in EVENT_DOMAINS) and kind != CONFIG:
                    raise self._error(number, "a record in a set of the wrong kind")
            if seen != domains or got[0].tod != int.from_bytes(tod0, "big"):
                raise self._error(number, "the record set does not match its control block")
            if got[-1].tod != int.from_bytes(tod1, "big"):
                raise self._error(number, "the record set does not match its control block")
            records += got
            number += 1 + frames
            part += 1
            if not flags & CONTINUES:
                try:
                    merged = merge_items(records)  # our APPLDATA back into its IBM record
                except ZvmsimError as exc:
                    raise self._error(first, f"{exc}: the record set is damaged") from None
                rset = RecordSet(set_no, KINDS[kind], first, number - first, merged, len(records))
                return rset, number
            block = blocks.get(number)
            if block is None:
                raise self._error(number, INSIDE)

    def _frame(self, frame: bytes, number: int, out: list[Item]) -> int:
        """Decode the records of one data frame into *out*; return the bytes it uses."""
        offset = 0
        while True:
            where = number * BLOCK + offset
            if offset + HEADER.size > BLOCK:
                raise self._error(number, "a record runs past the end of its frame", where)
            size, zero, domain, rec_no, tod = HEADER.unpack_from(frame, offset)
            if frame[offset : offset + HEADER.size] == EOF_RECORD:
                if any(frame[offset + HEADER.size :]):
                    raise self._error(number, "data after the end-of-frame record", where)
                return offset + HEADER.size
            if zero or size < HEADER.size or offset + size > BLOCK:
                raise self._error(number, f"no valid monitor record at byte {offset}", where)
            body = frame[offset + HEADER.size : offset + size]
            try:
                out.append(decode_item(domain, rec_no, int.from_bytes(tod, "big"), body))
            except (ZvmsimError, UnicodeDecodeError, ValueError, TypeError, struct.error):
                what = f"record D{domain} R{rec_no} does not decode"
                raise self._error(number, what, where) from None
            offset += size

    def _end(self, blocks: _Blocks, number: int, block: bytes, totals: list[int]) -> None:
        self._check(block, number, "end")
        sets, data_blocks, records, _tod = END.unpack_from(block, BLOCK_HEAD.size)
        if not self.salvage and (sets, records, data_blocks) != (totals[0], totals[1], number):
            raise self._error(number, "the end block's totals do not match the file: damaged")
        if blocks.get(number + 1) is not None:
            if not self.salvage:
                raise self._error(number + 1, "data after MONWRITE's end block")
            self._note(number + 1, "data after MONWRITE's end block", number + 1)
        self.complete = True


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


def _is_control(block: bytes, number: int) -> bool:
    """Whether *block* is a sound control or end block standing where it says it does."""
    if block[:8] not in (MWTBK_EYE, END_EYE):
        return False
    eye, stored_number, stored_crc = BLOCK_HEAD.unpack_from(block)
    zeroed = bytearray(block)
    BLOCK_HEAD.pack_into(zeroed, 0, eye, stored_number, 0)
    return stored_number == number and crc(zeroed) == stored_crc


def read_monwrite(path: str | Path, *, salvage: bool = False) -> MonwriteReader:
    """A reader over the MONWRITE file *path* (nothing is read until iterated)."""
    return MonwriteReader(path, salvage=salvage)
