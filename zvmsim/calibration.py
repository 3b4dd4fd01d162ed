"""Calibration constants (device speeds, CP path lengths) read from ``data/calibration``.

Each constant in those files carries its source. Nothing in the engine
hard-codes a speed: it asks the :class:`Calibration` it was built with.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from functools import cache

from .errors import ZvmsimError
from .paths import data_dir

__all__ = [
    "CacheModel",
    "Calibration",
    "ChannelSpeed",
    "ControlUnitTiming",
    "CpuFamily",
    "DriveModel",
    "HiperSocketsModel",
    "LinuxStackModel",
    "PrsmCosts",
    "PtrmModel",
    "SxsModel",
    "VSwitchModel",
    "load_calibration",
    "zvm_release",
]


@dataclass(frozen=True)
class ChannelSpeed:
    """Data rate and concurrency of one channel type (ESCON, FICON, OSD).

    ``work_us_per_io`` and ``packet_us`` are the channel processor's time per
    I/O and per network frame, ``signal_us`` a network adapter's per QDIO
    signal (a SIGA from the host, an interrupt to it): what makes a
    multiplexing channel busy besides the bytes it moves.
    """

    data_rate_mb_s: float
    concurrent_io: int
    work_us_per_io: float = 0.0
    packet_us: float = 0.0
    other_conn_ms: float = 0.0  # connect time of another partition's I/O (shared channels)
    latency_us: float = 0.0  # a network adapter's time from one side to the other (one way)
    signal_us: float = 0.0  # a network adapter's time per SIGA or interrupt (QDIO)
    # a one-at-a-time channel's time for each CCW of a channel program after the
    # first (ESCON interlocks every command with the control unit; FICON pipelines)
    ccw_ms: float = 0.0


@dataclass(frozen=True)
class VSwitchModel:
    """VSWITCH constants: MTU, CP time per packet, controller time per packet."""

    mtu_bytes: int = 1500
    cp_us_per_packet: float = 0.0
    controller_us_per_packet: float = 0.0


@dataclass(frozen=True)
class HiperSocketsModel:
    """HiperSockets: the frame size and the firmware's time per frame beside the copy."""

    frame_kb: int = 16
    siga_us: float = 0.0


@dataclass(frozen=True)
class LinuxStackModel:
    """Linux's TCP/IP stack: CPU per packet and per byte sent; header and frame sizes."""

    us_per_packet: float = 0.0
    ns_per_byte: float = 0.0
    header_bytes: int = 52
    frame_bytes: int = 14


@dataclass(frozen=True)
class SxsModel:
    """What CP keeps in its System Execution Space: a fixed part plus a cost per object.

    Pages: ``size_pages`` in all; ``id_mapped_pages`` (nucleus, identity-mapped)
    and ``fixed_pages`` (CP's other blocks) always used; then per logged-on
    user, per real device, per I/O in flight, and one page of DAT tables per
    ``resident_per_table_page`` resident pages of an address space.
    """

    size_pages: int = 524287
    id_mapped_pages: int = 0
    fixed_pages: int = 0
    user_pages: int = 0
    device_pages: int = 0
    resident_per_table_page: int = 1024
    io_pages: int = 0


@dataclass(frozen=True)
class CacheModel:
    """A control unit's cache and NVS: sizes, the read-miss time and the destage rate.

    ``clusters``: NVS is split evenly among them (a volume writes to its
    logical subsystem's); ``bypass_ms`` and ``bypass_track_ms``: a write
    that finds NVS full is written through to the back-end disks, its
    first track in ``bypass_ms`` and each further track in ``bypass_track_ms``.
    """

    cache_mb: float
    nvs_mb: float
    miss_disc_ms: float
    destage_mb_s: float
    bypass_ms: float = 10.0
    bypass_track_ms: float = 5.0
    clusters: int = 1


