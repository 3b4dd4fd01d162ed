"""z/VM 6.3 reports (FCX290-FCX297) and the 6.3 changes to older ones, from monitor records."""

from __future__ import annotations

import pytest

import zvmsim
from zvmsim.cli import main
from zvmsim.perfkit import reduce

SHORT = {"duration": 30, "interval": 10}


@pytest.fixture(scope="module")
def run63():
    return reduce(zvmsim.simulate("memory63", {"release": "6.3"}, **SHORT))


@pytest.fixture(scope="module")
def run62():
    return reduce(zvmsim.simulate("memory63", {"release": "6.2"}, **SHORT))


NEW = ("FCX290", "FCX291", "FCX292", "FCX293", "FCX294", "FCX295", "FCX296", "FCX297")


@pytest.mark.parametrize("code", NEW)
def test_new_reports_are_produced_for_63_data_only(run63, run62, code) -> None:
    rep = zvmsim.report(run63, code)
    assert not rep.frame.empty and "produced" not in rep.text
    old = zvmsim.report(run62, code)
    assert old.frame.empty
    assert old.text.splitlines()[-1].endswith("this data is from z/VM 6.2.0.")


@pytest.mark.parametrize("code", ("FCX254", "FCX259"))
def test_availlog_and_demndlog_are_not_produced_on_63(run63, run62, code) -> None:
    rep = zvmsim.report(run63, code)
    assert rep.frame.empty
    assert "is not produced on z/VM 6.3" in rep.text.splitlines()[-1]
    assert not zvmsim.report(run62, code).frame.empty


def test_agellog_has_the_contract_columns_and_the_default_size(run63) -> None:
    frame = zvmsim.report(run63, "FCX297").frame
    assert list(frame.columns[:5]) == [
        "interval_end", "target", "current", "early_writes", "revalidations"
    ]  # fmt: skip
    mean = frame.iloc[0]
    assert mean["interval_end"] == ">>Mean>>"
    frames = run63.whole.storage["frames"]
    assert mean["target"] == pytest.approx(0.02 * frames, rel=1e-3)  # 2% of DPA
    assert mean["size_pct"] == pytest.approx(2.0)
    assert mean["ew"] == "Y"


def test_user_activity_adds_up_to_the_steal_log(run63) -> None:
    users = zvmsim.report(run63, "FCX290").frame.iloc[1:]
    steal = zvmsim.report(run63, "FCX296").frame.iloc[0]
    assert users["inval"].sum() == pytest.approx(steal["inval"], rel=1e-6)
    assert users["reval"].sum() == pytest.approx(steal["reval"], rel=1e-6)
    assert users["ready"].sum() + users["not_ready"].sum() == pytest.approx(
        steal["ready"] + steal["not_ready"], rel=1e-6
    )


def test_user_residency_splits_resident_pages(run63) -> None:
    frame = zvmsim.report(run63, "FCX292").frame.iloc[1:]
    assert (frame["resident"] == frame["valid"] + frame["ibr"]).all()
    assert (frame["ibr"] == frame["ufo"] + frame["pnr"] + frame["agelist"]).all()
    assert (frame["inst"] <= frame["base"]).all()
    assert (frame["resident"] + frame["xstor"] + frame["aux"] <= frame["base"] + 1).all()


def test_available_lists_add_up_to_the_storage_summary(run63) -> None:
    b2g = zvmsim.report(run63, "FCX294").frame.iloc[0]
    a2g = zvmsim.report(run63, "FCX295").frame.iloc[0]
    total = b2g["avail_sing"] + b2g["avail_cont"] + a2g["avail_sing"] + a2g["avail_cont"]
    storage = zvmsim.report(run63, "FCX103").frame.iloc[0]
    assert total == pytest.approx(storage["frames_available"], rel=1e-6)
    assert storage["free_a2g"] + storage["free_b2g"] == pytest.approx(total, rel=1e-6)


def test_storage_and_pagelog_show_63_sections_only_for_63(run63, run62) -> None:
    assert "Global aging list (z/VM 6.3):" in zvmsim.report(run63, "FCX103").text
    assert "taken in pass 1" not in zvmsim.report(run63, "FCX103").text
    assert "Global aging list" not in zvmsim.report(run62, "FCX103").text
    assert "early_writes" in zvmsim.report(run63, "FCX143").frame
    assert "early_writes" not in zvmsim.report(run62, "FCX143").frame


def test_sysset_shows_the_loading_capacity(run63) -> None:
    row = zvmsim.report(run63, "FCX154").frame.iloc[0]
    assert row["loading_faults"] == 5
    assert row["loading_capacity"] == 8  # one exposure per paging volume
    assert row["loading_users3"] == pytest.approx(0.85 * 8)  # SET SRM LDUBUF 100 95 85


def test_63_reports_from_saved_bytes(run63) -> None:
    data = zvmsim.simulate("memory63", {}, **SHORT)
    back = zvmsim.MonitorData.from_bytes(data.to_bytes())
    for code in NEW:
        assert zvmsim.report(back, code).text == zvmsim.report(data, code).text


def test_cli_agellog_csv_header(capsys) -> None:
    assert main(["report", "memory63", "AGELLOG", "--duration", "10", "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith("interval_end,target,current,early_writes,revalidations")
