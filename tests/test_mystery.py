"""The mystery system: a problem drawn by seed, reports without names, a checked diagnosis."""

from __future__ import annotations

import random

import pytest

from zvmsim.errors import ZvmsimError
from zvmsim.lab.mystery import (
    DIAGNOSES,
    HIDDEN_SYSID,
    HIDDEN_TITLE,
    NEUTRAL_MODELS,
    PROBLEMS,
    mystery,
    mystery_widget,
    neutral_identity,
)
from zvmsim.scenario import load_scenario, scenario_names


def _seed_for(problem: str) -> int:
    return next(s for s in range(100) if random.Random(s).choice(sorted(PROBLEMS)) == problem)


def test_every_problem_is_a_valid_scenario_setting_and_every_seed_range_reaches_it() -> None:
    assert set(PROBLEMS) == set(DIAGNOSES)
    for problem in PROBLEMS.values():
        load_scenario(problem.scenario).config(dict(problem.knobs))
    assert {random.Random(s).choice(sorted(PROBLEMS)) for s in range(60)} == set(PROBLEMS)


def test_the_right_diagnosis_is_recognised_and_names_stay_hidden() -> None:
    m = mystery(_seed_for("pav and mdc"))
    text = m.report("FCX108")
    assert HIDDEN_TITLE in text and "PAV and MDC" not in text
    assert m.check("PAV and MDC").startswith("Right")
    assert m.check("storage shortage").startswith("Not this one")
    assert "pav and mdc" in m.reveal()


def test_the_headers_give_no_case_away() -> None:
    m = mystery(_seed_for("pav and mdc"))
    case = load_scenario("pav-mdc").config().system
    who = neutral_identity(m.seed)
    for code in ("FCX108", "FCX225", "FCX180", "FCX126"):
        text = m.report(code)
        for giveaway in (case.start.strftime("%Y/%m/%d"), case.cpu_model, case.serial, case.sysid):
            assert giveaway not in text, (code, giveaway)
        assert who.start.strftime("%Y/%m/%d %H:%M") in text and HIDDEN_SYSID in text
        assert f"CPU {who.cpu_model:<8} SN {who.serial}" in text
    assert m.report("FCX108") == mystery(m.seed).report("FCX108")  # deterministic


def test_neutral_identities_come_from_the_seed_and_are_no_case_studys() -> None:
    systems = [load_scenario(name).config().system for name in scenario_names()]
    assert not set(NEUTRAL_MODELS) & {s.cpu_model for s in systems}
    drawn = [neutral_identity(seed) for seed in range(200)]
    assert drawn == [neutral_identity(seed) for seed in range(200)]
    assert not {w.start.date() for w in drawn} & {s.start.date() for s in systems}
    assert not {w.serial for w in drawn} & {s.serial for s in systems}
    assert all(w.start.weekday() < 5 and 8 <= w.start.hour < 17 for w in drawn)
    assert len({w.start.date() for w in drawn}) > 150 and len({w.cpu_model for w in drawn}) > 5


def test_a_healthy_mystery_and_the_widget() -> None:
    m = mystery(_seed_for("healthy"))
    assert m.check("healthy").startswith("Right")
    box = mystery_widget(m)
    assert "FCX225" in box.children[1].value


def test_bad_diagnoses_and_seeds_are_refused() -> None:
    with pytest.raises(ZvmsimError, match="unknown diagnosis 'gremlins'"):
        mystery(_seed_for("healthy")).check("gremlins")
    with pytest.raises(ZvmsimError, match="seed must be"):
        mystery(-1)
