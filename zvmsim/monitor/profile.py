"""The monitor profile: which domains MONITOR SAMPLE and MONITOR EVENT enable.

A scenario's ``[monitor.sample]`` and ``[monitor.event]`` tables switch
domains on or off by name (``user = false`` is MONITOR SAMPLE DISABLE USER).
Left out, every domain that has sample data is enabled for sample, and the
scheduler domain alone for events. As on CP, the System and Monitor domains
are always sampled, the Scheduler and Seek domains have only events, and
the System domain has no events.
"""

from __future__ import annotations

from typing import Any

from ..errors import ZvmsimError
from .records import DOMAINS

__all__ = ["DEFAULT_EVENTS", "SAMPLE_DOMAINS", "enabled_domains"]

KEYS = {name.lower().replace("/", ""): number for number, name in DOMAINS.items()}  # io = I/O
SAMPLE_DOMAINS = (0, 1, 3, 4, 5, 6, 8, 9, 10)  # the domains that have sample data
EVENT_DOMAINS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)  # ... and those that have event data
ALWAYS = (0, 1)  # System and Monitor: always sampled
DEFAULT_EVENTS = (2,)


def enabled_domains(table: Any, kind: str) -> tuple[int, ...]:
    """The domains enabled for *kind* (``sample`` or ``event``) by a scenario table."""
    where = f"[monitor.{kind}]"
    if not isinstance(table, dict):
        raise ZvmsimError(f"{where} must be a table of domain = true/false")
    sample = kind == "sample"
    capable = SAMPLE_DOMAINS if sample else EVENT_DOMAINS
    enabled = set(capable if sample else DEFAULT_EVENTS)
    for key, value in table.items():
        if key not in KEYS:
            raise ZvmsimError(f"{where}: unknown domain '{key}' (domains: {', '.join(KEYS)})")
        if not isinstance(value, bool):
            raise ZvmsimError(f"{where}.{key} must be true or false, not {value!r}")
        domain = KEYS[key]
        name = DOMAINS[domain]
        if domain not in capable:
            raise ZvmsimError(f"{where}: the {name} domain has no {kind} data")
        if sample and domain in ALWAYS and not value:
            raise ZvmsimError(f"{where}: the {name} domain is always sampled")
        if value:
            enabled.add(domain)
        else:
            enabled.discard(domain)
    return tuple(sorted(enabled))
