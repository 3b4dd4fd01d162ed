"""The command line follows the outside contract; bad input is one line, exit 2."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from conftest import cli_error

import zvmsim
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_scenarios_and_knobs(capsys) -> None:
    code, out, _ = _run(capsys, "scenarios")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and {"pav-mdc", "thrasher", "emergency-scan"} <= set(names)
    code, out, _ = _run(capsys, "knobs", "pav-mdc")
    assert code == 0
    for knob in ("mdc", "vm64199", "aliases", "users"):
        assert f"\n{knob} " in out


def test_report_csv_has_contract_columns(capsys) -> None:
    code, out, _ = _run(capsys, "report", "pav-mdc", "FCX108", "--set", "mdc=on", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    needed = "addr base_addr type volser io_rate avoid_rate pend_ms disc_ms conn_ms serv_ms "
    needed += "resp_ms cuwt_ms req_qued pct_busy pct_read"
    assert set(needed.split()) <= set(rows[0])
    assert rows[0]["addr"] == ">>All DASD<<"
    assert float(next(r for r in rows if r["addr"] == "E700")["req_qued"]) > 2


def test_several_reports_and_names(capsys) -> None:
    code, out, _ = _run(
        capsys, "report", "pav-mdc", "DEVICE", "fcx112", "USTAT", "SYSSUMLG", "--format", "csv"
    )
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("# ")]
    assert heads == ["# FCX108 DEVICE", "# FCX112 USER", "# FCX114 USTAT", "# FCX225 SYSSUMLG"]
    assert ">>Mean>>" in out and ">System<" in out


def test_json_and_user_filter(capsys) -> None:
    code, out, _ = _run(
        capsys, "report", "pav-mdc", "FCX112", "--format", "json", "--user", "sqperf2"
    )
    assert code == 0
    rows = json.loads(out)["FCX112"]["rows"]
    assert [r["userid"] for r in rows] == [">System<", "SQPERF2"]


def test_text_is_deterministic_and_seed_matters(capsys) -> None:
    a = _run(capsys, "report", "pav-mdc", "FCX108", "--seed", "5")[1]
    b = _run(capsys, "report", "pav-mdc", "FCX108", "--seed", "5")[1]
    c = _run(capsys, "report", "pav-mdc", "FCX108", "--seed", "6")[1]
    assert a == b and a != c


def test_duration_and_interval_shape_by_time_reports(capsys) -> None:
    code, out, _ = _run(
        capsys,
        "report",
        "pav-mdc",
        "FCX225",
        "--duration",
        "20",
        "--interval",
        "5",
        "--format",
        "csv",
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["interval_end"] for r in rows] == [
        ">>Mean>>",
        "10:00:05",
        "10:00:10",
        "10:00:15",
        "10:00:20",
    ]


def test_monwrite_then_report_from_file(capsys, tmp_path) -> None:
    path = tmp_path / "pav.mon"
    code, out, _ = _run(capsys, "monwrite", "pav-mdc", "-o", str(path), "--set", "mdc=on")
    assert code == 0 and path.stat().st_size > 0
    direct = _run(capsys, "report", "pav-mdc", "FCX108", "--set", "mdc=on")[1]
    saved = _run(capsys, "report", "--from", str(path), "FCX108")[1]
    assert saved == direct


BAD = [
    (["report", "pav-mdc", "FCX108", "--set", "mdc=maybe"], "knob 'mdc'"),
    (["report", "pav-mdc", "FCX108", "--set", "aliases=16"], "knob 'aliases'"),
    (["report", "pav-mdc", "FCX108", "--set", "users=0"], "knob 'users'"),
    (["report", "pav-mdc", "FCX108", "--set", "users=2.5"], "knob 'users'"),
    (["report", "pav-mdc", "FCX108", "--set", "colour=red"], "no knob 'colour'"),
    (
        ["report", "undersized-lpar", "FCX225", "--set", "workload_day=tuesday"],
        "knob 'workload_day' takes before/after",
    ),
    (["report", "pav-mdc", "FCX108", "--set", "mdc"], "KNOB=VALUE"),
    (["report", "pav-mdc", "FCX999"], "unknown report"),
    (["report", "no-such-case", "FCX108"], "unknown scenario"),
    (["report", "pav-mdc"], "at least one report"),
    (["report", "pav-mdc", "FCX108", "--duration", "-5"], "--duration"),
    (["report", "pav-mdc", "FCX108", "--duration", "nan"], "--duration"),
    (["report", "pav-mdc", "FCX108", "--interval", "100"], "shorter than one monitor interval"),
    (["report", "pav-mdc", "FCX108", "--seed", "-1"], "seed"),
    (["report", "pav-mdc", "FCX112", "--user", "NOBODY"], "no user"),
    (["report", "pav-mdc", "FCX108", "--interim", "4"], "--interim must be 1 to 3"),
    (["report", "pav-mdc", "FCX108", "--interim", "0"], "--interim must be 1 to 3"),
    (["report", "pav-mdc", "FCX108", "--format", "xml"], "invalid choice"),
    (["knobs", "nope"], "unknown scenario"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
]


@pytest.mark.parametrize("argv,fragment", BAD, ids=[" ".join(a) or "(none)" for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, fragment) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("zvmsim: error: ")
    assert fragment in err


WINDOW = [  # each refused before anything is simulated
    (["--interval", "0.00001"], "--interval must be 1 to 3600 seconds"),
    (["--interval", "3601"], "--interval must be 1 to 3600 seconds"),
    (["--interval", "0"], "--interval must be 1 to 3600 seconds"),
    (["--duration", "1e9"], "--duration must be more than 0 and at most 14400 seconds"),
    (["--duration", "0"], "--duration must be more than 0"),
    (["--duration", "inf"], "--duration must be more than 0"),
    (["--duration", "14400", "--interval", "1"], "14400 monitor intervals; at most 1440"),
]


@pytest.mark.parametrize("extra,fragment", WINDOW, ids=[" ".join(a) for a, _ in WINDOW])
def test_duration_and_interval_have_bounds(capsys, tmp_path, extra, fragment) -> None:
    assert fragment in cli_error(capsys, "report", "pav-mdc", "FCX225", *extra)
    out = str(tmp_path / "x.mon")
    assert fragment in cli_error(capsys, "monwrite", "pav-mdc", "-o", out, *extra)
    assert not (tmp_path / "x.mon").exists()


def test_the_bounds_are_in_the_help_and_the_python_api(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "at most 14400 s (4 hours)" in text and "1 to 3600 s, at most 1440 in a run" in text
    for kw, fragment in [
        ({"duration": 1e9}, "duration must be more than 0 and at most 14400"),
        ({"interval": 1e-5}, "sample interval must be 1 to 3600"),
        ({"duration": float("nan")}, "duration must be more than 0"),
    ]:
        with pytest.raises(ZvmsimError, match=fragment):
            zvmsim.simulate("pav-mdc", **kw)


def test_report_from_a_file_refuses_any_duration(capsys, tmp_path) -> None:
    path = tmp_path / "pav.mon"
    assert main(["monwrite", "pav-mdc", "-o", str(path), "--duration", "10"]) == 0
    capsys.readouterr()
    for extra in (["--duration", "0"], ["--interval", "0"], ["--duration", "10"]):
        err = cli_error(capsys, "report", "--from", str(path), "FCX225", *extra)
        assert "--duration and --interval do not apply" in err


def test_corrupt_and_missing_monitor_files(capsys, tmp_path) -> None:
    good = tmp_path / "good.mon"
    _run(capsys, "monwrite", "pav-mdc", "-o", str(good))
    raw = good.read_bytes()
    cases = {
        "truncated.mon": raw[: len(raw) // 2 + 7],
        "garbage.mon": b"\x00\x05" + raw[2:200],
        "empty.mon": b"",
        "flipped.mon": raw[:4] + b"\x63" + raw[5:],
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        code, _, err = _run(capsys, "report", "--from", str(path), "FCX108")
        assert code == 2 and err.startswith("zvmsim: error: ") and err.count("\n") == 1, name
    code, _, err = _run(capsys, "report", "--from", str(tmp_path / "absent.mon"), "FCX108")
    assert code == 2 and "cannot read" in err


def test_python_dash_m_matches_console_script() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "zvmsim", "report", "pav-mdc", "FCX999"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("zvmsim: error: unknown report")


def test_a_bug_is_one_line_not_a_traceback(capsys, monkeypatch) -> None:
    import zvmsim.cli as cli

    def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli, "_cmd_scenarios", broken)
    monkeypatch.delenv("ZVMSIM_DEBUG", raising=False)
    code, out, err = _run(capsys, "scenarios")
    assert code == 1 and out == ""
    assert err.startswith("zvmsim: internal error: RuntimeError: boom") and err.count("\n") == 1


def test_devconf_shows_the_paging_volumes_behind_their_chpids(capsys) -> None:
    argv = ["report", "paging-difficulties", "FCX131", "--duration", "30", "--format", "csv"]
    code, out, _ = _run(capsys, *argv)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["addr"], r["type"], r["devices"]) for r in rows] == [("1240-1257", "3390-3", "24")]
    row = rows[0]
    assert (row["chpid_1"], row["chpid_2"], row["chpid_3"]) == ("67", "69", ".")
    assert row["chpid_type"] == "ESCON" and row["control_unit"] == "2105-E8"
    assert row["volser"] == "XXPG01-XXPG24" and row["usage"] == "PAGE"
    code, out, _ = _run(capsys, *argv, "--set", "phase=full-volumes", "--set", "chpid_type=ficon")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["addr"], r["type"], r["chpid_type"]) for r in rows] == [
        ("1240-1267", "3390-3", "FICON"),
        ("D000-D003", "3390-9", "FICON"),
    ]
    code, out, _ = _run(capsys, "report", "pav-mdc", "DEVCONF", "--duration", "10")
    alias = next(line for line in out.splitlines() if line.startswith("E7FC-E7FE"))
    assert "Alias" in alias and alias.split()[-2:] == ["E700", "4"]


def test_devlog_by_time_per_device(capsys) -> None:
    argv = ["report", "paging-difficulties", "DEVLOG", "--duration", "60", "--format", "csv"]
    code, out, _ = _run(capsys, *argv)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    first = [(r["interval_end"], r["addr"]) for r in rows[:3]]
    assert first == [(">>Mean>>", "1240"), ("11:46:09", "1240"), ("11:46:39", "1240")]
    assert len(rows) == 24 * 3
    assert {"io_rate", "pend_ms", "conn_ms", "serv_ms", "resp_ms", "req_qued"} <= set(rows[0])


def test_interim_reports_one_interval(capsys) -> None:
    argv = ["report", "paging-difficulties", "FCX108", "FCX161", "--duration", "60"]
    code, out, _ = _run(capsys, *argv, "--interim", "2")
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("FCX")]
    assert "INTERIM DEVICE" in heads[0] and "INTERIM LCHANNEL" in heads[1]
    assert "From 2007/05/01 11:46:09" in out and "For     30 Secs" in out
    whole = _run(capsys, *argv)[1]
    assert "INTERIM" not in whole and "For     60 Secs" in whole


def test_devconf_and_devlog_from_a_monitor_file(capsys, tmp_path) -> None:
    path = tmp_path / "paging.mon"
    argv = ["paging-difficulties", "--duration", "30", "--set", "phase=full-volumes"]
    assert _run(capsys, "monwrite", argv[0], "-o", str(path), *argv[1:])[0] == 0
    direct = _run(capsys, "report", argv[0], "FCX131", "FCX168", *argv[1:])[1]
    saved = _run(capsys, "report", "--from", str(path), "FCX131", "FCX168")[1]
    assert saved == direct and "2105-E8" in saved and "D000-D003" in saved
