"""The knob laws: every knob moves its key figures the way an analyst expects.

The laws live in tests/data/knob_laws.toml (docs/knob-laws.md is written
from it by tools/knob_laws.py). Each law is checked over its knob's grid,
one knob at a time from the scenario's defaults, for three seeds: for every
pair of grid values, the later figure may differ the wrong way from the
earlier by no more than the law's noise margin. Figures are read from the
reports, as an analyst reads them. Runs are shared through conftest's cache
(the defaults' run serves every knob of a scenario; test_utilization_law
checks the seed-1 runs too).
"""

from __future__ import annotations

import math
from fnmatch import fnmatchcase

import pandas as pd
import pytest
from conftest import knob_laws, law_book

import zvmsim
from zvmsim.perfkit import RunData
from zvmsim.scenario import load_scenario

tool = knob_laws()
BOOK = law_book()
SEEDS = (1, 2, 3)

# In-range values that do not run yet ("paging space is full"): skipped in
# every law of their knob until they run.
NOT_YET = "issue 18 item 5: in-range value does not run yet"
NOT_YET_RUNNING: dict[tuple[str, str], tuple[object, ...]] = {}  # every in-range value runs

# Laws the simulation breaks today, with the figures measured and the
# mechanism suspected (strict xfails: each turns red once fixed).
BROKEN: dict[str, str] = {}  # every law holds


def _runs(law, seed: int, run_data) -> list[tuple[object, RunData]]:
    """(value, run) for each grid value of *law* that runs, for one seed."""
    scenario = load_scenario(law.scenario)
    skipped = NOT_YET_RUNNING.get((law.scenario, law.knob), ())
    duration = BOOK.durations.get(law.scenario)
    runs = []
    for value in law.grid:
        if value in skipped:
            continue
        knobs = {k: scenario.knobs[k].parse(v) for k, v in law.knobs(value).items()}
        if not law.base and knobs[law.knob] == scenario.knobs[law.knob].default:
            knobs = {}  # the defaults' run, shared by every knob of the scenario
        runs.append((value, run_data(law.scenario, seed, duration, **knobs)))
    return runs


def _rows(frame, law):
    """The rows of a report frame that *law* reads."""
    if "interval_end" in frame.columns:
        frame = frame[frame["interval_end"] == ">>Mean>>"]
    for column, pattern in law.where:
        frame = frame[frame[column].astype(str).map(lambda v, p=pattern: fnmatchcase(v, p))]
    if law.entity is None:
        return frame
    key = law.key or frame.columns[0]
    return frame[frame[key].astype(str).map(lambda v: fnmatchcase(v, law.entity))]


def figure(run: RunData, law) -> float:
    """The figure *law* is about, read from its report (a blank figure reads
    as the law's *empty* value when it has one: FCX259's shares with no scan)."""
    value = _figure(run, law)
    return law.empty if math.isnan(value) and law.empty is not None else value


def _figure(run: RunData, law) -> float:
    if law.entity == "@paging":  # the CP-owned paging volumes (FCX109) in another report
        pages = set(zvmsim.report(run, "FCX109").frame["addr"])
        frame = zvmsim.report(run, law.report).frame
        rows = frame[frame["addr"].isin(pages)]
    else:
        rows = _rows(zvmsim.report(run, law.report).frame, law)
    if rows.empty:  # an empty report may have no columns at all
        values = pd.Series([], dtype=float)
    else:
        values = rows[law.column].astype(float)
    if law.agg == "one":
        assert len(values) == 1, f"{law.figure()}: {len(values)} rows, not one"
        return float(values.iloc[0])
    if law.agg == "sum":
        return float(values.sum())
    if values.empty:
        return math.nan
    return float(values.mean() if law.agg == "mean" else values.max())


def breaches(law, figures: list[tuple[object, float]]) -> list[str]:
    """Pairs (earlier, later) where the figure moved the wrong way beyond the margin."""
    out = []
    for i, (a, fa) in enumerate(figures):
        for b, fb in figures[i + 1 :]:
            margin = law.abs + law.rel * abs(fa)
            wrong = {
                "not_up": fb > fa + margin,
                "not_down": fb < fa - margin,
                "same": abs(fb - fa) > margin,
            }[law.direction]
            if wrong or math.isnan(fa) or math.isnan(fb):
                out.append(f"{law.knob}={a}: {fa:.4g} -> {law.knob}={b}: {fb:.4g}")
    return out


def _law_params():
    for law in BOOK.laws:
        marks = []
        if law.name in BROKEN:
            marks.append(pytest.mark.xfail(reason=BROKEN[law.name], strict=True))
        yield pytest.param(law, id=law.name, marks=marks)


@pytest.mark.parametrize("law", list(_law_params()))
def test_knob_law(law, run_data) -> None:
    measured, wrong = [], []
    for seed in SEEDS:
        figures = [(v, figure(run, law)) for v, run in _runs(law, seed, run_data)]
        measured.append(f"seed {seed}: " + ", ".join(f"{v}: {f:.4g}" for v, f in figures))
        wrong += [f"seed {seed}: {b}" for b in breaches(law, figures)]
    assert not wrong, (
        f"{law.says}\n{law.figure()} {tool.DIRECTIONS[law.direction]} "
        f"(margin {law.margin()}), but:\n" + "\n".join(wrong + measured)
    )


@pytest.mark.parametrize(
    ("scenario", "knob", "value"),
    [
        pytest.param(s, k, v, id=f"{s}-{k}={v}", marks=pytest.mark.skip(reason=NOT_YET))
        for (s, k), values in NOT_YET_RUNNING.items()
        for v in values
    ],
)
def test_in_range_value_runs(scenario: str, knob: str, value: object, run_data) -> None:
    run_data(scenario, 1, BOOK.durations.get(scenario), **{knob: value})


def test_every_knob_has_laws_or_says_why_not() -> None:
    have = {(k.scenario, k.knob): k for k in BOOK.knobs}
    for name in zvmsim.scenario_names():
        for kname, knob in load_scenario(name).knobs.items():
            entry = have.pop((name, kname), None)
            assert entry is not None, f"{name} {kname}: no laws and no reason why not"
            assert entry.laws or entry.no_law, f"{name} {kname}: neither laws nor no_law"
            grid = [knob.parse(v) for v in entry.grid]
            if knob.kind in ("bool", "choice"):
                wanted = {True, False} if knob.kind == "bool" else set(knob.choices)
                assert set(grid) == wanted, f"{name} {kname}: the grid misses values"
            else:
                assert min(grid) == knob.minimum and max(grid) == knob.maximum, (
                    f"{name} {kname}: the grid must reach the knob's min and max"
                )
            for law in entry.laws:
                assert set(law.grid) <= set(entry.grid), f"{law.name}: grid outside the knob's"
                for other, value in law.base:  # the knobs a law holds must exist and take it
                    assert other != kname, f"{law.name}: holds its own knob"
                    load_scenario(name).knobs[other].parse(value)
    assert not have, f"laws for knobs that do not exist: {sorted(have)}"


def test_law_names_are_unique() -> None:
    names = [law.name for law in BOOK.laws]
    assert len(names) == len(set(names))


def test_knob_laws_doc_is_up_to_date() -> None:
    assert tool.DOC.read_text() == tool.page(BOOK), (
        "docs/knob-laws.md is out of date: run python tools/knob_laws.py"
    )
