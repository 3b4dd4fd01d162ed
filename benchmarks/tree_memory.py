"""Peak memory, wall time and CPU time of a command and every process it starts.

Runs COMMAND, samples the resident memory (RSS) of its whole process tree
every ``--every`` seconds (pytest, its xdist workers, notebook kernels, the
Voilà server and its kernels, Chromium) and prints, when it ends: the wall
time, the CPU time of the tree (user + system of every process waited for,
from ``getrusage``), the peak of the tree's summed RSS and what made it up.
Summed RSS counts shared pages once per process, so the figure is an upper
bound of what the tree really held.

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
        ("execnet", "pytest-worker"),
        ("pytest", "pytest"),
    ):
        if key in line:
            return name
    return proc.name()


def sample(root: psutil.Process) -> tuple[int, Counter]:
    """The tree's summed RSS in bytes, and the same by kind of process."""
    by: Counter = Counter()
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, by
    for proc in procs:
        try:
            by[_kind(proc)] += proc.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return sum(by.values()), by


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=float, default=0.5, help="seconds between samples")
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("give a command after --")
    start = time.monotonic()
    child = subprocess.Popen(command)
    root = psutil.Process(child.pid)
    peak, at, parts = 0, 0.0, Counter()
    while child.poll() is None:
        total, by = sample(root)
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
    print(f"[tree_memory] peak RSS of the tree {peak / mib:.0f} MiB at {at:.0f} s ({shares} MiB)",
          file=sys.stderr)  # fmt: skip
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
