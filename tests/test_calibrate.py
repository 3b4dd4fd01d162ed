"""The calibration registry (data/calibration/fits.toml) and tools/calibrate.py."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import tomllib
from pathlib import Path

import pytest

from zvmsim import usedby
from zvmsim.calibrate import Constant, load_registry, read_value, row_id, write_value
from zvmsim.calibration import load_calibration
from zvmsim.fidelity import load_targets
from zvmsim.machine import Machine
from zvmsim.paths import data_dir
from zvmsim.scenario import load_scenario
from zvmsim.usedby import used_by

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = load_registry()
ROLES = {row_id(r): r["role"] for r in load_targets()}


def test_every_calibration_row_is_claimed() -> None:
    calibration = {rid for rid, role in ROLES.items() if role == "calibration"}
    assert calibration - REGISTRY.claimed() == set()


def test_every_registry_row_is_a_calibration_row() -> None:
    named = {r for c in REGISTRY.fits for r in c.rows} | REGISTRY.claimed()
    assert {r: ROLES.get(r) for r in named if ROLES.get(r) != "calibration"} == {}


def test_every_fitted_constant_is_in_its_file_within_bounds() -> None:
    for c in REGISTRY.fits:
        text = (data_dir() / c.file).read_text()
        value = read_value(text, c.table, c.key)
        assert c.bounds[0] <= value <= c.bounds[1], c.name
        assert c.bounds[0] <= c.prior_value() <= c.bounds[1], c.name
        for table, key in c.places[1:]:  # a family: tied constants hold the same value
            assert read_value(text, table, key) == value, (c.name, table, key)


def test_writing_a_value_changes_only_that_number() -> None:
    for c in REGISTRY.fits:
        text = (data_dir() / c.file).read_text()
        new = write_value(text, c.table, c.key, 7.0, c.integer)
        assert read_value(new, c.table, c.key) == 7.0
        old, changed = tomllib.loads(text), tomllib.loads(new)
        node_old, node_new = old, changed
        for part in [*c.table.replace('"', "").split("."), *c.key.split(".")[:-1]]:
            node_old, node_new = node_old[part], node_new[part]
        node_new[c.key.split(".")[-1]] = node_old[c.key.split(".")[-1]]
        assert changed == old, c.name  # nothing else moved
        assert len(new.splitlines()) == len(text.splitlines())


def test_check_mode_on_one_cheap_constant(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("calibrate_tool", ROOT / "tools/calibrate.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    before = os.environ.get("ZVMSIM_DATA")
    code = tool.main(["--check", "3990-6 conn_overhead_ms"])
    out = capsys.readouterr().out
    assert "grinch|pinned_data=off|FCX108|1742|resp_ms" in out
    assert "residual" in out and "9 simulations" in out
    verdict = "yes" if code == 0 else "NO"
    assert f"fitted within 10%: {verdict}" in out
    assert os.environ.get("ZVMSIM_DATA") == before  # the trial copy is gone


def test_prior_is_the_middle_of_the_range_when_none_is_given() -> None:
    c = Constant("x", "f", "t", "k", (1.0, 16.0), (), integer=True)
    assert c.prior_value() == 4.0


# --- issue 18: no constant is fitted on one case alone unless used by two scenarios

ONE_CASE = REGISTRY.one_case()
NOTES = {row_id(r): r["note"] for r in load_targets()}
# real violations, reported to the lead: the constant is fitted on one case
# and no other scenario's records move with it ({name: why}, a strict xfail).
# page_alloc_free was one until usedby measured each end of a paging-volumes
# knob: thrasher's and undersized-lpar's fewest volumes are full enough for it.
ALONE: dict[str, str] = {}


@pytest.fixture(scope="session")
def used() -> dict[str, frozenset[str]]:
    return used_by(enough=2)  # the rule asks for two scenarios; cached for the session


def _alone(c: Constant) -> list:
    if c.name not in ALONE:
        return []
    return [pytest.mark.xfail(strict=True, reason=ALONE[c.name])]


@pytest.mark.parametrize(
    "c",
    [pytest.param(c, id=c.name, marks=_alone(c)) for c in ONE_CASE if c.kind != "workload"],
)
def test_constant_of_one_case_is_used_by_two_scenarios(
    c: Constant, used: dict[str, frozenset[str]]
) -> None:
    assert len(used[c.name]) >= 2, f"{c.name} fitted on {c.rows[0].split('|')[0]}: {used[c.name]}"


@pytest.mark.parametrize("c", [pytest.param(c, id=c.name) for c in ONE_CASE])
def test_rows_of_a_one_case_fit_say_it_is_fitted(c: Constant) -> None:
    leaf = c.key.split(".")[-1].removesuffix("_52")
    for rid in c.rows:
        assert ROLES[rid] == "calibration", rid
        note = NOTES[rid]
        assert leaf in note or "fitted" in note, f"{rid}: the note names no {leaf}: {note!r}"


def test_workload_parameters_are_scenario_constants(used: dict[str, frozenset[str]]) -> None:
    """The exemption (kind = "workload") is for constants of a scenario file only."""
    assert {c.kind for c in REGISTRY.fits} <= {"constant", "workload"}
    for c in REGISTRY.fits:
        scenario = c.file.removeprefix("scenarios/").removesuffix(".toml")
        assert (c.kind == "workload") == c.file.startswith("scenarios/"), c.name
        if c.kind == "workload":
            assert used[c.name] == {scenario}, c.name
            assert {r.split("|")[0].replace("_", "-") for r in c.rows} == {scenario}, c.name


def test_every_fit_is_read_somewhere_and_used(used: dict[str, frozenset[str]]) -> None:
    assert {c.name for c in REGISTRY.fits} == set(used)
    assert {n: s for n, s in used.items() if not s} == {}


def test_noting_reads_changes_no_record() -> None:
    variant = ("prsm-overhead", ())
    log: set = set()
    noted = usedby._records(variant, log)
    plain = usedby._config(variant, load_calibration())
    assert noted == Machine(plain, seed=1).run().records
    assert ("prsm_costs", "scan_us_per_logical") in log
    assert not any(kind == "control_units" for kind, _ in log)  # parsed up front: no read


def test_a_tie_is_read_as_its_constant() -> None:
    paging = next(c for c in REGISTRY.fits if c.name == "paging2008 conn_overhead_ms")
    assert usedby.place_read(paging) == {
        ("control_units", "paging2008"),
        ("control_units", "paging2008oem"),
        ("control_units", "paging2105"),
    }


def test_list_prints_who_uses_each_fit(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    used: dict[str, frozenset[str]],
) -> None:
    spec = importlib.util.spec_from_file_location("calibrate_tool", ROOT / "tools/calibrate.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    monkeypatch.setattr(tool, "used_by", lambda: used)  # the session's measure: no run here
    assert tool.main(["--list"]) == 0
    out = capsys.readouterr().out
    assert out.count("    used by: ") == len(REGISTRY.fits)
    assert "used by: vmcf-master\n" in out
    assert "fit vmcf serve_us (workload parameter)" in out


def test_enough_stops_each_search_at_that_many_scenarios() -> None:
    """The suite asks used_by for two scenarios a constant (the rule's "at least
    two"): the search stops there, and finds what the whole measure finds."""
    chosen = [("emergency-scan", ()), ("reorder", ()), ("streaming", ())]
    names = {"scan_us_per_logical", "vdisk_us_per_block", "reorder_cpu_s"}
    registry = dataclasses.replace(REGISTRY, fits=[c for c in REGISTRY.fits if c.name in names])
    whole = usedby.uses(registry, chosen)
    one = usedby.uses(registry, chosen, enough=1)
    assert {n for n, found in whole.items() if len(found) > 1}  # a search that stops early
    for name, found in whole.items():
        assert one[name] <= found and len(one[name]) == min(1, len(found)), name


def test_each_end_of_a_paging_volumes_knob_is_a_variant() -> None:
    """page_alloc_free bites on nearly full volumes: the fewest volumes a student may choose."""
    found = set(usedby.variants())
    for name in ("thrasher", "undersized-lpar"):
        knob = load_scenario(name).knobs["paging_volumes"]
        for end in (knob.minimum, knob.maximum):
            assert (name, (("paging_volumes", str(end)),)) in found, (name, end)
