"""A MONWRITE file as IBM documents it, built by hand for the tests.

Written from IBM's descriptions, not from zvmsim's writer (nothing here
imports :mod:`zvmsim.monitor.monwrite`), so a reader that agrees with both
agrees with IBM's layout and not merely with itself:

* the file is fixed 4096-byte records (F 4096);
* for every IUCV message from *MONITOR, MONWRITE writes a control record,
  mapped by HCPMWTBK (MWTBK): at 0 the 40-byte message-pending external
  interrupt buffer (MWTEXTBF, mapped by IPARML: IPPATHID, IPFLAGS1,
  IPTYPE, IPMSGID, IPTRGCLS, then the parameter-list message, IPRMMSG1 and
  IPRMMSG2, which for *MONITOR hold the start and end address of the
  monitor control area in the saved segment); at X'28' MWTCAREA, a copy of
  the monitor control area: 12-byte entries MWTCAFLG (X'E2' sample,
  X'C5' event), MWTCADMA and the byte after it (domain bits), a reserved
  byte, then MWTCASTR and MWTCAEND, the addresses of the first and last
  byte of the records;
* then the 4 KB pages of the saved segment that hold those records, entry
  by entry;
* records start with the 20-byte MRHDR (MRHDRLEN, MRHDRZER, MRHDRDM, a
  reserved byte, MRHDRRC, MRHDRTOD, 4 reserved bytes); in a page followed
  by another page of data, the records end with an end-of-frame record
  (MRMTREOF, D1 R13); the last page has none (MRMTREOF's prolog).

Sources: https://www.vm.ibm.com/pubs/cp620/MWTBK.HTML,
https://www.vm.ibm.com/pubs/mon710/MRMTREOF.HTML and the IUCV message
buffer as Linux's monreader driver maps it (drivers/s390/char/monreader.c).
Record bodies are opaque bytes here.
"""

from __future__ import annotations

import struct

PAGE = 4096
SAMPLE, EVENT = 0xE2, 0xC5
MRHDR = struct.Struct(">HHBxH8s4x")
EOF = MRHDR.pack(20, 0, 1, 13, bytes(8))  # MRMTREOF: the header alone
EVENT_AREA, SAMPLE_AREA = 0x0900_0000, 0x0B00_0000


def record(domain: int, number: int, tod: int, body: bytes) -> bytes:
    """One monitor record: MRHDR and *body*."""
    return MRHDR.pack(20 + len(body), 0, domain, number, tod.to_bytes(8, "big")) + body


def pages(records: list[bytes], offset: int = 0, span: bool = False) -> tuple[bytes, int]:
    """The pages holding *records* from *offset* on, and the offset of their last byte.

    A record that does not fit in a page (with room for the end-of-frame
    record) starts the next page, the page ending with MRMTREOF; with
    *span* records run on across page boundaries instead.
    """
    data = bytearray(offset)
    for raw in records:
        room = PAGE - len(data) % PAGE
        if not span and len(raw) + len(EOF) > room and len(data) % PAGE:
            data += EOF + bytes(room - len(EOF))
        data += raw
    last = len(data) - 1
    data += bytes(-len(data) % PAGE)
    return bytes(data), last


def domains(records: list[bytes]) -> int:
    """MWTCADMA and the byte after it: domain n is bit n from the left."""
    bits = 0
    for raw in records:
        bits |= 0x8000 >> raw[4]
    return bits


def control_record(msgid: int, entries: list[tuple[int, int, int, int]], area: int) -> bytes:
    """MWTBK: IPARML of message *msgid*, then the control area (flag, domains, start, end)."""
    mca = area + 0x28
    iparml = struct.pack(
        ">HBBI4sII20x", 1, 0x80, 0x09, msgid, bytes([entries[0][0], 0xC4, 0, 0]),
        mca, mca + 12 * len(entries) - 1,
    )  # fmt: skip
    area_copy = b"".join(struct.pack(">BHxII", *entry) for entry in entries)
    return (iparml + area_copy).ljust(PAGE, b"\0")


def message(
    msgid: int, kind: int, groups: list[list[bytes]], offset: int = 0, span: bool = False
) -> bytes:
    """One message: its control record, then each group's pages (one control entry per group)."""
    area = EVENT_AREA if kind == EVENT else SAMPLE_AREA
    address = area + PAGE  # the first data page, past the page holding the control area
    entries, data = [], b""
    for group in groups:
        body, last = pages(group, offset, span)
        entries.append((kind, domains(group), address + offset, address + last))
        data += body
        address += len(body)
    return control_record(msgid, entries, area) + data


def monwrite_file(messages: list[tuple[int, list[list[bytes]]]], **how: object) -> bytes:
    """A whole file: (kind, groups of records) per message, in order."""
    return b"".join(
        message(i + 1, kind, groups, **how)  # type: ignore[arg-type]
        for i, (kind, groups) in enumerate(messages)
    )
