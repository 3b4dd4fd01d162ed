"""A processor family's engine speed (cp.toml ``[cpu_speed]``): processor time per
event on that family is the z10 baseline's divided by it, every such constant alike."""

from __future__ import annotations

import dataclasses

import pytest

from zvmsim.calibration import _cpu_speed, load_calibration
from zvmsim.scenario import load_scenario


def test_the_z9_and_z10_keep_the_baseline() -> None:
    cal = load_calibration()
    for model in ("2094-706", "2097-E26", "2086-A04", "9121-742"):
        assert cal.speed(model) == 1.0
        assert cal.on_processor(model) is cal


def test_a_zec12_divides_every_path_length_and_per_packet_cost() -> None:
    cal = load_calibration()
    speed = cal.speed("2827-HA1")
    assert speed > 1.0
    fast = cal.on_processor("2827-HA1")
    for key, value in cal.path_us.items():
        if ("_us" in key and key != "dspslice_us") or key == "reorder_cpu_s":
            assert fast.path_us[key] == pytest.approx(value / speed), key
        else:  # the time slice, shares
            assert fast.path_us[key] == value, key
    assert fast.linux_stack.us_per_packet == pytest.approx(cal.linux_stack.us_per_packet / speed)
    assert fast.linux_stack.ns_per_byte == pytest.approx(cal.linux_stack.ns_per_byte / speed)
    assert fast.vswitch.cp_us_per_packet == pytest.approx(cal.vswitch.cp_us_per_packet / speed)
    assert fast.hipersockets.siga_us == pytest.approx(cal.hipersockets.siga_us / speed)
    assert fast.prsm_costs.hold_us == pytest.approx(cal.prsm_costs.hold_us / speed)
    assert fast.prsm_costs.yield_after_us == cal.prsm_costs.yield_after_us  # a spin budget
    assert fast.vswitch.mtu_bytes == cal.vswitch.mtu_bytes
    assert fast.channels == cal.channels  # the adapters' own processors


def test_memory63_runs_on_its_zec12_speed() -> None:
    config = load_scenario("memory63").config()
    cal = load_calibration()
    speed = cal.speed(config.system.cpu_model)
    assert config.calibration.path_us["xstore_pgin_us"] == pytest.approx(
        cal.path_us["xstore_pgin_us"] / speed
    )
    # the guest work between two reorders, in z10 engine seconds, takes less time here
    assert config.calibration.path_us["reorder_cpu_s"] == pytest.approx(
        cal.path_us["reorder_cpu_s"] / speed
    )
    assert config.calibration.path_us["dspslice_us"] == cal.path_us["dspslice_us"]


def test_release_constants_are_scaled_too() -> None:
    cal = load_calibration()
    old = dataclasses.replace(cal, cpu_speed={"2827": 2.0})
    level = old.at_level("5.2.0").on_processor("2827-H20")
    assert level.path_us["scan_us_per_frame"] == pytest.approx(
        cal.at_level("5.2.0").path_us["scan_us_per_frame"] / 2.0
    )


def test_a_speed_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        _cpu_speed({"2827": 0.0})
    assert _cpu_speed({"2827": 1.5, "source": "why"}) == {"2827": 1.5}
