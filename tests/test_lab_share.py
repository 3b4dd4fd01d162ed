"""Headless tests of the excess-share dashboard and the %CPU split helpers."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import zvmsim  # noqa: E402
from zvmsim.lab import cpu_split, cpu_split_plot, excess_share_dashboard  # noqa: E402
from zvmsim.perfkit import reduce  # noqa: E402


def _cpu(text: str, userid: str) -> float:
    for line in text.splitlines():
        if line.startswith(userid):
            return float(line.split()[1])
    raise AssertionError(f"no row {userid}")


def test_one_control_per_knob_and_the_defect_moves_linux03() -> None:
    board = excess_share_dashboard()
    assert list(board.controls) == list(zvmsim.load_scenario("excess-share").knobs)
    assert all(c.tooltip for c in board.controls.values())
    fair = _cpu(board.text, "LINUX03")
    board.controls["excess_share_defect"].value = True
    assert _cpu(board.text, "LINUX03") > fair + 10
    board.controls["linux04_demand"].value = 100  # everyone busy: the defect hides
    assert abs(_cpu(board.text, "LINUX03") - 100 / 3) < 1.5


def test_limit_controls_move_linux04() -> None:
    board = excess_share_dashboard()
    board.controls["linux04_demand"].value = 100
    board.controls["linux04_share"].value = "abs-20-limithard"
    board.controls["others_demand"].value = 10
    board.controls["others_dormant"].value = True
    deadline = _cpu(board.text, "LINUX04")
    board.controls["limithard"].value = "consumption"
    assert _cpu(board.text, "LINUX04") < deadline - 15
    assert "LINUX05" not in board.text
    board.controls["extra_guests"].value = 2
    assert "LINUX06" in board.text
    board.controls["processors"].value = 2
    board.controls["linux03_share"].value = 400
    assert board.error == ""


def test_cpu_split_lines_runs_up() -> None:
    runs = {
        name: reduce(zvmsim.simulate("excess-share", knobs, duration=10))
        for name, knobs in (("fair", {}), ("defect", {"excess_share_defect": True}))
    }
    table = cpu_split(runs)
    assert list(table.columns) == ["fair", "defect"]
    assert list(table.index) == ["LINUX01", "LINUX02", "LINUX03", "LINUX04"]
    assert table.loc["LINUX03", "defect"] > table.loc["LINUX03", "fair"]
    ax = cpu_split_plot(table)
    assert len(ax.patches) == 8
