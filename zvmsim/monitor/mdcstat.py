"""The minidisk cache's sample record (D0 R14): written when the system has MDC.

One record per sample set with MDC's size now and its cumulative counts
(lookups, hits, inserts, writes, invalidations), read from
:class:`zvmsim.cp.mdc.MinidiskCache`; and, when the scenario models where its
storage lives (:mod:`zvmsim.cp.mdchome`), central or XSTORE, the XSTORE pages
it holds and the frames the arbiter gave back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .records import MRSYTXSG, Record

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["mdc_records"]


def mdc_records(machine: Machine, tod: int) -> list[Record]:
    """The MDC record of this sample set (none when the system has no MDC)."""
    mdc, home = machine.mdc, machine.mdc_home
    if mdc is None:
        return []
    return [
        MRSYTXSG(
            tod=tod,
            level="RECORD" if mdc.record_level else "TRACK",
            size_pages=mdc.cached_pages,
            max_pages=mdc.capacity * mdc.unit_blocks,
            unit_pages=mdc.unit_blocks,
            reads=mdc.hits + mdc.misses,
            read_hits=mdc.hits,
            inserts=mdc.inserts,
            writes=mdc.writes,
            inval_calls=mdc.inval_calls,
            inval_units=mdc.inval_units,
            inval_freed=mdc.inval_freed,
            home=home.where.upper() if home is not None else "",
            xstore_pages=home.xstore_pages if home is not None else 0,
            given_back=home.given_back if home is not None else 0,
        )
    ]
