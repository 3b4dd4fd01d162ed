"""Peak memory, wall time and CPU time of a command and every process it starts.

Runs COMMAND, samples the memory of its whole process tree every ``--every``
seconds (pytest, its xdist workers, notebook kernels, the Voilà server and
its kernels, Chromium) and prints, when it ends: the wall time, the CPU time
of the tree (user + system of every process waited for, from ``getrusage``),
and the peak of the tree's memory with what made it up. Memory is the
proportional set size (PSS: a page shared by n processes counts 1/n to each,
so the sum is what the tree holds), and the summed resident size (RSS:
shared pages counted once per process, an upper bound) beside it. Where PSS
cannot be read (not Linux), RSS stands for both.

Usage: ``python benchmarks/tree_memory.py [--every S] -- COMMAND [ARG...]``
(for the suite: ``python benchmarks/tree_memory.py -- python3 bootstrap.py test``)
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from collections import Counter

import psutil


def _kind(proc: psutil.Process) -> str:
    """A short name for what a process is: pytest, kernel, voila, chromium..."""
    try:
        line = " ".join(proc.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return "gone"
    for key, name in (
        ("ipykernel", "kernel"),
        ("voila", "voila"),
        ("chrom", "chromium"),
        ("playwright", "playwright"),
        ("xdist", "pytest-worker"),
        ("sys.stdin.readline", "pytest-worker"),  # how execnet starts an xdist worker
        ("execnet", "pytest-worker"),
        ("pytest", "pytest"),
    ):
        if key in line:
            return name
    return proc.name()


def sample(root: psutil.Process) -> tuple[int, int, Counter]:
    """The tree's summed PSS and RSS in bytes, and its PSS by kind of process."""
    by: Counter = Counter()
    rss = 0
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0, by
    for proc in procs:
        try:
            mem = proc.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        by[_kind(proc)] += getattr(mem, "pss", mem.rss)
        rss += mem.rss
    return sum(by.values()), rss, by


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=float, default=1.0, help="seconds between samples")
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("give a command after --")
    start = time.monotonic()
    child = subprocess.Popen(command)
    root = psutil.Process(child.pid)
    peak, peak_rss, at, parts = 0, 0, 0.0, Counter()
    while child.poll() is None:
        total, rss, by = sample(root)
        peak_rss = max(peak_rss, rss)
        if total > peak:
            peak, at, parts = total, time.monotonic() - start, by
        time.sleep(args.every)
    wall = time.monotonic() - start
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    mib = 2**20
    print(f"[tree_memory] exit status {child.returncode}", file=sys.stderr)
    print(f"[tree_memory] wall {wall / 60:.1f} min ({wall:.0f} s)", file=sys.stderr)
    cpu = use.ru_utime + use.ru_stime
    print(f"[tree_memory] CPU {cpu / 60:.1f} min ({cpu:.0f} s, {cpu / wall:.2f} cores on average)",
          file=sys.stderr)  # fmt: skip
    shares = ", ".join(f"{k} {v / mib:.0f}" for k, v in parts.most_common())
    print(f"[tree_memory] peak PSS of the tree {peak / mib:.0f} MiB at {at:.0f} s ({shares} MiB)",
          file=sys.stderr)  # fmt: skip
    print(f"[tree_memory] peak summed RSS {peak_rss / mib:.0f} MiB", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
