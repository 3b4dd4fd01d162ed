"""FCX111 CACHDBSE and FCX177 CACHEXT — control-unit cache statistics per volume.

Both come from the cache-activity records (D6 R4), one per volume whose
control unit reports its cache; a volume without them has no row.

* **FCX111 CACHDBSE** — "Load and Performance for Cached Disks": the
  cache-handled I/O rate, the share of reads, the read hit ratio, the DASD
  fast write hit ratio, inhibit-cache-load and bypass I/Os per second, and
  (zvmsim's addition) tracks staged per second. The *Split* block divides
  the I/O into normal (N), sequential (S) and cache-fast-write (F) requests;
  CP's CMS and paging I/O asks for neither sequential caching nor CFW, so all
  of it is normal.
* **FCX177 CACHEXT** — "Cache Extended Functions Performance": the same
  counts as rates and hit percentages, next to the I/O rate the subchannel
  measurement blocks counted (D6 R3, base and aliases of the volume).
"""

from __future__ import annotations

import pandas as pd

from .reduce import Counters, Interval, RunData
from .render import Column, table
from .report import ReportSpec

__all__ = ["FCX111", "FCX177"]

NAN = float("nan")


def _pct(part: float, whole: float) -> float:
    return 100.0 * part / whole if whole else NAN


def _cached(run: RunData, iv: Interval) -> list[tuple[str, str, Counters]]:
    """(base RDEV, volser, cache counters) of every volume with cache records."""
    out = []
    for addr in sorted(iv.caches):
        cfg = run.devices.get(addr)
        out.append((addr, cfg.volser if cfg else "", iv.caches[addr]))
    return out


def build_cachdbse(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX111 rows: one per cached volume."""
    iv = intervals[0]
    secs = iv.seconds
    rows = []
    for addr, volser, c in _cached(run, iv):
        reads, writes = c.get("reads", 0), c.get("writes", 0)
        ios = reads + writes
        rows.append(
            {
                "addr": addr,
                "volser": volser,
                "io_rate": ios / secs,
                "pct_read": _pct(reads, ios),
                "pct_read_hits": _pct(c.get("read_hits", 0), reads),
                "pct_write_hits": _pct(c.get("dfw_hits", 0), writes),
                "icl_rate": c.get("icl", 0) / secs,
                "bypass_rate": c.get("bypass", 0) / secs,
                "staged_rate": c.get("staged", 0) / secs,
            }
        )
    return pd.DataFrame(rows, columns=_FCX111_KEYS)


def _cachdbse_body(frame: pd.DataFrame) -> list[str]:
    """Each volume's line, then its sequential (S) and cache-fast-write (F) split lines."""
    rows = []
    for rec in frame.to_dict("records"):
        split = {"split_read": rec["pct_read"], "split_hit": rec["pct_read_hits"]}
        rows.append({**rec, **split, "split_io": rec["io_rate"], "split": "(N)"})
        for tag in ("(S)", "(F)"):
            blank = {key: "" for key in _FCX111_KEYS}
            rows.append(blank | {"split_io": 0.0, "split_read": 0, "split_hit": 0, "split": tag})
    shown = pd.DataFrame(rows, columns=[c.key for c in _FCX111_TEXT])
    groups = "<- Device -> <-------- Overall CU-Cache Performance --------->  <----- Split ----->"
    return table(shown, _FCX111_TEXT, groups)


_FCX111_COLUMNS = [
    Column("addr", ("", "ADDR"), 5, "s", left=True),
    Column("volser", ("", "VOLSER"), 6, "s", left=True),
    Column("io_rate", ("", "IO/S"), 6, "r"),
    Column("pct_read", ("", "%READ"), 5, "i"),
    Column("pct_read_hits", ("", "%RDHIT"), 6, "i"),
    Column("pct_write_hits", ("", "%WRHIT"), 6, "i"),
    Column("icl_rate", ("", "ICL/S"), 5, "1"),
    Column("bypass_rate", ("", "BYP/S"), 5, "1"),
    Column("staged_rate", ("", "STG/S"), 6, "r", origin="ours: tracks staged into the cache"),
]
_FCX111_KEYS = [c.key for c in _FCX111_COLUMNS]
_FCX111_TEXT = [
    *_FCX111_COLUMNS,
    Column("split_io", ("", "IO/S"), 6, "r"),
    Column("split_read", ("", "%READ"), 5, "i"),
    Column("split_hit", ("", "%RDHIT"), 6, "i"),
    Column("split", ("", ""), 3, "s", left=True),
]

FCX111 = ReportSpec(
    fcx="FCX111",
    name="CACHDBSE",
    title="Load and Performance for Cached Disks",
    build=build_cachdbse,
    aliases=("CACHDBSE",),
    columns=_FCX111_COLUMNS,
    body=_cachdbse_body,
)


def _scmbk_ios(run: RunData, iv: Interval, base: str) -> float:
    """SSCHs the measurement blocks counted for a volume: its base and its aliases."""
    total = 0.0
    for rdev, cfg in run.devices.items():
        if rdev == base or cfg.base == base:
            total += iv.devices.get(rdev, {}).get("ssch", 0)
    return total


def build_cachext(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX177 rows: one per volume whose control unit reports cache activity."""
    iv = intervals[0]
    secs = iv.seconds
    rows = []
    for addr, volser, c in _cached(run, iv):
        reads, writes = c.get("reads", 0), c.get("writes", 0)
        read_hits, dfw_hits = c.get("read_hits", 0), c.get("dfw_hits", 0)
        ios = reads + writes
        rows.append(
            {
                "addr": addr,
                "volser": volser,
                "cache_rate": ios / secs,
                "scmbk_rate": _scmbk_ios(run, iv, addr) / secs,
                "read_nseq_rate": reads / secs,
                "read_seq_rate": 0.0,
                "write_fw_rate": writes / secs,
                "pct_read": _pct(reads, ios),
                "pct_hits": _pct(read_hits + dfw_hits, ios),
                "pct_read_hits": _pct(read_hits, reads),
                "pct_write_hits": _pct(dfw_hits, writes),
                "pct_dfw_hits": _pct(dfw_hits, writes),
                "pct_cfw_hits": NAN,  # no cache fast write requested
            }
        )
    return pd.DataFrame(rows, columns=[c.key for c in FCX177.columns])


FCX177 = ReportSpec(
    fcx="FCX177",
    name="CACHEXT",
    title="Cache Extended Functions Performance",
    build=build_cachext,
    aliases=("CACHEXT",),
    groups="<-- Device -->  <----------- Rate/s ----------->        <-------- Percent -------->",
    columns=[
        Column("addr", ("", "Addr"), 5, "s", left=True),
        Column("volser", ("", "Volser"), 6, "s", left=True),
        Column("cache_rate", ("Total", "Cache"), 6, "r"),
        Column("scmbk_rate", ("Total", "SCMBK"), 6, "r"),
        Column("read_nseq_rate", ("Read", "N-Seq"), 6, "r"),
        Column("read_seq_rate", ("Read", "Seq"), 5, "r"),
        Column("write_fw_rate", ("Write", "FW"), 6, "r"),
        Column("pct_read", ("", "Read"), 5, "i"),
        Column("pct_hits", ("Hits", "Tot"), 4, "i"),
        Column("pct_read_hits", ("Hits", "RdHt"), 4, "i"),
        Column("pct_write_hits", ("Hits", "Wrt"), 4, "i"),
        Column("pct_dfw_hits", ("Hits", "DFW"), 4, "i"),
        Column("pct_cfw_hits", ("Hits", "CFW"), 4, "i"),
    ],
)
