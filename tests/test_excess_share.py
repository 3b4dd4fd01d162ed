"""Excess share distribution and LIMITHARD (seed 001): counterfactuals and invariants.

The seed's figures are fidelity rows (tests/data/targets_excess_share.csv);
here the mechanisms are checked where the seed measured nothing: the defect
with everyone busy, another guest idle, five guests, a 2-way; and the two
SET SRM LIMITHARD methods in the seed's three problem configurations.
"""

from __future__ import annotations

import copy
from functools import cache

import pytest

import zvmsim
from zvmsim.machine import Machine
from zvmsim.perfkit import reduce
from zvmsim.scenario import Scenario, _load_raw

SHORT = 30  # seconds: the shares settle within a few seconds


@cache
def _cpu(seed: int = 1, **knobs: object) -> dict[str, float]:
    run = reduce(zvmsim.simulate("excess-share", knobs, seed=seed, duration=SHORT))
    frame = zvmsim.report(run, "FCX112").frame
    return {r.userid: r.pct_cpu for r in frame.itertuples() if r.userid.startswith("LINUX")}


def test_the_defect_changes_nothing_while_everyone_is_busy() -> None:
    fair, defect = _cpu(linux04_demand=100), _cpu(linux04_demand=100, excess_share_defect=True)
    for userid, share in (("LINUX01", 100), ("LINUX02", 100), ("LINUX03", 200), ("LINUX04", 200)):
        assert fair[userid] == pytest.approx(share / 6, abs=1)
        assert defect[userid] == pytest.approx(share / 6, abs=1)


def test_the_excess_goes_to_the_largest_share_with_the_defect() -> None:
    fair, defect = _cpu(), _cpu(excess_share_defect=True)
    assert fair["LINUX03"] == pytest.approx(2 * fair["LINUX01"], rel=0.05)  # by share
    assert defect["LINUX01"] == pytest.approx(100 / 6, abs=1)  # its share of 600, no more
    assert defect["LINUX03"] > fair["LINUX03"] + 10
    assert defect["LINUX04"] == pytest.approx(fair["LINUX04"], abs=0.3)  # gets what it wants


def test_a_higher_share_for_linux03_takes_more_of_the_excess() -> None:
    defect = _cpu(excess_share_defect=True, linux03_share=400)
    assert defect["LINUX01"] == pytest.approx(100 / 8, abs=1)  # 100 of 800
    assert defect["LINUX03"] == pytest.approx(100 - 2 * 12.5 - 3, abs=2)


def _raw_with(**changes: dict) -> dict:
    raw = copy.deepcopy(_load_raw("excess-share"))
    del raw["knobs"]["others_demand"]  # it would set LINUX01-03 alike
    for group, params in changes.items():
        raw["guests"][group]["params"].update(params)
    return raw


def _cpu_raw(raw: dict, **knobs: object) -> dict[str, float]:
    config = Scenario("excess-share", raw).config(knobs, duration=SHORT)
    run = Machine(config, seed=1).run()
    frame = zvmsim.report(run, "FCX112").frame
    return {r.userid: r.pct_cpu for r in frame.itertuples() if r.userid.startswith("LINUX")}


def test_linux02_idle_instead_of_linux04() -> None:
    raw = _raw_with(L2={"demand_pct": 3.0})
    fair = _cpu_raw(raw, linux04_demand=100)
    defect = _cpu_raw(raw, linux04_demand=100, excess_share_defect=True)
    rest = 100 - fair["LINUX02"]
    assert fair["LINUX01"] == pytest.approx(rest / 5, abs=1)  # 19.4: 100 of 500
    assert fair["LINUX03"] == pytest.approx(2 * rest / 5, abs=1.5)
    assert defect["LINUX01"] == pytest.approx(100 / 6, abs=1)  # stays at its 17%
    # the two largest shares tie: they split the excess between them
    assert defect["LINUX03"] == pytest.approx(defect["LINUX04"], abs=1.5)
    assert defect["LINUX03"] > fair["LINUX03"]


def test_five_guests() -> None:
    fair, defect = _cpu(extra_guests=1), _cpu(extra_guests=1, excess_share_defect=True)
    assert fair["LINUX05"] == pytest.approx(fair["LINUX01"], abs=1)
    assert fair["LINUX03"] == pytest.approx(97 * 2 / 5, abs=1.5)  # 38.8
    assert defect["LINUX05"] == pytest.approx(100 / 7, abs=1)  # 100 of 700
    assert defect["LINUX03"] == pytest.approx(100 - 3 * 100 / 7 - 3, abs=2)  # 54


def test_the_defect_nearly_hides_on_a_2way() -> None:
    """LINUX03 cannot use more than its one virtual processor: the excess spills over."""
    fair, defect = _cpu(processors=2), _cpu(processors=2, excess_share_defect=True)
    assert defect["LINUX03"] <= 100.5
    assert defect["LINUX01"] == pytest.approx(fair["LINUX01"], abs=4)
    assert defect["LINUX01"] > 40  # far above its 33% entitlement


