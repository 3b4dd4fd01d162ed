"""Shared fixtures: simulation runs are cached per (knobs, seed) for the session."""

from __future__ import annotations

from functools import cache

import pytest

import zvmsim
from zvmsim.perfkit import RunData, reduce


@cache
def _run(scenario: str, knobs: tuple[tuple[str, object], ...], seed: int) -> RunData:
    return reduce(zvmsim.simulate(scenario, dict(knobs), seed=seed))


@pytest.fixture(scope="session")
def run_data():
    """``run_data(scenario, seed=1, **knobs)`` -> reduced monitor data (cached)."""

    def get(scenario: str, seed: int = 1, **knobs: object) -> RunData:
        return _run(scenario, tuple(sorted(knobs.items())), seed)

    return get
