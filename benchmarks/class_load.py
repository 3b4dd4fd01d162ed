"""A class on the class server: how many students one machine holds (docs/class.md).

For each class size N it starts the class server (JupyterHub on 127.0.0.1,
``class/jupyterhub_config.py``, a scratch data folder), then N simulated
students, all at once, as at the start of a lesson:

* each gets a token through the hub's REST API and starts their server;
* opens a kernel through the server's kernels API and its websocket (as
  JupyterLab does) and runs the PAV and MDC case study's dashboard cell
  (``pav_mdc_dashboard()``: imports, one simulation, reports);
* then, every 20-40 s at random, turns one of its knobs to another value at
  random, as a student clicking a control does: the dashboard re-simulates and
  re-renders FCX108 and FCX112. The time from sending the change to the kernel
  being idle again is the knob-turn latency.

Every 5 s it samples the memory of each student's processes (their JupyterLab
server and kernel: RSS, and PSS, which shares common pages out fairly), the
hub's and the proxy's, and the machine's load average (other people's work on
a shared machine shows there). At the end it stops every server and the hub.

It prints one row per N: knob turns, failures, latency median and 95th
percentile, the first cell's time, memory per student, hub memory, load. The
largest N whose 95th percentile stays under 3 s is the answer.
``--together`` plays the worst case instead: the whole class turns a knob at
the same moment, every 30 s ("now everybody switch MDC on"). Bounded: at
most 64 students, 900 s per class, every request with a timeout; it talks to
127.0.0.1 only and stops everything it started.

Usage: ``python benchmarks/class_load.py [--students 2,4,8] [--duration 180]
[--seed 1] [--together] [--json FILE]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from zvmsim.hubclient import ClassServer, HubAPI, Kernel

MAX_STUDENTS, MAX_DURATION = 64, 900
GAP = (20.0, 40.0)  # seconds between one student's knob turns
SAMPLE_EVERY = 5.0
TARGET_P95 = 3.0
SETUP_CELL = "from zvmsim.lab import pav_mdc_dashboard\nboard = pav_mdc_dashboard()\n"
# the PAV and MDC dashboard's controls and the values each can take
KNOBS = {
    "mdc": [False, True],
    "vm64199": [False, True],
    "aliases": list(range(16)),
    "users": list(range(1, 9)),
}
START = {"mdc": False, "vm64199": False, "aliases": 3, "users": 4}


@dataclass
class Student:
    name: str
    rng: random.Random
    knobs: dict = field(default_factory=lambda: dict(START))
    spawn_s: float = 0.0
    first_cell_s: float = 0.0
    ready_at: float = 0.0  # when the dashboard was up and knob turning began
    done_at: float = 0.0  # when knob turning ended (before the kernel is closed)
    turns: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def next_turn(self) -> str:
        """The code a knob turn runs: one control to another value, at random."""
        knob = self.rng.choice(sorted(KNOBS))
        value = self.rng.choice([v for v in KNOBS[knob] if v != self.knobs[knob]])
        self.knobs[knob] = value
        return f"board.controls[{knob!r}].value = {value!r}\nassert not board.error, board.error\n"


async def student_session(
    api: HubAPI, student: Student, duration: float, spawn_timeout: float, together: Barrier | None
) -> None:
    """One student's lesson: server, kernel, dashboard, then *duration* s of knob turns."""
    try:
        token = await api.user_token(student.name)
        t0 = time.monotonic()
        url = await api.start_server(student.name, timeout=spawn_timeout)
        student.spawn_s = time.monotonic() - t0
        kernel = Kernel(url, token)
        await kernel.open()
        t0 = time.monotonic()
        _, error = await kernel.execute(SETUP_CELL, timeout=120)
        student.first_cell_s = time.monotonic() - t0
        if error:
            raise RuntimeError(f"dashboard cell: {error}")
        student.ready_at = time.monotonic()
    except Exception as exc:  # noqa: BLE001 - a student who never got going is a failure
        student.failures.append(f"start: {exc}"[:200])
        if together is not None:
            together.arrive()
        return
    if together is not None:  # the whole class starts turning at the same moment
        await together.wait()
    end = time.monotonic() + duration
    try:
        if together is None:
            await asyncio.sleep(student.rng.uniform(0, GAP[1]))  # students do not click in step
        while time.monotonic() < end:
            code = student.next_turn()
            t0 = time.monotonic()
            try:
                _, error = await kernel.execute(code, timeout=60)
            except (TimeoutError, OSError) as exc:
                error = f"{type(exc).__name__}"
            if error:
                student.failures.append(error[:200])
            else:
                student.turns.append(time.monotonic() - t0)
            if together is None:
                await asyncio.sleep(student.rng.uniform(*GAP))
            else:  # "now everybody turn a knob": all at once, every 30 s
                await asyncio.sleep(max(0.0, sum(GAP) / 2 - (time.monotonic() - t0)))
    finally:
        student.done_at = time.monotonic()
        await kernel.close()


