"""Reduce monitor records to intervals of counter deltas, as Perfkit does.

Sample records carry cumulative counters. Each end-of-set record (D1 R11)
closes a sample set; an *interval* is the difference between two consecutive
sets, divided into per-processor, per-user and per-device deltas. Gauges (a
value at sample time, such as the number of logged-on users) are taken from
the later set. Configuration records describe the system, its devices, its
users and the monitor profile; the last record seen of each address space
names its owner and kind.

This module reads :mod:`zvmsim.monitor.records` only — never the simulator.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field, fields

from ..errors import ZvmsimError
from ..monitor.records import (
    MRAPLEDT,
    MRIODCAD,
    MRIODCST,
    MRIODDEV,
    MRIODHSK,
    MRIODLNK,
    MRIODVSW,
    MRMTRDEV,
    MRMTREND,
    MRMTREPR,
    MRMTRSCH,
    MRMTRSPR,
    MRMTRSYS,
    MRMTRUSR,
    MRPRCMST,
    MRPRCPRP,
    MRSTOASI,
    MRSTOASP,
    MRSTODSP,
    MRSTORSG,
    MRSTOSHR,
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
    MRUSEACT,
    MRUSEPAG,
    Record,
)
from ..monitor.stream import MonitorData
from ..monitor.tod import from_tod

__all__ = ["Interval", "RunData", "merge", "reduce"]

Counters = dict[str, float]


@dataclass
class Interval:
    """Deltas over one monitor interval (or several merged)."""

    start: _dt.datetime
    end: _dt.datetime
    seconds: float
    system: Counters = field(default_factory=dict)
    cpus: dict[str, Counters] = field(default_factory=dict)
    users: dict[str, Counters] = field(default_factory=dict)
    devices: dict[str, Counters] = field(default_factory=dict)
    storage: Counters = field(default_factory=dict)
    sxs: Counters = field(default_factory=dict)  # the System Execution Space (gauges)
    pagevols: dict[str, Counters] = field(default_factory=dict)
    spaces: dict[str, Counters] = field(default_factory=dict)
    apps: dict[str, Counters] = field(default_factory=dict)
    lpus: dict[str, Counters] = field(default_factory=dict)  # logical PUs of all partitions
    pus: dict[str, Counters] = field(default_factory=dict)  # physical PUs by type
    caches: dict[str, Counters] = field(default_factory=dict)  # control-unit cache, by base RDEV
    channels: dict[str, Counters] = field(default_factory=dict)  # channel paths, by CHPID
    vswitches: dict[str, Counters] = field(default_factory=dict)  # VSWITCHes, by name
    links: dict[str, Counters] = field(default_factory=dict)  # minidisk links, by link
    hipersockets: dict[str, Counters] = field(default_factory=dict)  # IQD CHPIDs, by CHPID
    storage63: Counters = field(default_factory=dict)  # z/VM 6.3 aging and available lists
    upag: dict[str, Counters] = field(default_factory=dict)  # user page activity, by userid
    masters: dict[str, Counters] = field(default_factory=dict)  # the master processor, VMCF
    locks: dict[str, Counters] = field(default_factory=dict)  # CP spin locks, by name
    mdc: Counters = field(default_factory=dict)  # the minidisk cache (D0 R14)
    dspaces: dict[str, Counters] = field(default_factory=dict)  # CP's shared data spaces
    segments: dict[str, Counters] = field(default_factory=dict)  # NSS and DCSS, by name


@dataclass
class RunData:
    """What Perfkit knows after reading a monitor stream."""

    system: MRMTRSYS
    profile: MRMTRSPR
    devices: dict[str, MRMTRDEV]
    users: list[str]
    intervals: list[Interval]
    user_config: dict[str, MRMTRUSR] = field(default_factory=dict)
    events: MRMTREPR | None = None
    spaces: dict[str, MRSTOASI] = field(default_factory=dict)
    apps: dict[str, str] = field(default_factory=dict)  # userid -> its workload's name
    lpars: dict[str, MRSYTLPU] = field(default_factory=dict)  # logical PU -> its description
    channel_info: dict[str, MRSYTEPM] = field(default_factory=dict)  # CHPID -> last record
    vswitch_info: dict[str, MRIODVSW] = field(default_factory=dict)  # name -> last record
    srm: MRMTRSCH | None = None  # scheduler settings
    cache_status: dict[str, MRIODCST] = field(default_factory=dict)  # base RDEV -> last status
    link_info: dict[str, MRIODLNK] = field(default_factory=dict)  # link -> last record
    mdc_level: str = ""  # what MDC cached (TRACK or RECORD); empty: the system had no MDC
    mdc_home: str = ""  # where MDC's storage lived (CENTRAL or XSTORE); empty: not modelled
    segment_info: dict[str, MRSTOSHR] = field(default_factory=dict)  # NSS/DCSS -> last record
    partition: MRSYTCUG | None = None  # D0 R15: the partition the data was collected in

    @property
    def whole(self) -> Interval:
        """All intervals merged: the whole run."""
        return merge(self.intervals)


def collected_in(run: RunData) -> str:
    """The partition the data was collected in: D0 R15's, else the logical PUs' (blank: none)."""
    if run.partition is not None and run.partition.name:
        return run.partition.name
    own = [d.partition for d in run.lpars.values() if d.own]
    return own[0] if own else ""


_SAMPLED: dict[type[Record], str] = {
    MRPRCPRP: "cpus",
    MRUSEACT: "users",
    MRIODDEV: "devices",
    MRSTOASP: "pagevols",
    MRSTOASI: "spaces",
    MRAPLEDT: "apps",
    MRSYTLPU: "lpus",
    MRSYTCUP: "pus",
    MRIODCAD: "caches",
    MRSYTEPM: "channels",
    MRIODVSW: "vswitches",
    MRIODLNK: "links",
    MRIODHSK: "hipersockets",
    MRUSEPAG: "upag",
    MRPRCMST: "masters",
    MRSYTLCK: "locks",
    MRSTODSP: "dspaces",
    MRSTOSHR: "segments",
}
_GROUPS = (
    "cpus",
    "users",
    "devices",
    "pagevols",
    "spaces",
    "apps",
    "lpus",
    "pus",
    "caches",
    "channels",
    "vswitches",
    "links",
    "hipersockets",
    "upag",
    "masters",
    "locks",
    "dspaces",
    "segments",
)
_DESCRIBED = (
    MRSYTEPM,
    MRIODVSW,
    MRIODLNK,
    MRSTOSHR,
)  # sampled records whose last one also describes the entity


def _empty_set() -> dict:
    return {
        "system": None,
        "storage": None,
        "sxs": None,
        "storage63": None,
        "mdc": None,
        "prp": {},  # MRSYTPRP by processor address (hex, as MRPRCPRP keys it)
        **{g: {} for g in _GROUPS},
    }


def _delta(new: Record, old: Record | None, where: str) -> Counters:
    """Counter deltas (modulo the period of a counter IBM keeps narrow, as CP's wrap) and gauges."""
    out: Counters = {}
    kind = type(new)
    wraps = _moduli(kind)
    names = _COUNTERS.get(kind)
    if names is None:
        names = _COUNTERS[kind] = _counter_names(kind)
    counters, gauges = names
    for name in counters:
        value = getattr(new, name)
        before = getattr(old, name) if old is not None else 0
        period = wraps.get(name)
        if period is not None:
            out[name] = (value - before) % period
            continue
        if value < before:
            raise ZvmsimError(f"corrupt monitor data: counter {name} of {where} went backwards")
        out[name] = value - before
    for name in gauges:
        out[name] = getattr(new, name)
    return out


def _cpu_times(
    cpu: Counters | None, new: MRSYTPRP, old: MRSYTPRP | None, seconds: float
) -> Counters:
    """A processor's times from CP's own record, MRSYTPRP (D0 R2, IBM's fields).

    Busy is user plus system time (PFXUTIME + PFXTMSYS), emulation time is
    PFXPRBTM, CP's own time is PFXTMSYS. What no IBM field of D0 R2 carries
    (the processor's elapsed and PR/SM-suspended time) comes from MRPRCPRP
    when the data has one, else elapsed is the interval and suspension zero.
    """
    d = _delta(new, old, f"processor {new.cpu:02X}")
    out: Counters = dict(cpu) if cpu else {"elapsed_us": round(seconds * 1e6), "susp_us": 0}
    out["busy_us"] = d["utime_us"] + d["tmsys_us"]
    out["virtual_us"] = d["prbtm_us"]
    out["system_us"] = d["tmsys_us"]
    return out


_MODULI: dict[type[Record], dict[str, int]] = {}
# by record type: its counters, and its gauge fields in field order (made once)
_COUNTERS: dict[type[Record], tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _counter_names(kind: type[Record]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    fields_ = getattr(kind, "__dataclass_fields__", {}).values()
    return kind.counters(), tuple(f.name for f in fields_ if f.metadata.get("gauge"))


def _moduli(kind: type[Record]) -> dict[str, int]:
    got = _MODULI.get(kind)
    if got is None:
        got = _MODULI[kind] = kind.moduli()
    return got


def reduce(data: MonitorData) -> RunData:
    """Read a monitor stream into configuration plus a list of intervals."""
    system = profile = events = srm = None
    devices: dict[str, MRMTRDEV] = {}
    users: list[str] = []
    user_config: dict[str, MRMTRUSR] = {}
    spaces: dict[str, MRSTOASI] = {}
    apps: dict[str, str] = {}
    lpars: dict[str, MRSYTLPU] = {}
    partition: MRSYTCUG | None = None
    cache_status: dict[str, MRIODCST] = {}
    mdc_level = mdc_home = ""
    described: dict[type[Record], dict[str, Record]] = {k: {} for k in _DESCRIBED}
    sets: list[tuple[int, dict]] = []
    current = _empty_set()
    for rec in data:
        kind = type(rec)
        if kind is MRMTRSYS:
            system = rec
        elif kind is MRMTRSPR:
            profile = rec
        elif kind is MRMTREPR:
            events = rec
        elif kind is MRMTRSCH:
            srm = rec
        elif kind is MRMTRDEV:
            devices[rec.rdev] = rec
        elif kind is MRMTRUSR:
            users.append(rec.userid)
            user_config[rec.userid] = rec
        elif kind is MRSYTSYG:
            current["system"] = rec
        elif kind is MRSYTRSG:
            current["storage"] = rec
        elif kind is MRSYTCUG:
            partition = rec
        elif kind is MRSYTSXG:
            current["sxs"] = rec
        elif kind is MRSTORSG:
            current["storage63"] = rec
        elif kind is MRIODCST:
            cache_status[rec.rdev] = rec
        elif kind is MRSYTXSG:
            current["mdc"] = rec
            mdc_level, mdc_home = rec.level, rec.home
        elif kind is MRSYTPRP:
            current["prp"][f"{rec.cpu:02X}"] = rec
        elif kind in _SAMPLED:
            current[_SAMPLED[kind]][getattr(rec, kind.KEY)] = rec
            if kind is MRSTOASI:
                spaces[rec.space] = rec
            elif kind is MRAPLEDT:
                apps[rec.userid] = rec.workload
            elif kind is MRSYTLPU:
                lpars[rec.lpu] = rec
            elif kind in described:
                described[kind][getattr(rec, kind.KEY)] = rec
        elif kind is MRMTREND:
            if current["system"] is None:
                raise ZvmsimError("corrupt monitor data: a sample set has no system record")
            sets.append((rec.tod, current))
            current = _empty_set()
    if system is None or profile is None:
        raise ZvmsimError("monitor data has no configuration records (D1 R4 and D1 R9)")
    if len(sets) < 2:
        raise ZvmsimError("monitor data holds no complete monitor interval")
    intervals = []
    for (tod0, old), (tod1, new) in zip(sets, sets[1:], strict=False):
        seconds = (tod1 - tod0) / 4096 / 1e6
        if seconds <= 0:
            raise ZvmsimError("corrupt monitor data: sample sets out of time order")
        iv = Interval(from_tod(tod0), from_tod(tod1), seconds)
        iv.system = _delta(new["system"], old["system"], "the system")
        if new["storage"] is not None:
            iv.storage = _delta(new["storage"], old["storage"], "storage")
        if new["sxs"] is not None:
            iv.sxs = _delta(new["sxs"], old["sxs"], "the system execution space")
        if new["storage63"] is not None:
            iv.storage63 = _delta(new["storage63"], old["storage63"], "storage management")
        if new["mdc"] is not None:
            iv.mdc = _delta(new["mdc"], old["mdc"], "the minidisk cache")
        for group in _GROUPS:
            for key, rec in new[group].items():
                getattr(iv, group)[key] = _delta(rec, old[group].get(key), key)
        for key, rec in new["prp"].items():
            iv.cpus[key] = _cpu_times(iv.cpus.get(key), rec, old["prp"].get(key), iv.seconds)
        for key, cpu in iv.cpus.items():
            if "busy_us" not in cpu:
                raise ZvmsimError(
                    f"monitor data has processor {key} (D5 R3) without its times (D0 R2 MRSYTPRP)"
                )
        intervals.append(iv)
    return RunData(
        system,
        profile,
        devices,
        users,
        intervals,
        user_config,
        events,
        spaces,
        apps,
        lpars,
        channel_info=described[MRSYTEPM],  # type: ignore[arg-type]
        vswitch_info=described[MRIODVSW],  # type: ignore[arg-type]
        srm=srm,
        cache_status=cache_status,
        link_info=described[MRIODLNK],  # type: ignore[arg-type]
        mdc_level=mdc_level,
        mdc_home=mdc_home,
        partition=partition,
        segment_info=described[MRSTOSHR],  # type: ignore[arg-type]
    )


# the last few merges: (mean_gauges, the intervals' ids) -> (those intervals, the merge)
_MERGED: dict[tuple[bool, tuple[int, ...]], tuple[tuple[Interval, ...], Interval]] = {}
MERGED_KEPT = 8  # a dashboard update merges the same two or three lists a dozen times


def merge(intervals: list[Interval], mean_gauges: bool = False) -> Interval:
    """Sum counters over *intervals*; gauges keep the last interval's value.

    With *mean_gauges*, a gauge is instead its time-weighted mean over the
    intervals that carry it (what a by-time report's ``>>Mean>>`` row shows).
    The result, like the intervals, is read, never changed: a merge of the same
    intervals made lately is given again (every report of a run merges them).
    """
    if len(intervals) == 1:
        return intervals[0]
    key = (mean_gauges, tuple(map(id, intervals)))
    kept = _MERGED.get(key)
    if kept is not None and all(a is b for a, b in zip(kept[0], intervals, strict=True)):
        return kept[1]
    out = _merge(intervals, mean_gauges)
    if len(_MERGED) >= MERGED_KEPT:  # (it holds the intervals: their ids stay theirs)
        del _MERGED[next(iter(_MERGED))]
    _MERGED[key] = (tuple(intervals), out)
    return out


def _merge(intervals: list[Interval], mean_gauges: bool) -> Interval:
    """:func:`merge`'s sums, made anew."""
    out = Interval(intervals[0].start, intervals[-1].end, sum(i.seconds for i in intervals))
    for iv in intervals:
        _add(out.system, iv.system, _GAUGES)
        _add(out.storage, iv.storage, _GAUGES)
        _add(out.sxs, iv.sxs, _GAUGES)
        _add(out.storage63, iv.storage63, _GAUGES)
        _add(out.mdc, iv.mdc, _GAUGES)
        for group in _GROUPS:
            target = getattr(out, group)
            for key, counters in getattr(iv, group).items():
                _add(target.setdefault(key, {}), counters, _GAUGES)
    if mean_gauges:
        _mean_gauges(out.system, [(iv.seconds, iv.system) for iv in intervals])
        _mean_gauges(out.storage, [(iv.seconds, iv.storage) for iv in intervals])
        _mean_gauges(out.sxs, [(iv.seconds, iv.sxs) for iv in intervals])
        _mean_gauges(out.storage63, [(iv.seconds, iv.storage63) for iv in intervals])
        _mean_gauges(out.mdc, [(iv.seconds, iv.mdc) for iv in intervals])
        for group in _GROUPS:
            for key, target in getattr(out, group).items():
                parts = [(iv.seconds, getattr(iv, group).get(key)) for iv in intervals]
                _mean_gauges(target, [(s, c) for s, c in parts if c is not None])
    return out


def _mean_gauges(target: Counters, parts: list[tuple[float, Counters]]) -> None:
    """Replace each gauge in *target* by its mean over *parts*, weighted by seconds."""
    for name in [n for n in target if n in _GAUGES]:
        weighted = [(s, c[name]) for s, c in parts if name in c]
        total = sum(s for s, _ in weighted)
        if total > 0:
            target[name] = sum(s * v for s, v in weighted) / total


_GAUGES = {
    f.name
    for cls in (
        MRSYTSYG,
        MRSYTRSG,
        MRSYTSXG,
        MRUSEACT,
        MRSTOASP,
        MRSTOASI,
        MRIODDEV,
        MRPRCPRP,
        MRSYTLPU,
        MRSYTCUP,
        MRSYTEPM,
        MRIODVSW,
        MRIODLNK,
        MRIODHSK,
        MRSTORSG,
        MRUSEPAG,
        MRPRCMST,
        MRSYTXSG,
        MRSTODSP,
        MRSTOSHR,
    )
    for f in fields(cls)
    if f.metadata.get("gauge")
}


def _add(target: Counters, counters: Counters, gauges: set[str]) -> None:
    """Accumulate *counters* into *target*; a gauge keeps the later value."""
    for name, value in counters.items():
        target[name] = value if name in gauges else target.get(name, 0) + value
