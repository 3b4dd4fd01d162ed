"""Shared fixtures: simulation runs are cached per (resolved knobs, seed, duration) for the session.

``run_data``'s runs go through the session's run cache (:mod:`zvmsim.runcache`,
a folder new for every session), which both pytest-xdist workers (``bootstrap.py
test`` runs two) and every notebook kernel and Voilà page the suite starts
read: a run one of them made is read, not simulated again, by the others. A
run depends on nothing but its scenario, knobs, seed and duration.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache, lru_cache
from pathlib import Path

import pytest

import zvmsim
from zvmsim import runcache
from zvmsim.cli import main
from zvmsim.perfkit import RunData
from zvmsim.scenario import Scenario, load_scenario

# The suite's own process simulates every run it checks (runcache.ENABLED), but
# run_data's runs, the notebook kernels (nbval) and the Voilà pages it starts share one
# run cache, new for the session: such a run is simulated once, by whichever comes first.
runcache.ENABLED = False
_KERNEL_CACHE: list[tempfile.TemporaryDirectory] = []


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the controller: workers inherit it
        _KERNEL_CACHE.append(tempfile.TemporaryDirectory(prefix="zvmsim-kernel-runs-"))
        os.environ[runcache.ENV] = _KERNEL_CACHE[0].name


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _KERNEL_CACHE:
        folder.cleanup()


# The files that take longest, longest first, as measured in the whole suite (two
# workers, 2026-11-27; wall seconds: the browser checks 314, the knob laws 194, the
# fidelity rows 121 ... down to about 11). pytest-xdist hands out whole files in the
# order collected (bootstrap.py test: --dist loadfile --no-loadscope-reorder), so the
# long ones start first and the short ones, every file not named here, fill the end
# and leave neither worker idle long while the other finishes.
LONGEST_FIRST = (
    "tests/browser/test_notebooks_in_browser.py",
    "tests/test_knob_laws.py",
    "tests/test_fidelity.py",
    "tests/test_calibrate.py",
    "tests/test_utilization_law.py",
    "tests/test_class.py",
    "tests/test_real_vs_expanded.py",
    "notebooks/10-memory63.ipynb",
    "tests/test_xstore_law.py",
    "notebooks/07-paging-difficulties.ipynb",
    "tests/test_lab.py",
    "notebooks/14-real-vs-expanded.ipynb",
    "tests/test_native.py",
    "notebooks/09-hipersockets.ipynb",
    "tests/test_dashboard_windows.py",
    "tests/test_memory63.py",
    "notebooks/16-prsm-overhead.ipynb",
    "tests/test_grinch.py",
    "tests/test_hipersockets.py",
    "notebooks/11-excess-share.ipynb",
    "notebooks/01-collecting-monwrite.ipynb",
    "tests/test_vmcf_master.py",
    "notebooks/12-reorder.ipynb",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (:data:`LONGEST_FIRST`); each file's tests in order."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


def _simulate(
    scenario: str, knobs: tuple[tuple[str, object], ...], seed: int, duration: float
) -> RunData:
    """The reduced run, simulated once in the session: kept in the session's run
    cache, which the other worker and the notebook kernels read too (the cache
    locks a run while one process makes it)."""
    runcache.ENABLED = True  # for this call only: the suite's other runs always simulate
    try:
        return zvmsim.reduced_run(scenario, dict(knobs), seed=seed, duration=duration)
    finally:
        runcache.ENABLED = False


# Runs kept in a worker's memory: the suite makes a few hundred, and keeping them
# all made the suite's peak memory pass 2 GB (issue 20); one evicted is read back
# from the session's run cache, not simulated again.
RUNS_IN_MEMORY = 24


@cache
def _scenario(name: str) -> tuple[Scenario, float]:
    """The scenario and its own duration (seconds)."""
    scen = load_scenario(name)
    return scen, scen.config({}).duration


def _same_run(
    scenario: str, knobs: dict[str, object], duration: float | None
) -> tuple[tuple[tuple[str, object], ...], float]:
    """The run's knobs and duration as the simulation resolves them: every knob's
    value (defaults too, parsed) and the duration in seconds (the scenario's own for
    None), so that two requests for the same run (``mdc=False`` and no knob, no
    duration and the scenario's own) share one simulation."""
    scen, own = _scenario(scenario)
    resolved = tuple(sorted(scen.resolve(knobs).items()))
    seconds = own if duration is None else float(duration)
    return resolved, seconds


@lru_cache(maxsize=RUNS_IN_MEMORY)
def _run(
    scenario: str, knobs: tuple[tuple[str, object], ...], duration: float, seed: int
) -> RunData:
    return _simulate(scenario, knobs, seed, duration)


@pytest.fixture(scope="session")
def run_data():
    """``run_data(scenario, seed=1, duration=None, **knobs)`` -> reduced monitor
    data (cached; *duration* None is the scenario's own)."""
    def get(
        scenario: str, seed: int = 1, duration: float | None = None, **knobs: object
    ) -> RunData:
        return _run(scenario, *_same_run(scenario, knobs, duration), seed)

    return get


def lpar_raw(
    name: str,
    title: str,
    pu: str,
    sibling: str,
    sibling_busy: float,
    physical: int,
    duration: float,
    linux: dict,
) -> dict:
    """A small two-partition CEC: z/VM (TESTVM, 2 logical *pu* PUs) and *sibling*
    (2 logical, *sibling_busy* each) sharing *physical* PUs by equal weights, with
    four Linux servers whose *linux* parameters (CPU per second, tick) the test sets.
    Tests add the keys they turn (``capped``, ``occupancy``)."""
    return {
        "scenario": {"name": name, "title": title, "duration": duration, "warmup": 2},
        "system": {
            "sysid": "TESTVM", "cpu_model": "2094-702", "serial": "00001",
            "zvm_level": "5.3.0", "start": "2008-01-01T00:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 1},
        "processors": {"count": 2, "type": pu},
        "cec": {"model": "2094-702", "pus": {pu: physical}},
        "partitions": {
            "TESTVM": {"number": 1, "type": pu, "weight": 100, "own": True},
            sibling: {"number": 2, "type": pu, "logical": 2, "weight": 100, "busy": sibling_busy},
        },
        "storage": {"central_mb": 2048, "low_frames": 100, "high_frames": 300},
        "guests": {
            "LINUX": {
                "userid": "LINUX*", "count": 4, "workload": "linux_server",
                "params": {
                    "virtual_mb": 64.0, "used_mb": 64.0, "wss_mb": 32.0,
                    "cold_touch_rate": 0.0, **linux,
                },
            }
        },
    }  # fmt: skip


def network_raw(**changes: object) -> dict:
    """A small scenario with a VSWITCH: two Linux guests stream through OSA CHPID 11.

    *changes* replace top-level tables (e.g. ``vswitches=...``) for error tests.
    """
    raw = {
        "scenario": {"name": "net-test", "title": "Network test", "duration": 20, "warmup": 1},
        "system": {
            "sysid": "NETVM", "cpu_model": "2086-A04", "serial": "00001",
            "zvm_level": "5.3.0", "start": "2008-07-24T12:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 1},
        "processors": {"count": 2, "type": "CP"},
        "channels": {"11": {"type": "OSD"}, "40": {"type": "FICON"}},
        "vswitches": {"VSW1": {"rdev": "02F2", "controller": "DTCVSW2", "osa_chpid": "11"}},
        "guests": {
            "DTCVSW": {"userid": "DTCVSW2", "workload": "vswitch_controller"},
            "WEB": {
                "userid": "LINWEB", "workload": "linux_network",
                "params": {"vswitch": "VSW1", "out_kb_per_s": 400.0, "in_kb_per_s": 100.0,
                           "tick_s": 0.1},
            },
            "DB": {
                "userid": "LINDB", "workload": "linux_network",
                "params": {"vswitch": "VSW1", "out_kb_per_s": 123.4, "in_kb_per_s": 56.7,
                           "tick_s": 0.05},
            },
        },
    }  # fmt: skip
    raw.update(changes)
    return raw


@pytest.fixture(scope="session")
def network_data():
    """Monitor data of the :func:`network_raw` scenario, seed 1 (cached)."""
    from zvmsim.machine import Machine
    from zvmsim.scenario import Scenario

    return Machine(Scenario("net-test", network_raw()).config(), seed=1).run()


def cli_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run the CLI on *argv*: it must refuse with exit 2 and one line on stderr,
    ``zvmsim: error: ...`` (no traceback); that line is returned."""
    code = main(list(argv))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("zvmsim: error: "), err
    return err.strip()


def pytest_terminal_summary(terminalreporter) -> None:
    """After the run: the seed figures' outcomes per role (workload, calibration, prediction)."""
    counts: dict[str, dict[str, int]] = {}
    for outcome in ("passed", "failed", "xfailed", "xpassed"):
        for rep in terminalreporter.stats.get(outcome, []):
            role = dict(getattr(rep, "user_properties", ())).get("role")
            if role and getattr(rep, "when", "call") == "call":
                counts.setdefault(role, {}).setdefault(outcome, 0)
                counts[role][outcome] += 1
    if not counts:
        return
    terminalreporter.section("seed figures by role (row x seed)")
    for role, by in sorted(counts.items()):
        terminalreporter.write_line(
            f"{role:12s} " + ", ".join(f"{n} {o}" for o, n in sorted(by.items()))
        )


def _script(path: str, name: str):
    """The repository's script *path* loaded as module *name* (a script is not
    part of the package)."""
    import importlib.util
    import sys

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(name, root / path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)  # a dataclass of the script looks its module up
    spec.loader.exec_module(module)
    return module


def load_bootstrap():
    """bootstrap.py loaded as a module, afresh each call."""
    return _script("bootstrap.py", "zvmsim_bootstrap")


@cache
def knob_laws():
    """tools/knob_laws.py loaded as a module (once): its ``load()`` reads the laws."""
    return _script("tools/knob_laws.py", "knob_laws")


@cache
def law_book():
    """The knob laws (tests/data/knob_laws.toml), read once."""
    return knob_laws().load()


class Execd(Exception):
    """bootstrap.py handed over to another program (its os.execv, caught)."""


@pytest.fixture
def bootstrap_exec(monkeypatch: pytest.MonkeyPatch):
    """bootstrap.py with set-up skipped and os.execv caught: (module, argument lists).

    What an ``os.execve`` passed as environment is in ``bs.envs``; the notebooks
    a background warm-up would have run are in ``bs.warmed``."""
    bs = load_bootstrap()
    started: list[list[str]] = []
    bs.envs, bs.warmed = [], []

    def execv(path: str, args: list[str]) -> None:
        started.append(args)
        raise Execd

    def execve(path: str, args: list[str], env: dict[str, str]) -> None:
        bs.envs.append(env)
        execv(path, args)

    monkeypatch.setattr(bs, "setup", lambda: None)
    monkeypatch.setattr(bs, "warm_up", lambda notebooks, env: bs.warmed.append(notebooks))
    monkeypatch.setattr(bs.os, "execv", execv)
    monkeypatch.setattr(bs.os, "execve", execve)
    monkeypatch.setattr(bs.os, "chdir", lambda path: None)
    return bs, started


def untimed_queued(run: RunData, addr: str) -> float:
    """The mean number of requests queued at RDEV *addr* that CP did not time (the
    minidisk cache's own I/Os, zvmsim.cp.io): Req. Qued = I/O rate x (Resp - Serv) + this."""
    whole = run.whole
    return whole.devices[addr].get("untimed_us", 0) / 1e6 / whole.seconds


@pytest.fixture()
def one_browser_at_a_time(tmp_path_factory):
    """Held while a test runs a browser or a class server: the two workers never run
    both at once, which kept the suite's peak memory under 2 GB (each is some 0.5 GB)."""
    import fcntl

    folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # basetemp: <run's folder>/popen-gwN
        folder = folder.parent
    with open(folder / "zvmsim-browser.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
