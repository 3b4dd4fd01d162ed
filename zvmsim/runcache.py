"""A disk cache of simulated runs, shared by every kernel on one machine.

A run depends on nothing but its scenario, knobs, seed, duration and interval,
and on the code and data that simulate it. So a run already made, by this
kernel or by any other (a class's students all open the same dashboards), can
be read from disk instead of simulated again, and gives byte-identical reports.

The cache is off unless ``$ZVMSIM_RUN_CACHE`` names a folder: ``bootstrap.py
lab``, ``app`` and ``class`` turn it on; ``benchmarks/`` leave it off, so they
always simulate. The test suite uses a cache made new for the session: its
``run_data`` fixture, and the notebook kernels and Voilà pages it starts, read
and write it, so such a run is simulated once a session; its other checks
(determinism, this cache) always simulate.

An entry is a run's records (:func:`zvmsim.simulate`) or the run as Perfkit
reduced it (:func:`zvmsim.reduced_run`, what the lab's dashboards and sweeps
read), keyed by the inputs as the simulation resolves them (every knob's
value, the window and interval in seconds). While one process makes an
entry, another asking for it waits (a lock file per entry, on POSIX).
Each entry's name is a hash of the run's inputs and of a fingerprint of every
file under ``zvmsim/`` and ``data/``: a change to the simulator or its calibration misses the cache
instead of returning a stale run. A damaged entry is simulated again and
rewritten. The folder keeps its newest ``MAX_ENTRIES`` entries.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from .paths import data_dir

__all__ = ["ENABLED", "ENV", "MAX_ENTRIES", "cached_run", "folder", "fingerprint", "stored_run"]

ENV = "ZVMSIM_RUN_CACHE"
MAX_ENTRIES = 2000  # a run's records pickle to well under 1 MB
PACKAGE = Path(__file__).resolve().parent


# False in a process that must simulate every run it asks for, whatever the
# environment says: the test suite's own (its notebook kernels and Voilà pages share
# one cache of the session's runs; its in-process checks of determinism do not)
ENABLED = True


def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    value = os.environ.get(ENV, "").strip()
    return Path(value) if value and ENABLED else None


@cache
def fingerprint() -> str:
    """A hash of the simulator's code and data: any change gives a new one."""
    digest = hashlib.sha1()
    for root in (PACKAGE, data_dir()):
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in {".py", ".toml", ".csv", ".json"}:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _key(inputs: tuple[Any, ...]) -> str:
    return hashlib.sha1(repr((fingerprint(), inputs)).encode()).hexdigest()


def cached_run(inputs: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """The run for *inputs* from the cache, or ``make()``'s, stored for next time.

    While one process makes a run, another asking for the same run waits for
    it rather than making it too (a class's students open the same dashboard
    at once; the test suite's workers share the session's runs).
    """
    where = folder()
    if where is None:
        return make()
    path = where / f"{_key(inputs)}.pickle"
    found = _read(path)
    if found is not None:
        return found
    with _making(where, path):
        found = _read(path)  # made while this process waited
        if found is not None:
            return found
        run = make()
        _store(where, path, run)
        return run


def stored_run(inputs: tuple[Any, ...]) -> Any | None:
    """The run for *inputs* if the cache holds it, else None (nothing is made)."""
    where = folder()
    return None if where is None else _read(where / f"{_key(inputs)}.pickle")


def _read(path: Path) -> Any | None:
    try:
        return pickle.loads(path.read_bytes())
    except Exception:  # none yet, or a damaged entry: made (again) by the caller
        return None


@contextmanager
def _making(where: Path, path: Path) -> Iterator[None]:
    """Held while this process makes the run stored at *path* (POSIX: a lock file)."""
    try:
        import fcntl
    except ImportError:  # Windows: two processes may make one run at once; both store it whole
        yield
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_suffix(".lock"), "w")  # noqa: SIM115 (closed below)
    except OSError:  # a read-only folder: make it unlocked; storing it fails quietly too
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _store(where: Path, path: Path, run: Any) -> None:
    try:
        where.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(run, pickle.HIGHEST_PROTOCOL))
        tmp.replace(path)  # atomic: a reader sees the whole entry or none
        _trim(where)
    except OSError:
        pass  # a full or read-only disk only costs the next run its speed-up


def _trim(where: Path) -> None:
    entries = sorted(where.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
    for old in entries[: max(0, len(entries) - MAX_ENTRIES)]:
        old.unlink(missing_ok=True)
        old.with_suffix(".lock").unlink(missing_ok=True)
