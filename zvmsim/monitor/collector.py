"""The monitor collector: CP's side of MONITOR START.

At start it writes configuration records (system, sample and event
profiles, devices, logged-on users with their directory settings) and a
first sample set. Then, on one timeline:

* every high-frequency rate (MONITOR SAMPLE RATE) it *samples states*: which
  wait state each user is in, how many I/Os are queued at each RDEV, whether
  each exposure is busy — adding one to counters, exactly as CP does, so the
  reports show shares of samples, not of time;
* every sample interval it writes a sample set: one record per processor,
  user and device, the System Execution Space (:mod:`zvmsim.cp.sxs`), cache
  activity for each volume whose control unit simulates and caches it, cache
  status and minidisk links (:mod:`.dasdstat`) (and, when
  storage is modelled, global storage, each paging volume and each address
  space), carrying cumulative counters, then an end-of-set record.

Channel paths and VSWITCHes are sampled by :mod:`.channels` (HF busy bands,
one D0 R20 record per CHPID and one D6 R21 record per VSWITCH per set).

Scheduler events (dispatch-list adds and drops) are written as they happen.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from typing import TYPE_CHECKING

from ..cp.dispatch import Processors
from ..cp.scheduler import LOADING_FAULTS
from ..cp.sxs import sxs_usage
from ..cp.vmdbk import CFW, CPU, DM, DORM, EL, IOW, LDG, PGW, RUN, SIM, STATES, Vmdbk
from .channels import ChannelSampler
from .dasdstat import cache_status_records, link_records
from .mdcstat import mdc_records
from .records import (
    MRAPLEDT,
    MRIODCAD,
    MRIODDEV,
    MRMTRDEV,
    MRMTREND,
    MRMTREPR,
    MRMTRSCH,
    MRMTRSPR,
    MRMTRSYS,
    MRMTRUSR,
    MRPRCMST,
    MRPRCPRP,
    MRSCLADL,
    MRSCLDDL,
    MRSTOASI,
    MRSTOASP,
    MRSTODSP,
    MRSTORSG,
    MRSTOSHR,
    MRSYTCUG,
    MRSYTCUP,
    MRSYTLCK,
    MRSYTLPU,
    MRSYTPRP,
    MRSYTRSG,
    MRSYTSXG,
    MRSYTSYG,
    MRUSEACT,
    MRUSEPAG,
    Record,
    domain_mask,
)
from .stream import MonitorData
from .tod import to_tod

if TYPE_CHECKING:
    from ..cp.framelock import FrameLock
    from ..cp.spinlock import SpinLock
    from ..guests.base import Workload
    from ..hardware.prsm import PartitionConfig
    from ..machine import Machine

__all__ = ["MonitorCollector"]


def _us(seconds: float) -> int:
    return int(round(seconds * 1e6))


PAGES_PER_MB = 256
SCHEDULER = 2
# sampled states in which a user is working, not idling (it counts as active)
_WORKING = frozenset((RUN, CPU, LDG, PGW, IOW, SIM, CFW))
# MRUSEACT's sampled states, and dormant waiting for no service machine (HFDORM)
_STATE_FIELDS = (*(f"hf_{name}" for name in STATES), "hf_dorm")


class MonitorCollector:
    """Writes CP Monitor records for one :class:`~zvmsim.machine.Machine`."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.data = MonitorData()
        self.running = False
        self._t0 = 0.0
        self._tod0 = to_tod(machine.config.system.start)
        self._user_hf = {u: [0] * (len(STATES) + 1) for u in machine.users}  # + DORM
        self._user_act = dict.fromkeys(machine.users, 0)  # HF samples finding it active
        self._user_samples = dict.fromkeys(machine.users, 0)  # HF samples taken of it
        self._user_tcpu = dict.fromkeys(machine.users, 0.0)  # its CPU time at the last one
        self._dev_hf = {r.addr: [0, 0, 0] for v in machine.volumes.values() for r in v.exposures}
        self._held_hf: dict[str, int] = {}  # paging requests CP held per volume, summed
        self._sys_hf = [0, 0, 0, 0]  # samples, dispatch list, eligible list, loading
        self._eload_hf = [0, 0, 0]  # loading users in the eligible list as E1, E2, E3
        self._sys_cls = [0] * 7  # samples of users in Q0-Q3 and E1-E3
        self._user_cls = {u: [0] * 7 for u in machine.users}
        self._avail_hf = 0
        self._lists_hf = [0, 0, 0, 0]  # z/VM 6.3 available lists: B2G/A2G singles/contigs
        self._pldv_hf = [0, 0, 0]  # samples, master-only PLDV users, other PLDVs' users
        storage = machine.storage
        self._spaces = {s.owner: s for s in storage.spaces if s.kind == "guest"} if storage else {}
        self._interval = 0
        self._channels = ChannelSampler(machine)  # CHPID busy bands, channel/VSWITCH records
        self._sampled = frozenset(machine.config.monitor.sample_domains)  # MONITOR SAMPLE ENABLE
        self._events = frozenset(machine.config.monitor.event_domains)  # MONITOR EVENT ENABLE

    def tod(self) -> int:
        """The TOD clock now (the configured start is monitor start)."""
        return self._tod0 + _us(self.machine.env.now - self._t0) * 4096

    def start(self) -> None:
        """MONITOR START: configuration records, a first sample set, then timers."""
        self._t0 = self.machine.env.now
        self.running = True
        self._config_records()
        self._channels.start()
        self._sample_set()
        self.machine.env.process(self._timeline())

    def dispatch_event(self, user: Vmdbk, added: bool) -> None:
        """Record a dispatch-list add or drop (scheduler domain event, if enabled)."""
        if self.running and SCHEDULER in self._events:
            cls = MRSCLADL if added else MRSCLDDL
            self.data.records.append(cls(tod=self.tod(), userid=user.userid))

    def _timeline(self) -> Generator:
        env = self.machine.env
        mon = self.machine.config.monitor
        hf_next, sample_next, k = mon.hfs_interval, mon.sample_interval, 1
        hf_n = 1
        while True:
            now = min(hf_next, sample_next)
            yield env.timeout(self._t0 + now - env.now)
            if hf_next <= sample_next:
                self._hf_sample()
                hf_n += 1
                hf_next = hf_n * mon.hfs_interval
            if sample_next <= hf_next and abs(env.now - self._t0 - sample_next) < 1e-9:
                self._sample_set()
                k += 1
                sample_next = k * mon.sample_interval

    def _hf_sample(self) -> None:
        m = self.machine
        dispatch = 0
        now = m.env.now
        sched, classes = m.scheduler, self._sys_cls
        eligible = loading = 0
        in_dispatch = sched.dispatch
        sampled_state = m.processors.sampled_state
        for userid, vm in m.users.items():
            state = sampled_state(vm, now)
            self._user_samples[userid] += 1
            used = vm.tcpu_s - Processors.unrun(vm, now)[0]
            # (an eligible user files %LDG when loading, but waits: not working)
            working = state in _WORKING and vm.state != EL
            if working or used > self._user_tcpu[userid] + 1e-9:
                # an active user: its state is filed (a user idle since the sample
                # before files none, as CP's user state sampling does)
                self._user_act[userid] += 1
                self._user_hf[userid][state] += 1
            self._user_tcpu[userid] = used
            dispatch += state not in (DM, DORM) and not vm.elisted
            klass = 3 + vm.eclass if vm.elisted else sched.qclass(vm, now)
            if klass >= 0:  # Q0-Q3 as 0-3, E1-E3 as 4-6
                self._user_cls[userid][klass] += 1
                classes[klass] += 1
            eligible += vm.elisted
            loading += vm in in_dispatch and sched.is_loading(vm)
            if vm.elisted and vm.loading:
                self._eload_hf[max(vm.eclass, 1) - 1] += 1
        self._sys_hf[3] += loading
        self._sys_hf[0] += 1
        self._sys_hf[1] += dispatch
        self._sys_hf[2] += eligible
        if m.storage is not None:
            self._avail_hf += m.storage.available
            lists = getattr(m.storage, "lists", None)
            if lists is not None:
                for i, n in enumerate(lists.free[0] + lists.free[1]):
                    self._lists_hf[i] += n
        for vol in m.volumes.values():
            if vol.held:
                addr = vol.base.addr
                self._held_hf[addr] = self._held_hf.get(addr, 0) + vol.held
            queued = vol.queued
            for rdev in vol.exposures:
                hf = self._dev_hf[rdev.addr]
                hf[0] += 1
                if rdev.base is None:
                    hf[1] += queued
                hf[2] += rdev.busy
        self._channels.hf_sample()
        if m.vmcf.users:
            pldv = self._pldv_hf
            pldv[0] += 1
            pldv[1] += m.processors.master_queued
            pldv[2] += m.processors.queued

    def _keep_enabled(self, first: int) -> None:
        """Drop the records from index *first* on whose domain is not enabled for sample."""
        out = self.data.records
        if any(r.DOMAIN not in self._sampled for r in out[first:]):
            out[first:] = [r for r in out[first:] if r.DOMAIN in self._sampled]

    def _config_records(self) -> None:
        first = len(self.data.records)
        self._write_config()
        self._keep_enabled(first)

    def _write_config(self) -> None:
        m, tod, out = self.machine, self.tod(), self.data.records
        cfg = m.config
        info = cfg.system
        out.append(
            MRMTRSYS(
                tod=tod,
                sysid=info.sysid,
                cpu_model=info.cpu_model,
                serial=info.serial,
                zvm_level=info.zvm_level,
                title=info.title,
                processors=cfg.processors.count,
            )
        )
        out.append(
            MRMTRSPR(
                tod=tod,
                interval_ms=_us(cfg.monitor.sample_interval) // 1000,
                hf_rate_cs=int(round(cfg.monitor.hfs_interval * 100)),
                sample_domains=domain_mask(*self._sampled),
            )
        )
        out.append(MRMTREPR(tod=tod, event_domains=domain_mask(*self._events)))
        srm = cfg.srm
        out.append(
            MRMTRSCH(
                tod=tod,
                **{f"{name}{i + 1}": v for name in ("storbuf", "ldubuf", "dspbuf")
                   for i, v in enumerate(getattr(srm, name))},
                **{f"ets_q{i + 1}_us": _us(v) for i, v in enumerate(srm.ets_s)},
                loading_faults=LOADING_FAULTS,
                loading_capacity=m.scheduler.exposures,
                limithard_consumption=int(srm.limithard == "consumption"),
            )
        )  # fmt: skip
        subchannels = _subchannels(r.addr for v in m.volumes.values() for r in v.exposures)
        for volser, vol in m.volumes.items():
            model, cu, chpids, usage = m.volume_info[volser]
            for rdev in vol.exposures:
                out.append(
                    MRMTRDEV(
                        tod=tod,
                        rdev=rdev.addr,
                        devtype=model,
                        volser=volser,
                        base=rdev.base.addr if rdev.base else "",
                        control_unit=cu,
                        chpids=",".join(chpids),
                        usage=usage,
                        links=m.links.get(volser, 0),
                        subchannel=subchannels[rdev.addr],
                        cu_model=m.cu_models.get(volser, ""),
                    )
                )
        out.extend(cache_status_records(m, tod))
        workloads = {w.vm.userid: w for w in m.workloads}
        for userid in m.users:
            out.append(self._user_config(userid, workloads.get(userid)))

    def _user_config(self, userid: str, workload: Workload | None) -> MRMTRUSR:
        """A user's directory settings: from its address space and workload parameters.

        Virtual CPUs and shares are the directory's; storage is the guest's
        address space size.
        """
        p = workload.p if workload is not None else {}
        space = self._spaces.get(userid)
        pages = space.pages if space else int(p.get("virtual_mb", 0) * PAGES_PER_MB)
        vm = self.machine.users[userid]
        return MRMTRUSR(
            tod=self.tod(),
            userid=userid,
            virtual_cpus=vm.virtual_cpus,
            storage_pages=pages,
            reserved=space.reserved if space else 0,
            share_relative=vm.share_relative,
            share_absolute_tenths=int(round(vm.share_absolute * 10)),
            quickdsp=int(vm.quickdsp),
            nomdcfs=int(bool(p.get("nomdcfs", False))),
            limit_max_tenths=int(round(vm.limit_pct * 10)) if vm.limithard else 0,
        )

    def _lpar_records(self, out: list, tod: int, now: float) -> None:
        """PR/SM's view: every logical PU of every partition, and the physical PUs."""
        prsm = self.machine.prsm
        logical: dict[str, int] = {}  # a z/OS partition's CPs and zIIPs together
        for part in prsm.cec.partitions:
            logical[part.name] = logical.get(part.name, 0) + part.logical
        out.append(_partition_record(prsm.cec.partitions, len(logical), tod))
        for part in prsm.cec.partitions:
            busy = prsm.logical_busy(part, now)
            ovhd = prsm.sampled_overhead(part, now, busy)
            total = logical[part.name]
            for cpu in range(part.logical):
                out.append(_lpar_record(part, cpu, tod, busy[cpu], ovhd[cpu], total))
            if not part.logical and not total:  # a defined partition with no PUs: dots
                out.append(_lpar_record(part, 0, tod, 0.0, 0.0, 0))
        for pu_type, count in sorted(prsm.cec.pus.items()):
            # zvmsim's PR/SM, like PR/SM's default, sets its dispatch interval dynamically
            out.append(MRSYTCUP(tod=tod, pu_type=pu_type, count=count, dispatch_interval_ms=0))

    def _master_record(self, tod: int) -> MRPRCMST:
        """The master processor, its master-only PLDV and the VMCF counts."""
        procs, vmcf = self.machine.processors, self.machine.vmcf
        return MRPRCMST(
            tod=tod,
            master=f"{procs.master:02X}",
            hf_samples=self._pldv_hf[0],
            hf_master_pldv=self._pldv_hf[1],
            hf_pldv=self._pldv_hf[2],
            master_runs=procs.master_runs,
            master_wait_us=_us(procs.master_wait_s),
            moves=procs.moves,
            migrations=procs.migrations,
            switch_us=_us(procs.switch_time_s),
            refill_us=_us(procs.refill_time_s),
            vmcf=vmcf.functions,
            smsg=vmcf.smsgs,
        )

    def _sxs_record(self, tod: int) -> MRSYTSXG:
        """CP's System Execution Space now: what users, real devices, resident
        storage (DAT tables) and I/Os in flight take of it (see :mod:`zvmsim.cp.sxs`)."""
        m = self.machine
        spaces = m.storage.spaces if m.storage is not None else []
        usage = sxs_usage(
            m.config.calibration.sxs,
            users=len(m.users),
            devices=sum(len(v.exposures) for v in m.volumes.values()),
            resident=[s.resident for s in spaces],
            io_in_flight=sum(v.in_flight for v in m.volumes.values()),
        )
        return MRSYTSXG(
            tod=tod,
            size=usage.size,
            available=usage.available,
            used=usage.used,
            id_mapped=usage.id_mapped,
            fixed=usage.fixed,
            users=usage.users,
            devices=usage.devices,
            tables=usage.tables,
            io=usage.io,
        )

    def _storage63_records(self, tod: int) -> list[Record]:
        """Per-user page activity (both releases) and, on z/VM 6.3, the aging list
        and the available lists by request type."""
        storage = self.machine.storage
        out: list[Record] = []
        agelist = getattr(storage, "agelist", None)
        if agelist is not None:
            lists = storage.lists  # type: ignore[union-attr]
            names = ("b2g_sing", "b2g_cont", "a2g_sing", "a2g_cont")
            flat = lambda rows: dict(zip(names, rows[0] + rows[1], strict=True))  # noqa: E731
            spaces = storage.spaces  # type: ignore[union-attr]
            out.append(
                MRSTORSG(
                    tod=tod,
                    agelist_target=agelist.target,
                    agelist_pages=agelist.pages,
                    agelist_written=agelist.written,
                    early_writes=int(agelist.early_writes),
                    agelist_pct_x100=round(agelist.target * 10000 / storage.frames),  # type: ignore[union-attr]
                    pushed=agelist.pushed,
                    reval_written=agelist.reval_written,
                    reval_unwritten=agelist.reval_unwritten,
                    ready=agelist.ready,
                    not_ready=agelist.not_ready,
                    early=agelist.early,
                    visits=storage.visits,  # type: ignore[union-attr]
                    inval=sum(s.inval for s in spaces),
                    reval=sum(s.reval for s in spaces),
                    **{f"free_{k}": v for k, v in flat(lists.free).items()},
                    **{f"hf_{k}": v for k, v in zip(names, self._lists_hf, strict=True)},
                    **{f"req_{k}": v for k, v in flat(lists.requests).items()},
                    **{f"ret_{k}": v for k, v in flat(lists.returns).items()},
                    **{f"empty_{k}": v for k, v in flat(lists.empty).items()},
                    sing_low=storage.low,  # type: ignore[union-attr]
                    cont_low=storage.contig_low,  # type: ignore[union-attr]
                    cont_protect=storage.contig_protect,  # type: ignore[union-attr]
                    table_scans=storage.table_scans,  # type: ignore[union-attr]
                    cp_frames=storage.cp_frames,  # type: ignore[union-attr]
                )
            )
        if agelist is None and getattr(storage, "reorder_rnd", None) is None:
            return out  # neither 6.3 nor page reorder: nothing to say per user
        for userid, space in self._spaces.items():
            out.append(
                MRUSEPAG(
                    tod=tod,
                    userid=userid,
                    inst=space.inst,
                    relse=0,
                    inval=space.inval,
                    reval=space.reval,
                    ready=space.ready,
                    not_ready=space.not_ready,
                    page_reads=space.page_reads,
                    page_writes=space.page_writes,
                    x_to_ms=space.x_to_ms,
                    ms_to_x=space.ms_to_x,
                    early=space.early,
                    reorders=space.reorders,
                    reorder_us=_us(space.reorder_s),
                    pages=space.pages,
                    instantiated=space.pages - space.untouched,
                    reserved=space.reserved,
                    wss=space.wss,
                    resident=space.resident,
                    ibr=space.ibr,
                    pnr=space.pnr,
                    aged=space.aged,
                    xstor=space.xstor,
                    dasd=space.dasd + space.moving,
                    reorder_on=int(agelist is None and space.vm is not None and space.vm.reorder),
                )
            )
        return out

    def _dspace_records(self, tod: int) -> list[Record]:
        """CP's shared data spaces: the PTRM spaces holding guests' DAT tables."""
        ptrm = getattr(self.machine, "ptrm", None)
        if ptrm is None:
            return []
        return [
            MRSTODSP(
                tod=tod,
                space=p.name,
                owner="SYSTEM",
                users=p.users,
                pages=p.pages,
                resident=p.resident,
                mapped_mb=p.mapped // 256,
            )
            for p in ptrm.spaces
        ]

    def _segment_records(self, tod: int) -> list[Record]:
        """Saved segments (NSS and DCSS) in storage: where their pages are, their paging."""
        return [
            MRSTOSHR(
                tod=tod,
                segment=seg.name,
                kind=seg.kind,
                users=seg.users,
                pages=seg.space.pages,
                resident=seg.space.resident,
                reserved=seg.space.reserved,
                xstor=seg.space.xstor,
                dasd=seg.space.dasd + seg.space.moving,
                page_reads=seg.space.page_reads,
                page_writes=seg.space.page_writes,
                steals=seg.space.steals,
            )
            for seg in getattr(self.machine, "segments", [])
        ]

    def _sample_set(self) -> None:
        first = len(self.data.records)
        self._write_sample_set()
        self._keep_enabled(first)

    def _write_sample_set(self) -> None:
        m, tod, out = self.machine, self.tod(), self.data.records
        now = m.env.now
        out.append(
            MRSYTSYG(
                tod=tod,
                logged=len(m.users),
                hf_samples=self._sys_hf[0],
                hf_dispatch=self._sys_hf[1],
                hf_eligible=self._sys_hf[2],
                **_classes(self._sys_cls),
                hf_loading=self._sys_hf[3],
                hf_loading_e1=self._eload_hf[0],
                hf_loading_e2=self._eload_hf[1],
                hf_loading_e3=self._eload_hf[2],
            )
        )
        procs = m.processors
        unrun_virtual = [0.0] * procs.count
        for vm in m.users.values():
            unrun_virtual[vm.burst[3]] += procs.unrun(vm, now)[1]
        for cpu in range(procs.count):
            busy, system = _us(procs.busy(cpu)), _us(procs.system(cpu))
            virtual = _us(procs.virtual_s[cpu] - unrun_virtual[cpu])
            out.append(
                MRSYTPRP(
                    tod=tod, cpu=cpu, prbtm_us=virtual, utime_us=busy - system, tmsys_us=system
                )
            )
            out.append(
                MRPRCPRP(
                    tod=tod,
                    cpu=f"{cpu:02X}",
                    pu_type=m.config.processors.pu_type,
                    elapsed_us=_us(now),
                    susp_us=_us(procs.suspended(cpu)),
                )
            )
        if m.vmcf.users:
            out.append(self._master_record(tod))
        self._lpar_records(out, tod, now)
        if m.lock is not None:
            out.append(_lock_record(m.lock, tod))
        if m.storage is not None and m.storage.lock is not None:
            out.append(_lock_record(m.storage.lock, tod))
        out.append(self._sxs_record(tod))
        storage = m.storage
        if storage is not None:
            # XSTORE retained for MDC is still configured XSTORE (FCX103's total)
            retained = m.mdc_home.xstore_retained if m.mdc_home is not None else 0
            out.append(
                MRSYTRSG(
                    tod=tod,
                    frames=storage.frames,
                    available=storage.available,
                    xstore_pages=storage.xstore_pages + retained,
                    xstore_used=storage.xstore_used,
                    scans=storage.scans,
                    frames_needed=storage.frames_needed,
                    pass1=storage.taken_by_pass[0],
                    pass2=storage.taken_by_pass[1],
                    emergency=storage.taken_by_pass[2],
                    times_empty=storage.times_empty,
                    migrated=storage.migrated,
                    xstore_in=sum(space.x_to_ms for space in storage.spaces),
                    xstore_out=sum(space.ms_to_x for space in storage.spaces),
                    hf_samples=self._sys_hf[0],
                    hf_available=self._avail_hf,
                    low_threshold=storage.low,
                    high_threshold=storage.high,
                )
            )
            for pv in storage.paging.volumes:
                out.append(
                    MRSTOASP(
                        tod=tod,
                        rdev=pv.volume.base.addr,
                        volser=pv.volume.volser,
                        slots=pv.slots,
                        used=pv.used,
                        pages_read=pv.pages_read,
                        pages_written=pv.pages_written,
                        blocks_read=pv.blocks_read,
                        blocks_written=pv.blocks_written,
                        queue_us=_us(pv.queue_s),
                        hf_queued=self._held_hf.get(pv.volume.base.addr, 0),
                        alloc_looks=pv.looks,
                        alloc_uses=pv.allocs,
                        extent_start=0,
                        extent_end=max(0, pv.cylinders - 1),
                    )
                )
            out.extend(self._storage63_records(tod))
            for space in storage.spaces:
                out.append(
                    MRSTOASI(
                        tod=tod,
                        space=space.name,
                        owner=space.owner,
                        kind=space.kind.upper(),
                        pages=space.pages,
                        resident=space.resident,
                        xstor=space.xstor,
                        dasd=space.dasd + space.moving,
                        page_reads=space.page_reads,
                        page_writes=space.page_writes,
                        steals=space.steals,
                    )
                )
            out.extend(self._dspace_records(tod))
            out.extend(self._segment_records(tod))
        for userid, vm in m.users.items():
            hf = self._user_hf[userid]
            states = dict(zip(_STATE_FIELDS, hf, strict=True))
            unrun_total, unrun_virtual_s = procs.unrun(vm, now)
            own = self._spaces.get(userid)
            paging = (
                {
                    "page_reads": own.page_reads,
                    "page_writes": own.page_writes,
                    "steals": own.steals,
                    "x_to_ms": own.x_to_ms,
                    "ms_to_x": own.ms_to_x,
                    "x_to_ds": own.x_to_ds,
                    "wss": own.wss,
                    "reserved": own.reserved,
                    "resident": own.resident,
                    "xstor": own.xstor,
                    "dasd": own.dasd + own.moving,
                }
                if own is not None
                else {}
            )
            out.append(
                MRUSEACT(
                    tod=tod,
                    userid=userid,
                    tcpu_us=_us(vm.tcpu_s - unrun_total),
                    vcpu_us=_us(vm.vcpu_s - unrun_virtual_s),
                    vio=vm.vio,
                    vio_dasd=vm.vio_dasd,
                    vio_avoid=vm.vio_avoid,
                    hf_samples=self._user_samples[userid],
                    hf_act=self._user_act[userid],
                    **_classes(self._user_cls[userid]),
                    **paging,
                    **states,
                )
            )
        for vol in m.volumes.values():
            for rdev in vol.exposures:
                hf = self._dev_hf[rdev.addr]
                out.append(
                    MRIODDEV(
                        tod=tod,
                        rdev=rdev.addr,
                        ssch=rdev.ssch,
                        reads=rdev.reads,
                        avoided=rdev.avoided,
                        pend_us=_us(rdev.pend_s),
                        disc_us=_us(rdev.disc_s),
                        conn_us=_us(rdev.conn_s),
                        cuwt_us=0,
                        queue_us=_us(rdev.queue_s),
                        untimed_us=_us(rdev.untimed_s),
                        hf_samples=hf[0],
                        hf_queued=hf[1],
                        hf_busy=hf[2],
                    )
                )
            cache = vol.cache
            if cache is not None and cache.caching:  # caching off: the CU reports nothing
                out.append(
                    MRIODCAD(
                        tod=tod,
                        rdev=vol.base.addr,
                        volser=vol.volser,
                        reads=cache.reads,
                        read_hits=cache.read_hits,
                        writes=cache.writes,
                        dfw_hits=cache.dfw_hits,
                        staged=cache.staged,
                        icl=cache.icl,
                        bypass=cache.bypass,
                    )
                )
        for w in m.workloads:
            app = w.appldata()
            if app is not None:
                name, txns, resp_s = app
                out.append(
                    MRAPLEDT(
                        tod=tod, userid=w.vm.userid, workload=name, txns=txns, resp_us=_us(resp_s)
                    )
                )
        out.extend(cache_status_records(m, tod))
        out.extend(link_records(m, tod))
        out.extend(self._channels.records(tod))
        out.extend(mdc_records(m, tod))
        out.append(MRMTREND(tod=tod, interval=self._interval))
        self._interval += 1