@dataclass(frozen=True)
class DriveModel:
    """A physical DASD drive: rotation, seek curve and data rate off the platter.

    A seek over *d* > 0 cylinders takes ``seek_settle_ms +
    seek_ms_per_sqrt_cyl * sqrt(d)``.
    """

    rpm: float
    seek_settle_ms: float
    seek_ms_per_sqrt_cyl: float
    data_rate_mb_s: float


@dataclass(frozen=True)
class ControlUnitTiming:
    """Per-I/O timing components of a cached control unit.

    ``disc_ms`` is the disconnect time of an I/O the cache serves. Only a
    control unit with a :class:`CacheModel` simulates its cache (hits, misses,
    NVS); the others answer every I/O as a hit.
    """

    pend_ms: float
    disc_ms: float
    conn_overhead_ms: float
    transfer_mb_s: float
    jitter: float
    cache: CacheModel | None = None
    drive: DriveModel | None = None  # the drives behind it, when they are simulated
    # the bytes each CCW of the channel programs it serves moves (CP's paging
    # channel program chains one CCW package a page); 0: one CCW an I/O
    ccw_bytes: int = 0


@dataclass(frozen=True)
class CpuFamily:
    """CP path lengths and switching costs of one processor family (cp.toml's
    ``[cpu_families.TYPE]``), in microseconds.

    ``vmcf_us``, ``smsg_us`` and ``ext_int_us`` are CP's paths for a VMCF
    function, an SMSG command and reflecting an external interrupt;
    ``switch_us`` is CP's time to move a VMDBK to the master processor's
    master-only queue, ``refill_us`` the high-speed buffer (cache) refill a
    VMDBK pays when it is dispatched on another processor than it last ran on.
    """

    vmcf_us: float
    smsg_us: float
    ext_int_us: float
    switch_us: float = 0.0
    refill_us: float = 0.0
    # storage path lengths of this family (``[cpu_families.TYPE.paging]``): they
    # replace cp.toml's [path_lengths] values of the same name for real storage
    paging_us: dict[str, float] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class PrsmCosts:
    """PR/SM's cost per logical-PU dispatch and CP's spin lock (``prsm.toml``)."""

    dispatch_us: float = 3.0  # PR/SM's time per dispatch of a logical PU
    scan_us_per_logical: float = 0.1  # ... plus this per logical PU sharing the pool
    other_run_ms: float = 2.0  # a load partition's logical PU: run per dispatch
    redispatch_passes: float = 1.0  # a waking logical PU's wait, in dispatches' worth
    hold_us: float = 12.0  # mean hold time of CP's scheduler lock
    yield_after_us: float = 20.0  # spin on a held lock before Diag x'44'
    sense_us: float = 0.5  # one SIGP Sense-Running


@dataclass(frozen=True)
class PtrmModel:
    """CP's PTRM address spaces (guests' DAT tables): how many per release, what one maps."""

    spaces_62: int = 16  # z/VM 6.2 and earlier: at most this many, created as needed
    spaces_63: int = 128  # z/VM 6.3: all created at system initialization
    virtual_tb_62: float = 8.0  # guest virtual the 6.2 spaces map together

    @property
    def space_pages(self) -> int:
        """Guest virtual one PTRM space maps, in 4 KB pages."""
        return int(self.virtual_tb_62 * 2**28 / self.spaces_62)


