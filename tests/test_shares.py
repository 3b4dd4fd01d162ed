"""SET SHARE in the dispatcher: relative shares split a contended processor; absolute shares."""

from __future__ import annotations

import pytest

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario


def _guest(userid: str, share: str, demand: float = 100.0) -> dict:
    return {
        "userid": userid, "workload": "compute", "share": share,
        "params": {"demand_pct": demand},
    }  # fmt: skip


def _raw(guests: dict, engines: int = 1) -> dict:
    return {
        "scenario": {"name": "share-test", "title": "Share test", "duration": 40, "warmup": 4},
        "system": {
            "sysid": "SHAREVM", "cpu_model": "2094-701", "serial": "00003",
            "zvm_level": "6.1.0", "start": "2010-01-01T00:00:00",
        },
        "monitor": {"sample_interval": 20, "hfs_interval": 1},
        "processors": {"count": engines, "type": "IFL"},
        "guests": guests,
    }  # fmt: skip


def _cpu(guests: dict, engines: int = 1) -> dict[str, float]:
    run = Machine(Scenario("share-test", _raw(guests, engines)).config(), seed=1).run()
    frame = zvmsim.report(run, "FCX112").frame
    return {r.userid: r.pct_cpu for r in frame.itertuples() if r.userid.startswith("LINUX")}


def _four(linux04_demand: float = 100.0) -> dict:
    return {
        "L1": _guest("LINUX01", "RELATIVE 100"),
        "L2": _guest("LINUX02", "RELATIVE 100"),
        "L3": _guest("LINUX03", "RELATIVE 200"),
        "L4": _guest("LINUX04", "RELATIVE 200", linux04_demand),
    }


def test_relative_shares_split_a_contended_processor() -> None:
    cpu = _cpu(_four())
    assert cpu["LINUX01"] == pytest.approx(100 / 6, rel=0.05)
    assert cpu["LINUX02"] == pytest.approx(100 / 6, rel=0.05)
    assert cpu["LINUX03"] == pytest.approx(100 / 3, rel=0.05)
    assert cpu["LINUX04"] == pytest.approx(100 / 3, rel=0.05)


def test_a_share_left_unused_goes_to_the_others_by_their_shares() -> None:
    cpu = _cpu(_four(linux04_demand=3.0))
    assert cpu["LINUX04"] == pytest.approx(3, abs=0.5)
    rest = 100 - cpu["LINUX04"]
    assert cpu["LINUX01"] == pytest.approx(rest / 4, rel=0.05)  # 24.25 each, not 17
    assert cpu["LINUX02"] == pytest.approx(rest / 4, rel=0.05)
    assert cpu["LINUX03"] == pytest.approx(rest / 2, rel=0.05)  # 48.5, not 63


def test_without_contention_shares_do_not_matter() -> None:
    cpu = _cpu(_four(linux04_demand=10.0) | {"L3": _guest("LINUX03", "RELATIVE 200", 10.0)}, 2)
    assert cpu["LINUX03"] == pytest.approx(10, rel=0.1)  # wants 10, gets 10
    assert cpu["LINUX01"] == pytest.approx(cpu["LINUX02"], rel=0.05)
    assert cpu["LINUX01"] + cpu["LINUX02"] == pytest.approx(180, rel=0.03)  # all that is left


def test_an_absolute_share_is_a_share_of_the_system() -> None:
    guests = _four() | {"L4": _guest("LINUX04", "ABSOLUTE 50%")}
    cpu = _cpu(guests)
    assert cpu["LINUX04"] == pytest.approx(50, rel=0.05)
    assert cpu["LINUX03"] == pytest.approx(25, rel=0.05)  # the rest, by relative shares
    assert cpu["LINUX01"] == pytest.approx(12.5, rel=0.05)


def test_compute_rejects_an_impossible_demand() -> None:
    with pytest.raises(ZvmsimError, match="demand_pct"):
        _cpu({"L1": _guest("LINUX01", "RELATIVE 100", 150.0)})
