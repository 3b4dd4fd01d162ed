"""Reports laid out as Performance Toolkit lays them out (issue 19, part 1).

Headings, columns and sections of FCX108, FCX109, FCX112, FCX113, FCX126
and FCX264; dots where zvmsim does not simulate a column; the ``>System<``
row of the per-user reports with ``--user``.
"""

from __future__ import annotations

import copy
import math

import pytest

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.records import MRSTOASP, MRSYTCUG, MRSYTCUP, MRSYTLPU, decode
from zvmsim.perfkit.catalog import REPORTS
from zvmsim.perfkit.render import Column, spans
from zvmsim.scenario import Scenario, load_scenario

SYSTEM = ">System<"


def _lines(report: zvmsim.Report) -> list[str]:
    return report.text.splitlines()


def _is_dots(value: object) -> bool:
    return isinstance(value, float) and math.isnan(value)


# ---- FCX109 DEVICE CPOWNED ---------------------------------------------------


def test_cpowned_has_the_allocation_summary_and_perfkits_columns(run_data) -> None:
    run = run_data("thrasher")
    rep = zvmsim.report(run, "FCX109")
    frame, text = rep.frame, rep.text
    assert "Page / SPOOL Allocation Summary" in text
    for word in ("Devtyp", "Extent", "S-Rds", "S-Wrt", "Total", "+RSCH", "Inter", "feres"):
        assert word in text
    for label in ("PAGE slots available", "SPOOL slots available", "T-Disk cylinders avail."):
        assert label in text
    # the summary's utilization is the slots in use over all PAGE slots
    pct = 100.0 * frame["used_slots"].sum() / frame["slots"].sum()
    line = next(x for x in _lines(rep) if x.startswith("PAGE slot utilization"))
    assert line.split()[3] == f"{pct:.0f}%"
    # the thrasher story: the page space is about 15% full
    assert 10 <= pct <= 20
    total = frame["page_reads"] + frame["page_writes"]
    assert frame["total_rate"].to_list() == pytest.approx(total.to_list())
    assert frame["spool_reads"].map(_is_dots).all() and frame["spool_writes"].map(_is_dots).all()
    assert set(frame["devtype"]) == {"3390"}
    assert set(frame["area_extent"]) == {"0-10016"}  # whole 3390-9s
    links = zvmsim.report(run, "FCX108").frame.set_index("addr")["mdisk_links"]
    for row in frame.to_dict("records"):
        assert row["user_interferes"] == links[row["addr"]]
    first = next(x for x in _lines(rep) if x.startswith(frame.iloc[0]["addr"]))
    assert first.split()[8:10] == ["...", "..."]  # S-Rds and S-Wrt of a PAGE area


def test_cpowned_keeps_the_contract_columns(run_data) -> None:
    frame = zvmsim.report(run_data("thrasher"), "FCX109").frame
    contract = (
        "addr volser area_type pct_used page_reads page_writes ssch_rate queue_len "
        "serv_ms resp_ms block_size pct_alloc"
    )
    assert set(contract.split()) <= set(frame.columns)


def test_page_area_record_carries_its_extent() -> None:
    rec = MRSTOASP(tod=1, rdev="9F00", volser="VSPG01", slots=1803060, extent_end=10016)
    assert decode(rec.to_bytes())[0] == rec


# ---- FCX126 LPAR ---------------------------------------------------------------


def test_lpar_header_columns_and_footer(run_data) -> None:
    rep = zvmsim.report(run_data("undersized-lpar"), "FCX126")
    lines = _lines(rep)
    assert "LPAR Data, Collected in Partition VMLNX1" in lines
    assert any(x.startswith("Processor type and model") and "2094-606" in x for x in lines)
    assert any(x.startswith("Nr. of physical processors") for x in lines)
    assert any(x.startswith("Dispatch interval (msec)") and "dynamic" in x for x in lines)
    head = next(x for x in lines if x.startswith("Partition"))
    assert head.split()[:7] == ["Partition", "Nr.", "Upid", "#Proc", "Weight", "Wait-C", "Cap"]
    footer = next(x for x in lines if x.startswith("General LPAR mgmt overhead"))
    assert footer.split()[-1] == "..."  # not simulated
    assert any(x.startswith("Overall physical load") for x in lines)
    # one table only: FCX126 has no pool-by-type %Busy table (CECLOG has)
    assert sum("%Busy" in x for x in lines) == 1
    frame = rep.frame.set_index("partition")
    assert frame.loc["VMLNX1", "upid"].iloc[0] == "13"
    assert set(frame.loc["ZOS1", "upid"]) == {".."}  # the seed does not give it
    assert set(rep.frame["wait_c"]) == {"NO"}


