"""A database server in a z/OS partition, answering requests from the network.

Each request costs some standard-CP time and some zIIP time (DRDA work that
arrives over TCP/IP is largely zIIP-eligible; a partition without zIIPs runs
it on its CPs). Both are drawn at random about their means. The server has
threads to spare, so requests do not queue inside it; but it runs only as
fast as PR/SM lets its partition run: when the partition's pool is
oversubscribed, a CPU second takes 1 / *speed* seconds of real time, *speed*
being the share of what the partition wants that PR/SM grants it
(:meth:`~zvmsim.hardware.pools.OtherPools.speed`). What it uses is added to
its partition's demand, so PR/SM sees it.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass

import simpy

from ..hardware.pools import OtherPools

__all__ = ["DbServer", "DbServerConfig"]


@dataclass(frozen=True)
class DbServerConfig:
    """A server: the partition it runs in, its CP and zIIP time per request (ms)."""

    name: str
    partition: str
    cp_ms: float
    ziip_ms: float = 0.0


class DbServer:
    """One database server and the requests it has answered."""

    def __init__(
        self,
        env: simpy.Environment,
        config: DbServerConfig,
        pools: OtherPools,
        has_ziips: bool,
        rnd: random.Random,
    ) -> None:
        self.env = env
        self.config = config
        self.partition = config.partition
        self.pools = pools
        self.cp_key = pools.attach_server(config.partition, "CP")
        self.ziip_key = pools.attach_server(config.partition, "ZIIP") if has_ziips else None
        self.rnd = rnd
        self.requests = 0
        self.cpu_s = 0.0  # CP and zIIP time used

    def serve(self) -> Generator:
        """Answer one request (a process step: ``yield from server.serve()``)."""
        cfg, rnd = self.config, self.rnd
        cp_s = rnd.expovariate(1000.0 / cfg.cp_ms) if cfg.cp_ms > 0 else 0.0
        ziip_s = rnd.expovariate(1000.0 / cfg.ziip_ms) if cfg.ziip_ms > 0 else 0.0
        if self.ziip_key is None:  # no zIIPs: the eligible work runs on the CPs
            cp_s, ziip_s = cp_s + ziip_s, 0.0
        yield from self._run(self.cp_key, cp_s)
        if ziip_s > 0 and self.ziip_key is not None:
            yield from self._run(self.ziip_key, ziip_s)
        self.requests += 1

    def use_cp(self, seconds: float) -> None:
        """CP time the partition spent for the server outside a request (sending a reply)."""
        self.pools.use(self.cp_key, seconds)
        self.cpu_s += seconds

    def _run(self, key: str, seconds: float) -> Generator:
        if seconds <= 0:
            return
        self.pools.use(key, seconds)
        self.cpu_s += seconds
        yield self.env.timeout(seconds / self.pools.speed(key))
