"""The calibration registry (data/calibration/fits.toml) and tools/calibrate.py."""

from __future__ import annotations

import importlib.util
import os
import tomllib
from pathlib import Path

import pytest

from zvmsim.calibrate import Constant, load_registry, read_value, row_id, write_value
from zvmsim.fidelity import load_targets
from zvmsim.paths import data_dir

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