def test_ziips_are_numbered_by_their_cpu_addresses(run_data) -> None:
    frame = zvmsim.report(run_data("hipersockets"), "FCX126").frame
    cpus = {
        (part, kind): sorted(int(c) for c in rows["cpu"])
        for (part, kind), rows in frame.groupby(["partition", "pu_type"])
    }
    assert cpus["XXXA", "ZIIP"] == [6, 7, 22, 23]
    assert cpus["XXXA", "CP"] == [0, 1, 2, 3]
    assert cpus["YYYA", "CP"] == [0, 1, 2, 3, 6]
    assert cpus["YYYA", "ZIIP"] == [4, 5, 22, 23]
    yyya = frame[frame["partition"] == "YYYA"]
    assert list(yyya["cpu"]) == sorted(yyya["cpu"])  # rows in CPU-address order


def test_lpar_records_round_trip() -> None:
    rec = MRSYTLPU(
        tod=1, lpu="XXXA 16", partition="XXXA", pu_type="ZIIP", number=8, cpu=22, upid="03"
    )
    assert decode(rec.to_bytes())[0] == rec
    pus = MRSYTCUP(tod=1, pu_type="ZIIP", count=4, dispatch_interval_ms=0)
    assert decode(pus.to_bytes())[0] == pus
    cug = MRSYTCUG(tod=1, partitions=3, number=2, cpus=4, configured=4, name="XXXA", shared=4)
    assert decode(cug.to_bytes())[0] == cug
    assert len(cug.to_bytes()) == 56  # IBM's record, nothing of ours after it


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"cpus": [0, 1]}, "CPU addresses for"),
        ({"ziip_cpus": [6, 7, 22, 22]}, "given twice"),
        ({"ziip_cpus": [6, 7, 22, 300]}, "CPU addresses 0 to 255"),
        ({"upid": "XYZ"}, "upid must be"),
    ],
)
def test_bad_partition_cpu_addresses_and_upids_are_refused(changes: dict, message: str) -> None:
    raw = copy.deepcopy(load_scenario("hipersockets")._raw)
    raw["partitions"]["XXXA"] = {**raw["partitions"]["XXXA"], **changes}
    with pytest.raises(ZvmsimError, match=message):
        Scenario("hipersockets", raw).config()


# ---- FCX264 SXSUTIL ------------------------------------------------------------


def test_sxsutil_has_perfkits_columns_and_dots_for_what_is_not_simulated(run_data) -> None:
    rep = zvmsim.report(run_data("fine"), "FCX264")
    for word in ("Locked", "Free", "Other", "Aliases", "CPLock", "No-", "Pages Backed"):
        assert word in rep.text
    for word in ("<2GB", ">2GB", "Steal", "Queue", "Poten."):
        assert word in rep.text
    for row in rep.frame.to_dict("records"):
        parts = row["id_mapped"] + row["locked_free"] + row["locked_other"]
        assert parts == pytest.approx(row["used_pages"])
        for key in ("alias_total", "backed_below_2gb", "backed_above_2gb", "steal_queue"):
            assert _is_dots(row[key])
    mean = next(x for x in _lines(rep) if x.startswith(">>Mean>>"))
    assert mean.split()[-7:] == ["..."] * 7


# ---- FCX108, FCX112, FCX113 ------------------------------------------------------


def test_device_labels_cp_owned_volumes_and_shows_seek_dots(run_data) -> None:
    rep = zvmsim.report(run_data("thrasher"), "FCX108")
    row = next(x for x in _lines(rep) if x.startswith("9F00"))
    assert "VSPG01 CP" in row and row.split()[-1] == "..."
    assert "SEEK" in rep.text and "Cyls" in rep.text
    frame = rep.frame.set_index("addr")
    assert frame.at["9F00", "volser"] == "VSPG01"  # the contract's volser is the volser
    assert frame.at["9F00", "label"] == "VSPG01 CP"


