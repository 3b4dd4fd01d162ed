"""An interactive CMS user of the 1990s: short idles, coffee breaks, paging back in.

A person at a 3270 types a command, reads the answer, types the next: most
idles between (and within) transactions last seconds; now and then they go
for coffee or a meeting and the idle lasts minutes. Either way CMS goes
dormant and CP drops the user from the dispatch list, so its pages are fair
game for the demand scan while it is away.

Each transaction:

1. wakes and is added to the dispatch list;
2. needs its working set (``wss_mb``: the CMS nucleus pages it uses, its
   EXECs, its file directory) resident again: pages still in central storage
   cost nothing, pages in XSTORE come back synchronously (CP time), pages on
   DASD come back a block at a time (VM/ESA's block paging: the pages stolen
   from a dormant user were written together), the user waiting in page wait;
3. touches ``touches`` other pages of its virtual storage, uses ``cpu_ms`` of
   processor time, and reads ``ios`` blocks from the shared minidisk (the
   system disks and the users' busy files: through the minidisk cache when
   there is one);
4. reports the transaction (APPLDATA), then idles: a long idle with
   probability ``long_share`` (mean ``long_think_s``), else a short one
   (mean ``think_s``).

At the start each user is idle, in a long idle with the share of time long
idles take, with an exponential residue, so the mix of users at their
terminals and away is in its steady state from the first second.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from ..cp.spaces import ColdRun
from ..cp.vmdbk import Vmdbk
from ..errors import ZvmsimError
from .base import Workload
from .cms import _hot_tracks, _warm
from .linux import PAGES_PER_MB, _space

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["CmsInteractive"]


class CmsInteractive(Workload):
    """A CMS user at a terminal: commands between short idles and coffee breaks."""

    APPLDATA = True
    PARAMS = {
        "virtual_mb": 2.0,
        "wss_mb": 1.0,  # pages every transaction needs resident (its working set)
        "touches": 2,  # touches of other pages of its storage per transaction
        "cpu_ms": 40.0,  # processor time per transaction (mean)
        "think_s": 10.0,  # mean short idle (reading the screen, typing)
        "long_share": 0.15,  # share of idles that are long ones (coffee)
        "long_think_s": 180.0,  # mean long idle
        "minidisk": "",  # the shared minidisk its reads go to ("" = none)
        "ios": 4,  # reads per transaction
        "blocks_per_io": 1,
        "hot_mb": 0.0,  # the minidisk's busy data (0: reads anywhere on it)
        "hot_share": 0.9,
        "name": "CMSINT",
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        p = self.p
        if not 0 < p["wss_mb"] <= p["virtual_mb"]:
            raise ZvmsimError(f"user {self.vm.userid}: needs 0 < wss_mb <= virtual_mb")
        if p["cpu_ms"] <= 0 or p["touches"] < 0 or p["ios"] < 0 or p["blocks_per_io"] < 1:
            raise ZvmsimError(
                f"user {self.vm.userid}: cpu_ms > 0, touches >= 0, ios >= 0, blocks_per_io >= 1"
            )
        if p["think_s"] <= 0 or p["long_think_s"] <= 0 or not 0 <= p["long_share"] <= 1:
            raise ZvmsimError(
                f"user {self.vm.userid}: think times must be positive, long_share 0..1"
            )
        if self.machine.storage is None:
            raise ZvmsimError(f"user {self.vm.userid}: cms_interactive needs a [storage] section")
        self.space = _space(self, p["virtual_mb"], detailed=False)
        self.space.wss = self.space.hot = int(p["wss_mb"] * PAGES_PER_MB)
        self.disk = self.minidisk(p["minidisk"]) if p["minidisk"] else None
        self.hot: list[int] = []
        if self.disk is not None:
            disk, nbytes = self.disk, p["hot_mb"] * 2**20
            self.hot = self.machine.shared_layout(
                f"hot:{disk.name}:{nbytes:g}", lambda rnd: _hot_tracks(disk, nbytes, rnd)
            )
            if self.hot and disk.mdc is not None:  # in use for hours: MDC holds what fits
                self.machine.shared_layout(
                    f"mdc-warm:{disk.name}:{nbytes:g}", lambda _: _warm(disk, self.hot)
                )
        self.txns = 0
        self.resp_s = 0.0

    @property
    def links(self) -> list[str]:
        return [self.disk.name] if self.disk is not None else []

    def appldata(self) -> tuple[str, int, float] | None:
        return self.p["name"], self.txns, self.resp_s

    def prepare(self) -> None:
        """The user has used all its storage since it logged on; CP has taken what is
        outside its working set (a user away on a coffee break loses the rest to the
        demand scan as the run warms up, if storage is short)."""
        storage, space, p = self.machine.storage, self.space, self.p
        assert storage is not None
        in_long = p["long_share"] * p["long_think_s"]
        away = self.rnd.random() * (in_long + (1 - p["long_share"]) * p["think_s"]) < in_long
        self._first_idle_s = p["long_think_s"] if away else p["think_s"]
        storage.first_touch_counted(space, space.pages)
        storage.steal(space, space.resident - space.wss, False)

    def _idle_s(self) -> float:
        """One idle: a coffee break now and then, else a short pause."""
        p, rnd = self.p, self.rnd
        mean = p["long_think_s"] if rnd.random() < p["long_share"] else p["think_s"]
        return rnd.expovariate(1.0 / mean)

    def _page_in(self) -> Generator[Any, Any, Any]:
        """Bring the working set back: new pages, then XSTORE, then DASD by blocks."""
        storage, space, vm = self.machine.storage, self.space, self.vm
        assert storage is not None
        wss = space.wss
        if space.resident < wss:  # its own pages: CP took them while it was away
            storage.xstore_in_counted(vm, space, min(wss - space.resident, space.xstor))
            block = storage.block_of(space)
            while space.resident < wss and space.dasd:
                yield from storage.read_counted(vm, space, block)
            storage.first_touch_counted(space, min(wss - space.resident, space.untouched))
        space.referenced = min(space.resident, max(space.referenced, wss))

    def _read(self) -> Generator[Any, Any, Any]:
        """One read of the shared minidisk: mostly its busy tracks."""
        disk, rnd, count = self.disk, self.rnd, self.p["blocks_per_io"]
        assert disk is not None
        bpt = disk.blocks_per_track
        if self.hot and rnd.random() < self.p["hot_share"]:
            block = self.hot[rnd.randrange(len(self.hot))] * bpt
            block += rnd.randrange(max(1, bpt - count + 1))
        else:
            block = rnd.randrange(disk.blocks)
        yield from disk.io(self.vm, block, count, False)

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd, p = self.machine, self.vm, self.rnd, self.p
        storage, cpu, space = m.storage, m.processors, self.space
        assert storage is not None
        yield m.env.timeout(rnd.expovariate(1.0 / self._first_idle_s))
        m.add_to_dispatch_list(vm)
        slice_s = cpu.slice_s
        while True:
            start = m.env.now
            yield from self._page_in()
            touches = p["touches"]
            work = p["cpu_ms"] / 1000.0 * (0.5 + rnd.random())
            per_touch = work / (touches + 1)
            run = ColdRun(None, 0.0, per_touch, slice_s)
            busy = yield from self.cold_touches(space, run, touches, per_touch)
            yield cpu.run(vm, busy, 0.0)
            for _ in range(p["ios"] if self.disk is not None else 0):
                yield from self._read()
            self.txns += 1
            self.resp_s += m.env.now - start
            yield from self.wait(self._idle_s(), True)
