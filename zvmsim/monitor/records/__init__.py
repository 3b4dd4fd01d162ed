"""CP Monitor records: typed, with domain and record numbers as CP's, by domain.

The framework (MRHDR, IBM field layouts, our APPLDATA, decoding) is in
:mod:`.base`; the records are grouped by monitor domain as IBM groups them.
Which records are in IBM's layout, and where our own fields go, is told in
``docs/monwrite-format.md``.
"""

from __future__ import annotations

from .appldata import MRAPLEDT
from .base import (
    DOMAINS,
    EBCDIC,
    HEADER,
    RECORD_TYPES,
    Extension,
    Item,
    Record,
    decode,
    decode_item,
    domain_mask,
    domains_in,
    known,
    merge_items,
    record_classes,
    register,
)
from .io import MRIODCAD, MRIODCST, MRIODDEV, MRIODHSK, MRIODLNK, MRIODVSW
from .monitor import MRMTRDEV, MRMTREND, MRMTREPR, MRMTRSCH, MRMTRSPR, MRMTRSYS, MRMTRUSR
from .processor import MRPRCMST, MRPRCPRP
from .scheduler import MRSCLADL, MRSCLDDL
from .storage import MRSTOASI, MRSTOASP, MRSTODSP, MRSTORSG, MRSTOSHR
from .system import (
    MRSYTCUG,
    MRSYTCUP,
    MRSYTEPM,
    MRSYTLCK,
    MRSYTLPU,
    MRSYTPRP,
    MRSYTRSG,
    MRSYTSXG,
    MRSYTSYG,
    MRSYTXSG,
)
from .user import MRUSEACT, MRUSEPAG

__all__ = [
    "DOMAINS",
    "EBCDIC",
    "HEADER",
    "MRAPLEDT",
    "MRIODCAD",
    "MRIODCST",
    "MRIODDEV",
    "MRIODHSK",
    "MRIODLNK",
    "MRIODVSW",
    "MRMTRDEV",
    "MRMTREND",
    "MRMTREPR",
    "MRMTRSCH",
    "MRMTRSPR",
    "MRMTRSYS",
    "MRMTRUSR",
    "MRPRCMST",
    "MRPRCPRP",
    "MRSCLADL",
    "MRSCLDDL",
    "MRSTOASI",
    "MRSTOASP",
    "MRSTODSP",
    "MRSTORSG",
    "MRSTOSHR",
    "MRSYTCUG",
    "MRSYTCUP",
    "MRSYTEPM",
    "MRSYTLCK",
    "MRSYTLPU",
    "MRSYTPRP",
    "MRSYTRSG",
    "MRSYTSXG",
    "MRSYTSYG",
    "MRSYTXSG",
    "MRUSEACT",
    "MRUSEPAG",
    "RECORD_TYPES",
    "Extension",
    "Item",
    "Record",
    "decode",
    "decode_item",
    "domain_mask",
    "domains_in",
    "known",
    "merge_items",
    "record_classes",
]

register(
    MRMTRSYS,
    MRMTRDEV,
    MRMTRSPR,
    MRMTREPR,
    MRMTREND,
    MRMTRUSR,
    MRSYTSYG,
    MRSYTPRP,
    MRPRCPRP,
    MRSCLADL,
    MRSCLDDL,
    MRUSEACT,
    MRIODDEV,
    MRIODCAD,
    MRIODVSW,
    MRSYTEPM,
    MRSYTRSG,
    MRSTOASP,
    MRSTOASI,
    MRAPLEDT,
    MRSYTCUG,
    MRSYTLPU,
    MRSYTCUP,
    MRSYTSXG,
    MRMTRSCH,
    MRIODCST,
    MRIODLNK,
    MRIODHSK,
    MRSTORSG,
    MRUSEPAG,
    MRPRCMST,
    MRSYTLCK,
    MRSYTXSG,
    MRSTODSP,
    MRSTOSHR,
)
