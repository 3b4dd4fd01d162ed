"""The mystery system: a problem drawn by seed, reports without names, a checked diagnosis."""

from __future__ import annotations

import random

import pytest

from zvmsim.errors import ZvmsimError
from zvmsim.lab.mystery import DIAGNOSES, HIDDEN_TITLE, PROBLEMS, mystery, mystery_widget
from zvmsim.scenario import load_scenario


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
