"""A user who formats VDISKs: defines one, formats it, uses it a while, detaches it.

A VDISK is an FBA disk that CP emulates in a pageable address space, so an
I/O to it is not a real I/O at all: CP moves the blocks into the VDISK's
pages itself, on the user's behalf. Formatting writes every block once, and
every page it reaches for the first time takes a real frame. So the guest's
own (virtual) time per I/O is tiny, CP's time per I/O is large — T/V far
above 10 — and the new frames keep the demand scan stealing, which pushes
older VDISK pages to XSTORE and on to paging DASD.

To keep the event count small, ``ios_per_step`` format I/Os are simulated as
one step: one processor burst for their virtual and CP time, then their
pages touched in one go. After formatting, the user reads its VDISK now and
then for ``use_s`` seconds (a page that was stolen comes back from XSTORE or
DASD), then detaches it, which frees its frames, XSTORE pages and slots.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from ..cp.spaces import Space
from ..cp.vdisk import PAGE_BLOCKS, vdisk_io_cp_s
from ..cp.vmdbk import TIW, Vmdbk
from ..errors import ZvmsimError
from .base import Workload
from .linux import poisson
from .linux_app import _vdisk

if TYPE_CHECKING:
    from ..machine import Machine

__all__ = ["VdiskFormatter"]


class VdiskFormatter(Workload):
    """Formats VDISKs over and over (the paging-difficulties customer's application)."""

    PARAMS = {
        "vdisk_mb": 32.0,
        "blocks_per_io": 64,  # FBA blocks (512 bytes) one format I/O writes
        "ios_per_step": 16,  # format I/Os simulated as one step
        "step_gap_s": 0.6,  # mean time between steps (the application's other waits)
        "virtual_us_per_io": 4.0,  # the guest's own instructions per format I/O
        "use_s": 20.0,  # how long a formatted VDISK is used before it is detached
        "reads_per_s": 2.0,  # VDISK pages read while it is used
        "vaddr": "0300",
    }

    def __init__(
        self, machine: Machine, vm: Vmdbk, params: dict[str, Any], rnd: random.Random
    ) -> None:
        super().__init__(machine, vm, params, rnd)
        p = self.p
        if p["vdisk_mb"] <= 0 or p["step_gap_s"] <= 0 or p["use_s"] < 0:
            raise ZvmsimError(f"user {self.vm.userid}: VDISK size and times must be positive")
        if p["blocks_per_io"] < PAGE_BLOCKS or p["ios_per_step"] < 1:
            raise ZvmsimError(
                f"user {self.vm.userid}: blocks_per_io must be {PAGE_BLOCKS} or more "
                "and ios_per_step at least 1"
            )
        self.vdisk: Space = _vdisk(self, p["vaddr"], p["vdisk_mb"])
        self.pages_per_io = p["blocks_per_io"] // PAGE_BLOCKS
        cal = self.machine.config.calibration.path_us
        self._write_cp_s = vdisk_io_cp_s(cal, p["blocks_per_io"])  # a format I/O
        self._read_cp_s = vdisk_io_cp_s(cal, PAGE_BLOCKS)  # a read of the formatted VDISK
        self.formatted = 0  # pages of the current VDISK formatted so far
        self.used_for = 0.0  # seconds the formatted VDISK has been in use
        self.vdisks = 0  # VDISKs formatted and detached

    def _step_pages(self) -> int:
        return self.p["ios_per_step"] * self.pages_per_io

    def prepare(self) -> None:
        """Each user is somewhere in its cycle when the window opens."""
        cycle = self._format_s() + self.p["use_s"]
        self._history_left = self.rnd.uniform(0.0, cycle)

    def _format_s(self) -> float:
        return self.vdisk.pages / self._step_pages() * self.p["step_gap_s"]

    def history(self, seconds: float) -> None:
        """Replay formatting (and detaching) in storage only, up to the user's start point."""
        storage = self.machine.storage
        left = min(seconds, self._history_left)
        self._history_left -= left
        rate = self._step_pages() / self.p["step_gap_s"]
        while left > 1e-9:
            space = self.vdisk
            if self.formatted < space.pages:
                n = min(space.pages - self.formatted, max(1, round(rate * left)))
                storage.first_touch_counted(space, n)  # type: ignore[union-attr]
                self.formatted += n
                left -= n / rate
            else:
                spend = min(left, self.p["use_s"] - self.used_for)
                self.used_for += spend
                left -= spend
                if self.used_for >= self.p["use_s"] - 1e-9:
                    self._detach()

    def _detach(self) -> None:
        self.machine.storage.release_counted(self.vdisk)  # type: ignore[union-attr]
        self.formatted = 0
        self.used_for = 0.0
        self.vdisks += 1

    def run(self) -> Generator[Any, Any, Any]:
        m, vm, rnd, p = self.machine, self.vm, self.rnd, self.p
        env, cpu, storage = m.env, m.processors, m.storage
        m.add_to_dispatch_list(vm)
        ios, per_io = p["ios_per_step"], self.pages_per_io
        virtual = ios * p["virtual_us_per_io"] / 1e6
        cp = ios * self._write_cp_s
        read_cp = self._read_cp_s
        space = self.vdisk
        gap_s = p["step_gap_s"]
        step_rate = 1.0 / gap_s
        reads_mean = p["reads_per_s"] * gap_s
        read_s = p["virtual_us_per_io"] / 1e6  # the guest's own time per read
        while True:
            vm.state = TIW
            yield env.timeout(rnd.expovariate(step_rate))
            if self.formatted < space.pages:
                n = min(space.pages - self.formatted, ios * per_io)
                done = -(-n // per_io)
                vm.vio += done
                yield cpu.run(vm, virtual * done / ios, cp * done / ios)
                storage.first_touch_counted(space, n)  # type: ignore[union-attr]
                self.formatted += n
                continue
            # the formatted VDISK in use: a few reads, then detach
            reads = poisson(rnd, reads_mean)
            left = reads
            while left:  # each a virtual I/O and a touch of a written page
                done, step = storage.read_written_run(vm, space, left, read_cp)  # type: ignore[union-attr]
                left -= done
                if step is not None:
                    yield from step
            yield cpu.run(vm, read_s * max(1, reads), 0.0)
            self.used_for += gap_s
            if self.used_for >= p["use_s"]:
                self._detach()
