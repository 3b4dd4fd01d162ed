"""MONWRITE file speed (prints the figures; run with the project's venv).

* records written and read per second: the monitor records of a run are
  packed into a MONWRITE file in memory and read back (every block
  checked, every record decoded), best of ``--repeat``;
* a one-hour PAV and MDC run written to a file as it goes, then reported
  from the file (FCX108, FCX225 — what ``zvmsim report --from`` does): wall
  times, file size, compression, and whether the report from the file is
  the live one (``--no-check`` skips the second, live run);
* one update of the collection dashboard (``monwrite`` scenario).

Usage: ``python benchmarks/monwrite.py [--repeat N] [--hours H] [--no-check]``
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
import zlib
from pathlib import Path

import zvmsim
from zvmsim.lab import monboard, monwrite_dashboard
from zvmsim.monitor.monread import MonwriteReader
from zvmsim.monitor.monwrite import MonwriteWriter
from zvmsim.perfkit import reduce


def best(repeat: int, job) -> tuple[float, object]:
    """The shortest wall time of *repeat* calls of *job*, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = job()
        times.append(time.perf_counter() - start)
    return min(times), result


def write(records: list) -> bytes:
    out = io.BytesIO()
    with MonwriteWriter(out) as writer:
        writer.extend(records)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()

    data = zvmsim.simulate("monwrite", {"sample_interval": 10, "scheduler_events": True})
    records = data.records
    wall_w, raw = best(args.repeat, lambda: write(records))
    wall_r, back = best(args.repeat, lambda: list(MonwriteReader(raw)))
    assert back == records
    mb = len(raw) / 2**20
    print(f"records: {len(records):,} ({mb:.1f} MB in {len(raw) // 4096:,} blocks)")
    print(f"  written  {len(records) / wall_w:>10,.0f} records/s  {mb / wall_w:>6.1f} MB/s")
    print(f"  read     {len(records) / wall_r:>10,.0f} records/s  {mb / wall_r:>6.1f} MB/s")

    seconds = 3600 * args.hours
    codes = ("FCX108", "FCX225")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pav-mdc.mon"
        start = time.perf_counter()
        done = zvmsim.monwrite("pav-mdc", path, {"mdc": "on"}, duration=seconds)
        wall_run = time.perf_counter() - start
        start = time.perf_counter()
        run = reduce(MonwriteReader(path))
        saved = [r.text for r in zvmsim.reports(run, *codes)]
        wall_rep = time.perf_counter() - start
        packed = len(zlib.compress(path.read_bytes(), 6))
        print(f"pav-mdc, MDC on, {seconds:g} s simulated, {len(run.intervals)} monitor intervals:")
        print(f"  simulated and written  {wall_run:8.1f} s wall")
        print(
            f"  file: {done.records:,} records, {done.sets:,} record sets, {done.blocks:,} blocks, "
            f"{done.bytes / 2**20:.1f} MB ({done.bytes / packed:.0f} to 1 compressed)"
        )
        print(f"  read and reported ({', '.join(codes)})  {wall_rep:6.2f} s wall")
        if not args.no_check:
            live = zvmsim.reports(
                zvmsim.simulate("pav-mdc", {"mdc": "on"}, duration=seconds), *codes
            )
            print(f"  report from the file == live report: {saved == [r.text for r in live]}")

    board = monwrite_dashboard()
    knobs = tuple(sorted({**board.values(), "sample_interval": 30.0}.items()))

    def update() -> str:
        monboard._collect.cache_clear()  # as on a setting not seen before
        return board._view(knobs)

    wall_b, _ = best(args.repeat, update)
    print(f"collection dashboard update (a new setting, uncached): {wall_b:.2f} s")


if __name__ == "__main__":
    main()
