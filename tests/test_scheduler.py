"""The scheduler: transaction classes, the eligible list under STORBUF, QUICKDSP, LIMITHARD."""

from __future__ import annotations

import copy

import pytest

import zvmsim
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario, _load_raw

MEAN = ">>Mean>>"


def _raw(
    storbuf: list[int],
    quickdsp: bool = False,
    share: str = "RELATIVE 100",
    central_mb: int = 1024,
    **srm: list[int],
) -> dict:
    linux = {
        "virtual_mb": 512.0,
        "used_mb": 400.0,
        "wss_mb": 300.0,
        "cold_touch_rate": 0.0,
        "cpu_ms_per_s": 100.0,
        "tick_s": 0.1,
    }
    return {
        "scenario": {"name": "sched-test", "title": "Scheduler test", "duration": 30, "warmup": 5},
        "system": {
            "sysid": "SCHEDVM", "cpu_model": "2094-702", "serial": "00002",
            "zvm_level": "5.3.0", "start": "2008-01-01T00:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 0.5},
        "processors": {"count": 2, "type": "IFL"},
        "storage": {
            "central_mb": central_mb, "xstore_mb": 4096, "low_frames": 200, "high_frames": 600,
        },
        "channels": {"40": {"type": "FICON"}},
        "paging": {
            "volumes": 4, "model": "3390-9", "control_unit": "paging2008", "chpids": ["40"],
            "rdev_range": "7000-7003", "volser_prefix": "PAG",
        },
        "scheduler": {"storbuf": storbuf, **srm},
        "guests": {
            "LINUX": {"userid": "LNX*", "count": 5, "workload": "linux_server", "params": linux},
            "VIP": {
                "userid": "VIP", "workload": "linux_server", "params": linux,
                "quickdsp": quickdsp, "share": share,
            },
        },
    }  # fmt: skip


def _run(storbuf: list[int], **kw):
    return zvmsim.perfkit.reduce(
        Machine(Scenario("sched-test", _raw(storbuf, **kw)).config(), seed=1).run()
    )


def _ustat(run) -> dict:
    frame = zvmsim.report(run, "FCX114").frame
    return frame.set_index("userid").to_dict("index")


def test_roomy_storbuf_keeps_everyone_in_the_dispatch_list() -> None:
    run = _run([900, 800, 700])
    sched = zvmsim.report(run, "FCX145").frame
    mean = sched[sched["interval_end"] == MEAN].iloc[0]
    assert mean["users_elist"] == 0
    assert mean["users_q3"] == pytest.approx(6, abs=0.01)  # busy Linux guests are Q3
    assert all(u["pct_el"] == 0 for u in _ustat(run).values())


def test_tight_storbuf_forms_an_eligible_list_and_rotates_it() -> None:
    run = _run([125, 105, 95])  # six 300 MB working sets in 1 GB of central
    sched = zvmsim.report(run, "FCX145").frame
    mean = sched[sched["interval_end"] == MEAN].iloc[0]
    assert mean["users_e3"] > 1  # Q3 users waiting their turn
    assert mean["users_q3"] <= 3.5  # only what fits 95% of storage at once
    users = _ustat(run)
    # USTAT's E0-3: the in-queue samples that found them in the eligible list (not
    # %EL, which is eligible *and* waiting for a service machine: these wait for none)
    waited = [u for u, r in users.items() if u.startswith("LNX") and r["pct_e"] > 0]
    assert len(waited) >= 4  # rotation: nearly everyone waits sometimes ...
    assert all(r["pct_el"] == 0 for u, r in users.items() if u.startswith("LNX"))
    cpu = zvmsim.report(run, "FCX112").frame.set_index("userid")
    assert (cpu.loc[[f"LNX{i}" for i in range(1, 6)], "tcpu_s"] > 0).all()  # ... and runs


def test_quickdsp_users_are_never_held_back() -> None:
    run = _run([125, 105, 95], quickdsp=True)
    assert _ustat(run)["VIP"]["pct_el"] == 0
    uconf = zvmsim.report(run, "FCX226").frame.set_index("userid")
    assert bool(uconf.loc["VIP", "quickdsp"])


def test_limithard_caps_a_users_processor_time() -> None:
    # storage enough for everyone: the processors are not busy paging, so the limit
    # (not a wait for a processor) is what holds VIP back
    run = _run([900, 800, 700], share="ABSOLUTE 2% LIMITHARD", central_mb=4096)
    user = zvmsim.report(run, "FCX112").frame.set_index("userid")
    assert user.loc["VIP", "pct_cpu"] <= 2 * 2 * 1.05  # 2% of a 2-processor system
    assert user.loc["LNX1", "pct_cpu"] > 8  # the others are not limited
    assert _ustat(run)["VIP"]["pct_lim"] > 20  # held back, and the samples show it


def test_srm_settings_and_bad_shares() -> None:
    run = _run([300, 250, 200])
    sysset = zvmsim.report(run, "FCX154").frame.iloc[0]
    assert (sysset["storbuf1"], sysset["storbuf2"], sysset["storbuf3"]) == (300, 250, 200)
    with pytest.raises(zvmsim.ZvmsimError, match="RELATIVE n or ABSOLUTE"):
        Scenario("sched-test", _raw([300, 250, 200], share="LOTS")).config()
    with pytest.raises(zvmsim.ZvmsimError, match="must not grow"):
        Scenario("sched-test", _raw([100, 200, 300])).config()


def test_dspbuf_limits_how_many_users_the_dispatch_list_holds() -> None:
    run = _run([900, 800, 700], dspbuf=[3, 3, 3])  # storage would take all six
    sched = zvmsim.report(run, "FCX145").frame
    mean = sched[sched["interval_end"] == MEAN].iloc[0]
    assert mean["users_q1"] + mean["users_q2"] + mean["users_q3"] <= 3.0 + 1e-9
    assert mean["users_elist"] > 2  # the other three wait their turn
    waited = [u for u, r in _ustat(run).items() if u != ">System<" and r["pct_e"] > 0]
    assert len(waited) >= 5  # rotation again: nearly everyone waits sometimes


def _thrashers(ldubuf: list[int] | None) -> zvmsim.perfkit.RunData:
    raw = copy.deepcopy(_load_raw("thrasher"))
    if ldubuf is not None:
        raw["scheduler"] = {"ldubuf": ldubuf}
    config = Scenario("thrasher", raw).config({"thrashers": 3}, duration=40)
    return zvmsim.perfkit.reduce(Machine(config, seed=1).run())


def test_ldubuf_limits_loading_users_to_a_share_of_the_paging_exposures() -> None:
    free = _thrashers(None)  # 11 paging volumes: room for 11 loading users
    tight = _thrashers([10, 10, 10])  # 10% of 11 exposures: one loading user at a time
    free_sched, tight_sched = (
        zvmsim.report(r, "FCX145").frame.set_index("interval_end") for r in (free, tight)
    )
    assert free_sched.loc[MEAN, "users_loading"] == pytest.approx(3, abs=0.2)  # the thrashers
    assert free_sched.loc[MEAN, "users_elist"] == 0
    # all three start together, not yet known as loading; from their first
    # elapsed time slice on (the first interval), one runs at a time
    later = tight_sched.drop(index=MEAN).iloc[1:]
    assert (later["users_loading"] <= 1.0 + 1e-9).all()
    assert (later["users_elist"] > 1.5).all()  # the other two wait in the eligible list
    thrashers = ["LIN102", "LIN103", "LIN104"]
    assert all(_ustat(tight)[u]["pct_e"] > 10 for u in thrashers)  # taking turns
    assert all(_ustat(free)[u]["pct_e"] == 0 for u in thrashers)
    # eligible, loading, waiting for no service machine: USTAT's %LDG, not %EL
    assert all(_ustat(tight)[u]["pct_ldg"] > 0 for u in thrashers)
    assert all(_ustat(tight)[u]["pct_el"] == 0 for u in thrashers)
