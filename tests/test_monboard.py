"""The collection dashboard, headless: every control moves the file and the reports as it should."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import zvmsim
from zvmsim.lab import fields_frame, monwrite_dashboard, records_frame, sets_frame
from zvmsim.monitor.records import MRUSEACT
from zvmsim.monitor.stream import MonitorData


@pytest.fixture(scope="module")
def board():
    return monwrite_dashboard()


def _rows(text: str) -> list[str]:
    """The by-time rows of SYSSUMLG in the dashboard's text."""
    part = text.split("SYSSUMLG", 1)[1].split("USTATLOG", 1)[0]
    return [line for line in part.splitlines() if line[:2] == "10" and line[2] == ":"]


def _listed(text: str) -> set[str]:
    """The domains the dashboard's file summary counts records of."""
    return {line.split()[0] for line in text.split("\n\n")[1].splitlines()[1:]}


def test_controls_and_defaults(board) -> None:
    assert set(board.controls) == {
        "sample_interval", "hfs_interval", "user_domain", "io_domain", "storage_domain",
        "processor_domain", "scheduler_events",
    }  # fmt: skip
    assert not board.error
    assert board.text.startswith("MONWRITE file: ")
    assert "MONSET" in board.text and "USTATLOG BATCH1" in board.text
    assert len(_rows(board.text)) == 10


@pytest.mark.parametrize(("interval", "rows"), [(10, 60), (120, 5), (600, 1)])
def test_sample_interval_sets_the_rows(board, interval, rows) -> None:
    board.controls["sample_interval"].value = interval
    try:
        assert not board.error and len(_rows(board.text)) == rows
        assert f"{interval:>10} sec" in board.text  # MONSET shows it
    finally:
        board.controls["sample_interval"].value = 60


def test_hf_rate_changes_the_sampled_states_only(board) -> None:
    def measured(text: str) -> list[tuple[str, ...]]:  # time, %busy ... T/V, I/O rate, DASD resp
        return [tuple(line.split()[i] for i in (0, 1, 2, 7, 8)) for line in _rows(text)]

    def batch(text: str) -> str:
        return text.split("USTATLOG BATCH1", 1)[1]

    before = board.text
    board.controls["hfs_interval"].value = 30
    try:
        after = board.text
        assert "30.00 sec" in after and batch(after) != batch(before)
        assert measured(after) == measured(before)  # counters do not depend on the HF rate
    finally:
        board.controls["hfs_interval"].value = 5


@pytest.mark.parametrize(
    ("knob", "domain", "refused"),
    [
        ("user_domain", "USER", ["FCX225", "FCX164"]),
        ("io_domain", "I/O", ["FCX225"]),
        ("processor_domain", "PROCESSOR", ["FCX225"]),
        ("storage_domain", "STORAGE", ["FCX225"]),
    ],
)
def test_a_domain_switched_off_leaves_the_file_and_refuses_its_reports(
    board, knob, domain, refused
) -> None:
    full = _listed(board.text)
    board.controls[knob].value = False
    try:
        assert not board.error
        assert domain in full and domain not in _listed(board.text)
        for code in refused:
            assert f"{code} needs the {domain} domain" in board.text
        assert "MONSET" in board.text
    finally:
        board.controls[knob].value = True


def test_scheduler_events_make_event_sets(board) -> None:
    board.controls["scheduler_events"].value = True
    try:
        assert "SCHEDULER" in _listed(board.text)
        quiet_records = int(board.text.split()[2])
    finally:
        board.controls["scheduler_events"].value = False
    assert int(board.text.split()[2]) < quiet_records


def test_raw_data_tables(tmp_path) -> None:
    path = tmp_path / "m.mon"
    zvmsim.monwrite("monwrite", path, duration=120)
    sets = sets_frame(path)
    assert list(sets["kind"]) == ["configuration", "sample", "sample", "sample"]
    records = records_frame(path)
    assert len(records) == sets["records"].sum()
    assert set(records[records["kind"] == "configuration"]["domain"]) == {"MONITOR"}
    data = MonitorData.from_bytes(path.read_bytes())
    batch = fields_frame(data, MRUSEACT, userid="BATCH1")
    assert list(batch["hf_samples"]) == [0, 12, 24]  # cumulative: 60 s at one look per 5 s


def test_the_notebook_leaves_no_scratch_folder_behind() -> None:
    """Notebook 01 writes its MONWRITE files to a scratch folder that goes when its
    kernel stops: a class's hundred page loads leave nothing in the temp folder."""
    import nbformat
    from nbclient import NotebookClient

    notebook = Path(__file__).resolve().parent.parent / "notebooks" / "01-collecting-monwrite.ipynb"
    first = next(c for c in json.loads(notebook.read_text())["cells"] if c["cell_type"] == "code")
    probe = "open('probe.mon', 'w').close()\nprint(os.getcwd(), end='')"
    cells = [nbformat.v4.new_code_cell("".join(first["source"])), nbformat.v4.new_code_cell(probe)]
    run = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(run, timeout=120, kernel_name="python3").execute()  # stops the kernel
    folder = Path(run.cells[1].outputs[0]["text"])
    assert folder.name.startswith("monwrite-")
    assert not folder.exists(), f"{folder} is still there after the kernel stopped"
