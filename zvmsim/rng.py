"""Common random numbers: one seed, independent named streams per subsystem.

Each subsystem (workload arrivals, CPU demand, page references, I/O service,
data layout) draws from its own stream, derived from the run's seed and the
stream's *name* rather than from creation order. Turning a DASD knob therefore
never reshuffles the CPU stream, and an A/B comparison isolates the change.

Python's :class:`random.Random` is used for the draws themselves: it is fast
per call, and its sequence for a given seed is the same on every platform.
"""

from __future__ import annotations

import random
import zlib
from functools import lru_cache

import numpy as np

__all__ = ["Streams"]


class Streams:
    """Factory of independent, reproducible random streams for one run."""

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)

    def stream(self, name: str) -> random.Random:
        """Return the stream called *name*; the same name always gives the same draws."""
        return random.Random(_stream_seed(self.seed, name))


@lru_cache(maxsize=65536)
def _stream_seed(seed: int, name: str) -> int:
    """The seed of stream *name* of a run seeded *seed* (kept: a dashboard's next run
    makes the same streams, and deriving a seed costs more than drawing from it)."""
    key = zlib.crc32(name.encode("utf-8"))
    seq = np.random.SeedSequence(entropy=seed, spawn_key=(key,))
    state = seq.generate_state(4, dtype=np.uint32)
    return int.from_bytes(state.tobytes(), "little")
