"""The command line as a new user meets it: each slip gets one plain line (issue 20).

Most checks here refuse before anything is simulated, so they cost nothing.
"""

from __future__ import annotations

import ast
import inspect
import random
import textwrap

import pytest
from conftest import cli_error

from zvmsim.cli import main
from zvmsim.monitor.monwrite import BLOCK
from zvmsim.perfkit import REPORTS


def test_salvaging_a_file_with_no_monitor_data_says_so_in_one_line(capsys, tmp_path) -> None:
    noise = tmp_path / "random.bin"
    noise.write_bytes(random.Random(20).randbytes(25 * BLOCK))
    err = cli_error(capsys, "report", "--from", str(noise), "FCX108", "--salvage")
    assert err == (
        f"zvmsim: error: {noise}: nothing in the file is monitor data "
        "(no intact record set to salvage)"
    )
    # without --salvage the first bad block is named, as before
    assert "not a MONWRITE file" in cli_error(capsys, "report", "--from", str(noise), "FCX108")


def test_salvaging_a_good_label_followed_by_noise_is_the_same_plain_line(capsys, tmp_path) -> None:
    good = tmp_path / "good.mon"
    assert main(["monwrite", "fine", "-o", str(good), "--duration", "20", "--interval", "10"]) == 0
    capsys.readouterr()
    bad = tmp_path / "label-only.mon"
    bad.write_bytes(good.read_bytes()[:BLOCK] + random.Random(3).randbytes(8 * BLOCK))
    err = cli_error(capsys, "report", "--from", str(bad), "FCX108", "--salvage")
    assert "nothing in the file is monitor data" in err


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda p: None, "No such file or directory"),
        (lambda p: p.write_bytes(b"month-end \xf6\xe9 run\n"), "it is not plain text"),
        (lambda p: p.mkdir(), "it is a directory"),
    ],
    ids=["missing", "not-utf8", "directory"],
)
def test_archive_notes_file_errors_read_like_other_file_errors(
    capsys, tmp_path, make, fragment
) -> None:
    notes = tmp_path / "notes.txt"
    make(notes)
    mon = tmp_path / "x.mon"
    mon.write_bytes(b"")
    err = cli_error(
        capsys, "archive", "pack", str(tmp_path / "p.zip"), str(mon), "--notes-file", str(notes)
    )
    assert err.startswith(f"zvmsim: error: cannot read {notes}: ") and fragment in err
    for python_words in ("Errno", "codec", "utf-8", "position"):
        assert python_words not in err
    assert not (tmp_path / "p.zip").exists()


def test_from_a_file_with_a_scenario_name_hints_that_from_takes_none(capsys, tmp_path) -> None:
    path = str(tmp_path / "saved.mon")  # refused before the file is opened
    err = cli_error(capsys, "report", "--from", path, "pav-mdc", "FCX108")
    assert "'pav-mdc' is a scenario" in err and "takes no scenario" in err
    err = cli_error(capsys, "report", "--from", path, "FCX108", "thrasher")
    assert "'thrasher' is a scenario" in err
    assert "unknown report" in cli_error(capsys, "report", "--from", path, "FCX999")


def test_user_on_reports_that_are_not_per_user_is_refused(capsys) -> None:
    err = cli_error(capsys, "report", "pav-mdc", "FCX108", "--user", "SQPERF1")
    assert err.startswith("zvmsim: error: --user does not apply to FCX108 DEVICE")
    assert "FCX112" in err and "FCX164" in err  # the reports it does limit
    err = cli_error(capsys, "report", "--from", "x.mon", "FCX225", "FCX109", "--user", "A")
    assert "FCX225 SYSSUMLG, FCX109 DEVICE CPOWNED" in err


def test_user_beside_a_per_user_report_warns_about_the_others(capsys) -> None:
    argv = ["report", "pav-mdc", "FCX108", "FCX112", "--user", "sqperf2", "--duration", "10"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == (
        "zvmsim: warning: --user does not apply to FCX108 DEVICE: "
        "not a per-user report, it covers every user\n"
    )
    assert "E700" in out and "SQPERF2" in out and "SQPERF1" not in out
    assert (
        main(["report", "pav-mdc", "FCX112", "FCX164", "--user", "sqperf2", "--duration", "10"])
        == 0
    )
    assert capsys.readouterr().err == ""


def _uses_user(spec) -> bool:
    tree = ast.parse(textwrap.dedent(inspect.getsource(spec.build))).body[0]
    return any(
        isinstance(node, ast.Name) and node.id == "user"
        for stmt in tree.body
        for node in ast.walk(stmt)
    )


def test_per_user_marks_exactly_the_reports_whose_rows_user_limits() -> None:
    wrong = [fcx for fcx, spec in REPORTS.items() if spec.per_user != _uses_user(spec)]
    assert not wrong, f"per_user does not say whether --user limits the rows: {wrong}"


@pytest.mark.parametrize("command", ["report", "monwrite"])
def test_a_knob_given_twice_is_refused(capsys, tmp_path, command) -> None:
    argv = [command, "pav-mdc"]
    argv += ["FCX108"] if command == "report" else ["-o", str(tmp_path / "x.mon")]
    err = cli_error(capsys, *argv, "--set", "mdc=on", "--set", "mdc=off")
    assert err == (
        "zvmsim: error: knob 'mdc' is set twice (mdc=on and mdc=off): give each knob once"
    )
    assert not (tmp_path / "x.mon").exists()
