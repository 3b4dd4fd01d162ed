"""The record framework: MRHDR, IBM field layouts, our APPLDATA records, decoding.

Every record starts with IBM's 20-byte MRHDR (length, zero, domain, record
number, TOD clock). A record class whose fields carry ``ibm(...)`` metadata
is written in IBM's published layout (see ``docs/monwrite-format.md``): each
such field at IBM's offset, length and type, IBM's fields we do not simulate
zero, the record IBM's total length. What no IBM field carries — the
simulator's extras, or the exact value of a field whose IBM form is coarser
than ours (a time in 128-microsecond units, a name longer than IBM's) —
travels in an *extension*: a Domain 10 APPLDATA record (IBM's MRAPLSDT
header, product identifier ``ZVMSIM  <record name>``) written right after
the IBM record. Classes without any IBM field (the records that are ours
alone) are written wholly as such APPLDATA records. :func:`decode` and
:func:`merge_items` put an extension back into the record before it, so a
reader sees the same Python record that was written.

Counters are cumulative since the machine started (a reader takes deltas
between sample sets); fields marked *gauge* are a value at sample time. An
IBM counter narrower than 8 bytes wraps the way CP's does (modulo 2**32 for
4 bytes): :meth:`Record.moduli` tells a reader which deltas to take modulo
what.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cache
from operator import attrgetter
from typing import Any, ClassVar, NamedTuple

from ...errors import ZvmsimError

__all__ = [
    "APPLDATA",
    "DOMAINS",
    "EBCDIC",
    "HEADER",
    "PRODUCT",
    "RECORD_TYPES",
    "Extension",
    "IbmField",
    "Item",
    "Record",
    "decode",
    "decode_item",
    "domain_mask",
    "domains_in",
    "gauge",
    "known",
    "char",
    "ibm",
    "merge_items",
    "register",
]

HEADER = struct.Struct(">HHBxH8s4x")  # MRHDRLEN, MRHDRZER, MRHDRDM, MRHDRRC, MRHDRTOD
EBCDIC = "cp500"
TOD_PER_US = 4096  # bit 51 of the TOD clock is one microsecond

# IBM's MRAPLSDT (D10 R2, sample APPLDATA) after the MRHDR: CALDATOF, CALDATLN,
# USERID, MDGPROD, STATUS, three reserved bytes; the application's data follows.
APPLDATA = struct.Struct(">hh8s16sB3x")
APPL_DOMAIN, APPL_NUMBER = 10, 2
APPL_DATA_AT = HEADER.size + APPLDATA.size  # 52
APPL_USER = "ZVMSIM"  # the "virtual machine" that provides our APPLDATA
PRODUCT = "ZVMSIM"  # product identifier: the first 8 of MDGPROD's 16 bytes
_PRODUCT_EBCDIC = PRODUCT.ljust(8).encode(EBCDIC)

# Monitor domains by number, as CP MONITOR names them.
DOMAINS: dict[int, str] = {
    0: "SYSTEM",
    1: "MONITOR",
    2: "SCHEDULER",
    3: "STORAGE",
    4: "USER",
    5: "PROCESSOR",
    6: "I/O",
    7: "SEEK",
    8: "NETWORK",
    9: "ISFC",
    10: "APPLDATA",
}


def domain_mask(*domains: int) -> int:
    """A profile's domain bit vector: domain *n* is bit *n* from the left of 2 bytes."""
    return sum(1 << (15 - d) for d in set(domains))


def domains_in(mask: int) -> list[int]:
    """The domain numbers whose bits are set in *mask*, in order."""
    return [d for d in range(16) if mask & (1 << (15 - d))]


@dataclass(frozen=True)
class IbmField:
    """Where IBM keeps one of our fields: its name, offset, length and type.

    ``kind``: ``u`` unsigned binary; ``tod`` TOD-clock units (our value is
    microseconds; 4096 units each); ``u128`` units of 128 microseconds (the
    channel measurement block's); ``hex`` a device or processor number we
    keep as hex digits; ``c`` EBCDIC characters, blank padded.
    """

    name: str
    offset: int
    length: int
    kind: str = "u"

    @property
    def modulus(self) -> int | None:
        """Our value's period when IBM's field wraps (None: it does not)."""
        if self.kind == "u" and self.length < 8:
            return 1 << (8 * self.length)
        if self.kind == "u128":
            return (1 << (8 * self.length)) * 128
        return None

    def pack(self, value: Any) -> bytes:
        if self.kind == "c":
            return str(value).ljust(self.length)[: self.length].encode(EBCDIC)
        if self.kind == "hex":
            try:
                number = int(str(value), 16)
            except ValueError:  # not a number: the exact value goes to our APPLDATA
                number = 0
        elif self.kind == "tod":
            number = int(value) * TOD_PER_US
        elif self.kind == "u128":
            number = int(value) // 128
        else:
            number = int(value)
        return (number % (1 << (8 * self.length))).to_bytes(self.length, "big")

    def unpack(self, raw: bytes) -> Any:
        if self.kind == "c":
            return raw.decode(EBCDIC).rstrip()
        number = int.from_bytes(raw, "big")
        if self.kind == "hex":
            return f"{number:0{2 * self.length}X}"
        if self.kind == "tod":
            return number // TOD_PER_US
        if self.kind == "u128":
            return number * 128
        return number

    def exact(self, value: Any, raw: bytes) -> bool:
        """Whether *raw* gives *value* back (a wrapped counter counts as exact)."""
        back = self.unpack(raw)
        modulus = self.modulus
        if modulus is not None and self.kind == "u":
            return back == int(value) % modulus
        return back == value


