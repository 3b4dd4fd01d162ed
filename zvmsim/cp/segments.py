"""Saved segments (NSS and DCSS): shared pages in storage, SET RESERVED for them.

A saved segment (a DCSS such as MONDCSS, or an NSS such as CMS) is one
address space CP owns and its users share. Its pages are loaded when the
first user attaches it and are then paged like anyone's: the demand scan
visits the segment as it visits a user. Its users touch its pages at a rate
(for MONDCSS: CP writing monitor records into it and MONWRITE reading them),
and a touch of a page that was taken away is a page fault that waits for
the read.

z/VM 6.3 lets SET RESERVED name an NSS or DCSS: the demand scan then leaves
that many of its pages alone, so a reserved segment stays resident while
the storage manager takes from everyone else. The segment's reserved pages
count against the SYSMAX with the users'. Before 6.3 SET RESERVED names
users only.
"""

from __future__ import annotations

import random
from collections.abc import Generator

from .spaces import Space
from .storage import Storage
from .vmdbk import Vmdbk

__all__ = ["SavedSegment"]

TICK_S = 0.5  # how often the users' touches of the segment are played out


class SavedSegment:
    """One NSS or DCSS loaded in storage, and its users' touches of it."""

    def __init__(
        self,
        name: str,
        kind: str,
        pages: int,
        users: int,
        touches_per_s: float,
        write_pct: float,
        storage: Storage,
        rnd: random.Random,
    ) -> None:
        self.name = name
        self.kind = kind  # "NSS" or "DCSS"
        self.users = users
        self.touches_per_s = touches_per_s
        self.write_pct = write_pct
        self.storage = storage
        self.rnd = rnd
        self.vm = Vmdbk(name)  # who waits on the segment's page faults
        self.space = storage.add(Space(name, "SYSTEM", kind.lower(), pages, rnd))

    def load(self) -> None:
        """The first user attaches the segment: all its pages come into storage."""
        self.storage.first_touch_counted(self.space, self.space.untouched)

    def run(self) -> Generator:
        """The users' touches, played out every ``TICK_S`` seconds."""
        env = self.storage.env
        owed = 0.0
        while True:
            yield env.timeout(TICK_S)
            owed += self.touches_per_s * TICK_S
            n, owed = int(owed), owed - int(owed)
            for _ in range(n):
                write = self.rnd.random() * 100.0 < self.write_pct
                step = self.storage.touch_cold(self.vm, self.space, write)
                if step is not None:
                    yield from step
