"""CMS workloads: a COPYFILE loop, and a light interactive user.

**COPYFILE loop.** The user copies every file of a shared read-only minidisk
to its own read-write minidisk, over and over. The shared disk holds files of
varied size laid out one after another (the layout comes from the run's seed
and is the same for every user); COPYFILE reads each file in chunks of
``blocks_per_io`` 4 KB blocks and writes each chunk out before reading the
next. Each user starts at a different file. Every virtual I/O costs a little
guest CPU (``vcpu_us``) plus CP's simulation of the I/O.

**Light user.** Thinks (dormant, off the dispatch list), wakes, does one small
virtual I/O to its own minidisk, and thinks again.

**Query user.** A closed loop of transactions against one or more (usually
shared) minidisks: think, wake, a little CPU, then ``ios`` virtual I/Os one
after the other, each ``blocks_per_io`` blocks to one of the minidisks at
random; most fall on the minidisk's hot tracks (indexes, the busy tables and
files: scattered over it, as data written over the years is), the rest
anywhere on it. Files written and extended over the years are not laid out
block after block: with ``scatter`` the chance that the next block of an
I/O lies elsewhere on the cylinder, an I/O's blocks fall in several runs. A
cache hides that; a drive waits for each run to come round. Because the
user waits for each I/O before the next and thinks only after the last, a
slower disk stretches every transaction and the user issues fewer I/Os per
second: the I/O rate falls by itself when response time rises. The user
reports its transactions and their response times (APPLDATA). A server
(``async_io``, the SFS file pool server) starts each I/O asynchronously and
waits for it in an enabled wait: CP samples it I/O active (%IOA), not in I/O
wait (%IOW).

**Requests to a server.** A query user whose files live in a file pool
(``server``: the SFS server's userid) asks the server for them at the start
of each query and waits for its reply in an enabled wait. CP classes that
wait as a wait for a service virtual machine (SVM wait): while the user is
still in the dispatch list (test idle) the sampler files it *SVM and test
idle* (USTAT's %TI); past the test-idle time CP drops it, dormant until the
reply comes, which the sampler files *SVM and dormant* (%DM). A user dropped
at its terminal waits for no service machine: CP counts it dormant apart
(HFDORM), which USTAT has no column for (zvmsim shows it in %OTH). The
server (``serves``) has an agent answer each request with
``request_ios`` block I/Os of its own (started asynchronously: I/O active),
beside the work it does for everyone else (its own closed loop of ``ios``
I/Os, ``think_s`` apart); idle, it sits out the test-idle time in the
dispatch list and goes dormant until a request or its next work.

**At the terminal.** A query user that waits for its person between queries
(``terminal``) sits in a console read: it is idle, not in an enabled wait
CP expects to end soon, and CP drops it from the dispatch list at once, as
it does the interactive users of :mod:`.cmsint`; a user whose program waits
(the default) sits out CP's test-idle time in the dispatch list first.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import simpy

from ..cp.minidisk import BLOCK_BYTES, Minidisk
from ..cp.vmdbk import DM, TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["CmsCopyfile", "CmsLight", "CmsQuery", "file_layout", "hot_layout", "query_place"]


def file_layout(blocks: int, mean_blocks: float, fill: float, rnd: Any) -> list[tuple[int, int]]:
    """Files as (first block, size in blocks), packed from block 0 to *fill* of the disk."""
    files, at, limit = [], 0, int(blocks * fill)
    while True:
        size = 1 + int(rnd.expovariate(1.0 / max(mean_blocks - 1.0, 1e-9)))
        if at + size > limit:
            break
        files.append((at, size))
        at += size
    return files or [(0, max(1, min(blocks, limit)))]


class CmsCopyfile(Workload):
    """COPYFILE from a shared read-only minidisk to a private one, in a loop."""

    PARAMS = {
        "source": "",
        "target": "",
        "blocks_per_io": 8,
        "vcpu_us": 8.8,
        "file_blocks": 24.0,
        "fill": 0.9,
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        # typed, so that the compiled run calls their methods directly
        self.source: Minidisk = self.minidisk(self.p["source"])
        self.target: Minidisk = self.minidisk(self.p["target"])
        if self.p["blocks_per_io"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: blocks_per_io must be at least 1")
        self.files = self.machine.shared_layout(
            self.p["source"],
            lambda rnd: file_layout(self.source.blocks, self.p["file_blocks"], self.p["fill"], rnd),
        )

    @property
    def links(self) -> list[str]:
        return [self.source.name, self.target.name]

    def run(self) -> Generator[Any, Any, Any]:
        vm = self.vm
        procs = self.machine.processors
        source, target = self.source, self.target
        dst_blocks = target.blocks
        vcpu_s: float = self.p["vcpu_us"] / 1e6
        chunk: int = self.p["blocks_per_io"]
        files: list[tuple[int, int]] = self.files
        index = self.rnd.randrange(len(files))
        out_block: int = self.rnd.randrange(dst_blocks)
        while True:
            first, size = files[index]
            offset = 0
            while offset < size:
                count = min(chunk, size - offset)
                yield procs.run(vm, vcpu_s, 0.0)
                yield from source.io(vm, first + offset, count, False)
                yield procs.run(vm, vcpu_s, 0.0)
                yield from target.io(vm, out_block, count, True)
                out_block = (out_block + count) % dst_blocks
                offset += count
            index = (index + 1) % len(files)


class CmsLight(Workload):
    """An occasional CMS user: think, one small I/O, think again."""

    PARAMS = {"minidisk": "", "think_s": 3.0, "vcpu_us": 200.0, "write_share": 0.3}

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        self.disk = self.minidisk(self.p["minidisk"])

    @property
    def links(self) -> list[str]:
        return [self.disk.name]

    def run(self) -> Generator[Any, Any, Any]:
        vm, m, rnd = self.vm, self.machine, self.rnd
        env = m.env
        think = self.p["think_s"]
        vcpu_s = self.p["vcpu_us"] / 1e6
        yield env.timeout(rnd.uniform(0.0, think))
        while True:
            m.add_to_dispatch_list(vm)
            yield m.processors.run(vm, vcpu_s, 0.0)
            block = rnd.randrange(self.disk.blocks)
            yield from self.disk.io(vm, block, 1, write=rnd.random() < self.p["write_share"])
            m.drop_from_dispatch_list(vm)
            yield env.timeout(rnd.expovariate(1.0 / think))


def _hot_tracks(disk: Any, nbytes: float, rnd: Any) -> list[int]:
    """Tracks of *disk* (relative) holding *nbytes*, scattered over it: its busy data."""
    tracks = disk.blocks // disk.blocks_per_track
    count = min(tracks, int(nbytes // (BLOCK_BYTES * disk.blocks_per_track)))
    return sorted(rnd.sample(range(tracks), count)) if count else []


def query_place(
    places: list[tuple[Any, list[int]]], count: int, hot_share: float, scatter: float, rnd: Any
) -> tuple[Any, int, int]:
    """Where a query's next I/O of *count* blocks goes: (minidisk, first block, runs).

    *places* pairs each minidisk with its hot tracks (relative).
    """
    disk, hot = places[rnd.randrange(len(places))]
    bpt = disk.blocks_per_track
    if hot and rnd.random() < hot_share:  # a hot track, the blocks within it
        within = rnd.randrange(max(1, bpt - count + 1))
        block = hot[rnd.randrange(len(hot))] * bpt + within
    else:
        block = rnd.randrange(disk.blocks)
    runs = 1
    if scatter:
        runs += sum(rnd.random() < scatter for _ in range(count - 1))
    return disk, block, runs


def hot_layout(machine: Any, disk: Any, hot_mb: float) -> list[int]:
    """The hot tracks (relative) of *disk*: laid out once per run, the same for every user."""
    hot_bytes = hot_mb * 2**20
    return machine.shared_layout(
        f"hot:{disk.name}:{hot_bytes:g}", lambda rnd, d=disk: _hot_tracks(d, hot_bytes, rnd)
    )


def _warm(disk: Any, tracks: list[int]) -> bool:
    """Put a minidisk's hot tracks (relative) in the minidisk cache before the run."""
    bpt = disk.blocks_per_track
    for track in tracks:
        disk.mdc.touch(disk.mdc_keys(track * bpt, bpt))
    return True