def test_the_processor_time_adds_up() -> None:
    """Utilization law: what the users were charged is what the processors were busy."""
    for knobs in ({}, {"excess_share_defect": True}, {"processors": 2}):
        run = reduce(zvmsim.simulate("excess-share", knobs, seed=2, duration=20))
        users = zvmsim.report(run, "FCX112").frame
        total = users[users["userid"].str.startswith("LINUX")]["pct_cpu"].sum()
        busy = zvmsim.report(run, "FCX100").frame
        busy = busy[busy["cpu"] != ">>Total<<"]["pct_cpu"].sum()
        assert total == pytest.approx(busy, abs=0.5)
        assert busy <= 100 * knobs.get("processors", 1) + 1e-6


# ---- LIMITHARD: DEADLINE against CONSUMPTION -----------------------------------


def _limited(method: str, share: str, **knobs: object) -> float:
    return _cpu(linux04_demand=100, limithard=method, linux04_share=share, **knobs)["LINUX04"]


def test_both_methods_hold_the_limit_on_a_busy_system() -> None:
    assert _limited("consumption", "abs-20-limithard") == pytest.approx(20, abs=0.5)
    assert _limited("deadline", "abs-20-limithard") == pytest.approx(20, abs=3)


def test_deadline_underlimits_when_the_system_is_not_very_busy() -> None:
    quiet = {"others_demand": 10, "others_dormant": True}
    assert _limited("consumption", "abs-20-limithard", **quiet) == pytest.approx(20, abs=0.5)
    assert _limited("deadline", "abs-20-limithard", **quiet) > 40
    # the others waiting in the dispatch list (on a timer) keep DEADLINE right
    assert _limited("deadline", "abs-20-limithard", others_demand=10) == pytest.approx(20, abs=2)


def test_deadline_underlimits_a_low_relative_minimum_with_an_absolute_maximum() -> None:
    light = {"others_demand": 10}
    assert _limited("consumption", "rel-50-abs-40-limithard", **light) == pytest.approx(40, abs=1)
    assert _limited("deadline", "rel-50-abs-40-limithard", **light) > 48


def test_deadline_overlimits_when_absolute_shares_add_up_to_more_than_100() -> None:
    light = {"others_demand": 30}
    assert _limited("consumption", "abs-over-100", **light) == pytest.approx(60, abs=1)
    assert _limited("deadline", "abs-over-100", **light) < 52  # spare time goes unused by it


def test_a_limited_user_waits_in_the_limit_list() -> None:
    knobs = {"linux04_demand": 100, "limithard": "consumption", "linux04_share": "abs-20-limithard"}
    run = reduce(zvmsim.simulate("excess-share", knobs, seed=1, duration=SHORT))
    ustat = zvmsim.report(run, "FCX114").frame.set_index("userid")
    assert ustat.loc["LINUX04", "pct_lim"] > 5  # about a sixth of the samples
    assert ustat.loc["LINUX01", "pct_lim"] == 0
    uconf = zvmsim.report(run, "FCX226").frame.set_index("userid")
    assert uconf.loc["LINUX04", "limit_max"] == 20 and uconf.loc["LINUX04", "limit"] == "Hard"
    assert "CONSUMPTION" in zvmsim.report(run, "FCX154").text


def test_same_seed_same_reports() -> None:
    knobs = {"excess_share_defect": True, "linux04_share": "abs-20-limithard"}
    texts = [
        zvmsim.report(zvmsim.simulate("excess-share", knobs, seed=3, duration=20), "FCX162").text
        for _ in range(2)
    ]
    assert texts[0] == texts[1]


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"scheduler": {"limithard": "sometimes"}}, "limithard must be deadline or consumption"),
        ({"share": "RELATIVE 50 ABSOLUTE 40% LIMITSOFT"}, "RELATIVE n ABSOLUTE m% LIMITHARD"),
        ({"share": "RELATIVE 50 ABSOLUTE 400% LIMITHARD"}, "RELATIVE n ABSOLUTE m% LIMITHARD"),
    ],
)
def test_bad_settings_say_so_in_one_line(change: dict, fragment: str) -> None:
    raw = copy.deepcopy(_load_raw("excess-share"))
    del raw["knobs"]  # the knobs would set both
    if "scheduler" in change:
        raw["scheduler"].update(change["scheduler"])
    else:
        raw["guests"]["L4"]["share"] = change["share"]
    with pytest.raises(zvmsim.ZvmsimError, match=fragment) as info:
        Scenario("excess-share", raw).config()
    assert "\n" not in str(info.value)


def test_deadline_lets_a_limited_guest_take_the_processor_when_the_others_go_quiet() -> None:
    """The others rest in the third and fourth intervals (USERLOG shows it by time)."""
    knobs = {
        "linux04_demand": 100, "linux04_share": "abs-20-limithard",
        "others_pattern": "quiet-midway", "others_dormant": True,
    }  # fmt: skip
    for method, quiet in (("deadline", 95), ("consumption", 20)):
        run = zvmsim.simulate("excess-share", {**knobs, "limithard": method}, seed=1)
        log = zvmsim.report(run, "FCX162", user="LINUX04").frame
        cpu = log[log["interval_end"] != ">>Mean>>"]["pct_cpu"].tolist()
        assert cpu[2:4] == pytest.approx([quiet, quiet], abs=5)  # 10:00:30 and 10:00:40
        assert cpu[1] == pytest.approx(20, abs=3) and cpu[4] == pytest.approx(20, abs=3)