_CLASS_FIELDS = ("cls_q0", "cls_q1", "cls_q2", "cls_q3", "cls_e1", "cls_e2", "cls_e3")


def _classes(counts: list[int]) -> dict[str, int]:
    """Class sample counts (Q0-Q3, E1-E3) as record fields."""
    return dict(zip(_CLASS_FIELDS, counts, strict=True))


def _partition_record(parts: Sequence[PartitionConfig], count: int, tod: int) -> MRSYTCUG:
    """D0 R15: *count* partitions on the CEC, and the one this z/VM runs in."""
    own = [p for p in parts if p.own]
    if not own:
        return MRSYTCUG(tod=tod, partitions=count)
    cpus = sum(p.logical for p in own)
    dedicated = sum(p.logical for p in own if p.dedicated)
    return MRSYTCUG(
        tod=tod,
        partitions=count,
        number=own[0].number,
        cpus=cpus,
        configured=cpus,
        name=own[0].name,
        dedicated=dedicated,
        shared=cpus - dedicated,
    )


def _lpar_record(
    part: PartitionConfig, cpu: int, tod: int, busy: float, ovhd: float, logical: int
) -> Record:
    """One logical PU of *part* (*logical*: the partition's logical PUs of all types)."""
    cpu = part.cpu_addrs[cpu] if part.cpu_addrs else cpu + part.first_cpu
    return MRSYTLPU(
        tod=tod,
        lpu=f"{part.name} {cpu:02X}" if part.logical else f"{part.name} --",
        partition=part.name,
        pu_type=part.pu_type,
        number=part.number,
        cpu=cpu,
        logical=logical,
        weight=part.weight,
        capped=int(part.capped),
        dedicated=int(part.dedicated),
        own=int(part.own),
        dispatched_us=_us(busy),
        overhead_us=_us(ovhd),
        upid=part.upid,
        wait_completion=int(part.wait_completion),
    )


def _lock_record(lock: SpinLock | FrameLock, tod: int) -> MRSYTLCK:
    """A CP spin lock's counters (D0 R23)."""
    return MRSYTLCK(
        tod=tod,
        lock=lock.name,
        requests=lock.requests,
        collisions=lock.collisions,
        wait_us=_us(lock.wait_s),
        spin_us=_us(lock.spin_s),
        diag44=lock.diag44,
        diag9c=lock.diag9c,
        sense=lock.sense,
        preempted=lock.preempted,
    )


def _subchannels(rdevs: Iterable[str]) -> dict[str, int]:
    """Subchannel numbers as the channel subsystem hands them out: in device-number order."""
    return {rdev: i for i, rdev in enumerate(sorted(rdevs, key=lambda a: int(a, 16)))}


def records_of(data: MonitorData, cls: type[Record]) -> list[Record]:
    """The records of one type, in order."""
    return [r for r in data.records if type(r) is cls]
