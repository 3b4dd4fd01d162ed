"""The start-here dashboard: any scenario, one knob, any report."""

from __future__ import annotations

from zvmsim.lab import starter_dashboard
from zvmsim.scenario import scenario_names


def test_the_knob_moves_the_report() -> None:
    board = starter_dashboard()
    assert board.picker.value == "pav-mdc" and board.knob_picker.value == "mdc"
    assert board.text.startswith("FCX108") and not board.error
    before = board.text
    board.control.value = True  # MDC on, no fix: the aliases fall idle
    assert board.text != before and "--set mdc=on" in board.status.value


def test_every_picker_changes_what_is_shown() -> None:
    board = starter_dashboard()
    board.knob_picker.value = "aliases"
    assert board.control.description == "aliases"
    before = board.text
    board.control.value = 0
    assert board.text != before
    board.report_picker.value = "FCX225 SYSSUMLG"
    assert board.text.startswith("FCX225") and "zvmsim report pav-mdc FCX225" in board.status.value
    board.picker.value = "thrasher"
    assert board.knob_picker.options == ("thrashers", "paging_volumes", "hfs_interval")
    assert board.knob_picker.value == "thrashers" and '"Why doesn' in board.text


def test_a_scenario_without_knobs_and_every_scenario_name() -> None:
    board = starter_dashboard()
    board.picker.value = "fine"
    assert board.control is None and board.knob_picker.disabled
    assert board.text and not board.error
    assert list(board.picker.options) == scenario_names()


def test_a_report_the_data_cannot_give_is_one_line() -> None:
    board = starter_dashboard(scenario="monwrite", knob="io_domain", report="FCX108")
    assert board.text.startswith("FCX108") and not board.error
    board.control.value = False  # no I/O domain collected: no device report
    assert board.text == "" and board.error and "\n" not in board.error
    assert board.status.value.startswith("<span") and "Traceback" not in board.status.value
