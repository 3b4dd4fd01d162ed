"""Looking inside raw monitor data: records and record sets as pandas tables.

Performance Toolkit hides the records behind its reports; a student who
wants to know what MONWRITE data *is* can read it here. ``records_frame``
lists every record of a MONWRITE file (or of a run) with the set it came
in, its domain and record number, its time, the entity it describes and
its length; ``fields_frame`` spreads one record type's fields into columns
(sample records carry counters that only grow: the reports take their
differences between sample sets); ``file_summary`` counts records by
domain and kind, as a dashboard shows them.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pandas as pd

from ..monitor.monread import MonwriteReader
from ..monitor.records import DOMAINS, Record
from ..monitor.stream import MonitorData
from ..monitor.tod import from_tod

__all__ = ["fields_frame", "file_summary", "records_frame", "sets_frame"]

Source = str | Path | bytes | MonitorData


def _reader(source: Source) -> MonwriteReader:
    if isinstance(source, MonitorData):
        source = source.to_bytes()
    return MonwriteReader(source)


def records_frame(source: Source) -> pd.DataFrame:
    """One row per record: set, kind, time, domain, record number, name, entity, length."""
    rows = []
    for rset in _reader(source).sets():
        for rec in rset.records:
            cls = type(rec)
            rows.append(
                {
                    "set": rset.number,
                    "kind": rset.kind,
                    "time": from_tod(rec.tod).strftime("%H:%M:%S.%f")[:-3],
                    "domain": DOMAINS.get(cls.DOMAIN, str(cls.DOMAIN)),
                    "record": f"D{cls.DOMAIN} R{cls.NUMBER}",
                    "name": cls.__name__,
                    "entity": getattr(rec, cls.KEY) if cls.KEY else "",
                    "length": len(rec.to_bytes()),
                }
            )
    return pd.DataFrame(rows)


def sets_frame(source: Source) -> pd.DataFrame:
    """One row per record set: its number, kind, first block, blocks, records, time."""
    rows = [
        {
            "set": s.number,
            "kind": s.kind,
            "first_block": s.first_block,
            "blocks": s.blocks,
            "records": len(s.records),
            "time": from_tod(s.records[0].tod).strftime("%H:%M:%S"),
        }
        for s in _reader(source).sets()
    ]
    return pd.DataFrame(rows)


def fields_frame(records: object, kind: type[Record], **match: str) -> pd.DataFrame:
    """The records of type *kind* (e.g. ``MRUSEACT``) with every field as a column.

    *match* keeps records whose fields equal the values given, e.g.
    ``userid="BATCH1"``.
    """
    names = [f.name for f in fields(kind)]  # type: ignore[arg-type]
    rows = [
        {"time": from_tod(r.tod).strftime("%H:%M:%S"), **{n: getattr(r, n) for n in names[1:]}}
        for r in records  # type: ignore[attr-defined]
        if type(r) is kind and all(getattr(r, k) == v for k, v in match.items())
    ]
    return pd.DataFrame(rows)


def file_summary(data: MonitorData) -> tuple[str, pd.DataFrame]:
    """A MONWRITE file's size in one line, and its records counted by domain and kind."""
    raw = data.to_bytes()
    counts: Counter[tuple[str, str]] = Counter()
    sets = 0
    for rset in MonwriteReader(raw).sets():
        sets += 1
        for rec in rset.records:
            counts[(DOMAINS.get(rec.DOMAIN, str(rec.DOMAIN)), rset.kind)] += 1
    kinds = ["configuration", "sample", "event"]
    table = pd.DataFrame(
        [
            {"domain": name, **{k: counts[(name, k)] for k in kinds}}
            for name in DOMAINS.values()
            if any(counts[(name, k)] for k in kinds)
        ],
        columns=["domain", *kinds],
    )
    packed = len(zlib.compress(raw, 9))
    line = (
        f"MONWRITE file: {len(data)} records in {sets} record sets, "
        f"{len(raw) // 4096} blocks of 4096 bytes ({len(raw) / 1024:,.0f} KB; "
        f"{packed / 1024:,.0f} KB compressed)"
    )
    return line, table