def char(length: int, **ibm_at: Any) -> Any:
    """An EBCDIC character field of *length* (``ibm=`` places it in IBM's layout)."""
    return field(default="", metadata={"char": length, **ibm_at})


def gauge(**ibm_at: Any) -> Any:
    """An integer that is a value at sample time, not a counter."""
    return field(default=0, metadata={"gauge": True, **ibm_at})


def ibm(name: str, offset: int, length: int, kind: str = "u", *, is_gauge: bool = False) -> Any:
    """An integer counter (or gauge) that IBM keeps at *offset*."""
    meta: dict[str, Any] = {"ibm": IbmField(name, offset, length, kind)}
    if is_gauge:
        meta["gauge"] = True
    return field(default=0, metadata=meta)


def at(name: str, offset: int, length: int, kind: str = "u") -> dict[str, IbmField]:
    """Metadata placing a :func:`char` or :func:`gauge` field in IBM's layout."""
    return {"ibm": IbmField(name, offset, length, kind)}


class _Layout(NamedTuple):
    ibm: tuple[tuple[int, str, IbmField], ...]  # (field index, our name, IBM's field)
    extra: tuple[tuple[str, int | None], ...]  # our fields with no IBM place (name, char length)
    extra_struct: struct.Struct
    spec: tuple[tuple[str, int | None], ...]  # every field (name, char length), in order


_LAYOUTS: dict[type, _Layout] = {}


@cache
def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A reader of a record's field values, in ``__init__``'s order."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if len(names) == 1:  # attrgetter of one name gives the value, not a tuple
        return lambda record: (getattr(record, names[0]),)
    return attrgetter(*names)