@dataclass(frozen=True)
class Calibration:
    """All hardware and CP constants for one run."""

    bytes_per_track: int
    blocks_per_track: int
    tracks_per_cylinder: int
    models: dict[str, int]
    channels: dict[str, ChannelSpeed]
    control_units: dict[str, ControlUnitTiming]
    path_us: dict[str, float]
    read_pages_max: int
    prsm_dispatch_ms: float = 12.5  # PR/SM's dispatch interval on a contended pool
    vswitch: VSwitchModel = VSwitchModel()
    sxs: SxsModel = SxsModel()
    ptrm: PtrmModel = PtrmModel()
    hipersockets: HiperSocketsModel = HiperSocketsModel()
    linux_stack: LinuxStackModel = LinuxStackModel()
    # a paging volume with less free space than this share finds room for a new
    # block at its allocation cursor only in proportion (0: always)
    page_alloc_free: float = 0.0
    # slots around a paging volume's allocation cursor one write I/O can reach (0: any)
    page_alloc_window: float = 0.0
    # constants that differ before z/VM 5.3 (cp.toml's ``*_52`` keys): name -> value
    before_53: dict[str, float] = dataclasses.field(default_factory=dict)
    # SET SRM LIMITHARD CONSUMPTION: the most processor time a limited user may save up
    limithard_window_s: float = 1.0
    # how long CP keeps a user that went idle in the dispatch list (test idle)
    test_idle_s: float = 0.3
    # processor families whose VMCF paths and switching costs are modelled, by machine type
    cpu_families: dict[str, CpuFamily] = dataclasses.field(default_factory=dict)
    # processor families' engine speed against the z10 the path lengths are for
    cpu_speed: dict[str, float] = dataclasses.field(default_factory=dict)

    def cpu_family(self, cpu_model: str) -> CpuFamily | None:
        """The family constants of *cpu_model* (``9121-742`` -> ``9121``), if modelled."""
        return self.cpu_families.get(cpu_model.split("-")[0])

    prsm_costs: PrsmCosts = PrsmCosts()

    def speed(self, cpu_model: str) -> float:
        """One engine of *cpu_model* against the z10 baseline (cp.toml ``[cpu_speed]``)."""
        return self.cpu_speed.get(cpu_model.split("-")[0], 1.0)

    def on_processor(self, cpu_model: str) -> Calibration:
        """The constants for a processor: processor time per event divided by its speed.

        Every CP path length (``*_us*`` of ``path_us``, but not the dispatch
        time slice), the guest work between two reorders, the Linux stack's
        and the VSWITCH's CPU per packet and byte, the HiperSockets firmware's
        time per frame, CP's spin-lock paths and PR/SM's dispatch were
        estimated or measured for the z9/z10 class:
        a faster engine runs the same instructions in less time. A family's
        own constants (``[cpu_families.TYPE]``) are for that family already.
        """
        speed = self.speed(cpu_model)
        if speed == 1.0:
            return self
        net, sw, hs = self.linux_stack, self.vswitch, self.hipersockets
        pr = self.prsm_costs
        return dataclasses.replace(
            self,
            path_us={
                k: v / speed if k in _WORK or ("_us" in k and k not in _NOT_PATHS) else v
                for k, v in self.path_us.items()
            },
            linux_stack=dataclasses.replace(
                net, us_per_packet=net.us_per_packet / speed, ns_per_byte=net.ns_per_byte / speed
            ),
            vswitch=dataclasses.replace(
                sw,
                cp_us_per_packet=sw.cp_us_per_packet / speed,
                controller_us_per_packet=sw.controller_us_per_packet / speed,
            ),
            hipersockets=dataclasses.replace(hs, siga_us=hs.siga_us / speed),
            prsm_costs=dataclasses.replace(
                pr,
                dispatch_us=pr.dispatch_us / speed,
                scan_us_per_logical=pr.scan_us_per_logical / speed,
                hold_us=pr.hold_us / speed,
                sense_us=pr.sense_us / speed,
            ),
        )

    def at_level(self, zvm_level: str) -> Calibration:
        """The constants for a z/VM release: before 5.3, the ``*_52`` values replace the others.

        z/VM 5.3 reworked real-storage management (for up to 256 GB), so CP
        path lengths of the demand scan are per release.
        """
        if not self.before_53 or zvm_release(zvm_level) >= (5, 3):
            return self
        old = self.before_53
        return dataclasses.replace(
            self,
            path_us={k: old.get(k, v) for k, v in self.path_us.items()},
        )


