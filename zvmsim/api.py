"""The public entry points: simulate a scenario, then build reports from its records."""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from .config import SystemConfig
from .errors import ZvmsimError
from .machine import Machine
from .monitor.monwrite import MonwriteSummary, MonwriteWriter
from .monitor.stream import MonitorData
from .perfkit import Report, RunData, find_report, reduce
from .runcache import cached_run, folder, stored_run
from .scenario import Scenario, load_scenario

__all__ = ["monwrite", "reduced_run", "report", "reports", "simulate"]


def simulate(
    scenario: str,
    knobs: dict[str, Any] | None = None,
    *,
    seed: int = 1,
    duration: float | None = None,
    interval: float | None = None,
    progress: Callable[[float], object] | None = None,
) -> MonitorData:
    """Run *scenario* with *knobs* and return its CP Monitor records.

    *progress*, if given, is told the share of the run done (0 to 1) as it goes.
    With ``$ZVMSIM_RUN_CACHE`` set, a run made before is read from disk
    (:mod:`zvmsim.runcache`).
    """
    scen, config = _config(scenario, knobs, seed, duration, interval)
    if folder() is None:  # the cache is off: nothing to key
        return Machine(config, seed).run(progress=progress)
    inputs = _inputs(scen, knobs, seed, config)
    data = cached_run(inputs, lambda: Machine(config, seed).run(progress=progress))
    if progress is not None:
        progress(1.0)
    return data


def reduced_run(
    scenario: str,
    knobs: dict[str, Any] | None = None,
    *,
    seed: int = 1,
    duration: float | None = None,
    interval: float | None = None,
    progress: Callable[[float], object] | None = None,
) -> RunData:
    """``reduce(simulate(...))``: what Perfkit knows of the run, for reports.

    With ``$ZVMSIM_RUN_CACHE`` set, the reduced data itself is kept on disk,
    so a run made before is read back without reducing it again (some six
    times as fast as its records and a reduce). A run whose records alone are
    there (a notebook simulated it first) is reduced from them, not simulated.
    """
    scen, config = _config(scenario, knobs, seed, duration, interval)
    if folder() is None:
        return reduce(Machine(config, seed).run(progress=progress))
    inputs = _inputs(scen, knobs, seed, config)

    def make() -> RunData:
        records = stored_run(inputs)
        if records is None:
            records = Machine(config, seed).run(progress=progress)
        return reduce(records)

    data = cached_run(("reduced", *inputs), make)
    if progress is not None:
        progress(1.0)
    return data


def _inputs(
    scen: Scenario, knobs: dict[str, Any] | None, seed: int, config: SystemConfig
) -> tuple[Any, ...]:
    """What a run depends on, as the simulation resolves it: every knob's value
    (defaults too, parsed), the seed, and the window and interval in seconds. One
    run asked for in other words (a knob at its default, the scenario's own
    duration spelled out) is one entry of the run cache."""
    chosen = sorted(scen.resolve(knobs).items())
    return scen.name, chosen, seed, config.duration, config.monitor.sample_interval


def _config(
    scenario: str,
    knobs: dict[str, Any] | None,
    seed: int,
    duration: float | None,
    interval: float | None,
) -> tuple[Scenario, SystemConfig]:
    """The scenario and its configuration with *knobs* (the seed checked first)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ZvmsimError(f"seed must be a whole number 0 or more, not {seed!r}")
    scen = load_scenario(scenario)
    return scen, scen.config(knobs, duration=duration, interval=interval)


def monwrite(
    scenario: str,
    path: str | Path,
    knobs: dict[str, Any] | None = None,
    *,
    seed: int = 1,
    duration: float | None = None,
    interval: float | None = None,
) -> MonwriteSummary:
    """Run *scenario* and write its records to the MONWRITE file *path* as they come.

    The records go to the file interval by interval, so a long run never
    sits in memory. Returns what was written (records, sets, blocks, bytes).
    """
    _, config = _config(scenario, knobs, seed, duration, interval)
    machine = Machine(config, seed)
    try:
        with open(path, "wb") as fh:
            writer = MonwriteWriter(fh)
            machine.run(sink=writer.extend)
            return writer.close()
    except OSError as exc:
        raise ZvmsimError(f"cannot write {path}: {exc.strerror}") from None


def _run_data(data: MonitorData | RunData) -> RunData:
    return data if isinstance(data, RunData) else reduce(data)


def report(
    data: MonitorData | RunData,
    code: str,
    *,
    user: str | None = None,
    interval: int | None = None,
) -> Report:
    """Build report *code* (``FCX108`` or ``DEVICE``...) from monitor data.

    *user* limits per-user reports to one guest (or a pattern: ``LIN1*``);
    *interval* (0-based) gives
    the INTERIM report for one monitor interval instead of the whole run.
    """
    run = _run_data(data)
    spec = find_report(code)
    if user is not None and not any(fnmatchcase(u, user.upper()) for u in run.users):
        raise ZvmsimError(f"no user '{user}' in the monitor data")
    if interval is not None and not 0 <= interval < len(run.intervals):
        raise ZvmsimError(f"interval {interval} does not exist (the data has {len(run.intervals)})")
    return spec.make(run, user=user.upper() if user else None, interval=interval)


def reports(data: MonitorData | RunData, *codes: str, user: str | None = None) -> list[Report]:
    """Several reports from one reduction of the monitor data."""
    run = _run_data(data)
    return [report(run, code, user=user) for code in codes]