class CmsQuery(Workload):
    """Transactions of several dependent I/Os against minidisks, with think time between."""

    APPLDATA = True
    PARAMS = {
        "minidisks": "",  # one or more, comma-separated: each I/O picks one at random
        "think_s": 1.0,
        "ios": 4,
        "blocks_per_io": 4,
        "vcpu_us": 1500.0,
        "write_share": 0.01,
        "hot_mb": 0.0,  # per minidisk: its busy tracks, scattered over it (0: uniform I/O)
        "hot_share": 0.99,
        "scatter": 0.0,  # chance the next block of an I/O lies elsewhere on the cylinder
        "name": "QUERY",
        # a server that starts its block I/O asynchronously and waits for it in an
        # enabled wait (I/O active) rather than in CP's synchronous I/O wait
        "async_io": False,
        "server": "",  # userid of a server (SFS) each query asks first, waiting for its reply
        "serves": False,  # a server: it also answers the requests of users naming it
        "request_ios": 1,  # a server's block I/Os for one request
        "server_share": 1.0,  # the share of queries that ask the server
        # between queries the user waits at its terminal (a console read): CP drops
        # it at once, as an interactive user (cmsint), instead of keeping it in test idle
        "terminal": False,
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        self.disks = [self.minidisk(n.strip()) for n in self.p["minidisks"].split(",")]
        if self.p["ios"] < 1 or self.p["blocks_per_io"] < 1:
            raise ZvmsimError(f"user {self.vm.userid}: ios and blocks_per_io must be at least 1")
        if not 0.0 <= self.p["scatter"] <= 1.0:
            raise ZvmsimError(f"user {self.vm.userid}: scatter must be between 0 and 1")
        if self.p["request_ios"] < 0:
            raise ZvmsimError(f"user {self.vm.userid}: request_ios must not be negative")
        if not 0.0 <= self.p["server_share"] <= 1.0:
            raise ZvmsimError(f"user {self.vm.userid}: server_share must be between 0 and 1")
        self.txns = 0
        self.resp_s = 0.0
        env = self.machine.env
        self.requests: simpy.Store | None = simpy.Store(env) if self.p["serves"] else None
        self.serving = 0  # a server's agents at work on requests
        self.idle = False  # a server between two pieces of its own work
        self.quiet = 0  # a server's count of the moments its work ended or began
        hot_bytes = self.p["hot_mb"] * 2**20
        self.hot = [hot_layout(self.machine, disk, self.p["hot_mb"]) for disk in self.disks]
        for disk, tracks in zip(self.disks, self.hot, strict=True):
            cache = disk.volume.cache
            if tracks and cache is not None and cache.caching:
                # the hot tracks have been in use for hours: the control unit holds them
                cache.warm([disk.first_track + t for t in tracks])
            if tracks and disk.mdc is not None:  # ... and so does the minidisk cache
                self.machine.shared_layout(
                    f"mdc-warm:{disk.name}:{hot_bytes:g}",
                    lambda _, d=disk, t=tracks: _warm(d, t),  # type: ignore[misc]
                )

    @property
    def links(self) -> list[str]:
        return [disk.name for disk in self.disks]

    def appldata(self) -> tuple[str, int, float] | None:
        return self.p["name"], self.txns, self.resp_s

    def _server_of(self) -> CmsQuery | None:
        """The server this user's queries ask first (None: none)."""
        name = self.p["server"]
        if not name:
            return None
        for w in self.machine.workloads:
            if w.vm.userid == name and isinstance(w, CmsQuery) and w.requests is not None:
                return w
        raise ZvmsimError(f"user {self.vm.userid}: server '{name}' is no serving cms_query guest")

    def _io(self, places: list, count: int, writes: float) -> Generator[Any, Any, Any]:
        """One block I/O: the user waits for it, or (``async_io``) idles with it in flight."""
        vm, rnd = self.vm, self.rnd
        disk, block, runs = query_place(places, count, self.p["hot_share"], self.p["scatter"], rnd)
        write = rnd.random() < writes
        if self.p["async_io"]:
            vm.state = TIW
            yield from self.async_io(disk, block, count, write, runs)
        else:
            yield from disk.io(vm, block, count, write, runs)

    def _ask(self, server: CmsQuery) -> Generator[Any, Any, Any]:
        """Send *server* a request and wait for its reply: CP's SVM wait, *SVM and*
        test idle while the user stays in the dispatch list (%TI), *SVM and*
        dormant past it (%DM)."""
        m, vm = self.machine, self.vm
        reply = m.env.event()
        assert server.requests is not None
        server.requests.put(reply)
        vm.state = TIW
        vm.svm_wait = True
        if not reply.triggered:
            yield reply | m.env.timeout(m.config.calibration.test_idle_s)
        if not reply.triggered:
            m.drop_from_dispatch_list(vm)
            yield reply
            m.add_to_dispatch_list(vm)
        vm.svm_wait = False

    def run(self) -> Generator[Any, Any, Any]:
        if self.requests is not None:
            yield from self._serve()
            return
        vm, m, rnd = self.vm, self.machine, self.rnd
        env = m.env
        think, ios, count = self.p["think_s"], self.p["ios"], self.p["blocks_per_io"]
        vcpu_s = self.p["vcpu_us"] / 1e6
        places = list(zip(self.disks, self.hot, strict=True))
        server = self._server_of()
        yield env.timeout(rnd.uniform(0.0, think))
        while True:
            start = env.now
            m.add_to_dispatch_list(vm)
            yield m.processors.run(vm, vcpu_s, 0.0)
            if server is not None and rnd.random() < self.p["server_share"]:
                yield from self._ask(server)
            for _ in range(ios):
                yield from self._io(places, count, self.p["write_share"])
            self.txns += 1
            self.resp_s += env.now - start
            if self.p["terminal"]:  # back at its terminal: a console read, dormant at once
                m.drop_from_dispatch_list(vm)
                yield env.timeout(rnd.expovariate(1.0 / think))
            else:
                yield from self.test_idle(rnd.expovariate(1.0 / think))

    def _serve(self) -> Generator[Any, Any, Any]:
        """A server: its own work ``think_s`` apart; its agents answer the requests of
        its users meanwhile (:meth:`_agent`)."""
        vm, m, rnd = self.vm, self.machine, self.rnd
        env, box = m.env, self.requests
        assert box is not None
        env.process(self._agents(box))
        think, ios, count = self.p["think_s"], self.p["ios"], self.p["blocks_per_io"]
        vcpu_s = self.p["vcpu_us"] / 1e6
        places = list(zip(self.disks, self.hot, strict=True))
        yield env.timeout(rnd.uniform(0.0, think))
        while True:
            start = env.now
            m.add_to_dispatch_list(vm)
            yield m.processors.run(vm, vcpu_s, 0.0)
            for _ in range(ios):
                yield from self._io(places, count, self.p["write_share"])
            self.txns += 1
            self.resp_s += env.now - start
            yield from self._idle(rnd.expovariate(1.0 / think))

    def _idle(self, seconds: float) -> Generator[Any, Any, Any]:
        """A server's idle time: test idle, then dormant (once its agents are done too)."""
        self.idle = True
        self.machine.env.process(self._test_idle())
        yield self.machine.env.timeout(seconds)
        self.idle = False

    def _test_idle(self) -> Generator[Any, Any, Any]:
        """Nothing to do: CP keeps the server in the dispatch list for the test-idle
        time, then drops it, unless work came meanwhile."""
        m, vm = self.machine, self.vm
        self.quiet += 1
        mark = self.quiet
        vm.state = TIW
        yield m.env.timeout(m.config.calibration.test_idle_s)
        if self.idle and not self.serving and self.quiet == mark:
            m.drop_from_dispatch_list(vm)

    def _agents(self, box: simpy.Store) -> Generator[Any, Any, Any]:
        """Take each request off the queue and start an agent on it."""
        while True:
            reply = yield box.get()
            self.machine.env.process(self._agent(reply))

    def _agent(self, reply: simpy.Event) -> Generator[Any, Any, Any]:
        """One request: ``request_ios`` block I/Os, started asynchronously (the server
        idles with them in flight, I/O active), then the reply."""
        m, vm = self.machine, self.vm
        if vm.state == DM:
            m.add_to_dispatch_list(vm)
            vm.state = TIW
        self.serving += 1
        self.quiet += 1  # no drop while the agent works
        places = list(zip(self.disks, self.hot, strict=True))
        for _ in range(self.p["request_ios"]):
            disk, block, runs = query_place(
                places, self.p["blocks_per_io"], self.p["hot_share"], self.p["scatter"], self.rnd
            )
            yield from self.async_io(disk, block, self.p["blocks_per_io"], False, runs)
        self.serving -= 1
        reply.succeed()
        if self.idle and not self.serving:
            m.env.process(self._test_idle())