class Record:
    """Base of all monitor records: a TOD stamp plus fields.

    ``IBM`` names IBM's record (its DSECT) when the class is written in IBM's
    layout, ``IBM_LENGTH`` is that record's total length and ``IBM_URL`` the
    page that documents it; ``IBM`` None means the record is ours alone.
    """

    DOMAIN: ClassVar[int]
    NUMBER: ClassVar[int]
    KEY: ClassVar[str | None] = None  # the field naming the entity (userid, rdev, ...)
    IBM: ClassVar[str | None] = None
    IBM_LENGTH: ClassVar[int] = 0
    IBM_URL: ClassVar[str] = ""
    # the field that is IBM's APLSDT_USERID (the virtual machine that handed CP
    # the data) when the record is APPLDATA a guest provides; None: ``ZVMSIM``
    APPL_USER_FIELD: ClassVar[str | None] = None

    tod: int

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        """Pickled as the class and its field values, read back through the class's
        own ``__init__``: twice as fast to load as dataclasses' slot state, which
        matters to the run cache (a run holds some 17,000 records)."""
        cls = type(self)
        return cls, _field_values(cls)(self)

    @classmethod
    def layout(cls) -> _Layout:
        """The class's IBM fields and the fields only our APPLDATA carries."""
        got = _LAYOUTS.get(cls)
        if got is None:
            ibm_fields, extra, spec = [], [], []
            fmt = ">"
            for index, f in enumerate(fields(cls)):  # type: ignore[arg-type]
                if f.name == "tod":
                    continue
                length = f.metadata.get("char")
                spec.append((f.name, length))
                where = f.metadata.get("ibm")
                if where is not None and cls.IBM:
                    ibm_fields.append((index, f.name, where))
                elif f.name != cls.APPL_USER_FIELD:
                    extra.append((f.name, length))
                    fmt += f"{length}s" if length else "q"
            got = _Layout(tuple(ibm_fields), tuple(extra), struct.Struct(fmt), tuple(spec))
            _LAYOUTS[cls] = got
        return got

    @classmethod
    def counters(cls) -> tuple[str, ...]:
        """Names of the cumulative integer fields (what a reader takes deltas of)."""
        return tuple(
            f.name
            for f in fields(cls)  # type: ignore[arg-type]
            if f.name != "tod" and "char" not in f.metadata and not f.metadata.get("gauge")
        )

    @classmethod
    def moduli(cls) -> dict[str, int]:
        """Counters whose IBM field wraps, with the period of our value (deltas modulo it)."""
        return {
            name: where.modulus
            for _i, name, where in cls.layout().ibm
            if where.modulus is not None and name in cls.counters()
        }

    def encode(self) -> list[bytes]:
        """The record as CP would store it (MRHDR and body), then our APPLDATA if any."""
        lay = self.layout()
        tod = self.tod.to_bytes(8, "big")
        if not self.IBM:
            user = getattr(self, self.APPL_USER_FIELD) if self.APPL_USER_FIELD else APPL_USER
            return [_appl(type(self).__name__, tod, self._extra_bytes([]), user)]
        body = bytearray(self.IBM_LENGTH)
        HEADER.pack_into(body, 0, self.IBM_LENGTH, 0, self.DOMAIN, self.NUMBER, tod)
        exact: list[tuple[int, Any]] = []
        for index, name, where in lay.ibm:
            value = getattr(self, name)
            raw = where.pack(value)
            body[where.offset : where.offset + where.length] = raw
            if not where.exact(value, raw):
                exact.append((index, value))
        out = [bytes(body)]
        if lay.extra or exact:
            out.append(_appl(type(self).__name__, tod, self._extra_bytes(exact)))
        return out

    def to_bytes(self) -> bytes:
        """:meth:`encode`'s records back to back."""
        return b"".join(self.encode())

    def _extra_bytes(self, exact: list[tuple[int, Any]]) -> bytes:
        lay = self.layout()
        values = []
        for name, length in lay.extra:
            value = getattr(self, name)
            values.append(str(value).ljust(length)[:length].encode(EBCDIC) if length else value)
        out = [lay.extra_struct.pack(*values), bytes([len(exact)])]
        all_fields = fields(self)  # type: ignore[arg-type]
        for index, value in exact:
            length = all_fields[index].metadata.get("char")
            out.append(bytes([index]))
            if length:
                out.append(str(value).ljust(length)[:length].encode(EBCDIC))
            else:
                out.append(struct.pack(">q", value))
        return b"".join(out)

    @classmethod
    def from_body(cls, tod: int, body: bytes) -> Record:
        """Rebuild a record from its TOD and IBM body (MRHDR excluded)."""
        if len(body) != cls.IBM_LENGTH - HEADER.size:
            raise ZvmsimError(
                f"monitor record D{cls.DOMAIN} R{cls.NUMBER} has {len(body)} body bytes, "
                f"expected {cls.IBM_LENGTH - HEADER.size}"
            )
        kwargs: dict[str, Any] = {}
        for _index, name, where in cls.layout().ibm:
            start = where.offset - HEADER.size
            kwargs[name] = where.unpack(body[start : start + where.length])
        return cls(tod=tod, **kwargs)  # type: ignore[call-arg]

    @classmethod
    def from_appldata(
        cls, tod: int, data: bytes, user: str = APPL_USER
    ) -> tuple[dict[str, Any], Record | None]:
        """Our APPLDATA's values; the whole record when the class is ours alone.

        *user* is the record's APLSDT_USERID (see ``APPL_USER_FIELD``).
        """
        lay = cls.layout()
        size = lay.extra_struct.size
        if len(data) < size + 1:
            raise ZvmsimError(f"APPLDATA of {cls.__name__} is too short")
        values: dict[str, Any] = {}
        for (name, length), value in zip(
            lay.extra, lay.extra_struct.unpack_from(data), strict=True
        ):
            values[name] = value.decode(EBCDIC).rstrip() if length else value
        at_ = size + 1
        all_fields = fields(cls)  # type: ignore[arg-type]
        for _ in range(data[size]):
            if at_ >= len(data):
                raise ZvmsimError(f"APPLDATA of {cls.__name__} is too short")
            index = data[at_]
            if not 0 < index < len(all_fields):
                raise ZvmsimError(f"APPLDATA of {cls.__name__} names no field")
            f = all_fields[index]
            length = f.metadata.get("char")
            if length:
                values[f.name] = data[at_ + 1 : at_ + 1 + length].decode(EBCDIC).rstrip()
                at_ += 1 + length
            else:
                values[f.name] = struct.unpack_from(">q", data, at_ + 1)[0]
                at_ += 9
        if at_ != len(data):
            raise ZvmsimError(f"APPLDATA of {cls.__name__} has the wrong length")
        if cls.APPL_USER_FIELD:
            values[cls.APPL_USER_FIELD] = user
        if cls.IBM:
            return values, None
        return values, cls(tod=tod, **values)  # type: ignore[call-arg]


