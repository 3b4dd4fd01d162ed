"""The z/Architecture TOD clock: bit 51 ticks once a microsecond, epoch 1900."""

from __future__ import annotations

import datetime as _dt

__all__ = ["from_tod", "to_tod"]

_EPOCH = _dt.datetime(1900, 1, 1)
_PER_US = 4096


def to_tod(moment: _dt.datetime) -> int:
    """TOD clock value of *moment* (naive UTC), to the microsecond."""
    delta = moment - _EPOCH
    micros = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
    return micros * _PER_US


def from_tod(tod: int) -> _dt.datetime:
    """The moment a TOD clock value stands for."""
    return _EPOCH + _dt.timedelta(microseconds=tod // _PER_US)