def zvm_release(level: str) -> tuple[int, int]:
    """(version, release) of a z/VM level such as ``5.2.0``."""
    try:
        version, release = level.split(".")[:2]
        return int(version), int(release)
    except ValueError:
        raise ZvmsimError(f"[system].zvm_level must look like 5.3.0, not {level!r}") from None


def _read(name: str) -> dict:
    path = data_dir() / "calibration" / name
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ZvmsimError(f"calibration file missing: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ZvmsimError(f"calibration file {path.name} is not valid TOML: {exc}") from None


def _cache_model(cu: dict) -> CacheModel | None:
    """The cache model of a control-unit entry: only when it gives ``cache_mb``."""
    if "cache_mb" not in cu:
        return None
    model = CacheModel(
        float(cu["cache_mb"]),
        float(cu["nvs_mb"]),
        float(cu["miss_disc_ms"]),
        float(cu["destage_mb_s"]),
        float(cu["bypass_ms"]),
        float(cu["bypass_track_ms"]),
        int(cu.get("clusters", 1)),
    )
    if min(vars(model).values()) <= 0:
        raise ValueError(
            "cache_mb, nvs_mb, miss_disc_ms, destage_mb_s, bypass_ms, bypass_track_ms "
            "and clusters must be positive"
        )
    return model


def _drive_model(cu: dict, drives: dict) -> DriveModel | None:
    """The drive a control-unit entry names (``drive = "3390"``), if any."""
    if "drive" not in cu:
        return None
    d = drives[cu["drive"]]
    model = DriveModel(
        float(d["rpm"]),
        float(d["seek_settle_ms"]),
        float(d["seek_ms_per_sqrt_cyl"]),
        float(d["data_rate_mb_s"]),
    )
    if min(vars(model).values()) <= 0:
        raise ValueError("a drive's rpm, seek times and data rate must be positive")
    return model


def _sxs_model(table: dict) -> SxsModel:
    """The SXS model of cp.toml's ``[sxs]`` table: whole, non-negative page counts."""
    model = SxsModel(**{k: int(v) for k, v in table.items() if k != "source"})
    if min(vars(model).values()) < 0 or model.resident_per_table_page < 1:
        raise ValueError("[sxs] page counts must be whole numbers 0 or more")
    return model


def _prsm_costs(table: dict) -> PrsmCosts:
    """``prsm.toml``: PR/SM's dispatch cost and the spin lock's constants, all positive."""
    values = {
        k: float(v)
        for part in ("dispatch", "spinlock", "redispatch")
        for k, v in table[part].items()
        if k != "source"
    }
    costs = PrsmCosts(**values)
    if min(vars(costs).values()) <= 0:
        raise ValueError("prsm.toml constants must be positive")
    return costs


def _cpu_speed(table: dict) -> dict[str, float]:
    """cp.toml's ``[cpu_speed]``: machine type -> engine speed, each positive."""
    speeds = {str(k): float(v) for k, v in table.items() if not k.startswith("source")}
    if any(v <= 0 for v in speeds.values()):
        raise ValueError("[cpu_speed] speeds must be positive")
    return speeds


def _ptrm_model(table: dict) -> PtrmModel:
    """The PTRM model of cp.toml's ``[ptrm]`` table: positive counts and size."""
    model = PtrmModel(
        int(table["spaces_62"]), int(table["spaces_63"]), float(table["virtual_tb_62"])
    )
    if min(model.spaces_62, model.spaces_63, model.virtual_tb_62) <= 0:
        raise ValueError("[ptrm] space counts and virtual_tb_62 must be positive")
    return model


_OLD = "_52"  # suffix of a cp.toml constant for z/VM levels before 5.3
# path_us times that are not processor time per event (a faster engine keeps them)
_NOT_PATHS = frozenset({"dspslice_us"})
# path_us amounts of a guest's work, in seconds of a baseline engine (a faster one
# does the same work in less time): the processor time between two reorders
_WORK = frozenset({"reorder_cpu_s"})


@cache
def load_calibration() -> Calibration:
    """Read and check ``data/calibration/*.toml`` (cached for the process)."""
    dasd, cp, net = _read("dasd.toml"), _read("cp.toml"), _read("network.toml")
    try:
        geo = dasd["geometry"]
        return Calibration(
            bytes_per_track=int(geo["bytes_per_track"]),
            blocks_per_track=int(geo["blocks_4k_per_track"]),
            tracks_per_cylinder=int(geo["tracks_per_cylinder"]),
            models={k: int(v["cylinders"]) for k, v in dasd["models"].items()},
            channels={
                k: ChannelSpeed(
                    float(v["data_rate_mb_s"]),
                    int(v["concurrent_io"]),
                    float(v.get("work_us_per_io", 0.0)),
                    float(v.get("packet_us", 0.0)),
                    float(v.get("other_conn_ms", 0.0)),
                    float(v.get("latency_us", 0.0)),
                    float(v.get("signal_us", 0.0)),
                    float(v.get("ccw_ms", 0.0)),
                )
                for k, v in {**dasd["channels"], **net["channels"]}.items()
            },
            control_units={
                k: ControlUnitTiming(
                    float(v["pend_ms"]),
                    float(v["disc_ms"]),
                    float(v["conn_overhead_ms"]),
                    float(v["transfer_mb_s"]),
                    float(v["jitter"]),
                    _cache_model(v),
                    _drive_model(v, dasd.get("drives", {})),
                    int(v.get("ccw_bytes", 0)),
                )
                for k, v in dasd["control_units"].items()
            },
            path_us={
                **{
                    k: float(v)
                    for k, v in cp["path_lengths"].items()
                    if k != "source" and not k.endswith(_OLD)
                },
                # the minidisk cache's own path lengths, with their sources, in [mdc]
                **{k: float(v) for k, v in cp.get("mdc", {}).items() if not k.startswith("source")},
            },
            read_pages_max=int(cp["paging"]["read_pages_max"]),
            prsm_dispatch_ms=float(cp["prsm"]["dispatch_interval_ms"]),
            page_alloc_free=float(cp["paging"].get("page_alloc_free", 0.0)),
            page_alloc_window=float(cp["paging"].get("page_alloc_window", 0.0)),
            vswitch=VSwitchModel(
                int(net["vswitch"]["mtu_bytes"]),
                float(net["vswitch"]["cp_us_per_packet"]),
                float(net["vswitch"]["controller_us_per_packet"]),
            ),
            sxs=_sxs_model(cp["sxs"]),
            ptrm=_ptrm_model(cp["ptrm"]),
            hipersockets=HiperSocketsModel(
                int(net["hipersockets"]["frame_kb"]), float(net["hipersockets"]["siga_us"])
            ),
            linux_stack=LinuxStackModel(
                float(net["linux_stack"]["us_per_packet"]),
                float(net["linux_stack"]["ns_per_byte"]),
                int(net["linux_stack"]["header_bytes"]),
                int(net["linux_stack"]["frame_bytes"]),
            ),
            before_53={
                k.removesuffix(_OLD): float(v)
                for table in (cp["path_lengths"], cp["paging"])
                for k, v in table.items()
                if k.endswith(_OLD)
            },
            limithard_window_s=float(cp.get("scheduler", {}).get("limithard_window_s", 1.0)),
            test_idle_s=float(cp.get("scheduler", {}).get("test_idle_s", 0.3)),
            cpu_families={
                str(k): CpuFamily(
                    **{n: float(x) for n, x in v.items() if n not in ("source", "paging")},
                    paging_us={
                        n: float(x) for n, x in v.get("paging", {}).items() if n != "source"
                    },
                )
                for k, v in cp.get("cpu_families", {}).items()
            },
            prsm_costs=_prsm_costs(_read("prsm.toml")),
            cpu_speed=_cpu_speed(cp.get("cpu_speed", {})),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ZvmsimError(f"calibration data is incomplete: {exc}") from None