def memory(hub_pid: int) -> tuple[dict[str, tuple[float, float, float]], float, float]:
    """({student: (RSS MB, PSS MB, CPU s)} of server plus kernels, hub RSS MB, proxy RSS MB)."""
    mb = 1024 * 1024
    students: dict[str, tuple[float, float, float]] = {}
    hub_rss = proxy_rss = 0.0
    try:
        hub = psutil.Process(hub_pid)
        hub_rss = hub.memory_info().rss / mb
        children = hub.children()
    except psutil.Error:
        return students, hub_rss, proxy_rss
    for child in children:
        try:
            cmd = " ".join(child.cmdline())
            if "configurable-http-proxy" in cmd:
                proxy_rss = child.memory_info().rss / mb
            elif "jupyterhub.singleuser" in cmd:
                name = child.environ().get("JUPYTERHUB_USER", "?")
                procs = [child, *child.children(recursive=True)]
                infos = [p.memory_full_info() for p in procs]
                cpu = sum(sum(p.cpu_times()[:2]) for p in procs)  # user + system seconds
                students[name] = (
                    sum(i.rss for i in infos) / mb, sum(i.pss for i in infos) / mb, cpu
                )  # fmt: skip
        except psutil.Error:
            continue  # a process that ended between the listing and the look
    return students, hub_rss, proxy_rss


async def sampler(hub: ClassServer, until: asyncio.Event, samples: list[dict]) -> None:
    while not until.is_set():
        students, hub_rss, proxy_rss = await asyncio.to_thread(memory, hub.process.pid)
        samples.append(
            {"t": time.monotonic(), "load1": os.getloadavg()[0], "students": students,
             "hub_rss": hub_rss, "proxy_rss": proxy_rss}
        )  # fmt: skip
        try:
            await asyncio.wait_for(until.wait(), SAMPLE_EVERY)
        except TimeoutError:
            pass


def cpu_share(students: list[Student], samples: list[dict]) -> float:
    """Mean fraction of a core one student's processes used while turning knobs."""
    shares = []
    for s in students:
        seen = [(x["t"], x["students"][s.name][2]) for x in samples
                if s.ready_at <= x["t"] <= s.done_at and s.name in x["students"]]  # fmt: skip
        if len(seen) >= 2 and seen[-1][0] > seen[0][0]:
            shares.append((seen[-1][1] - seen[0][1]) / (seen[-1][0] - seen[0][0]))
    return statistics.mean(shares) if shares else float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Barrier:
    """Released when every student still in the lesson is ready (or has failed)."""

    def __init__(self, parties: int) -> None:
        self.left = parties
        self.event = asyncio.Event()

    def arrive(self) -> None:
        self.left -= 1
        if self.left <= 0:
            self.event.set()

    async def wait(self) -> None:
        self.arrive()
        await self.event.wait()


async def lesson(
    hub: ClassServer, students: list[Student], duration: float, together: bool = False
) -> list[dict]:
    api = HubAPI(hub.url, hub.token)
    spawn_timeout = 120 + 15 * len(students)
    samples: list[dict] = []
    done = asyncio.Event()
    watch = asyncio.create_task(sampler(hub, done, samples))
    barrier = Barrier(len(students)) if together else None
    sessions = [student_session(api, s, duration, spawn_timeout, barrier) for s in students]
    try:
        await asyncio.wait_for(asyncio.gather(*sessions), spawn_timeout + duration + 180)
    except TimeoutError:
        for s in students:
            s.failures.append("lesson did not end in time")
    finally:
        done.set()
        await watch
        await asyncio.gather(*(api.stop_server(s.name) for s in students), return_exceptions=True)
    return samples


