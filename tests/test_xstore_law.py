"""Knob law: more XSTORE never makes DASD paging worse (issue 18).

A z/VM analyst expects expanded storage to hold pages that would otherwise
go to DASD: raising XSTORE may not raise the DASD page rate, the paging
volumes' queue (FCX109 Queue Lngth) or their response per page (FCX109 MLOAD
Resp Time). Checked over the ``xstore_gb`` knob of "Undersized LPAR" for three
seeds on short runs. The queue comes from a few demand-scan bursts per run,
so one seed's figure wobbles: it is compared with a margin, and the mean of
the three seeds must not rise at all beyond a smaller one.
"""

from __future__ import annotations

from functools import cache

import pytest

import zvmsim
from zvmsim.perfkit import reduce
from zvmsim.scenario import load_scenario

SEEDS = (1, 2, 3)
DURATION = 240  # seconds: the scenario's own run, a dozen demand scans
QUEUE_MARGIN = 0.6  # requests: one seed's queue may wobble this much
MEAN_QUEUE_MARGIN = 0.2  # ... the three seeds' mean only this much
RATE_MARGIN = 0.03  # share: DASD page rate and MLOAD


def _sizes() -> list[float]:
    top = load_scenario("undersized-lpar").knobs["xstore_gb"].maximum
    return sorted({0.0, 4.0, 8.0, 16.0, float(top)})


@cache
def _figures(xstore_gb: float, seed: int) -> tuple[float, float, float]:
    """(DASD pages/s, mean paging-volume queue, mean MLOAD ms) of one run."""
    data = zvmsim.simulate(
        "undersized-lpar", {"xstore_gb": xstore_gb}, seed=seed, duration=DURATION
    )
    run = reduce(data)
    rate = float(zvmsim.report(run, "FCX225").frame.iloc[0]["page_rate"])
    volumes = zvmsim.report(run, "FCX109").frame
    return rate, float(volumes["queue_len"].mean()), float(volumes["resp_ms"].mean())


@pytest.mark.parametrize("seed", SEEDS)
def test_more_xstore_never_raises_dasd_paging(seed: int) -> None:
    sizes = _sizes()
    figures = [_figures(x, seed) for x in sizes]
    for i in range(1, len(sizes)):
        less, more = figures[i - 1], figures[i]
        what = f"seed {seed}, xstore_gb {sizes[i - 1]} -> {sizes[i]}"
        assert more[0] <= less[0] * (1 + RATE_MARGIN), f"DASD page rate rose: {what}"
        assert more[1] <= less[1] + QUEUE_MARGIN, f"paging queue rose: {what}"
        assert more[2] <= less[2] * (1 + RATE_MARGIN), f"MLOAD rose: {what}"


def test_more_xstore_never_raises_the_mean_paging_queue() -> None:
    sizes = _sizes()
    means = [sum(_figures(x, s)[1] for s in SEEDS) / len(SEEDS) for x in sizes]
    for i in range(1, len(sizes)):
        less, more = means[i - 1], means[i]
        what = f"xstore_gb {sizes[i - 1]} -> {sizes[i]}: {less:.2f} -> {more:.2f}"
        assert more <= less + MEAN_QUEUE_MARGIN, what
