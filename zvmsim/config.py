"""The whole emulated system as validated, immutable dataclasses.

A scenario file is plain TOML; :func:`build_config` turns its tables into a
:class:`SystemConfig`, rejecting unknown keys, wrong types and impossible
combinations with a one-line :class:`~zvmsim.errors.ZvmsimError` that names
the offending item. Engine modules only ever see these dataclasses.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from dataclasses import dataclass, field
from typing import Any

from .calibration import Calibration
from .cp.limits import LIMITHARD_METHODS
from .cp.scheduler import SrmConfig
from .errors import ZvmsimError
from .hardware.nvs import OtherWrites
from .hardware.prsm import CecConfig, PartitionConfig
from .monitor.profile import DEFAULT_EVENTS, SAMPLE_DOMAINS, enabled_domains
from .window import check_window
from .zos.dbserver import DbServerConfig

__all__ = [
    "PagingConfig",
    "SegmentConfig",
    "StorageConfig",
    "ChannelConfig",
    "ControlUnitConfig",
    "CPConfig",
    "GuestConfig",
    "MinidiskConfig",
    "MonitorConfig",
    "ProcessorConfig",
    "SystemConfig",
    "SystemInfo",
    "VolumeConfig",
    "VSwitchConfig",
    "build_config",
    "hex_range",
]


@dataclass(frozen=True)
class SystemInfo:
    """What Perfkit prints in a report header."""

    sysid: str
    cpu_model: str
    serial: str
    zvm_level: str
    start: _dt.datetime
    title: str


@dataclass(frozen=True)
class MonitorConfig:
    """MONITOR SAMPLE INTERVAL and RATE (the high-frequency sampling rate), and
    the domains enabled for sample and for event data."""

    sample_interval: float
    hfs_interval: float
    sample_domains: tuple[int, ...] = SAMPLE_DOMAINS
    event_domains: tuple[int, ...] = DEFAULT_EVENTS


@dataclass(frozen=True)
class ProcessorConfig:
    """Logical processors of the z/VM partition."""

    count: int
    pu_type: str


@dataclass(frozen=True)
class ChannelConfig:
    """One channel path (CHPID); *shared* among partitions (Perfkit's Shrd)."""

    chpid: str
    kind: str
    shared: bool = True
    other_busy: float = 0.0  # share of the time other partitions' I/Os hold it (serial)


@dataclass(frozen=True)
class VSwitchConfig:
    """A VSWITCH: its uplink OSA's device number and CHPID, and its controller."""

    name: str
    rdev: str
    controller: str
    osa_chpid: str
    mtu: int = 0  # the MTU it is defined with (0: the calibration's default)


@dataclass(frozen=True)
class ControlUnitConfig:
    """A control-unit instance: its calibrated type and, for a cached type, cache sizes.

    Volumes behind one instance share its cache. ``cache_mb`` and ``nvs_mb``
    replace the calibrated sizes when given (``None``: the calibration's).
    ``other_writes``: other systems' write bursts into one cluster's NVS, or every one's.
    """

    name: str
    type: str
    cache_mb: float | None = None
    nvs_mb: float | None = None
    other_writes: OtherWrites | None = None


@dataclass(frozen=True)
class VolumeConfig:
    """A 3390 volume: its base RDEV, PAV aliases, control unit and paths.

    ``control_unit`` is the calibrated type; ``cu_instance`` names the control
    unit the volume hangs on (its cache is shared by that instance's volumes).
    """

    volser: str
    model: str
    control_unit: str
    base: str
    aliases: tuple[str, ...]
    chpids: tuple[str, ...]
    mdc: bool
    cu_instance: str = ""
    pinned: bool = False  # the control unit holds pinned data for it: caching is off


@dataclass(frozen=True)
class MinidiskConfig:
    """A minidisk: an extent of a volume owned by one user, linked by others."""

    name: str
    owner: str
    vaddr: str
    volser: str
    start_cyl: int
    cylinders: int
    mdc: bool


@dataclass(frozen=True)
class GuestConfig:
    """A group of identical virtual machines running one workload."""

    name: str
    userids: tuple[str, ...]
    workload: str
    params: dict[str, Any] = field(default_factory=dict)
    quickdsp: bool = False
    share_relative: int = 100  # 0 when the share is absolute
    share_absolute: float = 0.0  # % of the system
    limithard: bool = False
    virtual_cpus: int = 1  # the directory's CPU statements (MACHINE ESA n)
    reserved_mb: float = 0.0  # SET RESERVED for each of its users
    share_max: float = 0.0  # the ABSOLUTE maximum of a RELATIVE minimum (LIMITHARD), %
    reorder: bool = True  # SET REORDER userid OFF when false (z/VM 6.2 and earlier, VM64774)


@dataclass(frozen=True)
class StorageConfig:
    """Central and expanded storage, and the available-list thresholds (frames)."""

    central_mb: float
    xstore_mb: float
    low_frames: int
    high_frames: int
    history_s: float = 0.0
    # SET REORDER (z/VM 6.2 and earlier; 6.3 has no reorder). Off unless a scenario sets
    # it: the scenarios fitted before reorder was modelled carry its cost in their
    # fitted CP constants (it would add to T/V there twice)
    reorder: bool = False
    agelist_pct: float = 2.0  # SET AGELIST: the global aging list's size, % of DPA (z/VM 6.3)
    early_writes: bool = True  # STORAGE AGELIST EARLYWRITES (z/VM 6.3)
    # the available-list lock (RSA2GLCK) and its spinning (zvmsim.cp.framelock). Off
    # unless a scenario sets it: the scenarios fitted before it was modelled carry
    # its cost in their fitted CP constants
    avail_lock: bool = False
    reserved_sysmax_mb: float = -1.0  # STORAGE RESERVED SYSMAX (-1: no limit)


@dataclass(frozen=True)
class SegmentConfig:
    """A saved segment (NSS or DCSS) in storage: its size, users, touches, SET RESERVED."""

    name: str
    kind: str  # "NSS" or "DCSS"
    size_mb: float
    users: int  # users that have it loaded (shown in FCX133)
    touches_per_s: float  # its pages the users touch per second, all together
    write_pct: float = 0.0  # share of the touches that change the page
    reserved: bool = False  # SET RESERVED for all its pages (z/VM 6.3)
    loaded: bool = True  # some user has it attached, so its pages are in storage


@dataclass(frozen=True)
class PagingConfig:
    """CP-owned PAGE volumes: how many, what kind, and where they hang."""

    volumes: int
    model: str
    control_unit: str
    chpids: tuple[str, ...]
    rdevs: tuple[str, ...]
    volser_prefix: str
    paths: int = 0  # how many of ``chpids`` the volumes use (0: all)
    used_pct: float = 0.0  # slots already in use when the run starts (idle users' pages)
    extra: PagingConfig | None = None  # a second group of volumes (another model)
    cu_model: str = ""  # the control unit's type-model as the configuration names it (2105-E8)


@dataclass(frozen=True)
class CPConfig:
    """Control Program settings: minidisk cache and applied fixes (APARs)."""

    mdc_system: bool
    mdc_max_mb: float
    fixes: dict[str, bool]
    lock_yield: str = "none"  # CP's scheduler spin lock: none (not modelled), diag44, diag9c
    mdc_level: str = "track"  # what MDC caches: "track" or "record" (record-level, VM61045)
    mdc_home: str = ""  # where MDC's storage is modelled: central, xstore ("": not modelled)
    mdc_bias: float = 1.0  # SET MDCACHE STORAGE BIAS: the arbiter's weight for MDC in central


@dataclass(frozen=True)
class SystemConfig:
    """Everything needed to build a :class:`~zvmsim.machine.Machine`."""

    scenario: str
    system: SystemInfo
    monitor: MonitorConfig
    duration: float
    warmup: float
    processors: ProcessorConfig
    channels: dict[str, ChannelConfig]
    volumes: dict[str, VolumeConfig]
    minidisks: dict[str, MinidiskConfig]
    guests: dict[str, GuestConfig]
    cp: CPConfig
    calibration: Calibration
    storage: StorageConfig | None = None
    paging: PagingConfig | None = None
    cec: CecConfig | None = None
    srm: SrmConfig = field(default_factory=SrmConfig)
    control_units: dict[str, ControlUnitConfig] = field(default_factory=dict)
    vswitches: dict[str, VSwitchConfig] = field(default_factory=dict)
    zos_servers: dict[str, DbServerConfig] = field(default_factory=dict)
    segments: dict[str, SegmentConfig] = field(default_factory=dict)  # NSS and DCSS
    sharing: dict[str, SharingConfig] = field(default_factory=dict)  # other systems' users


@dataclass(frozen=True)
class SharingConfig:
    """Another system's users doing I/O to volumes this system shares with it.

    The other system is not simulated: only its users' transactions against
    the shared minidisks (``params``, as a ``cms_query`` guest takes them).
    """

    name: str
    users: int
    params: dict[str, Any] = field(default_factory=dict)


class _Table:
    """A TOML table being consumed; leftovers are reported as unknown keys."""

    def __init__(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise ZvmsimError(f"{where} must be a table")
        self.data = dict(data)
        self.where = where

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise ZvmsimError(f"{self.where}: missing '{key}'")
            return default
        value = self.data.pop(key)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(value, bool) and kind in (int, float):
            raise ZvmsimError(f"{self.where}.{key} must be a number, not {value!r}")
        if not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            raise ZvmsimError(f"{self.where}.{key} must be {name}, not {value!r}")
        return value

    def done(self) -> None:
        if self.data:
            raise ZvmsimError(f"{self.where}: unknown key '{sorted(self.data)[0]}'")


def _cpu_addrs(t: _Table, key: str) -> tuple[int, ...]:
    """A list of logical CPU addresses (0-255), as a partition's CPUs are numbered."""
    addrs = t.get(key, list, [])
    if not all(isinstance(a, int) and not isinstance(a, bool) and 0 <= a <= 255 for a in addrs):
        raise ZvmsimError(f"{t.where}.{key} must be a list of CPU addresses 0 to 255")
    return tuple(addrs)


def _upid(text: str, name: str) -> str:
    """A user partition ID: two hex digits (or none)."""
    if text and (len(text) > 2 or any(c not in "0123456789ABCDEFabcdef" for c in text)):
        raise ZvmsimError(f"partition {name}: upid must be one or two hex digits, not {text!r}")
    return text.upper().rjust(2, "0") if text else ""


def hex_range(text: str) -> list[str]:
    """Expand ``"E7F8-E7FE"`` into device numbers ``["E7F8", ..., "E7FE"]``."""
    try:
        lo, _, hi = text.partition("-")
        first, last = int(lo, 16), int(hi or lo, 16)
    except ValueError:
        raise ZvmsimError(f"bad device range '{text}'") from None
    if last < first:
        raise ZvmsimError(f"bad device range '{text}'")
    return [f"{n:04X}" for n in range(first, last + 1)]


def _fits(text: str, length: int, where: str) -> str:
    """Check a name fits its monitor-record field (nothing is silently cut)."""
    if not text or len(text) > length:
        raise ZvmsimError(f"{where} must be 1 to {length} characters, not {text!r}")
    return text


def _devno(text: str, where: str) -> str:
    try:
        if len(text) == 4 and int(text, 16) >= 0:
            return text.upper()
    except ValueError:
        pass
    raise ZvmsimError(f"{where} must be a 4-digit hex device number, not {text!r}")


def _userids(pattern: str, count: int) -> tuple[str, ...]:
    """``SQPERF*`` -> SQPERF1..n; ``LIN102`` -> LIN102, LIN103, ...; ``MAINT`` -> MAINT."""
    if pattern.endswith("*"):
        return tuple(f"{pattern[:-1]}{i}" for i in range(1, count + 1))
    digits = len(pattern) - len(pattern.rstrip("0123456789"))
    if count == 1:
        return (pattern,)
    if not digits:
        return tuple(f"{pattern}{i}" for i in range(1, count + 1))
    stem, first = pattern[:-digits], int(pattern[-digits:])
    return tuple(f"{stem}{first + i:0{digits}d}" for i in range(count))


def _positive(value: float, where: str) -> float:
    if value <= 0:
        raise ZvmsimError(f"{where} must be greater than 0, not {value}")
    return value


def build_config(raw: dict[str, Any], calibration: Calibration) -> SystemConfig:
    """Validate a scenario's tables (knobs already applied) into a SystemConfig."""
    top = _Table(raw, "scenario file")
    scen = _Table(top.get("scenario", dict), "[scenario]")
    name = scen.get("name", str)
    title = scen.get("title", str)
    scen.get("description", str, "")
    scen.get("case_study", str, "")
    duration = scen.get("duration", float)
    warmup = scen.get("warmup", float, 0.0)
    scen.done()

    sysd = _Table(top.get("system", dict), "[system]")
    start = sysd.get("start", (str, _dt.datetime))
    if isinstance(start, str):
        try:
            start = _dt.datetime.fromisoformat(start)
        except ValueError:
            raise ZvmsimError(f"[system].start is not a date and time: {start!r}") from None
    info = SystemInfo(
        sysid=_fits(sysd.get("sysid", str), 8, "[system].sysid"),
        cpu_model=_fits(sysd.get("cpu_model", str), 16, "[system].cpu_model"),
        serial=_fits(sysd.get("serial", str), 8, "[system].serial"),
        zvm_level=_fits(sysd.get("zvm_level", str), 8, "[system].zvm_level"),
        start=start.replace(tzinfo=None),
        title=_fits(title, 64, "[scenario].title"),
    )
    sysd.done()

    mon = _Table(top.get("monitor", dict), "[monitor]")
    monitor = MonitorConfig(
        sample_interval=mon.get("sample_interval", float),
        hfs_interval=_positive(mon.get("hfs_interval", float), "hfs_interval"),
        sample_domains=enabled_domains(mon.get("sample", dict, {}), "sample"),
        event_domains=enabled_domains(mon.get("event", dict, {}), "event"),
    )
    mon.done()
    check_window(duration, monitor.sample_interval)

    proc = _Table(top.get("processors", dict), "[processors]")
    processors = ProcessorConfig(count=proc.get("count", int), pu_type=proc.get("type", str))
    proc.done()
    if not 1 <= processors.count <= 64:
        raise ZvmsimError(f"processors.count must be 1 to 64, not {processors.count}")

    channels = {}
    for chpid, body in _Table(top.get("channels", dict, {}), "[channels]").data.items():
        t = _Table(body, f"[channels.{chpid}]")
        kind = t.get("type", str)
        shared = t.get("shared", bool, True)
        other = t.get("other_busy", float, 0.0)
        t.done()
        _fits(chpid, 4, "CHPID")
        if kind not in calibration.channels:
            raise ZvmsimError(f"channel {chpid}: unknown channel type '{kind}'")
        if not 0.0 <= other < 1.0 or (other and not shared):
            raise ZvmsimError(
                f"channel {chpid}: other_busy must be 0 to 1 and needs a shared channel"
            )
        channels[chpid] = ChannelConfig(chpid=chpid, kind=kind, shared=shared, other_busy=other)

    units = _control_units(top.get("control_units", dict, {}), calibration)
    volumes = {}
    for volser, body in _Table(top.get("volumes", dict, {}), "[volumes]").data.items():
        t = _Table(body, f"[volumes.{volser}]")
        model = t.get("model", str)
        cu = t.get("control_unit", str)
        _fits(volser, 6, "volume serial")
        base = _devno(t.get("base", str), f"volume {volser} base")
        n_alias = t.get("aliases", int, 0)
        pool = hex_range(t.get("alias_range", str, base))
        chpids = tuple(t.get("chpids", list))
        mdc = t.get("mdc", bool, False)
        pinned = t.get("pinned", bool, False)
        t.done()
        if model not in calibration.models:
            raise ZvmsimError(f"volume {volser}: unknown DASD model '{model}'")
        instance = cu
        if cu in units:
            cu = units[cu].type
        elif cu not in calibration.control_units:
            raise ZvmsimError(f"volume {volser}: unknown control unit '{cu}'")
        if n_alias < 0 or n_alias > len(pool):
            raise ZvmsimError(
                f"volume {volser}: {n_alias} aliases do not fit its alias range "
                f"of {len(pool)} device numbers"
            )
        if not chpids:
            raise ZvmsimError(f"volume {volser}: needs at least one channel path")
        _fits(",".join(chpids), 32, f"volume {volser} chpids")
        for c in chpids:
            if c not in channels:
                raise ZvmsimError(f"volume {volser}: unknown CHPID '{c}'")
        aliases = tuple(pool[len(pool) - n_alias :]) if n_alias else ()
        if pinned and calibration.control_units[cu].cache is None:
            raise ZvmsimError(f"volume {volser}: pinned data needs a cached control unit, not {cu}")
        volumes[volser] = VolumeConfig(
            volser, model, cu, base, aliases, chpids, mdc, instance, pinned
        )

    guests = {}
    for gname, body in _Table(top.get("guests", dict), "[guests]").data.items():
        t = _Table(body, f"[guests.{gname}]")
        count = t.get("count", int, 1)
        prefix = t.get("userid", str)
        workload = t.get("workload", str)
        params = t.get("params", dict, {})
        quickdsp = t.get("quickdsp", bool, False)
        share_text = t.get("share", str, "RELATIVE 100")
        relative, share_max = _share_max(share_text, f"guests.{gname}.share")
        share = (relative, 0.0, True) if share_max else _share(share_text, f"guests.{gname}.share")
        vcpus = t.get("virtual_cpus", int, 1)
        reserved_mb = t.get("reserved_mb", float, 0.0)
        reorder = t.get("reorder", bool, True)
        t.done()
        if reserved_mb < 0:
            raise ZvmsimError(f"guests.{gname}.reserved_mb cannot be negative")
        if not 0 <= count <= 999:  # 0: defined, not logged on (a knob may switch it on)
            raise ZvmsimError(f"guests.{gname}.count must be 0 to 999, not {count}")
        if not 1 <= vcpus <= 64:
            raise ZvmsimError(f"guests.{gname}.virtual_cpus must be 1 to 64, not {vcpus}")
        userids = _userids(prefix, count)
        for u in userids:
            if len(u) > 8:
                raise ZvmsimError(f"userid '{u}' is longer than 8 characters")
        guests[gname] = GuestConfig(
            gname,
            userids,
            workload,
            params,
            quickdsp,
            *share,
            vcpus,
            reserved_mb,
            share_max,
            reorder,
        )

    minidisks = {}
    for mname, body in _Table(top.get("minidisks", dict, {}), "[minidisks]").data.items():
        t = _Table(body, f"[minidisks.{mname}]")
        per_user = t.get("per_user", str, "")
        owner = t.get("owner", str, "")
        vaddr = t.get("vaddr", str)
        volser = t.get("volser", str)
        start_cyl = t.get("start_cyl", int)
        cylinders = t.get("cylinders", int)
        mdc = t.get("mdc", bool, True)
        t.done()
        if per_user and per_user not in guests:
            raise ZvmsimError(f"minidisk {mname}: unknown guest group '{per_user}'")
        if volser not in volumes:
            raise ZvmsimError(f"minidisk {mname}: unknown volume '{volser}'")
        owners = guests[per_user].userids if per_user else (owner or mname.split()[0],)
        size = calibration.models[volumes[volser].model]
        for i, who in enumerate(owners):
            first = start_cyl + i * cylinders
            key = f"{who} {vaddr}" if per_user else mname
            if cylinders < 1 or first < 0 or first + cylinders > size:
                raise ZvmsimError(f"minidisk {key}: extent does not fit volume {volser}")
            minidisks[key] = MinidiskConfig(key, who, vaddr, volser, first, cylinders, mdc)

    cpd = _Table(top.get("cp", dict, {}), "[cp]")
    cp = CPConfig(
        mdc_system=cpd.get("mdc_system", bool, True),
        mdc_max_mb=cpd.get("mdc_max_mb", float, 0.0),
        fixes={str(k): bool(v) for k, v in cpd.get("fixes", dict, {}).items()},
        lock_yield=cpd.get("lock_yield", str, "none"),
        mdc_level=cpd.get("mdc_level", str, "track"),
        mdc_home=cpd.get("mdc_home", str, ""),
        mdc_bias=cpd.get("mdc_bias", float, 1.0),
    )
    cpd.done()
    if cp.lock_yield not in LOCK_YIELDS:
        raise ZvmsimError(f"[cp].lock_yield must be {'/'.join(LOCK_YIELDS)}, not {cp.lock_yield!r}")
    if cp.mdc_home not in ("", "central", "xstore"):
        raise ZvmsimError(f"[cp] mdc_home must be 'central' or 'xstore', not '{cp.mdc_home}'")
    if cp.mdc_bias <= 0:
        raise ZvmsimError(f"[cp] mdc_bias must be positive, not {cp.mdc_bias:g}")
    if cp.mdc_level not in ("track", "record"):
        raise ZvmsimError(f"[cp] mdc_level must be 'track' or 'record', not '{cp.mdc_level}'")
    cec = _cec(top.get("cec", dict, None), top.get("partitions", dict, None), processors, info)
    storage = _storage(top.get("storage", dict, None))
    paging = _paging(top.get("paging", dict, None), channels, calibration)
    if paging is not None and storage is None:
        raise ZvmsimError("[paging] needs a [storage] section")
    vswitches = _vswitches(top.get("vswitches", dict, {}), channels, guests)
    srm = _srm(top.get("scheduler", dict, None))
    zos_servers = _zos_servers(top.get("zos_servers", dict, {}), cec)
    segments = _segments(top.get("segments", dict, {}))
    sharing = _sharing(top.get("sharing", dict, {}), minidisks)
    if segments and storage is None:
        raise ZvmsimError("[segments] needs a [storage] section")
    top.done()
    return SystemConfig(
        scenario=name,
        system=info,
        monitor=monitor,
        duration=duration,
        warmup=warmup,
        processors=processors,
        channels=channels,
        volumes=volumes,
        minidisks=minidisks,
        guests=guests,
        cp=cp,
        calibration=calibration.at_level(info.zvm_level).on_processor(info.cpu_model),
        storage=storage,
        paging=paging,
        cec=cec,
        control_units=units,
        vswitches=vswitches,
        srm=srm,
        zos_servers=zos_servers,
        segments=segments,
        sharing=sharing,
    )


def _control_units(body: dict, calibration: Calibration) -> dict[str, ControlUnitConfig]:
    """``[control_units.NAME]``: control-unit instances, each of a calibrated type.

    A volume's ``control_unit`` names either such an instance or a calibrated
    type directly (then all volumes naming that type share one instance).
    """
    units = {}
    for name, table in _Table(body, "[control_units]").data.items():
        where = f"[control_units.{name}]"
        _fits(name, 16, "control unit name")
        t = _Table(table, where)
        kind = t.get("type", str)
        cache_mb = t.get("cache_mb", float, None)
        nvs_mb = t.get("nvs_mb", float, None)
        other = t.get("other_writes", dict, None)
        t.done()
        timing = calibration.control_units.get(kind)
        if timing is None:
            raise ZvmsimError(f"{where}: unknown control unit type '{kind}'")
        for key, value in (("cache_mb", cache_mb), ("nvs_mb", nvs_mb), ("other_writes", other)):
            if value is not None and timing.cache is None:
                raise ZvmsimError(f"{where}.{key}: type '{kind}' has no cache model")
        for key, value in (("cache_mb", cache_mb), ("nvs_mb", nvs_mb)):
            if value is not None:
                _positive(value, f"{where}.{key}")
        writes = None
        if other is not None:
            assert timing.cache is not None
            writes = _other_writes(other, f"{where}.other_writes", timing.cache.clusters)
        units[name] = ControlUnitConfig(name, kind, cache_mb, nvs_mb, writes)
    return units


def _other_writes(table: dict, where: str, clusters: int) -> OtherWrites:
    """``other_writes = { mb_s, on_s, period_s, cluster }``: other systems' write bursts
    (``cluster = "all"``: into every cluster's NVS)."""
    t = _Table(table, where)
    mb_s = _positive(t.get("mb_s", float), f"{where}.mb_s")
    on_s = _positive(t.get("on_s", float), f"{where}.on_s")
    period_s = _positive(t.get("period_s", float), f"{where}.period_s")
    cluster = t.get("cluster", (int, str), 0)
    t.done()
    if on_s > period_s:
        raise ZvmsimError(f"{where}: on_s must not exceed period_s")
    if cluster == "all":
        cluster = None
    elif isinstance(cluster, (str, bool)) or not 0 <= cluster < clusters:
        raise ZvmsimError(f"{where}.cluster must be 0 to {clusters - 1} or 'all', not {cluster!r}")
    return OtherWrites(mb_s, on_s, period_s, cluster)


def _vswitches(body: dict, channels: dict, guests: dict) -> dict[str, VSwitchConfig]:
    """``[vswitches.NAME]``: ``rdev``, ``controller`` (a vswitch_controller guest), ``osa_chpid``.

    The controller must be a guest running the ``vswitch_controller`` workload,
    and the uplink CHPID an OSA (type OSD).
    """
    controllers = {u: g.workload for g in guests.values() for u in g.userids}
    out = {}
    for name, body_ in _Table(body, "[vswitches]").data.items():
        where = f"vswitch {name}"
        t = _Table(body_, f"[vswitches.{name}]")
        rdev = _devno(t.get("rdev", str), f"{where} rdev")
        controller = t.get("controller", str)
        chpid = t.get("osa_chpid", str)
        mtu = t.get("mtu", int, 0)
        t.done()
        if mtu and not 576 <= mtu <= 9000:
            raise ZvmsimError(f"{where}: mtu must be 576 to 9000 bytes, not {mtu}")
        _fits(name, 8, "vswitch name")
        if controller not in controllers:
            raise ZvmsimError(f"{where}: controller '{controller}' is not a guest")
        if controllers[controller] != "vswitch_controller":
            raise ZvmsimError(
                f"{where}: controller '{controller}' must run workload 'vswitch_controller'"
            )
        if chpid not in channels:
            raise ZvmsimError(f"{where}: unknown CHPID '{chpid}'")
        if not channels[chpid].kind.startswith("OSD"):
            raise ZvmsimError(f"{where}: CHPID {chpid} is {channels[chpid].kind}, not an OSA (OSD)")
        out[name] = VSwitchConfig(name, rdev, controller, chpid, mtu)
    return out


def _share(text: str, where: str) -> tuple[int, float, bool]:
    """SET SHARE as a directory states it: ``RELATIVE 200`` or ``ABSOLUTE 10% LIMITHARD``."""
    words = text.upper().replace("%", " ").split()
    try:
        if len(words) == 2 and words[0] == "RELATIVE" and 1 <= int(words[1]) <= 10000:
            return int(words[1]), 0.0, False
        if words and words[0] == "ABSOLUTE" and len(words) in (2, 3):
            value = float(words[1])
            limit = words[2] if len(words) == 3 else "LIMITSOFT"
            if 0 < value <= 100 and limit in ("LIMITHARD", "LIMITSOFT"):
                return 0, value, limit == "LIMITHARD"
    except ValueError:
        pass
    raise ZvmsimError(f"{where}: '{text}' is not RELATIVE n or ABSOLUTE n% [LIMITHARD]")


def _share_max(text: str, where: str) -> tuple[int, float]:
    """``RELATIVE n ABSOLUTE m% LIMITHARD`` as (n, m); (0, 0.0) for any other share."""
    words = text.upper().replace("%", " ").split()
    if len(words) != 5 or words[0] != "RELATIVE" or words[2] != "ABSOLUTE":
        return 0, 0.0
    try:
        relative, maximum = int(words[1]), float(words[3])
    except ValueError:
        relative, maximum = 0, 0.0
    if 1 <= relative <= 10000 and 0 < maximum <= 100 and words[4] == "LIMITHARD":
        return relative, maximum
    raise ZvmsimError(f"{where}: '{text}' is not RELATIVE n ABSOLUTE m% LIMITHARD")


def _srm(body: dict | None) -> SrmConfig:
    """SET SRM STORBUF, LDUBUF and DSPBUF (three values each), CP's defaults if absent."""
    if body is None:
        return SrmConfig()
    t = _Table(body, "[scheduler]")
    default = SrmConfig()
    values = {}
    for key in ("storbuf", "ldubuf", "dspbuf"):
        triple = tuple(t.get(key, list, list(getattr(default, key))))
        if len(triple) != 3 or not all(isinstance(v, int) and v > 0 for v in triple):
            raise ZvmsimError(f"[scheduler].{key} must be three positive whole numbers")
        if not triple[0] >= triple[1] >= triple[2]:
            raise ZvmsimError(f"[scheduler].{key} must not grow from class 1 to class 3")
        values[key] = triple
    method = t.get("limithard", str, default.limithard).lower()
    if method not in LIMITHARD_METHODS:
        raise ZvmsimError(f"[scheduler].limithard must be deadline or consumption, not {method!r}")
    values["limithard"] = method
    values["excess_share_defect"] = t.get("excess_share_defect", bool, False)
    t.done()
    return SrmConfig(**values)


PU_TYPES = ("CP", "IFL", "ICF", "ZIIP", "ZAAP")
LOCK_YIELDS = ("none", "diag44", "diag9c")


def _cec(
    body: dict | None, parts: dict | None, processors: ProcessorConfig, info: SystemInfo
) -> CecConfig:
    """The CEC and its partitions; without ``[cec]``, a CEC just for our partition."""
    if body is None:
        if parts is not None:
            raise ZvmsimError("[partitions] needs a [cec] section")
        own = PartitionConfig(info.sysid, 1, processors.pu_type, processors.count, 100, own=True)
        return CecConfig(info.cpu_model, {processors.pu_type: processors.count}, (own,))
    t = _Table(body, "[cec]")
    model = _fits(t.get("model", str), 16, "[cec].model")
    pus = {str(k).upper(): v for k, v in t.get("pus", dict).items()}
    tick_ms = _positive(t.get("tick_ms", float, 20.0), "[cec].tick_ms")
    zos_load = t.get("zos_load", float, 1.0)
    zos_swing = t.get("zos_swing", float, 0.0)
    swing_s = _positive(t.get("swing_s", float, 5.0), "[cec].swing_s")
    dispatch_cost = t.get("dispatch_cost", bool, False)
    redispatch = t.get("redispatch", bool, True)
    occupancy = t.get("occupancy", bool, False)
    t.done()
    if not 0.0 <= zos_load <= 10.0 or not 0.0 <= zos_swing <= 2.0:
        raise ZvmsimError("[cec]: zos_load must be 0 to 10 and zos_swing 0 to 2")
    for pu_type, count in pus.items():
        if pu_type not in PU_TYPES or not isinstance(count, int) or count < 0:
            raise ZvmsimError(f"[cec].pus: '{pu_type} = {count}' is not a PU type and a count")
    partitions = []
    for name, pbody in _Table(parts or {}, "[partitions]").data.items():
        p = _Table(pbody, f"[partitions.{name}]")
        own = p.get("own", bool, False)
        part = PartitionConfig(
            name=_fits(name, 8, "partition name"),
            number=p.get("number", int),
            pu_type=p.get("type", str).upper(),
            logical=p.get("logical", int, processors.count if own else 1),
            weight=p.get("weight", int, 100),
            capped=p.get("capped", bool, False),
            dedicated=p.get("dedicated", bool, False),
            own=own,
            busy=p.get("busy", float, 0.0),
            busy_from_s=p.get("busy_from_s", float, 0.0),
            cpu_addrs=_cpu_addrs(p, "cpus"),
            upid=_upid(p.get("upid", str, ""), name),
            wait_completion=p.get("wait_completion", bool, False),
        )
        demand = p.get("demand", float, -1.0)  # PUs' worth wanted, over its logical PUs
        if demand >= 0 and not own:
            part = dataclasses.replace(part, busy=min(1.0, demand / max(part.logical, 1)))
        ziips = p.get("ziips", int, 0)  # a z/OS partition's zIIPs beside its CPs
        ziip_busy = p.get("ziip_busy", float, 0.0)
        ziip_addrs = _cpu_addrs(p, "ziip_cpus")
        p.done()
        entries = [part]
        if ziips:
            if part.own or part.pu_type != "CP" or ziips < 0:
                raise ZvmsimError(f"partition {name}: only another partition on CPs has zIIPs")
            entries.append(
                dataclasses.replace(
                    part,
                    pu_type="ZIIP",
                    logical=ziips,
                    busy=ziip_busy,
                    first_cpu=part.logical,
                    cpu_addrs=ziip_addrs,
                )
            )
        elif ziip_addrs:
            raise ZvmsimError(f"partition {name}: ziip_cpus given but no ziips")
        addrs = [a for e in entries for a in e.cpu_addrs]
        if len(set(addrs)) != len(addrs):
            raise ZvmsimError(f"partition {name}: a CPU address is given twice")
        for entry in entries:
            if entry.cpu_addrs and len(entry.cpu_addrs) != entry.logical:
                raise ZvmsimError(
                    f"partition {name}: {len(entry.cpu_addrs)} CPU addresses for "
                    f"{entry.logical} logical {entry.pu_type}s"
                )
        for entry in entries:
            kind = entry.pu_type
            if kind not in pus:
                raise ZvmsimError(f"partition {name}: the CEC has no {kind} PUs")
            if entry.logical > pus[kind]:  # PR/SM: no more logical PUs than physical ones
                raise ZvmsimError(
                    f"partition {name} has {entry.logical} logical {kind}s, more than the "
                    f"CEC's {pus[kind]} physical {kind}s (PR/SM allows no more)"
                )
            if entry.logical < 0 or entry.weight < 1:
                raise ZvmsimError(
                    f"partition {name}: needs 0..{pus[kind]} logical {kind}s and a weight >= 1"
                )
            if not 0.0 <= entry.busy <= 1.0:
                raise ZvmsimError(f"partition {name}: busy must be 0 to 1, not {entry.busy:g}")
            partitions.append(entry)
    owns = [p for p in partitions if p.own]
    if len(owns) != 1:
        raise ZvmsimError("[partitions]: exactly one partition must be the z/VM one (own = true)")
    if owns[0].logical != processors.count or owns[0].pu_type != processors.pu_type.upper():
        raise ZvmsimError(
            f"partition {owns[0].name}: its logical PUs must match [processors] "
            f"({processors.count} {processors.pu_type})"
        )
    for pu_type, count in pus.items():
        dedicated = sum(p.logical for p in partitions if p.pu_type == pu_type and p.dedicated)
        if dedicated > count:
            raise ZvmsimError(
                f"[partitions]: {dedicated} dedicated {pu_type}s, the CEC has {count}"
            )
    return CecConfig(
        model,
        pus,
        tuple(sorted(partitions, key=lambda p: p.number)),
        tick_ms,
        zos_load,
        zos_swing,
        swing_s,
        dispatch_cost,
        redispatch,
        occupancy,
    )


def _segments(body: dict) -> dict[str, SegmentConfig]:
    """``[segments.NAME]``: saved segments (NSS or DCSS) loaded in storage."""
    out = {}
    for name, table in _Table(body, "[segments]").data.items():
        t = _Table(table, f"[segments.{name}]")
        kind = t.get("kind", str).upper()
        if kind not in ("NSS", "DCSS"):
            raise ZvmsimError(f"[segments.{name}].kind must be NSS or DCSS, not {kind}")
        seg = SegmentConfig(
            name=name.upper(),
            kind=kind,
            size_mb=_positive(t.get("size_mb", float), f"[segments.{name}].size_mb"),
            users=t.get("users", int, 1),
            touches_per_s=t.get("touches_per_s", float, 0.0),
            write_pct=t.get("write_pct", float, 0.0),
            reserved=t.get("reserved", bool, False),
            loaded=t.get("loaded", bool, True),
        )
        t.done()
        if seg.users < 1 or seg.touches_per_s < 0 or not 0 <= seg.write_pct <= 100:
            raise ZvmsimError(
                f"[segments.{name}] needs users >= 1, touches_per_s >= 0, 0 <= write_pct <= 100"
            )
        out[seg.name] = seg
    return out


def _storage(body: dict | None) -> StorageConfig | None:
    if body is None:
        return None
    t = _Table(body, "[storage]")
    xstore_mb = t.get("xstore_mb", float, 0.0)
    total_mb = t.get("total_mb", float, 0.0)  # processor storage: central = total - XSTORE
    if total_mb and "central_mb" in body:
        raise ZvmsimError("[storage] takes central_mb or total_mb, not both")
    if total_mb and not 0 <= xstore_mb < total_mb:
        raise ZvmsimError(f"xstore_mb must be less than total_mb ({total_mb:g}), not {xstore_mb:g}")
    central = total_mb - xstore_mb if total_mb else t.get("central_mb", float)
    cfg = StorageConfig(
        central_mb=_positive(central, "central_mb"),
        xstore_mb=xstore_mb,
        low_frames=t.get("low_frames", int),
        high_frames=t.get("high_frames", int),
        history_s=t.get("history_s", float, 0.0),
        reorder=t.get("reorder", bool, False),
        agelist_pct=t.get("agelist_pct", float, 2.0),
        early_writes=t.get("early_writes", bool, True),
        avail_lock=t.get("avail_lock", bool, False),
        reserved_sysmax_mb=t.get("reserved_sysmax_mb", float, -1.0),
    )
    t.done()
    if not 0.0 < cfg.agelist_pct <= 100.0:
        pct = cfg.agelist_pct
        raise ZvmsimError(f"[storage].agelist_pct must be over 0 and at most 100, not {pct:g}")
    if cfg.xstore_mb < 0:
        raise ZvmsimError(f"xstore_mb cannot be negative, not {cfg.xstore_mb:g}")
    if not 0 < cfg.low_frames < cfg.high_frames < cfg.central_mb * 256:
        raise ZvmsimError("[storage] needs 0 < low_frames < high_frames < central storage frames")
    return cfg


def _paging(
    body: dict | None, channels: dict, calibration: Calibration, where: str = "[paging]"
) -> PagingConfig | None:
    if body is None:
        return None
    t = _Table(body, where)
    count = t.get("volumes", int)
    model = t.get("model", str)
    cu = t.get("control_unit", str)
    chpids = tuple(t.get("chpids", list))
    pool = hex_range(t.get("rdev_range", str))
    prefix = _fits(t.get("volser_prefix", str), 4, f"{where}.volser_prefix")
    paths = t.get("paths", int, 0)
    used_pct = t.get("used_pct", float, 0.0)
    extra_body = t.get("extra", dict, None) if where == "[paging]" else None
    cu_model = t.get("cu_model", str, "")
    if cu_model:
        _fits(cu_model, 8, f"{where}.cu_model")
    t.done()
    if not 0 <= paths <= len(chpids):
        raise ZvmsimError(f"{where}: paths must be 0 to {len(chpids)} (its CHPIDs), not {paths}")
    if not 0.0 <= used_pct < 100.0:
        raise ZvmsimError(f"{where}: used_pct must be 0 to under 100, not {used_pct:g}")
    extra = None
    if extra_body is not None:
        extra_body = {"control_unit": cu, "chpids": list(chpids), "paths": paths,
                      "cu_model": cu_model, **extra_body}  # fmt: skip
        extra = _paging(extra_body, channels, calibration, "[paging.extra]")
        if extra is not None and extra.volumes == 0:
            extra = None
        if extra is not None and set(extra.rdevs) & set(pool[:count]):
            raise ZvmsimError("[paging.extra]: its rdev_range overlaps [paging]'s")
    if model not in calibration.models:
        raise ZvmsimError(f"{where}: unknown DASD model '{model}'")
    if cu not in calibration.control_units:
        raise ZvmsimError(f"{where}: unknown control unit '{cu}'")
    low = 0 if where != "[paging]" else 1
    if not low <= count <= len(pool):
        raise ZvmsimError(f"{where}: {count} volumes do not fit its rdev_range of {len(pool)}")
    for c in chpids or ("",):
        if c not in channels:
            raise ZvmsimError(f"{where}: unknown CHPID '{c}'")
    return PagingConfig(
        count, model, cu, chpids, tuple(pool[:count]), prefix, paths, used_pct, extra, cu_model
    )


def _sharing(body: dict, minidisks: dict[str, MinidiskConfig]) -> dict[str, SharingConfig]:
    """``[sharing.SYSTEM]``: another system's users on minidisks of volumes shared with it."""
    out = {}
    for name, table in _Table(body, "[sharing]").data.items():
        where = f"[sharing.{name}]"
        t = _Table(table, where)
        users = t.get("users", int)
        params = dict(t.get("params", dict, {}))
        t.done()
        if users < 0:
            raise ZvmsimError(f"{where}: users cannot be negative")
        for disk in str(params.get("minidisks", "")).split(","):
            if disk.strip() not in minidisks:
                raise ZvmsimError(f"{where}: no minidisk '{disk.strip()}'")
        out[name] = SharingConfig(_fits(name, 8, "system name"), users, params)
    return out


def _zos_servers(body: dict, cec: CecConfig) -> dict[str, DbServerConfig]:
    """``[zos_servers.NAME]``: a database server in another partition on CPs (and zIIPs)."""
    zos = {p.name for p in cec.partitions if p.pu_type == "CP" and not p.own and p.logical}
    out = {}
    for name, table in _Table(body, "[zos_servers]").data.items():
        where = f"[zos_servers.{name}]"
        t = _Table(table, where)
        server = DbServerConfig(
            name=_fits(name, 8, "server name"),
            partition=t.get("partition", str),
            cp_ms=t.get("cp_ms", float),
            ziip_ms=t.get("ziip_ms", float, 0.0),
        )
        t.done()
        if server.partition not in zos:
            raise ZvmsimError(f"{where}: '{server.partition}' is not another partition with CPs")
        if server.cp_ms < 0 or server.ziip_ms < 0:
            raise ZvmsimError(f"{where}: cp_ms and ziip_ms cannot be negative")
        out[name] = server
    return out
