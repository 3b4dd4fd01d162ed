"""The available-list lock (RSA2GLCK): holds, spins, and what memory63 shows of it."""

from __future__ import annotations

import pytest

import zvmsim
from zvmsim.cp.framelock import FrameLock


def _lock(processors: int = 4) -> tuple[FrameLock, list[float]]:
    placed: list[float] = []
    return FrameLock("RSA2GLCK", 1.0, processors, placed.append), placed


def test_a_free_lock_costs_no_spin() -> None:
    lock, placed = _lock()
    assert lock.take(0.0) == 0.0
    assert lock.take(1.0) == 0.0
    assert (lock.requests, lock.collisions, lock.spin_s) == (2, 0, 0.0)
    assert placed == []


def test_a_request_during_a_long_hold_spins_until_it_ends() -> None:
    lock, placed = _lock()
    lock.take(0.0, 0.030)  # a 6.2 demand scan: 30 ms
    spin = lock.take(0.010)
    assert spin == pytest.approx(0.020)
    assert lock.collisions == 1
    assert sum(placed) == pytest.approx(0.020)  # the spin took a processor's time


def test_requests_of_one_instant_spin_once() -> None:
    lock, _ = _lock()
    lock.take(0.0, 0.030)
    first = lock.take(0.010)
    assert lock.take(0.010) == 0.0  # the same guest's step: it follows its first request
    assert lock.spin_s == pytest.approx(first)


def test_no_more_spinners_than_other_processors() -> None:
    lock, _ = _lock(processors=2)
    lock.take(0.0, 0.030)
    assert lock.take(0.001) > 0
    assert lock.take(0.002) == 0.0  # the only other processor is spinning already
    assert lock.collisions == 2


def test_memory63_spins_on_62_and_not_on_63(run_data) -> None:
    def spin(release: str) -> float:
        frame = zvmsim.report(run_data("memory63", release=release), "FCX265").frame
        mean = frame[(frame["interval_end"] == ">>Mean>>") & (frame["lock"] == "RSA2GLCK")]
        return float(mean.iloc[0]["pct_spin"])

    assert spin("6.2") > 1.0
    # 6.3's scan holds the lock only to put the frames it reclaimed on the lists:
    # with the Sweet Spot paging a little, a trace of spin at most
    assert spin("6.3") < 0.01
