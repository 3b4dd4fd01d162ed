"""Calibration constants (device speeds, CP path lengths) read from ``data/calibration``.

Each constant in those files carries its source. Nothing in the engine
hard-codes a speed: it asks the :class:`Calibration` it was built with.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from .errors import ZvmsimError
from .paths import data_dir

__all__ = ["Calibration", "ChannelSpeed", "ControlUnitTiming", "load_calibration"]


@dataclass(frozen=True)
class ChannelSpeed:
    """Data rate and concurrency of one channel type (ESCON, FICON)."""

    data_rate_mb_s: float
    concurrent_io: int


@dataclass(frozen=True)
class ControlUnitTiming:
    """Per-I/O timing components of a cached control unit."""

    pend_ms: float
    disc_ms: float
    conn_overhead_ms: float
    transfer_mb_s: float
    jitter: float


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
    block_pages_max: int
    read_pages_max: int
    prsm_overhead: float = 0.0  # PR/SM time per second a logical PU is dispatched


def _read(name: str) -> dict:
    path = data_dir() / "calibration" / name
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ZvmsimError(f"calibration file missing: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ZvmsimError(f"calibration file {path.name} is not valid TOML: {exc}") from None


@cache
def load_calibration() -> Calibration:
    """Read and check ``data/calibration/*.toml`` (cached for the process)."""
    dasd, cp = _read("dasd.toml"), _read("cp.toml")
    try:
        geo = dasd["geometry"]
        return Calibration(
            bytes_per_track=int(geo["bytes_per_track"]),
            blocks_per_track=int(geo["blocks_4k_per_track"]),
            tracks_per_cylinder=int(geo["tracks_per_cylinder"]),
            models={k: int(v["cylinders"]) for k, v in dasd["models"].items()},
            channels={
                k: ChannelSpeed(float(v["data_rate_mb_s"]), int(v["concurrent_io"]))
                for k, v in dasd["channels"].items()
            },
            control_units={
                k: ControlUnitTiming(
                    float(v["pend_ms"]),
                    float(v["disc_ms"]),
                    float(v["conn_overhead_ms"]),
                    float(v["transfer_mb_s"]),
                    float(v["jitter"]),
                )
                for k, v in dasd["control_units"].items()
            },
            path_us={k: float(v) for k, v in cp["path_lengths"].items() if k != "source"},
            block_pages_max=int(cp["paging"]["block_pages_max"]),
            read_pages_max=int(cp["paging"]["read_pages_max"]),
            prsm_overhead=float(cp["prsm"]["overhead_per_busy"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ZvmsimError(f"calibration data is incomplete: {exc}") from None
