"""CP time comes from the operations CP does: here SIGPs and timer ticks of extra virtual CPUs."""

from __future__ import annotations

import pytest

import zvmsim
from zvmsim.errors import ZvmsimError
from zvmsim.machine import Machine
from zvmsim.scenario import Scenario


def _raw(vcpus: int) -> dict:
    return {
        "scenario": {"name": "vcpu-test", "title": "vCPU test", "duration": 30, "warmup": 2},
        "system": {
            "sysid": "VCPUVM", "cpu_model": "2094-702", "serial": "00004",
            "zvm_level": "5.4.0", "start": "2009-01-01T00:00:00",
        },
        "monitor": {"sample_interval": 10, "hfs_interval": 1},
        "processors": {"count": 2, "type": "IFL"},
        "storage": {"central_mb": 2048, "low_frames": 100, "high_frames": 300},
        "guests": {
            "LINUX": {
                "userid": "LINUX*", "count": 4, "workload": "linux_server",
                "virtual_cpus": vcpus,
                "params": {
                    "virtual_mb": 256.0, "used_mb": 128.0, "wss_mb": 64.0,
                    "cold_touch_rate": 0.0, "cpu_ms_per_s": 50.0, "tick_s": 0.01, "hz": 100,
                },
            }
        },
    }  # fmt: skip


def _run(vcpus: int) -> zvmsim.perfkit.RunData:
    return zvmsim.perfkit.reduce(Machine(Scenario("vcpu-test", _raw(vcpus)).config(), seed=1).run())


def test_more_virtual_cpus_cost_cp_time_for_sigps_and_timer_ticks() -> None:
    one, four = _run(1), _run(4)
    user1 = zvmsim.report(one, "FCX112").frame.set_index("userid").loc["LINUX1"]
    user4 = zvmsim.report(four, "FCX112").frame.set_index("userid").loc["LINUX1"]
    assert user4["vcpu_s"] == pytest.approx(user1["vcpu_s"], rel=0.1)  # the same work ...
    assert user4["tcpu_s"] - user4["vcpu_s"] > 2 * (user1["tcpu_s"] - user1["vcpu_s"])  # more CP
    assert user4["tv_ratio"] > user1["tv_ratio"]
    uconf = zvmsim.report(four, "FCX226").frame.set_index("userid")
    assert uconf.loc["LINUX1", "virtual_cpus"] == 4


def test_virtual_cpus_must_be_sensible() -> None:
    with pytest.raises(ZvmsimError, match="virtual_cpus must be 1 to 64"):
        Scenario("vcpu-test", _raw(0)).config()