def _appl(name: str, tod: bytes, data: bytes, user: str = APPL_USER) -> bytes:
    size = APPL_DATA_AT + len(data)
    head = HEADER.pack(size, 0, APPL_DOMAIN, APPL_NUMBER, tod)
    product = f"{PRODUCT:<8}{name:<8}".encode(EBCDIC)
    userid = str(user).ljust(8)[:8].encode(EBCDIC)
    return head + APPLDATA.pack(APPL_DATA_AT, len(data), userid, product, 0) + data


@dataclass(frozen=True)
class Extension:
    """Our APPLDATA that completes the IBM record written just before it."""

    kind: type[Record]
    tod: int
    values: dict[str, Any]
    DOMAIN: ClassVar[int] = APPL_DOMAIN


class Item(NamedTuple):
    """One record as it lies in the data: its wire domain and TOD, and what it holds."""

    domain: int
    tod: int
    value: Record | Extension


RECORD_TYPES: dict[tuple[int, int], type[Record]] = {}  # every record class by (domain, number)
_WIRE: dict[tuple[int, int], type[Record]] = {}  # the IBM-layout ones, as they lie in the data
_BY_NAME: dict[str, type[Record]] = {}  # every record class by name (APPLDATA product)


def register(*classes: type[Record]) -> None:
    """Make *classes* known to the decoder."""
    for cls in classes:
        _BY_NAME[cls.__name__] = cls
        RECORD_TYPES[(cls.DOMAIN, cls.NUMBER)] = cls
        if cls.IBM:
            _WIRE[(cls.DOMAIN, cls.NUMBER)] = cls


def record_classes() -> list[type[Record]]:
    """Every record class, IBM layout or ours."""
    return list(_BY_NAME.values())


def known(domain: int, number: int, body: bytes) -> bool:
    """Whether zvmsim has a layout for the record: IBM's it writes, or APPLDATA of its own."""
    if (domain, number) == (APPL_DOMAIN, APPL_NUMBER):
        return body[12:20] == _PRODUCT_EBCDIC  # the first 8 bytes of APLSDT_MDGPROD
    return (domain, number) in _WIRE


def decode_item(domain: int, number: int, tod: int, body: bytes) -> Item:
    """Decode one record's body (after the MRHDR); ZvmsimError if it is not ours to read."""
    if (domain, number) == (APPL_DOMAIN, APPL_NUMBER):
        if len(body) < APPLDATA.size:
            raise ZvmsimError("APPLDATA record too short")
        where, length, user, product, _status = APPLDATA.unpack_from(body)
        name = product.decode(EBCDIC)
        cls = _BY_NAME.get(name[8:].rstrip()) if name[:8].rstrip() == PRODUCT else None
        if cls is None or where != APPL_DATA_AT or length != len(body) - APPLDATA.size:
            raise ZvmsimError(f"APPLDATA from {name.strip()!r} is not zvmsim's")
        values, whole = cls.from_appldata(tod, body[APPLDATA.size :], user.decode(EBCDIC).rstrip())
        return Item(domain, tod, whole if whole is not None else Extension(cls, tod, values))
    cls = _WIRE.get((domain, number))
    if cls is None:
        raise ZvmsimError(f"unknown monitor record D{domain} R{number}")
    return Item(domain, tod, cls.from_body(tod, body))


def merge_items(items: list[Item]) -> list[Record]:
    """The records of *items*, each extension merged into the record before it."""
    out: list[Record] = []
    for item in items:
        value = item.value
        if isinstance(value, Extension):
            if not out or type(out[-1]) is not value.kind or out[-1].tod != value.tod:
                raise ZvmsimError(f"APPLDATA for {value.kind.__name__} follows no such record")
            out[-1] = _replace(out[-1], value.values)
        else:
            out.append(value)
    return out


def _replace(rec: Record, values: dict[str, Any]) -> Record:
    kwargs = {f.name: getattr(rec, f.name) for f in fields(rec)}  # type: ignore[arg-type]
    kwargs.update(values)
    return type(rec)(**kwargs)


def decode(data: bytes, offset: int = 0) -> tuple[Record, int]:
    """Decode the record at *offset* (with its APPLDATA, if any); return it and the next offset."""
    items: list[Item] = []
    while True:
        if len(data) - offset < HEADER.size:
            if items:
                break
            raise ZvmsimError(f"monitor data truncated at byte {offset}")
        size, zero, domain, number, tod = HEADER.unpack_from(data, offset)
        if zero != 0 or size < HEADER.size or offset + size > len(data):
            raise ZvmsimError(f"corrupt monitor record header at byte {offset}")
        item = decode_item(
            domain, number, int.from_bytes(tod, "big"), data[offset + HEADER.size : offset + size]
        )
        if items and not isinstance(item.value, Extension):
            break
        items.append(item)
        offset += size
        if not isinstance(item.value, Record) or not item.value.IBM:
            break
    return merge_items(items)[0], offset