def test_user_prints_seconds_over_tcpu_and_vcpu(run_data) -> None:
    text = zvmsim.report(run_data("thrasher"), "FCX112").text
    assert "<-Seconds->" in text and "Seco nds" not in text
    line = next(x for x in text.splitlines() if "<-Seconds->" in x)
    head = next(x for x in text.splitlines() if x.startswith("Userid"))
    start = line.index("<-Seconds->")
    assert head.index("TCPU") >= start and head.index("VCPU") + 4 <= start + len("<-Seconds->") + 1


def test_upage_has_data_spaces_and_the_below_above_2gb_columns(run_data) -> None:
    rep = zvmsim.report(run_data("thrasher"), "FCX113")
    head = next(x for x in _lines(rep) if x.startswith("Userid")).split()
    for word in ("Owned", ">2GB>", "R<2GB", "R>2GB", "L<2GB", "L>2GB"):
        assert word in head
    frame = rep.frame
    assert (frame["data_spaces"] == 0).all()  # the simulated guests create no data spaces
    for key in ("migr_2gb", "res_below_2gb", "res_above_2gb", "lock_below_2gb", "lock_above_2gb"):
        assert frame[key].map(_is_dots).all()
    contract = (
        "userid page_reads page_writes steals x_to_ms ms_to_x x_to_ds wss resident xstor dasd"
    )
    assert set(contract.split()) <= set(frame.columns)


@pytest.mark.parametrize("fcx", ["FCX112", "FCX113", "FCX114"])
def test_system_row_stays_the_whole_systems_with_user(run_data, fcx: str) -> None:
    run = run_data("thrasher")
    whole = zvmsim.report(run, fcx).frame
    one = zvmsim.report(run, fcx, user="LIN102").frame
    assert list(one["userid"]) == [SYSTEM, "LIN102"]
    sys_whole = whole[whole["userid"] == SYSTEM].iloc[0]
    sys_one = one[one["userid"] == SYSTEM].iloc[0]
    assert sys_one.drop("userid").to_dict() == pytest.approx(
        sys_whole.drop("userid").to_dict(), nan_ok=True
    )
    lin = one[one["userid"] == "LIN102"].iloc[0]
    assert lin.drop("userid").to_dict() != pytest.approx(
        sys_one.drop("userid").to_dict(), nan_ok=True
    )


# ---- rendering and the report reference ------------------------------------------


def test_group_spans_cover_their_columns() -> None:
    cols = [Column("a", ("", "A"), 4), Column("b", ("", "B"), 5), Column("c", ("", "C"), 6)]
    line = spans(cols, ("b", "c", "Both"))
    assert line.index("<") == 5 and line.rindex(">") == 4 + 1 + 5 + 1 + 6 - 1
    assert "Both" in line


def test_every_column_says_where_it_comes_from() -> None:
    for spec in REPORTS.values():
        for col in spec.columns:
            assert col.origin.startswith(("IBM", "ours")), (spec.fcx, col.key)


def test_syssumlg_prints_capture_to_four_decimals_and_spool_dots(run_data) -> None:
    rep = zvmsim.report(run_data("fine"), "FCX225")
    mean = next(x for x in _lines(rep) if x.startswith(">>Mean>>")).split()
    capture = rep.frame.iloc[0]["capture_ratio"]
    assert mean[3] == f"{capture:.4f}".lstrip("0") and mean[-1] == "..."


def test_cli_user_keeps_the_whole_systems_row(capsys) -> None:
    from zvmsim.cli import main

    args = ["report", "pav-mdc", "FCX112", "--duration", "20", "--format", "csv"]
    assert main(args) == 0
    whole = capsys.readouterr().out.splitlines()
    assert main([*args, "--user", "SQPERF1"]) == 0
    one = capsys.readouterr().out.splitlines()
    system = next(x for x in whole if x.startswith(SYSTEM))
    assert one[:2] == whole[:2] and one[1] == system  # header, then the same >System< row
    assert [x.split(",")[0] for x in one[2:]] == ["SQPERF1"]
