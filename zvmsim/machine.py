"""The emulated system: hardware, CP and guests wired together on one SimPy clock.

``Machine(config, seed).run()`` simulates a warm-up, starts the monitor, runs
the configured number of monitor intervals and returns the monitor records —
the only thing the reports ever see.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from .calibration import zvm_release
from .clock import Clock
from .config import PagingConfig, SystemConfig
from .cp.agelist import AgeList
from .cp.demandscan import DemandScan62
from .cp.demandscan63 import DemandScan63
from .cp.dispatch import Processors, share_weights
from .cp.excess import ExcessShareDefect
from .cp.flashcopy import FlashCopy
from .cp.framelock import FrameLock
from .cp.io import VolumeIO
from .cp.limits import LimitHard, limit_weights
from .cp.mdc import MinidiskCache
from .cp.mdchome import MdcHome
from .cp.minidisk import BLOCK_BYTES, Minidisk
from .cp.paging import PageVolume, PagingDevices
from .cp.ptrm import PtrmSpaces
from .cp.scheduler import Scheduler
from .cp.segments import SavedSegment
from .cp.spinlock import SpinLock
from .cp.storage import Storage
from .cp.storage63 import Storage63
from .cp.timer import timer_hz, timer_pops
from .cp.vmcf import Vmcf
from .cp.vmdbk import Vmdbk
from .cp.vswitch import VSwitch
from .errors import ZvmsimError
from .guests import WORKLOADS
from .guests.sharing import OtherSystem
from .hardware.channels import Chpid
from .hardware.cucache import ControlUnitCache, VolumeCache
from .hardware.dasd import DasdTiming
from .hardware.drive import Drive
from .hardware.hipersockets import HiperSockets
from .hardware.occupancy import Occupancy
from .hardware.pools import OtherPools
from .hardware.prsm import Prsm
from .monitor.collector import MonitorCollector
from .monitor.records import Record
from .monitor.stream import MonitorData
from .rng import Streams
from .zos.dbserver import DbServer

__all__ = ["Machine"]


class Machine:
    """One z/VM system built from a validated :class:`SystemConfig`."""

    def __init__(self, config: SystemConfig, seed: int = 1) -> None:
        self.config = config
        self.seed = seed
        self.env = Clock()
        self.streams = Streams(seed)
        cal = config.calibration
        path_us = cal.path_us
        self.processors = Processors(
            self.env,
            config.processors.count,
            path_us["io_interrupt_system_us"],
            path_us["dspslice_us"],
        )
        family = cal.cpu_family(config.system.cpu_model)
        if family is not None:
            self.processors.set_switching(family.switch_us, family.refill_us)
        # VMCF ran only on the master processor up to VM/ESA 2.1.0
        self.vmcf = Vmcf(
            self.env, self.processors, family, zvm_release(config.system.zvm_level) < (2, 2)
        )
        assert config.cec is not None
        pools = OtherPools(
            self.env,
            config.cec,
            cal.prsm_costs,
            cal.prsm_dispatch_ms / 1000.0,
            self.streams.stream("prsm:swing"),
        )
        self.prsm = Prsm(
            self.env,
            config.cec,
            self.processors,
            cal.prsm_costs,
            pools,
            config.cec.dispatch_cost,
        )
        if config.cec.redispatch:  # a waking logical PU waits for PR/SM to dispatch it
            self.processors.set_redispatch(self.prsm.redispatch_s(cal.prsm_costs))
        if config.cec.occupancy and not self.prsm.own.dedicated:
            capacity, others = self.prsm.pool_others()
            occupancy = Occupancy(
                capacity,
                others,
                cal.prsm_costs.other_run_ms / 1000.0,
                self.streams.stream("prsm:others"),
            )
            if occupancy.active:  # the others hold physical PUs now and then
                self.processors.set_occupancy(occupancy)
                self.prsm.attach_occupancy(occupancy)
        self.lock: SpinLock | None = None  # CP's scheduler lock, where modelled
        if config.cp.lock_yield != "none":
            self.lock = SpinLock(
                "SRMSLOCK",
                config.cp.lock_yield,
                cal.prsm_costs,
                self.prsm.pool_state,
                cal.prsm_dispatch_ms / 1000.0,
                self.streams.stream("cp:spinlock"),
                self.prsm.intercept,
            )
            self.processors.attach_lock(self.lock)
        self.chpids = {
            c.chpid: Chpid(c.chpid, c.kind, cal.channels[c.kind]) for c in config.channels.values()
        }
        self.cu_caches: dict[str, ControlUnitCache] = {}  # by control-unit instance
        self.volumes: dict[str, VolumeIO] = {}
        for vol in config.volumes.values():
            timing = DasdTiming(
                cal.control_units[vol.control_unit], self.streams.stream(f"io:{vol.volser}")
            )
            self.volumes[vol.volser] = VolumeIO(
                self.env,
                vol.volser,
                vol.base,
                vol.aliases,
                [self.chpids[c] for c in vol.chpids],
                timing,
                self.processors,
                path_us,
                self._volume_cache(vol.volser, vol.control_unit, vol.cu_instance, vol.base),
            )
            self._attach_drive(vol.volser, vol.control_unit, vol.pinned)
        track_bytes = cal.blocks_per_track * BLOCK_BYTES
        record_level = config.cp.mdc_level == "record"
        unit_bytes = BLOCK_BYTES if record_level else track_bytes
        capacity = int(config.cp.mdc_max_mb * 2**20 // unit_bytes)
        self.mdc = (
            MinidiskCache(
                self.env,
                capacity,
                track_bytes,
                config.cp.fixes.get("vm64199", False),
                path_us,
                record_level=record_level,
            )
            if config.cp.mdc_system and capacity > 0
            else None
        )
        self.flashcopy = FlashCopy(self.processors, path_us)  # guests' FlashCopy establishes
        self.volume_info = {
            v.volser: (v.model, v.control_unit, v.chpids, "") for v in config.volumes.values()
        }
        self.cu_models: dict[str, str] = {}  # volser -> control unit type-model, where known
        self.storage: Storage | None = None
        if config.storage is not None:
            self.storage = self._build_storage(config)
        self.minidisks: dict[str, Minidisk] = {}
        for md in config.minidisks.values():
            cached = self.mdc if config.volumes[md.volser].mdc and md.mdc else None
            self.minidisks[md.name] = Minidisk(
                md.name,
                self.volumes[md.volser],
                md.start_cyl * cal.tracks_per_cylinder,
                md.cylinders * cal.tracks_per_cylinder,
                cal.blocks_per_track,
                cached,
                path_us["vio_us"],
                list(config.volumes).index(md.volser),
            )
        self._layouts: dict[str, Any] = {}
        self.vswitches = {
            v.name: VSwitch(
                v.name,
                v.rdev,
                v.controller,
                self.chpids[v.osa_chpid],
                dataclasses.replace(cal.vswitch, mtu_bytes=v.mtu) if v.mtu else cal.vswitch,
            )
            for v in config.vswitches.values()
        }
        self.hipersockets = {
            c: HiperSockets(chp, cal.hipersockets)
            for c, chp in self.chpids.items()
            if chp.kind == "IQD"
        }
        self.zos_servers = {
            name: DbServer(
                self.env,
                server,
                pools,
                any(p.name == server.partition and p.pu_type == "ZIIP" and p.logical
                    for p in config.cec.partitions),
                self.streams.stream(f"zos:{name}"),
            )
            for name, server in config.zos_servers.items()
        }  # fmt: skip
        self.users: dict[str, Vmdbk] = {}
        self.workloads = []
        for guest in config.guests.values():
            cls = WORKLOADS.get(guest.workload)
            if cls is None:
                raise ZvmsimError(f"guest {guest.name}: unknown workload '{guest.workload}'")
            for userid in guest.userids:
                if userid in self.users:
                    raise ZvmsimError(f"userid {userid} is defined twice")
                vm = Vmdbk(userid)
                vm.quickdsp = guest.quickdsp
                vm.share_relative = guest.share_relative
                vm.share_absolute = guest.share_absolute
                vm.limithard = guest.limithard
                vm.virtual_cpus = guest.virtual_cpus
                if guest.limithard:  # the maximum: ABSOLUTE n% LIMITHARD, or a relative's
                    vm.limit_pct = guest.share_max or guest.share_absolute
                vm.reorder = guest.reorder
                self.users[userid] = vm
                self.workloads.append(
                    cls(self, vm, guest.params, self.streams.stream(f"workload:{userid}"))
                )
        # other systems' users on volumes shared with them (their I/O only)
        self.sharing = [OtherSystem(self, shared) for shared in config.sharing.values()]
        share_weights(self.users.values())
        limit_weights(self.users.values())
        self.ptrm: PtrmSpaces | None = None
        if self.storage is not None:
            self.ptrm = PtrmSpaces(cal.ptrm, zvm_release(config.system.zvm_level))
            for space in self.storage.spaces:
                if space.kind == "guest":
                    self.ptrm.logon(space)
        self.segments = [
            SavedSegment(
                seg.name,
                seg.kind,
                int(seg.size_mb * 256),
                seg.users,
                seg.touches_per_s,
                seg.write_pct,
                self.storage,
                self.streams.stream(f"segment:{seg.name}"),
            )
            for seg in config.segments.values()
            if self.storage is not None and seg.loaded
        ]
        if self.storage is not None:
            self._set_reserved(config)
        self.mdc_home: MdcHome | None = None
        if config.cp.mdc_home and self.mdc is not None and self.storage is not None:
            self.mdc_home = MdcHome(config.cp.mdc_home, self.storage, self.mdc, config.cp.mdc_bias)
            self.mdc.home = self.mdc_home
        self.links: dict[str, int] = {}
        for w in self.workloads:
            for name in w.links:
                volser = config.minidisks[name].volser
                self.links[volser] = self.links.get(volser, 0) + 1
        if self.storage is not None:
            self.storage.quiet = True
            for segment in self.segments:
                segment.load()
            for w in self.workloads:
                w.prepare()
            steps = 50  # small steps, so the demand scan's rotation spreads the steals
            for _ in range(steps):
                for w in self.workloads:
                    w.history(config.storage.history_s / steps)  # type: ignore[union-attr]
            if self.mdc_home is not None:  # MDC warmed while the guests were built
                self.mdc_home.settle()
            self.storage.quiet = False
        self._guest_spaces = {
            s.owner: s for s in (self.storage.spaces if self.storage else []) if s.kind == "guest"
        }
        dpa = self.storage.frames if self.storage is not None else 2**31
        exposures = (
            sum(len(v.volume.exposures) for v in self.storage.paging.volumes)
            if self.storage is not None
            else 0
        )
        self.scheduler = Scheduler(
            self.env,
            config.srm,
            dpa,
            self._wss,
            exposures,
            self.processors.slice_s,
            spaces=self._guest_spaces,
        )
        self.processors.scheduler = self.scheduler
        count = config.processors.count
        self.processors.limits = LimitHard(
            config.srm.limithard, cal.limithard_window_s, count, self.scheduler
        )
        if config.srm.excess_share_defect:
            self.processors.excess = ExcessShareDefect(count, self.scheduler)
        self.monitor = MonitorCollector(self)

    def _set_reserved(self, config: SystemConfig) -> None:
        """SET RESERVED for each guest's storage, within the system's SYSMAX."""
        assert self.storage is not None
        spaces = {s.owner: s for s in self.storage.spaces if s.kind == "guest"}
        total = 0.0
        for guest in config.guests.values():
            if not guest.reserved_mb:
                continue
            for userid in guest.userids:
                space = spaces.get(userid)
                if space is None:
                    raise ZvmsimError(f"user {userid}: SET RESERVED needs a guest with storage")
                space.reserved = int(guest.reserved_mb * 256)
                total += guest.reserved_mb
        for seg in config.segments.values():
            if not seg.reserved:
                continue
            if zvm_release(config.system.zvm_level) < (6, 3):
                raise ZvmsimError(
                    f"SET RESERVED {seg.kind} {seg.name}: z/VM "
                    f"{config.system.zvm_level} reserves pages for users only (NSS and DCSS: 6.3)"
                )
            # a segment need not be loaded to be reserved; its pages count in SYSMAX
            for segment in self.segments:
                if segment.name == seg.name:
                    segment.space.reserved = segment.space.pages
            total += seg.size_mb
        sysmax = config.storage.reserved_sysmax_mb if config.storage else -1.0
        if sysmax >= 0 and total > sysmax:
            raise ZvmsimError(
                f"SET RESERVED: {total:g} MB reserved exceeds the SYSMAX of {sysmax:g} MB"
            )

    def _volume_cache(
        self, volser: str, cu_type: str, instance: str, base: str
    ) -> VolumeCache | None:
        """Volume *volser*'s view of its control unit's cache, if that cache is simulated.

        Its writes go to the NVS of its logical subsystem's cluster: the LSS is
        taken from the base device number (its high-order byte, as device
        numbers are usually laid out), even LSSs on one cluster, odd on the other.
        """
        cal = self.config.calibration
        timing = cal.control_units[cu_type]
        if timing.cache is None:
            return None
        name = instance or cu_type
        cache = self.cu_caches.get(name)
        if cache is None:
            model = timing.cache
            unit = self.config.control_units.get(name)
            if unit is not None:
                model = dataclasses.replace(
                    model,
                    cache_mb=model.cache_mb if unit.cache_mb is None else unit.cache_mb,
                    nvs_mb=model.nvs_mb if unit.nvs_mb is None else unit.nvs_mb,
                )
            cache = ControlUnitCache(name, model, cal.bytes_per_track, timing.jitter)
            if unit is not None and unit.other_writes is not None:
                cache.other_writes(unit.other_writes, cal.bytes_per_track)
            self.cu_caches[name] = cache
        lss = int(base, 16) >> 8
        return cache.volume(volser, self.streams.stream(f"cache:{volser}"), lss)

    def _attach_drive(self, volser: str, cu_type: str, pinned: bool) -> None:
        """Give a cached volume its drive (when simulated) and pin its data if configured."""
        cache = self.volumes[volser].cache
        if cache is None:
            return
        model = self.config.calibration.control_units[cu_type].drive
        if model is not None:
            cache.drive = Drive(
                model,
                self.config.calibration.tracks_per_cylinder,
                self.streams.stream(f"drive:{volser}"),
            )
        if pinned:
            cache.pin()

    def _build_storage(self, config: SystemConfig) -> Storage:
        cal, st, pg = config.calibration, config.storage, config.paging
        assert st is not None
        volumes: list[PageVolume] = []
        groups = [pg, pg.extra] if pg is not None else []
        prefixes = [g.volser_prefix for g in groups if g is not None]
        if len(set(prefixes)) < len(prefixes):
            raise ZvmsimError("[paging.extra] needs a volser_prefix of its own")
        for group in groups:
            if group is not None:
                volumes.extend(self._page_volumes(group))
        frames = int(st.central_mb * 256)
        common = dict(
            frames=frames,
            xstore_pages=int(st.xstore_mb * 256),
            low=st.low_frames,
            high=st.high_frames,
            paging=PagingDevices(
                self.env, volumes, Vmdbk("SYSTEM"), cal.page_alloc_free, cal.page_alloc_window
            ),
            processors=self.processors,
            read_pages=cal.read_pages_max,
            path_us=self._storage_paths(config),
            rnd=self.streams.stream("storage"),
        )
        if zvm_release(config.system.zvm_level) >= (6, 3):
            # z/VM 6.3: trial invalidation and the global aging list; no reorder,
            # and XSTORE holds copies of reclaimed pages (no migration)
            prewrite = cal.path_us.get("prewrite_pct", 0.0) / 100.0
            agelist = AgeList(int(frames * st.agelist_pct / 100.0), st.early_writes, prewrite)
            storage: Storage = Storage63(self.env, agelist=agelist, **common)  # type: ignore[arg-type]
            storage.policy = DemandScan63()
            return self._with_lock(storage, config)
        storage = Storage(
            self.env,
            reorder_rnd=self.streams.stream("reorder") if st.reorder else None,
            **common,  # type: ignore[arg-type]
        )
        storage.policy = DemandScan62()
        return self._with_lock(storage, config)

    def _with_lock(self, storage: Storage, config: SystemConfig) -> Storage:
        """Give *storage* its available-list lock where the scenario models it."""
        if config.storage is not None and config.storage.avail_lock:
            hold_us = config.calibration.path_us["avail_lock_us"]
            procs = self.processors
            storage.lock = FrameLock("RSA2GLCK", hold_us, procs.count, procs.run_system)
        return storage

    @staticmethod
    def _storage_paths(config: SystemConfig) -> dict[str, float]:
        """Path lengths for real storage: the processor family's own, where given."""
        cal = config.calibration
        family = cal.cpu_family(config.system.cpu_model)
        return {**cal.path_us, **family.paging_us} if family is not None else cal.path_us

    def _page_volumes(self, pg: PagingConfig) -> list[PageVolume]:
        """One group of PAGE volumes: RDEVs on the group's paths, slots partly in use."""
        cal = self.config.calibration
        slots = cal.models[pg.model] * cal.tracks_per_cylinder * cal.blocks_per_track
        chpids = pg.chpids[: pg.paths] if pg.paths else pg.chpids
        out = []
        for i, rdev in enumerate(pg.rdevs):
            volser = f"{pg.volser_prefix}{i + 1:02d}"
            timing = DasdTiming(
                cal.control_units[pg.control_unit], self.streams.stream(f"io:{volser}")
            )
            vol = VolumeIO(
                self.env,
                volser,
                rdev,
                (),
                [self.chpids[c] for c in chpids],
                timing,
                self.processors,
                cal.path_us,
            )
            self.volumes[volser] = vol
            self.volume_info[volser] = (pg.model, pg.control_unit, chpids, "PAGE")
            if pg.cu_model:
                self.cu_models[volser] = pg.cu_model
            out.append(
                PageVolume(
                    vol,
                    slots,
                    used=int(slots * pg.used_pct / 100.0),
                    cylinders=cal.models[pg.model],
                )
            )
        return out

    def shared_layout(self, key: str, make: Callable[[random.Random], Any]) -> Any:
        """Data laid out once per run and shared by every user (e.g. a disk's files)."""
        if key not in self._layouts:
            self._layouts[key] = make(self.streams.stream(f"layout:{key}"))
        return self._layouts[key]

    def add_to_dispatch_list(self, vm: Vmdbk) -> None:
        """A dormant user got work: the scheduler admits it (or holds it as eligible)."""
        self.scheduler.add(vm)
        self.monitor.dispatch_event(vm, True)

    def drop_from_dispatch_list(self, vm: Vmdbk) -> None:
        """A user went idle: it leaves the dispatch list and becomes dormant."""
        self.scheduler.drop(vm)
        self.monitor.dispatch_event(vm, False)

    def _wss(self, vm: Vmdbk) -> int:
        """The user's working set (pages) as the scheduler estimates it."""
        space = self._guest_spaces.get(vm.userid)
        return space.wss if space is not None else 0

    def run(
        self,
        sink: Callable[[list[Record]], object] | None = None,
        progress: Callable[[float], object] | None = None,
    ) -> MonitorData:
        """Warm up, start the monitor, run the configured intervals; return the records.

        With *sink* (a MONWRITE writer's ``extend``), the records go to it
        interval by interval as the run goes and the returned data is empty:
        a long run never sits in memory. *progress* is told the share of the
        run done (0 to 1) after the warm-up and after every monitor interval.
        """
        cfg = self.config
        self.prsm.start()
        hz = timer_hz(self.workloads)
        if hz > 0 and self.processors.redispatch_s > 0:  # the pops matter only there
            self.env.process(timer_pops(self.env, self.processors, hz))
        cal = cfg.calibration
        for c in cfg.channels.values():
            chp = self.chpids[c.chpid]
            conn_s = cal.channels[c.kind].other_conn_ms / 1000.0
            if c.other_busy > 0 and chp.serial and conn_s > 0:
                rnd = self.streams.stream(f"channel:{c.chpid}")
                self.env.process(chp.other_partitions(self.env, c.other_busy, conn_s, rnd))
        for w in self.workloads:
            self.env.process(w.run())
        for other in self.sharing:
            other.start()
        for segment in self.segments:
            self.env.process(segment.run())
        self.env.run(until=cfg.warmup)
        self.monitor.start()
        intervals = max(1, int(cfg.duration / cfg.monitor.sample_interval + 1e-9))
        end = cfg.warmup + intervals * cfg.monitor.sample_interval + 1e-9
        if sink is None and progress is None:
            self.env.run(until=end)
            return self.monitor.data
        records = self.monitor.data.records
        for k in range(1, intervals + 1):
            if progress is not None:
                progress((cfg.warmup + (k - 1) * cfg.monitor.sample_interval) / end)
            self.env.run(until=cfg.warmup + k * cfg.monitor.sample_interval)
            if sink is not None:
                sink(records)
                records.clear()
        self.env.run(until=end)
        if sink is not None:
            sink(records)
            records.clear()
        if progress is not None:
            progress(1.0)
        return self.monitor.data