def run_class(
    n: int, duration: float, seed: int, together: bool = False, keep_log: Path | None = None
) -> dict:
    """One lesson of *n* students; its figures. The hub's log goes to *keep_log* on failures."""
    students = [Student(f"s{i:02d}", random.Random(seed * 1000 + i)) for i in range(1, n + 1)]
    with tempfile.TemporaryDirectory(prefix="zvmsim-class-") as tmp:
        hub = ClassServer(Path(tmp), [s.name for s in students])
        hub.start()
        try:
            idle_hub = memory(hub.process.pid)[1]
            samples = asyncio.run(lesson(hub, students, duration, together))
        finally:
            hub.stop()
            if keep_log and any(s.failures for s in students):
                shutil.copyfile(hub.log, keep_log)
    turns = [t for s in students for t in s.turns]
    per_student = {}  # each student's peak
    for sample in samples:
        for name, (rss, pss, _) in sample["students"].items():
            old = per_student.get(name, (0.0, 0.0))
            per_student[name] = (max(old[0], rss), max(old[1], pss))
    running = [s for s in samples if len(s["students"]) == n] or samples
    return {
        "students": n,
        "turns": len(turns),
        "failures": sum(len(s.failures) for s in students),
        "failure_examples": sorted({f for s in students for f in s.failures})[:3],
        "median_s": statistics.median(turns) if turns else float("nan"),
        "p95_s": percentile(turns, 0.95),
        "max_s": max(turns, default=float("nan")),
        "spawn_median_s": statistics.median([s.spawn_s for s in students]),
        "first_cell_median_s": statistics.median([s.first_cell_s for s in students]),
        "student_rss_mb": statistics.mean([v[0] for v in per_student.values()] or [0]),
        "student_pss_mb": statistics.mean([v[1] for v in per_student.values()] or [0]),
        "hub_idle_rss_mb": idle_hub,
        "hub_rss_mb": max((s["hub_rss"] for s in samples), default=0.0),
        "proxy_rss_mb": max((s["proxy_rss"] for s in samples), default=0.0),
        "student_cpu_share": cpu_share(students, samples),
        "load1_mean": statistics.mean([s["load1"] for s in running] or [0]),
        "load1_max": max((s["load1"] for s in running), default=0.0),
    }


HEADER = (
    f"{'N':>3} {'turns':>5} {'fail':>4} {'median':>7} {'p95':>6} {'max':>6} {'spawn':>6} "
    f"{'cell1':>6} {'RSS/st':>7} {'PSS/st':>7} {'CPU/st':>6} {'hub':>5} {'proxy':>5} {'load':>9}"
)


def row(r: dict) -> str:
    return (
        f"{r['students']:3d} {r['turns']:5d} {r['failures']:4d} {r['median_s']:6.2f}s "
        f"{r['p95_s']:5.2f}s {r['max_s']:5.2f}s {r['spawn_median_s']:5.1f}s "
        f"{r['first_cell_median_s']:5.1f}s {r['student_rss_mb']:5.0f}MB "
        f"{r['student_pss_mb']:5.0f}MB {100 * r['student_cpu_share']:5.1f}% "
        f"{r['hub_rss_mb']:3.0f}MB {r['proxy_rss_mb']:3.0f}MB "
        f"{r['load1_mean']:4.1f}/{r['load1_max']:3.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", default="2,4,8", help="class sizes, e.g. 2,4,8,16")
    parser.add_argument("--duration", type=float, default=180, help="seconds of knob turning")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--together", action="store_true",
        help="everybody turns a knob at the same moment, every 30 s (the worst case)",
    )  # fmt: skip
    parser.add_argument(
        "--json", type=Path, help="also write the figures here (and the hub's log, on failures)"
    )
    args = parser.parse_args()
    sizes = [int(v) for v in args.students.split(",")]
    if not all(1 <= n <= MAX_STUDENTS for n in sizes) or not 30 <= args.duration <= MAX_DURATION:
        parser.error(f"1-{MAX_STUDENTS} students, 30-{MAX_DURATION} s")
    print(f"{os.cpu_count()} CPUs, {psutil.virtual_memory().total / 2**30:.0f} GiB; "
          f"load average before: {os.getloadavg()[0]:.2f}")  # fmt: skip
    print("latency: knob turn to idle kernel; RSS/PSS: one student's server + kernel (peak);")
    print("spawn, cell1: median server start and first dashboard cell; load: 1-min mean/max;")
    print("CPU/st: one student's server + kernel while turning knobs, in % of one core")
    print(HEADER, flush=True)
    results = []
    for n in sizes:
        log = args.json.with_name(f"{args.json.stem}-hub-{n}.log") if args.json else None
        results.append(run_class(n, args.duration, args.seed, args.together, log))
        print(row(results[-1]), flush=True)
        for failure in results[-1]["failure_examples"]:
            print(f"    failure: {failure}")
    good = [r["students"] for r in results if r["p95_s"] < TARGET_P95 and not r["failures"]]
    print(f"largest N with p95 < {TARGET_P95:.0f} s and no failures: {max(good, default=0)}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
