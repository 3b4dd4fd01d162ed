"""How long a run may last and how finely it is sampled: the bounds, in one place.

CP's MONITOR SAMPLE INTERVAL takes 6 seconds to 60 minutes. The case
studies compress time (vmcf-master samples every second over a 3-second
run), so a run's sample interval may be as short as 1 second, and as long as
CP's hour. A run lasts at most 4 hours of simulated time, and holds at most
1440 sample intervals (a day of one-minute intervals, as one day's MONWRITE
file would): enough for any case study, and each interval's records are kept
in memory until the reports are made.
"""

from __future__ import annotations

import math

from .errors import ZvmsimError

__all__ = [
    "MAX_DURATION_S",
    "MAX_INTERVALS",
    "MAX_INTERVAL_S",
    "MIN_INTERVAL_S",
    "check_duration",
    "check_interval",
    "check_window",
]

MIN_INTERVAL_S = 1.0
MAX_INTERVAL_S = 3600.0
MAX_DURATION_S = 4 * 3600.0
MAX_INTERVALS = 1440


def check_duration(value: float, name: str = "duration") -> float:
    """*value* as a run's length in seconds, or a one-line error naming *name*."""
    if not (isinstance(value, int | float) and not isinstance(value, bool)):
        raise ZvmsimError(f"{name} must be a number of seconds, not {value!r}")
    if not (math.isfinite(value) and 0 < value <= MAX_DURATION_S):
        raise ZvmsimError(
            f"{name} must be more than 0 and at most {MAX_DURATION_S:g} seconds "
            f"(4 hours), not {value:g}"
        )
    return float(value)


def check_interval(value: float, name: str = "sample interval") -> float:
    """*value* as a MONITOR SAMPLE interval in seconds, or a one-line error naming *name*."""
    if not (isinstance(value, int | float) and not isinstance(value, bool)):
        raise ZvmsimError(f"{name} must be a number of seconds, not {value!r}")
    if not (math.isfinite(value) and MIN_INTERVAL_S <= value <= MAX_INTERVAL_S):
        raise ZvmsimError(
            f"{name} must be {MIN_INTERVAL_S:g} to {MAX_INTERVAL_S:g} seconds, not {value:g}"
        )
    return float(value)


def check_window(duration: float, interval: float) -> None:
    """A run of *duration* seconds cut into sample intervals of *interval* seconds."""
    check_duration(duration)
    check_interval(interval)
    if interval > duration:
        raise ZvmsimError(
            f"duration {duration:g} s is shorter than one monitor interval ({interval:g} s)"
        )
    if duration / interval > MAX_INTERVALS:
        raise ZvmsimError(
            f"a run of {duration:g} s in {interval:g}-second intervals has "
            f"{math.ceil(duration / interval)} monitor intervals; at most {MAX_INTERVALS} "
            "(use a longer interval or a shorter run)"
        )
