"""Our copies of the fidelity targets still match the project's targets.csv.

tests/data/targets_*.csv copy ../shared/fidelity/targets.csv and add rows of
their own (other seeds' figures) and a role. Each shared row must have a copy
with the same case, scenario, knobs, report, entity, column, seed value,
tolerance and source, or a documented adaptation in tests/data/adaptations.csv
(a seed's derived figure read from the report that carries it, a range of
entities split into rows, a figure scaled as the scenario is, or a figure run
with more knobs, ``our_knobs``, than the shared row names: the Undersized
LPAR's "after" rows run the after day's workload, workload_day=after); so a
copy that drifts, or a shared row with no copy, fails here.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from zvmsim.fidelity import load_targets

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "fidelity" / "targets.csv"
ADAPTATIONS = ROOT / "tests" / "data" / "adaptations.csv"
SAME = (
    "case",
    "scenario",
    "knobs",
    "report",
    "entity",
    "column",
    "seed_value",
    "tolerance",
    "source",
)

_SHARED_KEY = ("case", "knobs", "report", "entity", "column", "seed_value")
_ADAPTED_KEY = (
    "case",
    "knobs",
    "shared_report",
    "shared_entity",
    "shared_column",
    "shared_seed_value",
)


def _read(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _shared_rows() -> list[dict[str, str]]:
    if not SHARED.exists():
        pytest.skip(f"no project targets at {SHARED} (shared/ is not beside this checkout)")
    return _read(SHARED)


def _adapted(shared: dict[str, str]) -> list[dict[str, str]]:
    key = tuple(shared[k] for k in _SHARED_KEY)
    return [a for a in _read(ADAPTATIONS) if tuple(a[k] for k in _ADAPTED_KEY) == key]


def test_every_shared_row_has_its_copy() -> None:
    ours = load_targets()
    exact = {tuple(r[k] for k in SAME) for r in ours}
    for shared in _shared_rows():
        if tuple(shared[k] for k in SAME) in exact:
            continue
        adaptations = _adapted(shared)
        assert adaptations, f"no copy of targets.csv row {[shared[k] for k in SAME]}"
        for a in adaptations:
            copy = {
                **shared,
                "knobs": a["our_knobs"] or shared["knobs"],  # empty: the shared row's
                "report": a["report"],
                "entity": a["entity"],
                "column": a["column"],
                "seed_value": a["seed_value"],
            }
            assert tuple(copy[k] for k in SAME) in exact, (
                f"adaptation of {shared['case']} {shared['column']} has no row {a['entity']} "
                f"{a['column']} {a['seed_value']} ({copy['knobs'] or 'no knobs'}) in tests/data"
            )


def test_every_adaptation_names_a_shared_row_and_says_why() -> None:
    shared = {tuple(r[k] for k in _SHARED_KEY) for r in _shared_rows()}
    for a in _read(ADAPTATIONS):
        key = tuple(a[k] for k in _ADAPTED_KEY)
        assert key in shared, f"adaptations.csv names no targets.csv row: {key}"
        assert a["why"].strip(), f"adaptation without a reason: {key}"


def test_rows_of_our_own_cite_a_seed() -> None:
    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.exists():
        pytest.skip(f"no seeds at {seeds}")
    for row in load_targets():
        assert (seeds / row["source"]).exists(), f"{row['case']} {row['column']}: {row['source']}"
